import Foundation
import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// Calls back into the host from inside an action: from a plugin's perform, redo and inverse
/// (through the ABI's record, a log message whose handler calls the host, and a hook standing in
/// for the C API), and from a Swift command the history runs. Every entry point refuses with
/// UNDO_EREENTRANT and a message saying why, and the history, the plugins and the documents
/// stay as they were.
@Suite struct ReentryTests {
    static let reentryID = "org.undohost.test.reentry"
    static let canvasID = "org.undohost.canvas"

    /// The ways back into the host. The raw values are the reentry fixture's `what`.
    enum Entry: Int32, CaseIterable, Sendable {
        case undo = 1, redo, perform, load, loadFolder, unload, unloadOther, describe, stackUndo, stackGroup, uiRecord
        /// Handled by the plugin itself: host->record, and host->log (whose handler tries
        /// every other entry).
        case record = 100, log = 101

        static let throughTheHook = allCases.filter { $0.rawValue < 100 }
    }

    /// Tries entries against a host and keeps each refusal's code and message.
    final class Harness: @unchecked Sendable {
        private let lock = NSLock()
        weak var host: PluginHost?
        var pluginPath = ""
        private var _results: [(entry: Entry, code: Int32, message: String)] = []
        var results: [(entry: Entry, code: Int32, message: String)] { lock.withLock { _results } }

        /// Tries one entry. - Returns: its error code, 0 when it went through.
        @discardableResult
        func attempt(_ entry: Entry) -> Int32 {
            guard let host else { return Int32(UNDO_ESTATE) }
            var code: Int32 = 0
            var message = ""
            do {
                switch entry {
                case .undo: try host.undo()
                case .redo: try host.redo()
                case .perform: try host.perform("reentry.count", [.i64(100)])
                case .load: try host.load(file: Fixtures.textEditor)
                case .loadFolder:
                    if let failure = host.load(folder: Fixtures.products).failures.first { throw failure }
                case .unload: try host.unload(ReentryTests.reentryID)
                case .unloadOther: try host.unload(ReentryTests.canvasID)
                case .describe: _ = try host.describe(.global, plugin: ReentryTests.canvasID)
                case .stackUndo: try host.history.withStack { _ = try $0.undo() }
                case .stackGroup: try host.history.withStack { try $0.beginGroup(named: "Sneaky") }
                case .uiRecord:
                    code = try Fixtures.function("reentry_ui_count", in: pluginPath, as: (@convention(c) () -> Int32).self)()
                    message = "record returned \(code)"
                case .record, .log: break
                }
            } catch let error as PluginHostError {
                (code, message) = (error.code, error.description)
            } catch let error as PluginLoadError {
                (code, message) = (error.code, error.description)
            } catch let error as UndoError {
                (code, message) = (PluginHostError.history(error).code, error.description)
            } catch {
                (code, message) = (Int32(UNDO_EINVAL), "\(error)")
            }
            lock.withLock { _results.append((entry, code, message)) }
            return code
        }
    }

    typealias Hook = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32
    typealias SetHook = @convention(c) (Hook?, UnsafeMutableRawPointer?) -> Void

    func makeHost() throws -> (PluginHost, Harness, LogCollector) {
        let harness = Harness()
        let log = LogCollector()
        let history = SharedUndoHistory(UndoStack(coalescingWindow: nil))
        let host = PluginHost(history: history, log: { message in
            log.add(message)
            // The handler of a plugin's log message runs inside the plugin's call.
            if message.message == "reenter" { for entry in Entry.throughTheHook { harness.attempt(entry) } }
        })
        harness.host = host
        harness.pluginPath = try Fixtures.buildPlugin("reentry.c")
        try host.load(file: Fixtures.canvas)
        try host.load(file: harness.pluginPath)
        let setHook = try Fixtures.function("reentry_set_hook", in: harness.pluginPath, as: SetHook.self)
        setHook({ context, what in
            let harness = Unmanaged<Harness>.fromOpaque(context!).takeUnretainedValue()
            return harness.attempt(Entry(rawValue: what)!)
        }, Unmanaged.passUnretained(harness).toOpaque())
        return (host, harness, log)
    }

    /// What must not change: the plugins, the steps and the documents.
    func state(_ host: PluginHost) throws -> String {
        let steps = host.history.withStack { stack in
            stack.checkInvariants()
            return stack.steps.map { "\($0.isApplied ? "+" : "-")\($0.name ?? "")" }.joined(separator: " ")
        }
        return "\(host.plugins.map(\.id)) \(steps) canvas=\(try host.describe(.global, plugin: Self.canvasID))"
    }

    func count(_ host: PluginHost) throws -> String {
        String(try host.describe(.global, plugin: Self.reentryID).prefix { $0 != "\n" })
    }

    @Test(arguments: Entry.allCases)
    func reenteringFromPerformRedoAndInverseIsRefused(_ entry: Entry) throws {
        let (host, harness, log) = try makeHost()
        try host.perform("canvas.add", argumentText: #"1 "rect" 0 0 5 5 0"#, in: .global)
        try host.perform("reentry.count", [.i64(5)])
        let before = try state(host)

        try host.perform("reentry.poke", [.i32(entry.rawValue)])
        #expect(try state(host) == before.replacingOccurrences(of: "+Count", with: "+Count +Poke"))
        try host.undo()
        #expect(try state(host) == before.replacingOccurrences(of: "+Count", with: "+Count -Poke"))
        try host.redo()
        #expect(try state(host) == before.replacingOccurrences(of: "+Count", with: "+Count +Poke"))
        #expect(try count(host) == "count=5")

        // The plugin saw the refusal in all three calls...
        let code = entry == .log ? 0 : Int32(UNDO_EREENTRANT)
        let lines = try host.describe(.global, plugin: Self.reentryID).split(separator: "\n").dropFirst()
        #expect(lines == ["perform", "inverse", "redo"].map { "\($0) what=\(entry.rawValue) rc=\(code)" }[...])
        // ...with a message saying why.
        switch entry {
        case .record:
            #expect(log.messages.filter { $0.message.hasPrefix("record refused: record was called from inside a call the host made") }.count == 3)
        case .log:
            #expect(harness.results.count == 3 * Entry.throughTheHook.count)
        default:
            #expect(harness.results.count == 3)
        }
        for result in harness.results {
            #expect(result.code == UNDO_EREENTRANT, "\(result.entry): \(result.code) \(result.message)")
            if result.entry != .uiRecord {
                #expect(result.message.contains("from inside"), "\(result.entry): \(result.message)")
            }
        }

        // The history still undoes and redoes everything.
        try host.undo(count: 3)
        #expect(try count(host) == "count=0")
        #expect(try host.describe(.global, plugin: Self.canvasID) == "")
        try host.redo(count: 3)
        #expect(try count(host) == "count=5")
        #expect(try state(host) == before.replacingOccurrences(of: "+Count", with: "+Count +Poke"))
    }

    /// A Swift step in the same history that calls the host from its perform and undo.
    struct ReenteringCommand: UndoCommand {
        let harness: Harness
        var name: String? { "Reenter" }
        mutating func perform(_ changes: inout UndoChanges) throws { attemptAll() }
        mutating func undo(_ changes: inout UndoChanges) throws { attemptAll() }
        private func attemptAll() {
            for entry in Entry.throughTheHook where entry != .describe { harness.attempt(entry) }
        }
    }

    @Test func reenteringFromASwiftStepIsRefused() throws {
        let (host, harness, _) = try makeHost()
        try host.perform("reentry.count", [.i64(5)])
        try host.history.withStack { stack in
            try stack.beginGroup(named: "Mixed")
            try stack.perform(ReenteringCommand(harness: harness))
        }
        try host.perform("reentry.count", [.i64(2)])
        try host.history.withStack { try $0.endGroup() }
        let before = try state(host)
        try host.undo()
        try host.redo()
        #expect(try state(host) == before)
        #expect(try count(host) == "count=7")
        let attempted = Entry.throughTheHook.count - 1
        #expect(harness.results.count == 3 * attempted)
        for result in harness.results {
            #expect(result.code == UNDO_EREENTRANT, "\(result.entry): \(result.code) \(result.message)")
        }
        #expect(harness.results.filter { $0.entry == .load }.allSatisfy {
            $0.message == Fixtures.textEditor + ": plugins cannot be loaded from inside a plugin call or an action"
        })
        #expect(harness.results.filter { $0.entry == .unload }.allSatisfy {
            $0.message == "unload was called from inside a plugin call or an action; refused"
        })
        // Reading a document is not a change: allowed from a Swift step.
        #expect(harness.attempt(.describe) == 0)
    }

    /// Loading on another thread while an action runs is not re-entry: it waits for the
    /// action, then loads.
    @Test func loadingFromAnotherThreadWaitsForTheAction() throws {
        let (host, _, _) = try makeHost()
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = LogCollector()
        struct SlowCommand: UndoCommand {
            let started: DispatchSemaphore
            mutating func perform(_ changes: inout UndoChanges) throws {
                started.signal()
                Thread.sleep(forTimeInterval: 0.05)
            }
            mutating func undo(_ changes: inout UndoChanges) throws {}
        }
        Thread.detachNewThread {
            started.wait()
            let message: String
            do {
                message = try host.load(file: Fixtures.textEditor).id
            } catch {
                message = "\(error)"
            }
            outcome.add(PluginLogMessage(pluginID: "", level: .info, message: message))
            finished.signal()
        }
        try host.history.withStack { _ = try $0.perform(SlowCommand(started: started)) }
        finished.wait()
        #expect(outcome.messages.map(\.message) == ["org.undohost.text"])
    }
}
