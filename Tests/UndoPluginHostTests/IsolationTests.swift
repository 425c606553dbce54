import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost
import UndoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Plugins in their own process (issue 31), through crasher.c: the calls and callbacks cross the
/// boundary unchanged; a crash or a hang in any function fails that call with UNDO_ECRASHED,
/// leaves the history as before the call, and the plugin goes on with its documents restored.
@Suite struct Isolation {
    static let crasher = "org.example.crasher"
    static let isolation = PluginIsolation(watchdogMilliseconds: Sanitizers.watchdog(400))

    /// - Parameter watchdog: the tests of hangs keep 400 ms; a test that kills the runner itself
    ///   gives a long one, so a restart slowed by a loaded machine is never taken for a hang.
    func makeCrasher(isolated: Bool = true, defines: [String] = [],
                     watchdog: PluginIsolation = isolation) throws -> (PluginHost, LogCollector) {
        let (host, log) = makeHost()
        let path = try Fixtures.buildPlugin("crasher.c", defines: defines)
        try host.load(file: path, isolation: isolated ? watchdog : nil)
        return (host, log)
    }

    /// What a run left: the history (each step and the position) and each document.
    struct Outcome: Equatable {
        var steps: [String]
        var position: Int
        var documents: [String]
    }

    func outcome(_ host: PluginHost, _ documents: [String] = ["a", "b"]) throws -> Outcome {
        let (steps, position) = host.history.withStack { stack in
            ((0..<stack.count).map { "\(stack.command(at: $0))" }, stack.position)
        }
        // Read as saved bytes: describe is one of the functions that crash on purpose.
        let texts = try documents.map { name in
            String(decoding: try host.saveDocumentState(plugin: Self.crasher, context: UndoContext(name)) ?? [], as: UTF8.self)
        }
        return Outcome(steps: steps, position: position, documents: texts)
    }

    func process(_ host: PluginHost) throws -> IsolatedPluginProcess {
        try #require(host.loadedPlugin(withID: Self.crasher)?.remote)
    }

    @Test func callsAndCallbacksCrossTheProcessBoundaryUnchanged() throws {
        let (isolated, log) = try makeCrasher()
        let (inProcess, _) = try makeCrasher(isolated: false)
        #expect(isolated.plugins.first?.isIsolated == true && inProcess.plugins.first?.isIsolated == false)
        var reported: [[UndoChange]] = []
        for host in [isolated, inProcess] {
            host.locale = "ko"
            try host.perform("crasher.append", [.string("Hello")], in: UndoContext("a"))
            try host.perform("crasher.type", [.string(" wo")], in: UndoContext("a"))
            try host.perform("crasher.type", [.string("rld")], in: UndoContext("a"))  // merged
            try host.perform("crasher.append", [.string("obsolete")], in: UndoContext("a"))  // not recorded
            try host.perform("crasher.append", [.string("B")], in: UndoContext("b"))
            reported.append(try #require(try host.undo()).changes)
            reported.append(try #require(try host.redo()).changes)
        }
        #expect(try outcome(isolated) == outcome(inProcess))
        // The changes the plugin reported come back with the results, as in-process.
        #expect(reported[0] == [UndoChange(context: UndoContext("b"), location: 0, length: 1)])
        #expect(reported[1] == [UndoChange(context: UndoContext("b"), location: 0, length: 1)])
        #expect(reported[0...1] == reported[2...3])
        #expect(isolated.stepCount == 3)
        #expect(try isolated.show("a", Self.crasher) == "Hello world")
        #expect(isolated.undoTitle == inProcess.undoTitle)
        #expect(isolated.undoTitle.contains("덧붙이기"))
        let descriptions = isolated.history.withStack { stack in (0..<stack.count).map { stack.command(at: $0).historyDescription } }
        #expect(descriptions.first == "Append \"Hello\"")
        #expect(log.messages.contains { $0.message == "appended" && $0.pluginID == Self.crasher })
        // A refusal is the plugin's own error, as in-process.
        let refused = hostError { try isolated.perform("crasher.append", [.string("refuse")], in: UndoContext("a")) }
        #expect(refused?.code == Int32(UNDO_EINVAL))
        #expect("\(refused!)".contains("refused on purpose"))
        // Documents' bytes round-trip through the process; closing empties a document there.
        let bytes = try #require(try isolated.saveDocumentState(plugin: Self.crasher, context: UndoContext("a")))
        try isolated.loadDocumentState(bytes, plugin: Self.crasher, context: UndoContext("copy"))
        #expect(try isolated.show("copy", Self.crasher) == "Hello world")
        try isolated.closeContext(UndoContext("copy"))
        #expect(try isolated.show("copy", Self.crasher) == "")
        #expect(try process(isolated).restarts == 0)
    }

    /// Collects what a host journals, for a replay into another host (what reopening a journal does).
    final class Collected: PluginHostRecorder, @unchecked Sendable {
        let changes = Locked<[HostChange]>([])
        func record(_ change: HostChange) throws(PluginHostError) { changes.withLock { $0.append(change) } }
    }

    /// Waits (at most 20 s) until the history holds `count` steps: a record from the plugin's own
    /// thread arrives when that thread gets to it.
    func waitForSteps(_ host: PluginHost, _ count: Int) {
        for _ in 0..<2000 where host.stepCount < count { usleep(10_000) }
    }

    /// undo_host.record from a thread of the plugin's own (crasher.c: describe of document "r")
    /// crosses the process boundary: the step is in the history as in-process, undo and redo call
    /// the plugin in its process, it is journaled (a replay gives the same), and a crash after it
    /// restores it with the rest of the document.
    @Test func aStepRecordedOnThePluginsOwnThreadCrossesTheProcessBoundary() throws {
        let (isolated, log) = try makeCrasher(watchdog: PluginIsolation(watchdogMilliseconds: 20_000))
        let (inProcess, _) = try makeCrasher(isolated: false)
        let journal = Collected()
        isolated.recorder = journal
        let r = UndoContext("r")
        for host in [isolated, inProcess] {
            try host.perform("crasher.append", [.string("x")], in: r)
            _ = try host.describe(r, plugin: Self.crasher)
        }
        for host in [isolated, inProcess] { waitForSteps(host, 2) }
        #expect(isolated.stepCount == 2 && inProcess.stepCount == 2)
        #expect(try outcome(isolated, ["r"]) == outcome(inProcess, ["r"]))
        #expect(try outcome(isolated, ["r"]).documents == ["xr"])
        // undo and redo call the inverse and the perform in the plugin's process.
        for host in [isolated, inProcess] {
            try host.undo()
            #expect(try outcome(host, ["r"]).documents == ["x"])
            try host.redo()
        }
        #expect(try outcome(isolated, ["r"]) == outcome(inProcess, ["r"]))
        #expect(try outcome(isolated, ["r"]).documents == ["xr"])
        // Journaled as its perform: a replay into another isolated host gives the same history.
        let (replayed, _) = try makeCrasher(watchdog: PluginIsolation(watchdogMilliseconds: 20_000))
        let changes = journal.changes.withLock { $0 }
        #expect(changes.count == 4)
        for change in changes { _ = try replayed.replay(change) }
        #expect(try outcome(replayed, ["r"]) == outcome(isolated, ["r"]))
        // A crash after it: the restarted process performs the recorded step again.
        let crashed = hostError { try isolated.perform("crasher.append", [.string("!segv")], in: r) }
        #expect(crashed?.code == Int32(UNDO_ECRASHED))
        #expect(try process(isolated).restarts == 1)
        #expect(try outcome(isolated, ["r"]).documents == ["xr"])
        try isolated.undo()
        #expect(try outcome(isolated, ["r"]).documents == ["x"])
        #expect(log.messages.contains { $0.message == "recorded" && $0.pluginID == Self.crasher })
    }

    /// Each function, each way of failing: the error names the plugin, the action and the
    /// signal (or the watchdog); the history and documents are those of a run without the
    /// call; the next calls work.
    @Test(arguments: ["segv", "abort", "exit", "loop"])
    func aCrashInAnyFunctionFailsOnlyThatCall(how: String) throws {
        let cause = ["segv": "SIGSEGV", "abort": "SIGABRT", "exit": "exited with status 3", "loop": "did not answer within"][how]!
        func expectCrash(_ error: PluginHostError?, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(error?.code == Int32(UNDO_ECRASHED), "\(what)", sourceLocation: sourceLocation)
            let text = error.map { "\($0)" } ?? ""
            #expect(text.contains(cause) && text.contains(what), "\(text)", sourceLocation: sourceLocation)
            #expect(error.map { ErrorReport($0).codeName } == "UNDO_ECRASHED", sourceLocation: sourceLocation)
        }
        let a = UndoContext("a"), b = UndoContext("b")

        // perform
        let (host, _) = try makeCrasher()
        let (reference, _) = try makeCrasher()
        for target in [host, reference] {
            try target.perform("crasher.append", [.string("Hello")], in: a)
            try target.perform("crasher.append", [.string("B")], in: b)
        }
        expectCrash(hostError { try host.perform("crasher.append", [.string("!" + how)], in: a) }, "crasher.append perform")
        #expect(try outcome(host) == outcome(reference))
        for target in [host, reference] { try target.perform("crasher.append", [.string(" world")], in: a) }
        #expect(try outcome(host) == outcome(reference))

        // inverse: the undo fails, the position stays.
        for target in [host, reference] { try target.perform("crasher.append", [.string("?" + how)], in: a) }
        expectCrash(hostError { try host.undo() }, "crasher.append")
        #expect(try outcome(host) == outcome(reference))
        for target in [host, reference] { try target.perform("crasher.append", [.string("!")], in: b) }
        #expect(try outcome(host) == outcome(reference))

        // merge: the steps stay apart (the perform itself worked).
        try host.perform("crasher.type", [.string("x")], in: b)
        try host.perform("crasher.type", [.string("~" + how)], in: b)
        #expect(try host.stepCount == outcome(reference).steps.count + 2)
        #expect(try outcome(host).documents[1] == "B!x~" + how)

        // describe, save_document, load_document: nothing in the history changes.
        let (second, _) = try makeCrasher()
        let (secondReference, _) = try makeCrasher()
        for target in [second, secondReference] { try target.perform("crasher.append", [.string("@" + how)], in: a) }
        expectCrash(hostError { _ = try second.describe(a, plugin: Self.crasher) }, Self.crasher + " describe")
        #expect(try outcome(second) == outcome(secondReference))
        for target in [second, secondReference] { try target.perform("crasher.append", [.string("$" + how)], in: b) }
        expectCrash(hostError { _ = try second.saveDocumentState(plugin: Self.crasher, context: b) }, Self.crasher + " save")
        #expect(try outcome(second, ["a"]) == outcome(secondReference, ["a"]))
        expectCrash(hostError { try second.loadDocumentState(Array(("%" + how).utf8), plugin: Self.crasher, context: UndoContext("c")) },
                    Self.crasher + " load")
        #expect(try outcome(second, ["a", "c"]) == outcome(secondReference, ["a", "c"]))
        for target in [second, secondReference] {
            try target.perform("crasher.append", [.string("more")], in: b)
            try target.undo()
            try target.undo()
        }
        #expect(try outcome(second, ["a", "c"]) == outcome(secondReference, ["a", "c"]))
        #expect(try process(second).restarts == 3)
    }

    @Test func threeCrashesInARowDisableThePluginAndKeepItsSteps() throws {
        let (host, log) = try makeCrasher()
        try host.perform("crasher.append", [.string("kept")], in: UndoContext("a"))
        for attempt in 1...3 {
            let error = hostError { try host.perform("crasher.append", [.string("!segv")], in: UndoContext("a")) }
            #expect(error?.code == Int32(UNDO_ECRASHED))
            #expect("\(error as Any)".contains("disabled") == (attempt == 3), "\(error as Any)")
        }
        #expect(try process(host).isDisabled)
        #expect(log.messages.contains { $0.level == .error && $0.message.contains("is disabled") })
        // Kept and refused: the step stays, undo fails without moving, and unloading purges it.
        #expect(host.stepCount == 1)
        let undo = hostError { try host.undo() }
        #expect(undo?.code == Int32(UNDO_ECRASHED))
        #expect(host.history.withStack { $0.position } == 1)
        try host.unload(Self.crasher)
        #expect(host.stepCount == 0)
    }

    @Test func aSuccessfulCallBetweenCrashesStartsTheCountAgain() throws {
        let (host, _) = try makeCrasher()
        for _ in 1...5 {
            #expect(hostError { try host.perform("crasher.append", [.string("!abort")], in: UndoContext("a")) }?.code
                == Int32(UNDO_ECRASHED))
            try host.perform("crasher.append", [.string("x")], in: UndoContext("a"))
        }
        #expect(try host.show("a", Self.crasher) == "xxxxx")
        #expect(try !process(host).isDisabled)
    }

    /// Past the checkpoint size (a plugin that saves) or by replaying every call (one that
    /// cannot): the documents come back after many calls, undos included.
    @Test(arguments: [[], ["CRASHER_NO_SAVE"]])
    func documentsComeBackAfterManyCalls(defines: [String]) throws {
        let (host, _) = try makeCrasher(defines: defines)
        var expected = ""
        for index in 0..<200 {
            let text = "\(index % 10)"
            try host.perform("crasher.append", [.string(text)], in: UndoContext("a"))
            expected += text
            if index % 7 == 0 {
                try host.undo()
                expected.removeLast()
            }
        }
        let error = hostError { try host.perform("crasher.append", [.string("!exit")], in: UndoContext("a")) }
        #expect(error?.code == Int32(UNDO_ECRASHED))
        #expect(try host.show("a", Self.crasher) == expected)
        try host.undo()
        expected.removeLast()
        #expect(try host.show("a", Self.crasher) == expected)
    }

    /// SIGKILL at 120 random points of a long script: every acknowledged change is kept (the
    /// same script run in-process, with the calls that failed left out, ends the same).
    @Test func killingTheProcessAtRandomPointsLosesNoAcknowledgedChange() throws {
        let (host, _) = try makeCrasher(watchdog: PluginIsolation(watchdogMilliseconds: 60_000))
        let (reference, _) = try makeCrasher(isolated: false)
        var random = SystemRandomNumberGenerator()
        var kills = 0
        var failures = 0
        var lastCallWorked = true
        for step in 0..<900 {
            // Never twice without a call answered in between: three crashes in a row would
            // disable the plugin (another test).
            if kills < 120, lastCallWorked, Int.random(in: 0..<3, using: &random) == 0 {
                // 0: the runner killed last time is known dead (its record socket hung up) and
                // is started again by the next call; there is nothing to kill until then.
                let pid = try process(host).processID
                if pid > 0 {
                    kill(pid, SIGKILL)
                    kills += 1
                }
            }
            let context = UndoContext(Bool.random(using: &random) ? "a" : "b")
            let choice = Int.random(in: 0..<10, using: &random)
            // Whether the plugin was called: an undo or redo with nothing to do calls nothing,
            // and must not count as an answered call (three kills with only such steps between
            // them are three crashes in a row, which disable the plugin as they should).
            @discardableResult func run(_ target: PluginHost) throws -> Bool {
                switch choice {
                case 0..<5: try target.perform("crasher.append", [.string("\(step)")], in: context)
                case 5..<7: try target.perform("crasher.type", [.string("t\(step)")], in: context)
                case 7..<9:
                    guard target.history.withStack({ $0.canUndo }) else { return false }
                    try target.undo()
                default:
                    guard target.history.withStack({ $0.canRedo }) else { return false }
                    try target.redo()
                }
                return true
            }
            do {
                if try run(host) { lastCallWorked = true }
            } catch {
                failures += 1
                lastCallWorked = false
                continue  // not acknowledged: the reference does not make it either
            }
            try run(reference)
        }
        #expect(kills >= 100)
        #expect(failures > 0)
        #expect(try outcome(host) == outcome(reference))
        #expect(try !process(host).isDisabled)
    }
}

