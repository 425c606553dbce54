import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// Performing an action type resolved once (PluginHost+Performing): script text and C values,
/// checked once, with the errors and codes of performing by id; and the one table of codes
/// (ErrorReport) the C API and undo-host read.
@Suite struct ResolvedPerformingTests {
    let host: PluginHost
    let doc = UndoContext("a.txt")

    init() throws {
        host = makeHost().0
        try host.load(file: Fixtures.textEditor)
    }

    func text() throws -> String { try host.describe(doc, plugin: "org.undohost.text") }

    @Test func argumentTextPerformsTheResolvedAction() throws {
        let insert = try host.actionType("text.insert")
        try host.perform(insert, argumentText: #"0 "Hello""#, in: doc)
        #expect(try text() == "Hello")
        // The same error as performing by id, and nothing performed.
        let byID = try #require(throws: PluginHostError.self) { try host.perform("text.insert", argumentText: "0", in: doc) }
        let resolved = try #require(throws: PluginHostError.self) { try host.perform(insert, argumentText: "0", in: doc) }
        #expect(resolved == byID)
        #expect(resolved.code == Int32(UNDO_ECOUNT))
        #expect(host.stepCount == 1)
    }

    @Test func cValuesPerformTheResolvedAction() throws {
        let insert = try host.actionType("text.insert")
        var values = [undo_value(), undo_value()]
        values[0].type = UInt32(UNDO_TYPE_I32)  // converted to the parameter's i64
        values[0].as.i32 = 0
        try "Hi".withCString { text in
            values[1].type = UInt32(UNDO_TYPE_STRING)
            values[1].as.string.data = text
            values[1].as.string.size = 2
            try host.perform(insert, values: values, count: 2, in: doc)
        }
        #expect(try text() == "Hi")
        #expect(throws: PluginHostError.invalidArguments(insert, ActionArgumentError(.wrongCount(expected: 2, given: 3)))) {
            try PluginHost.checkArgumentCount(3, of: insert)
        }
        try PluginHost.checkArgumentCount(2, of: insert)
        let none = try #require(throws: PluginHostError.self) { try host.perform(insert, values: nil, count: 2, in: doc) }
        #expect(none.code == Int32(UNDO_EINVAL))
        #expect(host.stepCount == 1)
    }

    @Test func anActionTypeOfAnotherHostIsRefused() throws {
        let other = makeHost().0
        try other.load(file: Fixtures.textEditor)
        let insert = try other.actionType("text.insert")
        #expect(throws: PluginHostError.unknownAction("org.undohost.text/insert", suggestion: nil)) {
            try host.perform(insert, argumentText: #"0 "x""#, in: doc)
        }
        #expect(throws: PluginHostError.unknownAction("org.undohost.text/insert", suggestion: nil)) {
            try host.perform(insert, values: nil, count: 0, in: doc)
        }
        #expect(host.stepCount == 0 && other.stepCount == 0)
    }

    @Test func oneTableGivesEachErrorItsCodeNameAndMessage() {
        let failure = PluginActionError(pluginID: "p", actionID: "p.a", phase: .perform, code: Int32(UNDO_ERANGE), message: "no")
        #expect(ErrorReport(PluginHostError.actionFailed(failure)).code == Int32(UNDO_ERANGE))
        #expect(ErrorReport(failure as any Error) == ErrorReport(PluginHostError.actionFailed(failure)))
        #expect(ErrorReport(UndoError.nothingToUndo).codeName == "UNDO_EEMPTY")
        #expect(ErrorReport(UndoError.nothingToUndo as any Error) == ErrorReport(PluginHostError.history(.nothingToUndo)))
        let unknown = ErrorReport(PluginHostError.unknownPlugin("x"))
        #expect(unknown.code == Int32(UNDO_ENOTFOUND) && unknown.message == "no plugin x is loaded")
        #expect(unknown.description == "UNDO_ENOTFOUND: no plugin x is loaded")
        struct Foreign: Error {}
        #expect(ErrorReport(Foreign() as any Error).code == Int32(UNDO_EPLUGIN))
        #expect(ErrorReport.codeNames.first?.name == "UNDO_EINVAL" && ErrorReport.codeNames.first?.code == Int32(UNDO_EINVAL))
        #expect(ErrorReport.codeNames.allSatisfy { ErrorReport.code(named: $0.name.lowercased()) == $0.code })
        #expect(ErrorReport.code(named: "UNDO_NOPE") == nil)
        #expect(ErrorReport.name(of: -999) == "UNDO_EUNKNOWN")
    }
}
