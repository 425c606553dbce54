import Foundation
import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// Plugin steps in the one shared history: several plugins, groups, the save point, unloading,
/// a third-party plugin built with cc, and two hosts sharing a plugin file.
@Suite struct SharedHistoryTests {
    /// A plugin's calls hold its host's history lock: one made from outside the history (here a
    /// describe from another thread) waits while a thread works in the history, so a plugin never
    /// runs on two threads at once.
    @Test func callsFromOutsideTheHistoryWaitForIt() throws {
        let (host, _) = makeHost()
        try host.load(file: try Fixtures.buildPlugin("thirdparty_counter.c"))
        try host.perform("counter.add", [.i32(2)], in: UndoContext("n"))
        let described = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            host.history.withStack { _ in
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        DispatchQueue.global().async {
            _ = try? host.describe(UndoContext("n"), plugin: "com.example.counter")
            described.signal()
        }
        #expect(described.wait(timeout: .now() + .milliseconds(300)) == .timedOut)
        release.signal()
        #expect(described.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(try host.describe(UndoContext("n"), plugin: "com.example.counter") == "count=2")
    }

    @Test func aThirdPartyPluginBuiltWithCCWorks() throws {
        let (host, log) = makeHost()
        let path = try Fixtures.buildPlugin("thirdparty_counter.c")
        let info = try host.load(file: path)
        #expect(info.description == #"com.example.counter 0.1 "Counter""#)
        #expect(info.actionTypes.map(\.detailedDescription) == [
            #"counter.add(amount: i32) "Add" coalesces("add") merges"#,
            #"counter.reset() "Reset" inverse(previous: i64)"#,
        ])
        #expect(log.messages == [PluginLogMessage(pluginID: "com.example.counter", level: .info, message: "counter ready")])
        let doc = UndoContext("n")
        func count() throws -> String { try host.describe(doc, plugin: "com.example.counter") }
        try host.perform("counter.add", argumentText: "5", in: doc)
        try host.perform("add", [.i64(-2)], in: doc)
        #expect(try count() == "count=3")
        #expect(host.stepCount == 1) // merged into one add of 3
        host.history.withStack { $0.breakCoalescing() }
        try host.perform("com.example.counter/reset", [], in: doc)
        #expect(try count() == "count=0")
        try host.undo()
        #expect(try count() == "count=3")
        try host.undo()
        #expect(try count() == "count=0")
        try host.redo(count: 2)
        #expect(try count() == "count=0")
        #expect(host.stepCount == 2)
        // An add that cancels the previous one annuls both.
        host.history.withStack { $0.breakCoalescing() }
        try host.perform("counter.add", [.i32(4)], in: doc)
        try host.perform("counter.add", [.i32(-4)], in: doc)
        #expect(host.stepCount == 2)
        // 2147483648 does not fit the i32 parameter: refused before the plugin sees it.
        #expect(hostError { try host.perform("counter.add", argumentText: "2147483648", in: doc) }?.code == UNDO_ERANGE)
    }

    /// A third-party plugin built with the system compiler, as docs/writing-a-plugin-in-c.md builds
    /// it, and loaded by a path a person typed, made absolute on purpose.
    @Test func aPluginBuiltByItsAuthorLoadsFromARelativePathMadeAbsolute() throws {
        let folder = Fixtures.temporaryFolder()
        let build = try Fixtures.run("cc", ["-std=c99", "-Wall", "-Wextra", "-shared", "-fPIC", "-fvisibility=hidden",
                                            "-I", Fixtures.include, "-o", folder + "/libcounter.so",
                                            Fixtures.sources + "/thirdparty_counter.c"])
        #expect(build.status == 0)
        let host = PluginHost(log: { _ in })
        // Relative to the current folder (tests run concurrently, so this one does not change
        // folders: it names the file relative to where it is).
        let up = FileManager.default.currentDirectoryPath.split(separator: "/").map { _ in ".." }.joined(separator: "/")
        try host.load(file: PluginHost.absolutePath(fromCurrentDirectory: up + folder + "/libcounter.so"))
        try host.perform("counter.add", argumentText: "5", in: UndoContext("notes"))
        #expect(host.history.withStack { $0.undoMenuTitle } == "Undo Add")
        try host.undo()
        #expect(try host.describe(UndoContext("notes"), plugin: "com.example.counter") == "count=0")
    }

    func loadAll() throws -> (PluginHost, String) {
        let (host, _) = makeHost()
        try host.load(file: Fixtures.textEditor)
        try host.load(file: Fixtures.canvas)
        let probe = try Fixtures.buildPlugin("probe.c")
        try host.load(file: probe)
        return (host, probe)
    }

    @Test func groupsSpanPlugins() throws {
        let (host, _) = try loadAll()
        let doc = UndoContext("page")
        try host.history.withStack { try $0.beginGroup(named: "Insert Picture") }
        try host.perform("text.insert", [.i64(0), .string("Caption")], in: doc)
        try host.perform("canvas.add", argumentText: #"1 "rect" 0 0 10 10 0"#, in: doc)
        try host.perform("probe.set", [.i64(3)], in: doc)
        try host.history.withStack { try $0.endGroup() }
        #expect(host.stepCount == 1)
        #expect(host.undoTitle == "Undo Insert Picture")
        try host.undo()
        #expect(try host.show("page", "org.undohost.text") == "")
        #expect(try host.show("page", "org.undohost.canvas") == "")
        #expect(try host.show("page", "org.undohost.test.probe").hasPrefix("value=0 "))
        try host.redo()
        #expect(try host.show("page", "org.undohost.text") == "Caption")
        #expect(try host.show("page", "org.undohost.canvas") == "#1 rect x=0 y=0 w=10 h=10 color=#000000")
    }

    @Test func aFailureInsideAGroupPutsBackTheWholeGroup() throws {
        let (host, _) = try loadAll()
        let doc = UndoContext("page")
        try host.history.withStack { try $0.beginGroup(named: "Batch") }
        try host.perform("text.insert", [.i64(0), .string("abc")], in: doc)
        try host.perform("probe.undofail", [.i32(0)], in: doc)
        try host.history.withStack { try $0.endGroup() }
        // Undoing runs undofail's inverse first; it fails, so nothing is undone.
        #expect(hostError { try host.undo() } != nil)
        #expect(try host.show("page", "org.undohost.text") == "abc")
        #expect(host.history.withStack { $0.undoCount } == 1)
    }

    @Test func theSavePointCoversPluginSteps() throws {
        let (host, _) = try loadAll()
        let doc = UndoContext("a.txt")
        try host.perform("text.insert", [.i64(0), .string("saved")], in: doc)
        try host.history.withStack { try $0.markSaved(doc) }
        #expect(host.history.withStack { $0.isDirty(doc) } == false)
        host.history.withStack { $0.breakCoalescing() }
        try host.perform("text.insert", [.i64(5), .string("!")], in: doc)
        try host.perform("text.bold", [.i64(0), .i64(5)], in: doc)
        #expect(host.history.withStack { $0.isDirty(doc) })
        try host.history.withStack { _ = try $0.revertToSaved(doc) }
        #expect(try host.show("a.txt", "org.undohost.text") == "saved")
        #expect(host.history.withStack { $0.isDirty(doc) } == false)
    }

    @Test func unloadingRemovesThePluginsStepsAndCallsDeinit() throws {
        let (host, probe) = try loadAll()
        let text = UndoContext("t")
        let drawing = UndoContext("c")
        try host.perform("text.insert", [.i64(0), .string("one")], in: text)
        try host.perform("canvas.add", argumentText: #"1 "rect" 0 0 1 1 0"#, in: drawing)
        try host.perform("probe.set", [.i64(7)], in: text)
        host.history.withStack { $0.breakCoalescing() }
        try host.perform("text.insert", [.i64(3), .string(" two")], in: text)
        try host.perform("canvas.move", [.u64(1), .f64(2), .f64(2)], in: drawing)
        #expect(host.stepCount == 5)

        try host.unload("org.undohost.canvas")
        #expect(host.stepCount == 3)
        #expect(host.plugins.map(\.id) == ["org.undohost.text", "org.undohost.test.probe"])
        #expect(throws: PluginHostError.unknownAction("canvas.add", suggestion: nil)) {
            try host.perform("canvas.add", argumentText: #"2 "rect" 0 0 1 1 0"#, in: drawing)
        }
        #expect(host.undoTitle == "Undo Typing")
        try host.undo(count: 3)
        #expect(try host.show("t", "org.undohost.text") == "")
        #expect(try host.show("t", "org.undohost.test.probe").hasPrefix("value=0 "))
        try host.redo(count: 3)
        #expect(try host.show("t", "org.undohost.text") == "one two")

        typealias Counts = @convention(c) (UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
        let counts = try Fixtures.function("probe_counts", in: probe, as: Counts.self)
        var inits: Int32 = 0
        var deinits: Int32 = 0
        try host.unload("org.undohost.test.probe")
        counts(&inits, &deinits)
        #expect((inits, deinits) == (1, 1))
        #expect(host.stepCount == 2)
        #expect(throws: PluginHostError.unknownPlugin("org.undohost.test.probe")) {
            try host.unload("org.undohost.test.probe")
        }
        // It can be loaded again: init runs again, with a fresh instance.
        try host.load(file: probe)
        counts(&inits, &deinits)
        #expect((inits, deinits) == (2, 1))
        #expect(try host.show("t", "org.undohost.test.probe").hasPrefix("value=0 performs=0"))
    }

    /// The question an unload asks of every step: a step of the plugin, a step of another
    /// plugin, and a command that is no plugin step (read as its type, and as the history
    /// hands over a command of unknown type).
    @Test func anUnloadTellsItsPluginsStepsApart() throws {
        let (host, _) = try loadAll()
        try host.perform("text.insert", [.i64(0), .string("one")], in: UndoContext("t"))
        let step = try #require(host.newestPluginCommand)
        let text = step.action.plugin
        let canvas = try host.actionType("canvas.add").plugin
        #expect(text !== canvas)
        #expect(PluginCommand.StepsOf(plugin: text).matches(picked: step))
        #expect(!PluginCommand.StepsOf(plugin: canvas).matches(picked: step))
        #expect(PluginCommand.StepsOf(plugin: text).matches(step) && !PluginCommand.StepsOf(plugin: canvas).matches(step))
        #expect(!PluginCommand.StepsOf(plugin: text).matches(NoPluginStep()))
    }

    private struct NoPluginStep: UndoCommand {
        mutating func perform(_ changes: inout UndoChanges) throws {}
        mutating func undo(_ changes: inout UndoChanges) throws {}
    }

    @Test func aHostGoingAwayUnloadsItsPlugins() throws {
        let probe = try Fixtures.buildPlugin("probe.c")
        let history = SharedUndoHistory(UndoStack())
        do {
            let host = PluginHost(history: history, log: { _ in })
            try host.load(file: probe)
            try host.perform("probe.set", [.i64(1)], in: .global)
            #expect(history.withStack { $0.count } == 1)
        }
        #expect(history.withStack { $0.count } == 0)
        typealias Counts = @convention(c) (UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
        var inits: Int32 = 0
        var deinits: Int32 = 0
        try Fixtures.function("probe_counts", in: probe, as: Counts.self)(&inits, &deinits)
        #expect((inits, deinits) == (1, 1))
    }

    /// Two hosts in one process load the same file: init runs twice and the instances are
    /// separate.
    @Test func twoHostsHaveSeparateInstances() throws {
        let (first, _) = makeHost()
        let (second, _) = makeHost()
        try first.load(file: Fixtures.textEditor)
        try second.load(file: Fixtures.textEditor)
        try first.perform("text.insert", [.i64(0), .string("first")], in: .global)
        try second.perform("text.insert", [.i64(0), .string("second")], in: .global)
        #expect(try first.show("", "org.undohost.text") == "first")
        #expect(try second.show("", "org.undohost.text") == "second")
        try first.unload("org.undohost.text")
        try second.undo()
        #expect(try second.show("", "org.undohost.text") == "")
    }

    /// Threads performing, undoing and reading at once, each in its own document; afterwards
    /// every document and the history still agree.
    @Test func threadsShareTheHistorySafely() async throws {
        let (host, _) = try loadAll()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let doc = UndoContext("doc\(worker)")
                    for i in 0..<60 {
                        _ = try? host.perform("text.insert", [.i64(0), .string("x")], in: doc)
                        if i % 3 == 0 { host.history.withStack { $0.breakCoalescing() } }
                        if i % 7 == 0 { _ = try? host.history.withStack { try $0.undo(in: doc) } }
                        _ = try? host.describe(doc, plugin: "org.undohost.text")
                        _ = host.undoTitle
                    }
                }
            }
        }
        for worker in 0..<4 {
            let doc = UndoContext("doc\(worker)")
            let text = try host.describe(doc, plugin: "org.undohost.text")
            #expect(!text.isEmpty && text.allSatisfy { $0 == "x" }, "\(text)")
            try host.history.withStack { stack in
                while stack.canUndo(in: doc) { _ = try stack.undo(in: doc) }
            }
            #expect(try host.describe(doc, plugin: "org.undohost.text") == "")
            try host.history.withStack { stack in
                while stack.canRedo(in: doc) { _ = try stack.redo(in: doc) }
            }
            #expect(try host.describe(doc, plugin: "org.undohost.text") == text)
        }
    }
}
