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
        // A history panel shows the revert as a group of the steps it takes back.
        #expect(stack.steps.last?.memberCount == 3)
        #expect(store[.global] == "a" && !stack.isDirty())
        #expect(stack.undoMenuTitle == "Undo Revert to Saved")
        try stack.undo()
        #expect(store[.global] == "abcd" && stack.isDirty())
        try stack.redo()
        #expect(store[.global] == "a" && !stack.isDirty())
        #expect(try stack.revertToSaved() == nil)
        stack.checkInvariants()
        // Past the revert, every step since the save is still a step of its own.
        try stack.undo()
        #expect(store[.global] == "abcd" && stack.undoMenuTitle == "Undo Insert")
        for expected in ["abc", "ab", "a"] {
            try stack.undo()
            #expect(store[.global] == expected)
        }
        #expect(!stack.isDirty())
        try stack.undo()
        #expect(store[.global] == "" && !stack.canUndo)
        try stack.redo(count: 5)
        #expect(store[.global] == "a" && !stack.isDirty())
        stack.checkInvariants()
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

    /// The saved state on another branch (a change after undoing set it aside): the revert
    /// reaches it, as Vim's `:e!` reads the saved file whatever branch it was written from.
    @Test func aRevertReachesTheSavedStateOnAnotherBranch() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a"))   // 1
        try stack.markSaved()
        try stack.undo()
        try stack.perform(Append(store: store, text: "b"))   // 2: 1 hangs at the start
        #expect(stack.isDirty() && stack.canRevertToSaved())
        let result = try #require(try stack.revertToSaved())   // 3
        #expect(store[.global] == "a" && !stack.isDirty() && result.stepCount == 2)
        #expect(stack.steps.last?.memberCount == 2)   // the step back, then "a" again
        #expect(stack.currentState == 3)
        try stack.undo()
        #expect(store[.global] == "b" && stack.currentState == 2)
        try stack.goTo(state: 1)
        #expect(store[.global] == "a" && !stack.isDirty())
        try stack.goTo(state: 3)
        #expect(store[.global] == "a" && !stack.isDirty())
        stack.checkInvariants()
    }

    /// Refused only for a true reason, named: the saved state's steps were dropped by a limit.
    @Test func aSavedStateALimitDroppedIsAnError() throws {
        let store = TextStore()
        let stack = UndoStack.testing(countLimit: 2)
        try stack.perform(Append(store: store, text: "a"))
        try stack.markSaved()
        for text in ["b", "c", "d"] { try stack.perform(Append(store: store, text: text)) }   // "a" dropped
        #expect(stack.isDirty() && !stack.canRevertToSaved())
        #expect(throws: UndoError.savePointUnreachable(.global)) { try stack.revertToSaved() }
        #expect(store[.global] == "abcd")
    }

    @Test func trimmingTheStartMakesTheOpeningStateUnreachable() throws {
        let store = TextStore()
        let stack = UndoStack.testing(countLimit: 2)
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        try stack.undo(count: 2)
        #expect(store[.global] == "a" && stack.isDirty())   // "a" was dropped: never clean again
    }

    @Test func trimmingStepsOfSeveralContextsMakesEachOpeningStateUnreachable() throws {
        // Trimming keeps the newest baseline of one context aside and writes it down only when
        // a step of another context is trimmed or the save states are read: both must count.
        let store = TextStore()
        let a = UndoContext("a.txt"), b = UndoContext("b.txt")
        let stack = UndoStack.testing(countLimit: 2)
        try stack.perform(Append(store: store, text: "1", context: a))
        try stack.perform(Append(store: store, text: "x", context: b))
        try stack.perform(Append(store: store, text: "2", context: a))   // trims a's "1"
        try stack.perform(Append(store: store, text: "y", context: b))   // trims b's "x"
        #expect(stack.count == 2)
        try stack.undo(count: 2)
        #expect(store[a] == "1" && store[b] == "x")
        #expect(stack.isDirty(a) && stack.isDirty(b))    // neither opening state is reachable
        #expect(!stack.canRevertToSaved(a) && !stack.canRevertToSaved(b))
        stack.checkInvariants()

        // A baseline still set aside (the last trim, of one context only) counts as well.
        let single = UndoStack.testing(countLimit: 1)
        try single.perform(Append(store: store, text: "3", context: a))
        try single.perform(Append(store: store, text: "4", context: a))  // trims "3"
        try single.undo()
        #expect(single.isDirty(a))
        try single.markSaved(a)
        #expect(!single.isDirty(a))
        try single.redo()
        #expect(single.isDirty(a))
        single.checkInvariants()
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
