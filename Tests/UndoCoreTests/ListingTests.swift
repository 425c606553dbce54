import Testing
@testable import UndoCore

/// The step list read one row at a time and the contexts with steps: what the C API's history
/// panel calls (undo_history_step, undo_history_contexts) are built on.
@Suite struct Listing {
    @Test func stepAtIndexIsTheRowOfTheList() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        let one = UndoContext("one"), two = UndoContext("two")
        try stack.perform(Append(store: store, text: "a", context: one))
        try stack.markSaved(one)
        try stack.beginGroup(named: "Pair")
        try stack.perform(Append(store: store, text: "b", context: two))
        try stack.perform(Append(store: store, text: "c", context: .global, discardable: true))
        try stack.endGroup()
        try stack.perform(Append(store: store, text: "d", context: two, named: nil))
        try stack.undo(count: 1)
        #expect(stack.count == 3 && stack.position == 2)
        #expect((0..<stack.count).map(stack.step(at:)) == stack.steps)
        let rows = stack.steps
        #expect(rows.map(\.isApplied) == [true, true, false])
        #expect(rows.map(\.isSavePoint) == [true, false, false])
        #expect(rows.map(\.memberCount) == [0, 2, 0])
        #expect(rows.map(\.name) == ["Insert", "Pair", nil])
    }

    @Test func contextsAreThoseWithStepsGroupsAndTheirMembersIncluded() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        let one = UndoContext("one"), two = UndoContext("two"), three = UndoContext("three")
        #expect(stack.contexts == [])
        try stack.perform(Append(store: store, text: "a", context: one))
        try stack.beginGroup(named: "Pair", context: three)
        try stack.perform(Append(store: store, text: "b", context: two))
        try stack.perform(Append(store: store, text: "c", context: .global))
        try stack.endGroup()
        // The global context first; the others in no set order. The group is a step of "three".
        #expect(stack.contexts.first == .global)
        #expect(Set(stack.contexts) == [.global, one, two, three])
        #expect(stack.contexts.count == 4)
        try stack.undo(count: 2, in: nil)
        #expect(Set(stack.contexts) == [.global, one, two, three], "redo steps count too")
        try stack.removeAll(in: one)
        // Removing steps rewrites the group, which then belongs to what is left in it (two).
        #expect(Set(stack.contexts) == [.global, two])
        try stack.removeAll()
        #expect(stack.contexts == [])
    }
}
