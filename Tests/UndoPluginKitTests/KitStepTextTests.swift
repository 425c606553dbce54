import Testing
import UndoCore
import UndoPluginHost

/// A Swift plugin's step descriptions (UndoCall.setDescription, UndoHostCallbacks.locale),
/// through the SwiftNotes sample: the menu names the step, the history list describes it, in
/// the host's language (Qt's action text beside text).
@Suite struct KitStepTextTests {
    func host(_ locale: UndoLocale) throws -> PluginHost {
        let stack = UndoStack(coalescingWindow: nil, formatter: UndoTitleFormatter(locale: locale))
        let host = PluginHost(history: SharedUndoHistory(stack), log: { _ in })
        try host.load(file: SwiftPluginFixtures.notes)
        return host
    }

    @Test func aSwiftPluginDescribesItsStep() throws {
        let host = try host(.english)
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: UndoContext("list"))
        try host.perform("notes.write", [.string(String(repeating: "a", count: 50)), .i32(0)], in: UndoContext("list"))
        let steps = host.history.withStack { $0.steps }
        #expect(steps.map(\.name) == ["New Note", "New Note"])
        #expect(steps.map(\.historyDescription) == ["Write \"Milk\"", "Write \"" + String(repeating: "a", count: 39) + "…\""])
        // Redo keeps the first description.
        try host.undo()
        try host.redo()
        #expect(host.history.withStack { $0.steps[1].historyDescription } == steps[1].historyDescription)
        // Read back: the action type and the typed arguments, with the description.
        let values = try #require(host.stepValues(at: 0))
        #expect(values.actionID == "org.undohost.notes/write")
        #expect(values.arguments.map(\.name) == ["text", "priority"])
        #expect(values.arguments.map(\.value) == [.string("Milk"), .i32(2)])
        #expect(values.description == "Write \"Milk\"")
    }

    @Test func theDescriptionFollowsTheHostsLocale() throws {
        let host = try host(.korean)
        try host.perform("notes.write", [.string("우유"), .i32(1)])
        #expect(host.history.withStack { $0.steps.map(\.historyDescription) } == ["메모 \"우유\" 쓰기"])
    }
}
