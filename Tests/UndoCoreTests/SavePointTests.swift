import Testing
@testable import UndoCore

@Suite struct SavePoint {
    @Test func markSavedAndDirtyState() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        #expect(!stack.isDirty())
        try stack.perform(Append(store: store, text: "a"))
        #expect(stack.isDirty())
        try stack.markSaved()
        #expect(!stack.isDirty())
        try stack.perform(Append(store: store, text: "b"))
        #expect(stack.isDirty())
        try stack.undo()
        #expect(!stack.isDirty())
        try stack.undo()
        #expect(stack.isDirty())
        try stack.redo()
        #expect(!stack.isDirty())
    }

    @Test func revertToSavedIsOneUndoableStep() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a"))
        try stack.markSaved()
        for text in ["b", "c", "d"] { try stack.perform(Append(store: store, text: text)) }
        let result = try #require(try stack.revertToSaved())
        #expect(result.name == "Revert to Saved" && result.stepCount == 3)
        #expect(store[.global] == "a" && !stack.isDirty())
        #expect(stack.undoMenuTitle == "Undo Revert to Saved")
        try stack.undo()
        #expect(store[.global] == "abcd" && stack.isDirty())
        try stack.redo()
        #expect(store[.global] == "a" && !stack.isDirty())
        #expect(try stack.revertToSaved() == nil)
        stack.checkInvariants()
        // Past the revert, the reverted steps undo in order, then the ones before the save.
        try stack.undo()
        #expect(stack.undoMenuTitle == "Undo Insert")
        try stack.undo()
        #expect(store[.global] == "a")
        try stack.undo()
        #expect(store[.global] == "" && !stack.canUndo)
        try stack.redo(count: 3)
        #expect(store[.global] == "a" && !stack.isDirty())
    }

    @Test func revertForwardWhenTheSavedStateIsAhead() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        try stack.markSaved()
        try stack.undo(count: 2)
        try stack.revertToSaved()
        #expect(store[.global] == "abc" && !stack.isDirty())
        try stack.undo()
        #expect(store[.global] == "a")
    }

    @Test func anUnreachableSavedStateIsAnError() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a"))
        try stack.markSaved()
        try stack.undo()
        try stack.perform(Append(store: store, text: "b"))   // discards the saved redo step
        #expect(stack.isDirty())
        #expect(throws: UndoError.savePointUnreachable(.global)) { try stack.revertToSaved() }
        #expect(store[.global] == "b")
    }

    @Test func trimmingTheStartMakesTheOpeningStateUnreachable() throws {
        let store = TextStore()
        let stack = UndoStack.testing(countLimit: 2)
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        try stack.undo(count: 2)
        #expect(store[.global] == "a" && stack.isDirty())   // "a" was dropped: never clean again
    }

    @Test func neverCoalesceAcrossTheSavePoint() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", typing: true))
        try stack.markSaved()
        try stack.perform(Append(store: store, text: "b", typing: true))
        #expect(stack.count == 2)
        try stack.undo()
        #expect(!stack.isDirty() && store[.global] == "a")
    }
}
