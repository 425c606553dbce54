import Testing
@testable import UndoCore

/// A step's two texts (after Qt's QUndoCommand action text beside its text) and the values a
/// command chooses to show (after the Rust crate `undo`'s reading back of entries).
@Suite struct StepTextTests {
    /// Typing that coalesces, described by what it typed and read back as labelled values.
    struct Typing: UndoCommand {
        let store: TextStore
        var text: String
        var at: Int
        var name: String? { "typing..." }
        var historyDescription: String? { "Typing \"\(text)\"" }
        var historyValues: [UndoStepValue] {
            [UndoStepValue(label: "position", value: String(at)), UndoStepValue(label: "text", value: text)]
        }
        var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("typing") }
        mutating func perform(_ changes: inout UndoChanges) throws { store[.global] += text }
        mutating func undo(_ changes: inout UndoChanges) throws { store[.global].removeLast(text.count) }
        mutating func merge(with next: Typing) -> UndoMerge {
            text += next.text
            return .merged
        }
    }

    /// Qt: the menu shows the action text ("Undo Typing"), the view the longer text; after a
    /// merge both follow the merged command.
    @Test func theMenuShowsTheNameAndTheListTheDescription() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Typing(store: store, text: "hel", at: 0))
        try stack.perform(Typing(store: store, text: "lo", at: 3))
        #expect(stack.count == 1)
        #expect(stack.undoMenuTitle == "Undo Typing")
        #expect(stack.steps[0].name == "typing...")
        #expect(stack.steps[0].historyDescription == "Typing \"hello\"")
        #expect(stack.historyText(at: 0) == "Typing \"hello\"")
        try stack.undo()
        // Redo steps keep their texts.
        #expect(stack.redoMenuTitle == "Redo Typing")
        #expect(stack.step(at: 0).historyDescription == "Typing \"hello\"")
        stack.checkInvariants()
    }

    /// A command that describes nothing: no description, no values; the list shows the name as
    /// titles show it.
    @Test func theDefaultsAreNone() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", named: "insert text."))
        try stack.perform(Append(store: store, text: "b", named: nil))
        #expect(stack.steps.map(\.historyDescription) == [nil, nil])
        #expect(stack.historyValues(at: 0).isEmpty)
        #expect(stack.historyText(at: 0) == "Insert Text")
        #expect(stack.historyText(at: 1) == nil)
    }

    /// Rust undo reads entries back: the values a command gives, in its order, after merging.
    @Test func aCommandsValuesCanBeReadBack() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Typing(store: store, text: "ab", at: 0))
        try stack.perform(Typing(store: store, text: "c", at: 2))
        #expect(stack.historyValues(at: 0) == [UndoStepValue(label: "position", value: "0"),
                                               UndoStepValue(label: "text", value: "abc")])
    }

    /// A group has a description of its own, given when it opens; nested groups too.
    @Test func aGroupHasADescription() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Paste", description: "Paste 2 lines")
        try stack.perform(Append(store: store, text: "a"))
        try stack.beginGroup(named: "Inner")
        try stack.perform(Append(store: store, text: "b"))
        try stack.endGroup()
        try stack.endGroup()
        #expect(stack.steps.map(\.historyDescription) == ["Paste 2 lines"])
        #expect(stack.historyValues(at: 0).isEmpty)
        let group = try #require(stack.command(at: 0) as? UndoGroup)
        #expect((group.members[1] as? UndoGroup)?.historyDescription == nil)
        #expect(stack.undoMenuTitle == "Undo Paste")
        // A description longer than any name is refused like a long name, naming what it is.
        let long = String(repeating: "x", count: UndoStack.maximumNameBytes + 1)
        #expect(throws: UndoError.nameTooLong(what: "group description", bytes: long.utf8.count,
                                              limit: UndoStack.maximumNameBytes)) {
            try stack.beginGroup(named: "G", description: long)
        }
        #expect(stack.groupDepth == 0)
    }

    /// The list's text keeps the description as written (case, quotes, punctuation), with its
    /// whitespace collapsed; a blank description falls back to the name.
    @Test func theHistoryTextKeepsTheDescriptionAsWritten() {
        let formatter = UndoTitleFormatter()
        #expect(formatter.historyText(name: "typing", description: "  typed \"a  b\"...\n") == "typed \"a b\"...")
        #expect(formatter.historyText(name: "typing", description: " \t ") == "Typing")
        #expect(formatter.historyText(name: nil, description: nil) == nil)
        let korean = UndoTitleFormatter(locale: .korean)
        #expect(korean.historyText(name: "입력", description: "\"안녕\" 입력") == "\"안녕\" 입력")
    }
}
