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

    /// Reading one row reads one step; listing the contexts reads none: a panel that shows a
    /// few rows of a long history pays for those rows only.
    @Test func oneRowReadsOneStepAndTheContextsReadNone() throws {
        let reads = ReadCounter()
        let stack = UndoStack.testing()
        for index in 0..<1_000 {
            try stack.perform(CountedRead(reads: reads, context: UndoContext(index % 2 == 0 ? "even" : "odd")))
        }
        reads.count = 0
        let row = stack.step(at: 500)
        #expect(row.index == 500 && row.context == UndoContext("even"))
        #expect(reads.count == 3, "name, context and discardable of one step, once each")
        reads.count = 0
        #expect(Set(stack.contexts) == [UndoContext("even"), UndoContext("odd")])
        #expect(reads.count == 0)
    }
}

private final class ReadCounter { var count = 0 }

/// A step that counts how often the history reads its properties.
private struct CountedRead: UndoCommand {
    let reads: ReadCounter
    let place: UndoContext
    init(reads: ReadCounter, context: UndoContext) { self.reads = reads; self.place = context }
    var name: String? { reads.count += 1; return "Read" }
    var context: UndoContext { reads.count += 1; return place }
    var isDiscardable: Bool { reads.count += 1; return false }
    func perform(_ changes: inout UndoChanges) throws {}
    func undo(_ changes: inout UndoChanges) throws {}
}
