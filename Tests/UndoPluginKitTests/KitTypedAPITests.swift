import Foundation
import Testing
import UndoCore
import UndoPluginABI
import UndoPluginHost
import UndoTestSupport

/// The kit's typed API (change reports as cases, arguments by name and type, the action's
/// options as modifiers) used by a real plugin (Tests/SwiftPluginKitUse) loaded by the host.
@Suite struct KitTypedAPITests {
    let host: PluginHost
    let log: LogMessages
    let doc = UndoContext("doc")

    init() throws {
        (host, log) = SwiftPluginFixtures.makeHost()
        try host.load(file: SwiftPluginFixtures.products + "/libUndoTestSwiftKitUse.so")
    }

    func mark() throws -> String { try host.describe(doc, plugin: "org.undohost.test.kit") }

    @Test func modifiersDeclareTheActionsOptions() throws {
        let info = try #require(host.plugins.first)
        #expect(info.actionTypes.map(\.detailedDescription) == [
            #"kit.mark(id: i64) "Mark" inverse(id: i64) coalesces("mark") merges discardable"#,
            #"kit.level(to: i64) "Level" inverse(to: i64)"#,
            #"kit.misread(mode: i64, label: string) "Misread""#,
            #"kit.rename(task: i64, name: string) "Rename" inverse(task: i64, name: string) coalesces("rename") merges"#,
        ])
    }

    /// An argument read at a position past the declared ones, as another type than declared,
    /// or by an undeclared name fails the call with a message naming the action and the
    /// parameter; the step is not added. Read rightly, the same action performs.
    @Test(arguments: [
        (1, Int32(UNDO_EINVAL), "misread has no args[2]: it takes 2 arguments (mode: i64, label: string)"),
        (2, Int32(UNDO_ETYPE), "misread's argument 1 (mode) is i64, not string"),
        (3, Int32(UNDO_ENOTFOUND), "misread has no parameter size (it takes mode: i64, label: string)"),
    ])
    func aWrongArgumentAccessIsAClearError(_ mode: Int64, _ code: Int32, _ message: String) throws {
        do {
            try host.perform("kit.misread", [.i64(mode), .string("x")], in: doc)
            Issue.record("mode \(mode) performed")
        } catch {
            guard case .actionFailed(let failure) = error else {
                Issue.record("expected actionFailed, got \(error)")
                return
            }
            #expect(failure.code == code)
            #expect(failure.message == message)
        }
        #expect(host.stepCount == 0)
        try host.perform("kit.misread", [.i64(0), .string("fine")], in: doc)
        #expect(host.stepCount == 1)
    }

    @Test func anObjectReportIsTheObjectsIdAndANegativeIdFailsTheCall() throws {
        try host.perform("kit.mark", [.i64(5)], in: doc)
        let undone = try #require(try host.undo()) // the inverse marks the old id, 0
        #expect(undone.changes == [UndoChange(context: doc, location: 0, length: nil)])
        let redone = try #require(try host.redo())
        #expect(redone.changes == [UndoChange(context: doc, location: 5, length: nil)])
        try host.undo()
        let error = try #require(throws: PluginHostError.self) { try host.perform("kit.mark", [.i64(-2)], in: doc) }
        guard case .actionFailed(let failure) = error else {
            Issue.record("expected actionFailed, got \(error)")
            return
        }
        #expect(failure.code == Int32(UNDO_ERANGE))
        #expect(failure.message == "a reported change has no negative numbers: object(-2)")
        #expect(try mark() == "mark=0") // the failing call changed nothing
    }

    @Test func mergeReadsAndSetsArgumentsByNameAndType() throws {
        for id in [3, 4, 9] as [Int64] { try host.perform("kit.mark", [.i64(id)], in: doc) }
        #expect(try mark() == "mark=9")
        #expect(host.stepCount == 1) // merged into one step
        try host.undo()
        #expect(try mark() == "mark=0")
        try host.redo()
        #expect(try mark() == "mark=9")

        let other = UndoContext("other")
        try host.perform("kit.mark", [.i64(2)], in: other)
        try host.perform("kit.mark", [.i64(0)], in: other) // back to the start: the merge annuls
        #expect(try host.describe(other, plugin: "org.undohost.test.kit") == "mark=0")
        #expect(host.stepCount == 1)
    }

    @Test func readingAMergeArgumentAsTheWrongTypeIsReportedAndMergesNothing() throws {
        try host.perform("kit.mark", [.i64(3)], in: doc)
        try host.perform("kit.mark", [.i64(13)], in: doc)
        #expect(try mark() == "mark=13")
        #expect(log.all.contains { $0.message.contains("parameter id is i64, not string") })
        try host.undo()
        #expect(try mark() == "mark=3") // the steps stayed two
    }

    /// UndoCall.markObsolete (set_obsolete, ABI 1.7): Qt's setObsolete scenarios through the kit.
    /// The level is changed behind the history's back with recording paused.
    @Test func markObsoleteTakesTheStepOutOfTheHistory() throws {
        func behindTheHistory(_ value: Int64) throws {
            host.history.withStack { $0.pauseRecording() }
            defer { host.history.withStack { $0.resumeRecording() } }
            try host.perform("kit.level", [.i64(value)], in: doc)
        }
        try host.perform("kit.level", [.i64(4)], in: doc)
        try host.perform("kit.level", [.i64(4)], in: doc)  // already 4: no step
        #expect(host.stepCount == 1)
        try behindTheHistory(0)
        let undone = try #require(try host.undo())  // finds 0 there already
        #expect(undone.obsoleteCount == 1 && undone.name == "Level")
        #expect(host.stepCount == 0)
        try host.perform("kit.level", [.i64(7)], in: doc)
        try host.undo()
        try behindTheHistory(7)
        let redone = try #require(try host.redo())  // finds 7 there already
        #expect(redone.obsoleteCount == 1 && host.stepCount == 0)
        #expect(try mark() == "mark=0 level=7")
    }

    @Test func markObsoleteInAMergeIsRefusedAndTheStepsStayApart() throws {
        try host.perform("kit.mark", [.i64(3)], in: doc)
        try host.perform("kit.mark", [.i64(14)], in: doc)
        #expect(host.stepCount == 2)
        #expect(log.all.contains { $0.message.contains("set_obsolete failed") }, "\(log.all)")
    }
}

extension KitTypedAPITests {
    /// A step's own coalescing key from Swift (`call.setCoalescingKey`), as the C guide's rename
    /// case: renaming task 2 twice is one step, then task 3 is another.
    @Test func eachStepCanCoalesceUnderItsOwnKey() throws {
        for (task, name) in [(2, "draft"), (2, "final"), (3, "notes")] {
            try host.perform("kit.rename", [.i64(Int64(task)), .string(name)], in: doc)
        }
        #expect(try mark() == "mark=0 2=final 3=notes")
        #expect(host.history.withStack { $0.count } == 2)
        try host.undo()
        #expect(try mark() == "mark=0 2=final")
        try host.undo()
        #expect(try mark() == "mark=0")
        try host.redo()
        #expect(try mark() == "mark=0 2=final")
    }

    /// Values set through an `UndoParameterKey` take its type: a value of another type does not
    /// compile, where a name was checked only when the call ran (an integer literal became a
    /// Double). The name forms still compile, deprecated.
    @Test func aValueOfTheWrongTypeDoesNotCompile() throws {
        let folder = TemporaryFolder.kept("kit-typecheck")
        func typecheck(_ body: String) throws -> String {
            let file = folder + "/check.swift"
            try Data("""
                import UndoPluginKit
                let position = UndoParameterKey<Int64>("position")
                let f: UndoActionFunction = { call, args in
                \(body)
                }

                """.utf8).write(to: URL(fileURLWithPath: file))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["swiftc", "-typecheck", "-I", SwiftPluginFixtures.products + "/Modules",
                                 "-Xcc", "-fmodule-map-file=" + SourceTree.include + "/module.modulemap", file]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus == 0 ? "ok\n" : "failed\n") + text
        }
        let right = try typecheck("    try call.setInverseArgument(position, 0)\n    let p: Int64 = try args[position]\n    _ = p")
        #expect(right.hasPrefix("ok\n"), "\(right)")
        let wrong = try typecheck("    try call.setInverseArgument(position, \"text\")")
        #expect(wrong.hasPrefix("failed\n"), "\(wrong)")
        let wrongRead = try typecheck("    let p: String = try args[position]\n    _ = p")
        #expect(wrongRead.hasPrefix("failed\n"), "\(wrongRead)")
        let byName = try typecheck("    try call.setInverseArgument(\"position\", Int64(0))")
        #expect(byName.hasPrefix("ok\n") && byName.contains("deprecated"), "\(byName)")
    }
}
