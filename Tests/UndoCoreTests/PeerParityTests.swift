import Testing
@testable import UndoCore

/// Scenarios after the peers' own tests (Qt's QUndoStack, the Rust crate `undo`), written for
/// UndoHost: what they promise, this history keeps too.
@Suite struct PeerParity {
    // MARK: Forgetting the save point (Qt resetClean, Rust clear_saved)

    @Test func forgettingTheSavePointMakesEveryStateDirty() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        var dirtyChanges = 0
        let observation = stack.observe { _, changes in if changes.contains(.dirty) { dirtyChanges += 1 } }
        defer { observation.cancel() }
        for text in ["a", "b"] { try stack.perform(Append(store: store, text: text)) }
        try stack.markSaved()
        #expect(!stack.isDirty() && dirtyChanges == 2)
        try stack.forgetSavePoint()
        // No state is the saved one: here, and wherever undo or redo goes.
        #expect(stack.isDirty() && dirtyChanges == 3)
        try stack.undo()
        #expect(stack.isDirty())
        try stack.undo()
        #expect(stack.isDirty() && !stack.isSavedAtStart())
        try stack.redo(count: 2)
        #expect(stack.isDirty() && !stack.canRevertToSaved())
        #expect(throws: UndoError.savePointUnreachable(.global)) { try stack.revertToSaved() }
        #expect(stack.steps.allSatisfy { !$0.isSavePoint })
        // The next save is a save point again.
        try stack.markSaved()
        #expect(!stack.isDirty())
        try stack.undo()
        #expect(stack.isDirty())
        try stack.redo()
        #expect(!stack.isDirty())
        stack.checkInvariants()
    }

    @Test func forgettingTouchesOnlyItsContext() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        let a = UndoContext("a"), b = UndoContext("b")
        try stack.perform(Append(store: store, text: "1", context: a))
        try stack.perform(Append(store: store, text: "2", context: b))
        try stack.markSaved(a)
        try stack.markSaved(b)
        try stack.forgetSavePoint(a)
        #expect(stack.isDirty(a) && !stack.isDirty(b))
        // Even an empty history with no save point is dirty: the start is no longer the save.
        let empty = UndoStack.testing()
        try empty.forgetSavePoint()
        #expect(empty.isDirty())
    }
}
