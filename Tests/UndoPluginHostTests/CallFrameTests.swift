import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// The call frame's bookkeeping, which the callbacks rely on: a frame is this thread's current
/// one exactly while its call is under way (a nested call's frame during the nested call, the
/// outer one again after it), a callback's `undo_call *` is accepted only then, and the
/// `undo_call` describes the call's action, phase and plugin data.
@Suite struct CallFrameTests {
    @Test func aFrameIsCurrentOnlyWhileItsCallIsUnderWayAndNestedCallsPutTheOuterOneBack() {
        let table = HostTables.makeTable(hostName: "test", hostVersion: "1", locale: "en")
        defer { HostTables.retire(table) }
        let outer = CallFrame(hostTable: table, pluginData: nil, phase: .describe)
        let inner = CallFrame(hostTable: table, pluginData: nil, phase: .describe)
        #expect(CallFrame.current == nil)
        var outerCall: UnsafeMutablePointer<undo_call>?
        outer.run { call in
            outerCall = call
            #expect(CallFrame.current === outer)
            #expect(CallFrame.accepting(call) === outer)
            inner.run { innerCall in
                #expect(CallFrame.current === inner)
                #expect(CallFrame.accepting(innerCall) === inner)
                #expect(CallFrame.accepting(call) == nil)  // the outer call is not the one under way
            }
            #expect(CallFrame.current === outer)
            #expect(CallFrame.accepting(call) === outer)
        }
        #expect(CallFrame.current == nil)
        #expect(CallFrame.accepting(outerCall) == nil)  // a call that ended is refused
        #expect(!PluginHost.isInsidePluginCall)
    }

    /// The kept frame of perform and inverse calls is given back on every way out: after a
    /// success, after a plugin's failure (thrown out of the frame's body), and after a failure
    /// with changes reported.
    @Test func theKeptFrameIsGivenBackAfterSuccessesAndFailures() throws {
        let (host, _) = makeHost()
        _ = try host.load(file: try Fixtures.buildPlugin("spoiler.c"))
        let doc = UndoContext("doc")
        let grow = try host.actionType("spoiler.grow")
        let plugin = grow.plugin
        #expect(plugin.keptFrameIsFree)
        _ = try host.perform(grow, argumentText: "10", in: doc)
        #expect(plugin.keptFrameIsFree)
        for arguments in ["5 1", "5 0"] {
            #expect(throws: PluginHostError.self) {
                try host.perform(try host.actionType("spoiler.spoil"), argumentText: arguments, in: doc)
            }
            #expect(plugin.keptFrameIsFree, "\(arguments)")
        }
        try host.undo()
        #expect(plugin.keptFrameIsFree)
        try host.redo()
        #expect(plugin.keptFrameIsFree)
    }

    /// The kept frame names each call's own action type, however the types alternate: the
    /// plugin reads `action_id` in every perform, inverse and redo, and the host's callbacks
    /// read the frame's action type (unretained, set by every call).
    @Test func theKeptFrameNamesEachCallsActionTypeAsTheTypesAlternate() throws {
        let (host, _) = makeHost()
        let path = try Fixtures.buildPlugin("many.c", defines: ["ACTION_COUNT=3"])
        try host.load(file: path)
        typealias LastActionID = @convention(c) () -> UnsafePointer<CChar>
        let lastActionID = try Fixtures.function("many_last_action_id", in: path, as: LastActionID.self)
        var seen: [String] = []
        for id in ["a0", "a1", "a0", "a2"] {
            try host.perform(try host.actionType(id), [])
            seen.append(String(cString: lastActionID()))
        }
        for _ in 0..<4 {
            try host.undo()
            seen.append(String(cString: lastActionID()))
        }
        for _ in 0..<2 {
            try host.redo()
            seen.append(String(cString: lastActionID()))
        }
        #expect(seen == ["a0", "a1", "a0", "a2", "a2", "a0", "a1", "a0", "a0", "a1"])
    }

    /// What each call reports reaches the result in order: an undo of several steps collects the
    /// changes of one inverse after another (the collector takes the first call's changes as a
    /// whole and appends the next ones).
    @Test func changesReportedByCallsReachTheResultInOrder() throws {
        let (host, _) = makeHost()
        try host.load(file: Fixtures.textEditor)
        let doc = UndoContext("doc")
        for (position, text) in [(0, "ab"), (2, "cd"), (4, "ef")] {
            try host.perform("text.insert", [.i64(Int64(position)), .string(text)], in: doc)
            try host.breakCoalescing()
        }
        try host.setCurrentContext(doc)
        let undone = try #require(try host.undo(count: 3))
        #expect(undone.changes == [4, 2, 0].map { UndoChange(context: doc, location: $0, length: 0) })
        let redone = try #require(try host.redo(count: 3))
        #expect(redone.changes == [0, 2, 4].map { UndoChange(context: doc, location: $0, length: 2) })
    }

    @Test func theCallSaysItsPhaseAndPluginDataAndNamesNoActionAfterForgettingIt() {
        let table = HostTables.makeTable(hostName: "test", hostVersion: "1", locale: "en")
        defer { HostTables.retire(table) }
        var data = 7
        let frame = CallFrame(hostTable: table, pluginData: nil, phase: .describe)
        withUnsafeMutablePointer(to: &data) { pointer in
            frame.setPluginData(UnsafeMutableRawPointer(pointer))
            frame.run { call in
                #expect(call.pointee.plugin_data == UnsafeMutableRawPointer(pointer))
                #expect(call.pointee.phase == UInt32(UNDO_PHASE_DESCRIBE))
                #expect(String(cString: call.pointee.action_id) == "")
            }
            frame.setPluginData(nil)
            frame.run { call in #expect(call.pointee.plugin_data == nil) }
        }
        frame.forgetAction()
        frame.run { call in #expect(String(cString: call.pointee.action_id) == "") }
    }
}
