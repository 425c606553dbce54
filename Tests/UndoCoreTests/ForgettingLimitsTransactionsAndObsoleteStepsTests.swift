import Testing
@testable import UndoCore

/// Forgetting the save point, count limits, transactions (committed or cancelled) and obsolete
/// steps: scenarios after Qt's QUndoStack and the Rust crate `undo`, whose promises this history
/// keeps too.
@Suite struct ForgettingLimitsTransactionsAndObsoleteSteps {
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
        // The true reason: the save point was forgotten (no step was dropped).
        #expect(throws: UndoError.noSavePoint(.global)) { try stack.revertToSaved() }
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

    // MARK: Limits (Qt setUndoLimit, Rust set_limit)

    @Test func aLimitOfZeroOrLessIsUnlimitedAsInQt() throws {
        for limit in [0, -3] {
            let counter = Counter()
            let stack = UndoStack.testing(countLimit: limit, memoryLimit: limit)
            #expect(stack.countLimit == nil && stack.memoryLimit == nil)
            for _ in 0..<50 {
                try stack.perform(Nudge(counter: counter))
                stack.breakCoalescing()
            }
            #expect(stack.count == 50 && stack.undoCount == 50)
            stack.countLimit = 10
            #expect(stack.count == 10)
            stack.countLimit = 0
            #expect(stack.countLimit == nil && stack.count == 10)
            stack.checkInvariants()
        }
    }

    @Test func loweringTheLimitBelowTheRedoStepsDropsTheFarthestOnes() throws {
        // Rust's undo raises its limit to keep every redo step; here a limit is a bound kept
        // always: the oldest done steps go, then, with one done step left, the farthest redo.
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c", "d", "e"] { try stack.perform(Append(store: store, text: text)) }
        try stack.undo(count: 3)
        #expect(store[.global] == "ab")
        stack.countLimit = 2
        #expect(stack.countLimit == 2 && stack.count == 2 && stack.treeCount == 2)
        #expect(stack.position == 1 && store[.global] == "ab", "the document does not change")
        try stack.redo()
        #expect(store[.global] == "abc" && !stack.canRedo)
        try stack.undo(count: 2)
        #expect(store[.global] == "a" && !stack.canUndo)
        stack.checkInvariants()
    }

    @Test func loweringTheLimitDropsTheOldestDoneStepsFirst() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c", "d", "e"] { try stack.perform(Append(store: store, text: text)) }
        try stack.undo()
        stack.countLimit = 3
        #expect(stack.position == 2 && stack.redoCount == 1)
        try stack.undo(count: 2)
        #expect(store[.global] == "ab" && !stack.canUndo && stack.isDirty())
        // Everything undone: only the nearest redo steps stay.
        stack.countLimit = 1
        #expect(stack.count == 1)
        try stack.redo()
        #expect(store[.global] == "abc")
        stack.checkInvariants()
    }

    // MARK: Transactions (Rust undo's checkpoints: commit or cancel)

    @Test func aCommittedTransactionIsOneStep() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Drag")
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        #expect(store[.global] == "abc", "changes take effect as they are made")
        try stack.endGroup()
        #expect(stack.count == 1 && stack.undoMenuTitle == "Undo Drag")
        try stack.undo()
        #expect(store[.global] == "")
    }

    @Test func aCancelledTransactionLeavesNoStepAndNoRedo() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b"] { try stack.perform(Append(store: store, text: text)) }
        try stack.undo()
        try stack.markSaved()
        var notified = 0
        let observation = stack.observe { _, _ in notified += 1 }
        defer { observation.cancel() }
        try stack.beginGroup(named: "Preview")
        for text in ["c", "d"] { try stack.perform(Append(store: store, text: text)) }
        #expect(store[.global] == "acd")
        let result = try #require(try stack.cancelGroup())
        #expect(result.direction == .undo && result.name == "Preview" && result.changes.count == 2)
        #expect(store[.global] == "a" && stack.groupDepth == 0 && notified == 2)
        // Nothing of the transaction is left: the redo step from before it is still the next redo.
        #expect(stack.count == 2 && stack.treeCount == 2 && stack.redoMenuTitle == "Redo Insert" && !stack.isDirty())
        try stack.redo()
        #expect(store[.global] == "ab")
        #expect(throws: UndoError.noOpenGroup) { try stack.cancelGroup() }
        stack.checkInvariants()
    }

    @Test func cancellingWithoutAnOpenGroupOrChanges() throws {
        let stack = UndoStack.testing()
        #expect(throws: UndoError.noOpenGroup) { try stack.cancelGroup() }
        try stack.beginGroup()
        #expect(try stack.cancelGroup() == nil)
        #expect(stack.groupDepth == 0 && stack.count == 0)
    }

    @Test func nestedTransactionsCancelOnlyTheInnerOne() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Outer")
        try stack.perform(Append(store: store, text: "x"))
        try stack.beginGroup(named: "Inner")
        try stack.perform(Append(store: store, text: "y", typing: true))
        try stack.perform(Append(store: store, text: "z", typing: true))
        try stack.cancelGroup()
        #expect(store[.global] == "x" && stack.groupDepth == 1)
        try stack.perform(Append(store: store, text: "w"))
        try stack.endGroup()
        #expect(store[.global] == "xw" && stack.count == 1 && stack.names == ["Outer"])
        try stack.undo()
        #expect(store[.global] == "")
        try stack.redo()
        #expect(store[.global] == "xw")
        // Cancelling the outer one takes back its nested, committed group too.
        try stack.beginGroup(named: "Outer")
        try stack.beginGroup(named: "Inner")
        try stack.perform(Append(store: store, text: "1"))
        try stack.endGroup()
        try stack.perform(Append(store: store, text: "2"))
        try stack.cancelGroup()
        #expect(store[.global] == "xw" && stack.count == 1 && stack.groupDepth == 0)
        stack.checkInvariants()
    }

    @Test func aFailingInverseDuringCancelLeavesTheTransactionAsItWas() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a"))
        try stack.beginGroup(named: "Preview")
        for text in ["c", "d"] { try stack.perform(Append(store: store, text: text)) }
        store.failOn = "c"
        #expect(throws: UndoError.self) { try stack.cancelGroup() }
        // As after a failing undo: nothing changed, the transaction is still open.
        #expect(store[.global] == "acd" && stack.groupDepth == 1)
        store.failOn = nil
        try stack.cancelGroup()
        #expect(store[.global] == "a" && stack.count == 1)
    }

    @Test func aCancelThatCannotBePutBackClosesTheTransactionAndDirties() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a"))
        try stack.markSaved()
        try stack.beginGroup(named: "Preview")
        for text in ["c", "d"] { try stack.perform(Append(store: store, text: text)) }
        store.failOn = "c"
        store.failOnRedo = "d"
        do {
            try stack.cancelGroup()
            Issue.record("the cancel should have failed")
        } catch UndoError.rollbackFailed(let step, _) {
            #expect(step == "Preview")
        }
        #expect(store[.global] == "ac" && stack.groupDepth == 0 && stack.count == 1)
        #expect(stack.isDirty(), "the document holds a change no state describes")
        stack.checkInvariants()
    }

    // MARK: Obsolete steps (Qt setObsolete)

    /// Sets a value; finds itself obsolete when the value is already what it would set.
    struct SetValue: UndoCommand {
        let counter: Counter
        var to: Int
        var from = 0
        /// When set, an undo finds the step obsolete (the value was changed behind its back).
        var obsoleteOnUndo: Bool
        var name: String? { "Set \(to)" }
        mutating func perform(_ changes: inout UndoChanges) throws {
            if counter.value == to { changes.markObsolete(); return }
            from = counter.value
            counter.value = to
        }
        mutating func undo(_ changes: inout UndoChanges) throws {
            if obsoleteOnUndo { changes.markObsolete(); return }
            counter.value = from
        }
    }

    @Test func aCommandObsoleteWhenPerformedIsNotRecorded() throws {
        let counter = Counter()
        let stack = UndoStack.testing()
        try stack.perform(SetValue(counter: counter, to: 3, obsoleteOnUndo: false))
        try stack.perform(SetValue(counter: counter, to: 3, obsoleteOnUndo: false))
        #expect(stack.count == 1 && stack.undoMenuTitle == "Undo Set 3")
    }

    /// Qt: pushing an obsolete command adds nothing; index, count and clean state stay. The
    /// outcome tells the caller, where the count alone cannot.
    @Test func performSaysWhetherTheCommandWasRecorded() throws {
        let counter = Counter()
        let stack = UndoStack.testing()
        #expect(try stack.perform(SetValue(counter: counter, to: 1, obsoleteOnUndo: false)) == .recorded)
        try stack.markSaved()
        try stack.perform(SetValue(counter: counter, to: 2, obsoleteOnUndo: false))
        try stack.undo()
        let before = (stack.position, stack.count, stack.isDirty(), stack.canRedo, stack.redoMenuTitle)
        #expect(try stack.perform(SetValue(counter: counter, to: 1, obsoleteOnUndo: false)) == .obsolete)
        #expect(stack.position == before.0 && stack.count == before.1 && stack.isDirty() == before.2)
        #expect(stack.canRedo == before.3 && stack.redoMenuTitle == before.4)
        stack.pauseRecording()
        #expect(try stack.perform(SetValue(counter: counter, to: 9, obsoleteOnUndo: false)) == .notRecorded)
        stack.resumeRecording()
        #expect(stack.count == before.1)
        stack.checkInvariants()
        let shared = SharedUndoHistory(stack)
        #expect(try shared.perform(SetValue(counter: counter, to: 9, obsoleteOnUndo: false)) == .obsolete)
        #expect(try shared.perform(SetValue(counter: counter, to: 4, obsoleteOnUndo: false)) == .recorded)
    }

    @Test func aStepObsoleteWhenUndoneLeavesTheHistory() throws {
        let counter = Counter()
        let stack = UndoStack.testing()
        try stack.perform(SetValue(counter: counter, to: 1, obsoleteOnUndo: false))
        try stack.perform(SetValue(counter: counter, to: 2, obsoleteOnUndo: true))
        try stack.markSaved()
        try stack.perform(SetValue(counter: counter, to: 5, obsoleteOnUndo: false))
        try stack.undo()
        #expect(counter.value == 2 && stack.position == 2)
        // The undo ran, found nothing to take back, and the step left: position and titles follow.
        let result = try #require(try stack.undo())
        #expect(result.name == "Set 2" && result.direction == .undo)
        #expect(stack.count == 2 && stack.position == 1 && stack.names == ["Set 1", "Set 5"])
        #expect(stack.undoMenuTitle == "Undo Set 1" && stack.redoMenuTitle == "Redo Set 5")
        // The saved state was the one after "Set 2", which is now the state after "Set 1".
        #expect(!stack.isDirty())
        try stack.undo()
        #expect(counter.value == 0 && stack.isDirty())
        try stack.redo(count: 2)
        #expect(counter.value == 5)
        stack.checkInvariants()
    }

    @Test func aStepObsoleteWhenRedoneLeavesTheHistoryInAJump() throws {
        let counter = Counter()
        let stack = UndoStack.testing()
        for value in [1, 2, 3] { try stack.perform(SetValue(counter: counter, to: value, obsoleteOnUndo: false)) }
        try stack.undo(count: 2)
        #expect(counter.value == 1)
        counter.value = 2  // changed behind the history's back: redoing "Set 2" changes nothing
        let result = try #require(try stack.redo(count: 2))
        #expect(result.stepCount == 2 && result.name == "Set 3" && counter.value == 3)
        #expect(stack.names == ["Set 1", "Set 3"] && stack.position == 2)
        try stack.undo(count: 2)
        #expect(counter.value == 0)
        stack.checkInvariants()
    }

    @Test func aGroupIsObsoleteOnlyWhenEveryMemberIs() throws {
        let counter = Counter()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Both")
        try stack.perform(SetValue(counter: counter, to: 1, obsoleteOnUndo: true))
        try stack.perform(SetValue(counter: counter, to: 2, obsoleteOnUndo: false))
        try stack.endGroup()
        try stack.undo()
        #expect(stack.count == 1 && stack.redoMenuTitle == "Redo Both")
        try stack.beginGroup(named: "Neither")
        try stack.perform(SetValue(counter: counter, to: 7, obsoleteOnUndo: true))
        try stack.endGroup()
        #expect(stack.count == 1)  // the new group set "Both" aside as a branch
        try stack.undo()
        #expect(stack.count == 0 && !stack.canUndo)
        stack.checkInvariants()
    }
}
