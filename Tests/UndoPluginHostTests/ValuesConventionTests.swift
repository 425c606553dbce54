import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// ABI 1.7: the values calling convention (UNDO_ACTION_VALUES): perform and inverse are
/// `undo_values_fn`s, called through that prototype with the declared parameters as an array of
/// undo_value, on either call route; merge is unchanged; a wrong prototype does not compile.
@Suite struct ValuesConventionTests {
    typealias Counter = @convention(c) () -> Int32

    /// Built as C99 and as C++17, loaded, and run through perform, redo, undo and merge, on the
    /// direct route and the libffi one (a values function goes through its own prototype on both).
    @Test(arguments: [false, true], PluginCallRoute.allCases)
    func aValuesPluginPerformsUndoesRedoesAndMerges(cxx: Bool, route: PluginCallRoute) throws {
        let plugin = try Fixtures.buildPlugin("values.c", cxx: cxx)
        let lastCount = try Fixtures.function("values_last_count", in: plugin, as: Counter.self)
        let calls = try Fixtures.function("values_calls", in: plugin, as: Counter.self)
        let (host, _) = makeHost()
        host.callRoute = route
        try host.load(file: plugin)
        let action = try #require(host.plugins.first?.actionTypes.first { $0.localID == "set" })
        #expect(action.performFunction.values != nil && action.inverseFunction.values != nil)
        #expect(action.performFunction.direct == nil)

        let document = UndoContext("doc-\(cxx)-\(route)")
        let show = { try host.show(document.name, "org.undohost.test.values") }
        let before = calls()
        try host.perform("values.note", [.string("ab"), .bytes(Array("cd".utf8))], in: document)
        #expect(try show() == "value=0 note=abcd")
        #expect(lastCount() == 2)
        try host.perform("values.set", [.i64(5)], in: document)
        try host.perform("values.set", [.i64(9)], in: document)  // merged into the previous set
        #expect(try show() == "value=9 note=abcd")
        #expect(lastCount() == 1)

        try host.undo()  // the merged set: back to the first old value
        #expect(try show() == "value=0 note=abcd")
        try host.undo()
        #expect(try show() == "value=0 note=")
        #expect(lastCount() == 2)
        try host.redo()
        try host.redo()
        #expect(try show() == "value=9 note=abcd")
        #expect(!host.history.withStack { $0.canRedo })
        #expect(calls() - before == 7)  // note, set, set, undo ×2, redo ×2: every call got its count
    }

    /// A plugin's error from a values function reaches the caller with its message, and the
    /// failed step changes nothing.
    @Test func aValuesFunctionReportsItsError() throws {
        let (host, _) = makeHost()
        try host.load(file: try Fixtures.buildPlugin("values.c"))
        let document = UndoContext("errors")
        let error = hostError { try host.perform("values.note", [.string("fail"), .bytes([])], in: document) }
        #expect(error?.code == Int32(UNDO_EINVAL))
        #expect(error?.description.contains(#"the note "fail" is refused"#) == true, "\(String(describing: error))")
        #expect(!host.history.withStack { $0.canUndo })
        // Wrong counts and types never reach the function: the host checks the step's arguments.
        let wrong = hostError { try host.perform("values.set", [.i64(1), .i64(2)], in: document) }
        #expect(wrong?.code == Int32(UNDO_ECOUNT))
        let mistyped = hostError { try host.perform("values.set", [.string("x")], in: document) }
        #expect(mistyped?.code == Int32(UNDO_ETYPE))
    }

    /// A function that is not an undo_values_fn, given to a _VALUES setter, does not compile
    /// (perform's and inverse's; in C99 and in C++).
    @Test(arguments: [(1, "perform_does_not_match_undo_values_fn"), (2, "inverse_does_not_match_undo_values_fn")],
          [false, true])
    func aMismatchedValuesFunctionDoesNotCompile(_ mismatch: (Int, String), cxx: Bool) throws {
        do {
            _ = try Fixtures.buildPlugin("values.c", defines: ["MISMATCH=\(mismatch.0)"], cxx: cxx)
            Issue.record("MISMATCH=\(mismatch.0) compiled")
        } catch let error as Fixtures.BuildError {
            #expect(error.description.contains(cxx ? "undo__checked_fn" : mismatch.1), "\(error)")
        }
    }

    /// A host refuses flags it does not know, so a 1.6 host, which does not know
    /// UNDO_ACTION_VALUES, fails the load cleanly instead of calling a values function with C
    /// parameters (shown here with a bit this host does not know either).
    @Test func anUnknownFlagFailsTheLoad() throws {
        let (host, _) = makeHost()
        let path = try Fixtures.buildPlugin("values.c", defines: ["UNKNOWN_FLAG"])
        do {
            try host.load(file: path)
            Issue.record("a plugin with an unknown flag was loaded")
        } catch {
            #expect(String(describing: error).contains("flags has unknown bits (6)"), "\(error)")
        }
        #expect(host.plugins.isEmpty)
        #expect(ActionTypeReader.knownFlags == UInt32(UNDO_ACTION_DISCARDABLE) | UInt32(UNDO_ACTION_VALUES))
    }
}
