import Foundation
import Testing
import UndoCore
import UndoPluginHost

/// The whole history from C (Fixtures/history_panel.c): its transcript of a scenario must be
/// what the Swift UndoStack API answers for the same scenario, line for line; its error cases
/// and observe_v2 checks must pass.
@Suite struct HistoryPanelTests {
    @Test func theCHistoryPanelAnswersAsSwiftDoes() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/history_panel.c"])
        let result = try CProgram.run(program, [])
        let lines = result.output.split(separator: "\n").map(String.init)
        let transcript = lines.filter { $0.hasPrefix("| ") }
        let swift = try SwiftScenario.run()
        #expect(transcript.count > 60)
        #expect(transcript.count == swift.count)
        for (index, (fromC, fromSwift)) in zip(transcript, swift).enumerated() where fromC != fromSwift {
            Issue.record("line \(index + 1): C \(fromC)\n        Swift \(fromSwift)")
        }
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks)", "the program stopped early: \(result.errors)")
        #expect(checks > 70)
        #expect(result.status == 0, "\(result.errors)")
    }
}

/// history_panel.c's scenario through PluginHost and UndoStack, printed in its format.
private struct SwiftScenario {
    let host: PluginHost
    var lines: [String] = []

    static func run() throws -> [String] {
        let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil)), hostName: "libundohost")
        let report = host.loadBundledPlugins()
        try #require(report.failures.isEmpty, "\(report.failures)")
        var scenario = SwiftScenario(host: host)
        try scenario.play()
        return scenario.lines
    }

    func stack<R>(_ body: (UndoStack) throws -> R) rethrows -> R { try host.history.withStack(body) }

    mutating func play() throws {
        let a = UndoContext("a.txt"), b = UndoContext("b.txt")
        printAll("empty")
        try insert(a, 0, "Hello")
        stack { $0.breakCoalescing() }
        try insert(b, 0, "World")
        stack { $0.breakCoalescing() }
        try stack { try $0.markSaved(a) }
        try stack { try $0.beginGroup(named: "paste style...") }
        try insert(a, 5, " there")
        try host.perform("text.bold", argumentText: "0 5", in: a)
        printState(a)
        try stack { try $0.endGroup() }
        try insert(.global, 0, "g")
        printAll("four steps, a.txt saved after the first")

        printMove("undo in b.txt", try stack { try $0.undo(count: 1, in: b) })
        printAll("b.txt's step undone under the newer ones")
        printMove("redo 5 in b.txt", try stack { try $0.redo(count: 5, in: b) })

        printMove("move to 1", try stack { try $0.move(to: 1) })
        printAll("at position 1")
        printMove("move to 1 again", try stack { try $0.move(to: 1) })
        printMove("move to 4", try stack { try $0.move(to: 4) })

        stack { $0.currentContext = a }
        printState(nil)
        printMove("undo 2 in the current context", try stack { try $0.undo(count: 2) })
        printAll("a.txt before its saved state")
        printMove("revert a.txt", try stack { try $0.revertToSaved() })
        printAll("after the revert")
        printMove("redo_in the current context", try stack { try $0.redo(count: 1) })
        stack { $0.currentContext = nil }

        lines.append("| close b.txt: \(try host.closeContext(b))")
        printAll("b.txt closed")
        try stack { try $0.removeAll() }
        lines.append("| remove_all: UNDO_OK")
        printAll("everything removed")
    }

    func insert(_ context: UndoContext, _ position: Int, _ text: String) throws {
        try host.perform("text.insert", argumentText: "\(position) \"\(text)\"", in: context)
    }

    mutating func printAll(_ what: String) {
        lines.append("| -- \(what)")
        lines.append("| contexts:" + stack { $0.contexts }.map(\.name).sorted().map { " \"\($0)\"" }.joined())
        printState(nil)
        printState(.global)
        printState(UndoContext("a.txt"))
        printState(UndoContext("b.txt"))
        printSteps()
    }

    /// `nil`: the current context, with UndoStack's defaults.
    mutating func printState(_ context: UndoContext?) {
        let line = stack { stack in
            let label = context.map { "\"\($0.name)\"" } ?? "(current)"
            let values: [Bool]
            let titles: (String, String)
            if let context {
                values = [stack.canUndo(in: context), stack.canRedo(in: context), stack.isDirty(context),
                          stack.canRevertToSaved(context), stack.isSavedAtStart(context)]
                titles = (stack.undoMenuTitle(in: context), stack.redoMenuTitle(in: context))
            } else {
                values = [stack.canUndo, stack.canRedo, stack.isDirty(), stack.canRevertToSaved(),
                          stack.isSavedAtStart(stack.currentContext ?? .global)]
                titles = (stack.undoMenuTitle, stack.redoMenuTitle)
            }
            let flags = zip(["undo", "redo", "dirty", "revert", "start"], values).map { "\($0)=\($1 ? 1 : 0)" }
            return "| state \(label): \(flags.joined(separator: " ")) depth=\(stack.groupDepth) position=\(stack.position) "
                + "count=\(stack.count) \"\(titles.0)\" \"\(titles.1)\""
        }
        lines.append(line)
    }

    mutating func printSteps() {
        let rows = stack { stack in
            stack.steps.map { step in
                let display = step.name.flatMap(stack.formatter.displayName) ?? "-"
                return "| step \(step.index) #\(step.serial) \"\(step.name ?? "-")\" \"\(display)\" in \"\(step.context.name)\""
                    + (step.isApplied ? " done" : " redo") + (step.index == stack.position - 1 ? " current" : "")
                    + (step.isSavePoint ? " saved" : "") + (step.isDiscardable ? " discardable" : "")
                    + " members=\(step.memberCount)"
            }
        }
        lines.append(contentsOf: rows)
    }

    mutating func printMove(_ what: String, _ result: UndoResult?) {
        guard let result else {
            lines.append("| \(what): UNDO_EEMPTY")
            return
        }
        lines.append("| \(what): \(result.direction == .undo ? "undid" : "redid") \(result.stepCount) steps "
            + "\"\(result.name ?? "-")\" in \"\(result.context.name)\"")
    }
}
