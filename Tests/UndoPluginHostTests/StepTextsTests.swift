import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// A step's two texts from plugins (undo_host.set_description and locale, ABI 1.7), after Qt's
/// QUndoCommand: the action text for the Edit menu ("Undo Typing") beside the text a history
/// list shows (`Typing "hello"`); and reading a step's values back, after the Rust crate
/// `undo`'s entries. Fixture: Fixtures/texts.c; the text editor sample.
@Suite struct StepTextsTests {
    func host(_ locale: UndoLocale = .english) throws -> PluginHost {
        let stack = UndoStack(coalescingWindow: nil, formatter: UndoTitleFormatter(locale: locale))
        let host = PluginHost(history: SharedUndoHistory(stack), log: { _ in })
        try host.load(file: try Fixtures.buildPlugin("texts.c"))
        return host
    }

    func rows(_ host: PluginHost) -> [(name: String?, description: String?, text: String?)] {
        host.history.withStack { stack in
            stack.steps.map { ($0.name, $0.historyDescription, stack.historyText(at: $0.index)) }
        }
    }

    func fixtureReport(_ host: PluginHost) throws -> String {
        try host.describe(.global, plugin: "org.undohost.test.texts")
    }

    /// Qt's scenario: the menu says "Undo Typing" while the list says `Typing "hello"`.
    @Test func theMenuShowsTheNameAndTheListTheDescription() throws {
        let host = try host()
        try host.perform("texts.type", [.string("hello")])
        try host.perform("texts.plain", [.i64(1)])
        let rows = rows(host)
        #expect(rows.map(\.name) == ["Typing", "Plain"])
        #expect(rows.map(\.description) == ["Typing \"hello\"", nil])
        // A step without a description shows its name in the list.
        #expect(rows.map(\.text) == ["Typing \"hello\"", "Plain"])
        try host.undo()
        #expect(host.history.withStack { $0.undoMenuTitle } == "Undo Typing")
        #expect(try fixtureReport(host).hasPrefix("locale=en "))
    }

    /// The plugin sees the host's locale and writes its description in it.
    @Test func aKoreanHostGetsKoreanDescriptions() throws {
        let host = try host(.korean)
        try host.perform("texts.type", [.string("안녕")])
        #expect(try fixtureReport(host).hasPrefix("locale=ko "))
        #expect(rows(host).first?.description == "\"안녕\" 입력")
    }

    /// A merge that describes the joined step replaces the description; one that does not keeps
    /// the older step's.
    @Test func aMergeReplacesOrKeepsTheDescription() throws {
        let host = try host()
        try host.perform("texts.type", [.string("he")])
        try host.perform("texts.type", [.string("llo")])
        #expect(rows(host).map(\.description) == ["Typing \"hello\""])
        try host.perform("texts.type", [.string("=!")])
        #expect(host.history.withStack { $0.count } == 1)
        #expect(rows(host).map(\.description) == ["Typing \"hello\""])
        #expect(host.stepValues(at: 0)?.arguments.map(\.value) == [.string("hello=!")])
    }

    /// NULL removes a description; a redo keeps the first one; the inverse may not set one;
    /// text that is not UTF-8 or too long is refused with its code, and the step keeps what it
    /// set after.
    @Test func refusalsAndRemoval() throws {
        let host = try host()
        try host.perform("texts.type", [.string("-")])
        #expect(rows(host).map(\.description) == [nil])
        host.history.withStack { $0.breakCoalescing() }
        try host.perform("texts.type", [.string("bad")])
        host.history.withStack { $0.breakCoalescing() }
        try host.perform("texts.type", [.string("long")])
        #expect(rows(host).map(\.description) == [nil, "Typing \"bad\"", "Typing \"long\""])
        try host.undo()
        try host.redo()
        #expect(rows(host).map(\.description) == [nil, "Typing \"bad\"", "Typing \"long\""])
        #expect(try fixtureReport(host)
            == "locale=en utf8=\(UNDO_EUTF8) long=\(UNDO_ELIMIT) inverse=\(UNDO_ESTATE) redo=\(UNDO_OK)")
    }

    /// The Rust crate `undo` reads its entries back; here a plugin step gives its action type
    /// and its typed, named arguments, the inverse's too.
    @Test func aStepsValuesCanBeReadBack() throws {
        let stack = UndoStack(coalescingWindow: nil)
        let host = PluginHost(history: SharedUndoHistory(stack), log: { _ in })
        try host.load(file: Fixtures.textEditor)
        try host.perform("text.insert", [.i64(0), .string("hello")], in: UndoContext("a"))
        try host.perform("text.delete", [.i64(1), .i64(3)], in: UndoContext("a"))
        let insert = try #require(host.stepValues(at: 0))
        #expect(insert.actionID == "org.undohost.text/insert")
        #expect(insert.shortID == "text.insert")
        #expect(insert.description == "Typing \"hello\"")
        #expect(insert.arguments == [PluginStepArgument(name: "position", type: .i64, value: .i64(0)),
                                     PluginStepArgument(name: "text", type: .string, value: .string("hello"))])
        // The inverse takes perform's arguments.
        #expect(insert.inverseArguments == insert.arguments)
        let delete = try #require(host.stepValues(at: 1))
        #expect(delete.actionID == "org.undohost.text/delete")
        #expect(delete.description == "Delete \"ell\"")
        #expect(delete.arguments.map(\.name) == ["position", "length"])
        #expect(delete.inverseArguments.map(\.type) == [.i64, .string, .bytes])
        #expect(delete.inverseArguments[1].value == .string("ell"))
        // The same values, as texts, for a list that shows any step.
        #expect(stack.historyValues(at: 0) == [UndoStepValue(label: "position", value: "0"),
                                               UndoStepValue(label: "text", value: "\"hello\"")])
        // No such step, or not a plugin step: nil.
        #expect(host.stepValues(at: 2) == nil)
        #expect(host.stepValues(at: -1) == nil)
        try stack.beginGroup(named: "Both")
        try host.perform("text.insert", [.i64(0), .string("x")], in: UndoContext("a"))
        try stack.endGroup()
        #expect(host.stepValues(at: 2) == nil)
    }

    /// The text editor sample describes typing in the host's language, and its merge describes
    /// the whole run.
    @Test func theTextEditorDescribesTypingInKorean() throws {
        let stack = UndoStack(coalescingWindow: nil, formatter: UndoTitleFormatter(locale: .korean))
        let host = PluginHost(history: SharedUndoHistory(stack), log: { _ in })
        try host.load(file: Fixtures.textEditor)
        try host.perform("text.insert", [.i64(0), .string("안")])
        try host.perform("text.insert", [.i64(1), .string("녕")])
        #expect(stack.steps.map(\.historyDescription) == ["\"안녕\" 입력"])
        #expect(stack.steps.map(\.name) == ["입력"])
    }
}
