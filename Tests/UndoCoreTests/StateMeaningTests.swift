import Testing
@testable import UndoCore

/// A state number names the documents as they were when that state was made, at any later
/// time: a revert (in one document among several, backwards, forwards or across branches) adds
/// one state and moves no other; time travel comes back to where it started; a distance of
/// nothing moves nowhere (issue 32).
@Suite struct StateMeaning {
    let letter = UndoContext("letter.txt"), sketch = UndoContext("sketch")

    /// The documents at every state, read by going there.
    func contents(_ stack: UndoStack, _ store: TextStore, _ states: [UInt32]) throws -> [UInt32: [String]] {
        var seen: [UInt32: [String]] = [:]
        for state in states {
            try stack.goTo(state: state)
            seen[state] = [store[letter], store[sketch]]
        }
        return seen
    }

    /// The demo's history: a revert of the letter among the sketch's steps kept 1…5 in their
    /// order (it listed 1 3 4 5 2 6: Bold moved above the sketch).
    @Test func aRevertInOneDocumentKeepsEveryStateAsItWasMade() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "Dear Ann", context: letter))   // 1
        try stack.markSaved(letter)
        try stack.perform(Append(store: store, text: "!", context: letter))          // 2 (Bold)
        for shape in ["r", "c", "m"] { try stack.perform(Append(store: store, text: shape, context: sketch)) }   // 3 4 5
        let made = try contents(stack, store, [0, 1, 2, 3, 4, 5])
        try stack.goTo(state: 5)
        try stack.revertToSaved(letter)                                                // 6
        #expect(store[letter] == "Dear Ann" && store[sketch] == "rcm")
        #expect(stack.steps.map(\.serial) == [1, 2, 3, 4, 5, 6])
        #expect(stack.tree.map(\.id) == [1, 2, 3, 4, 5, 6] && stack.tree.map(\.parent) == [0, 1, 2, 3, 4, 5])
        // Each state shows what it showed when it was made.
        #expect(try contents(stack, store, [0, 1, 2, 3, 4, 5]) == made)
        try stack.goTo(state: 6)
        // The first step back from the revert changes something: the letter gets its Bold again.
        try stack.earlier(.states(1))
        #expect(stack.currentState == 5 && store[letter] == "Dear Ann!")
        // Undo the revert, then each level: the revert kept them all.
        try stack.goTo(state: 6)
        try stack.undo(in: letter)
        #expect(store[letter] == "Dear Ann!")
        try stack.undo(in: letter)
        #expect(store[letter] == "Dear Ann" && store[sketch] == "rcm")
        stack.checkInvariants()
    }

    /// A revert forwards keeps the steps it redoes as states of their own (they hang at the
    /// state before the revert); so does a second revert after a first.
    @Test func aRevertForwardsKeepsTheStatesItRedoes() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }   // 1 2 3
        try stack.markSaved()
        try stack.undo(count: 2)
        try stack.revertToSaved()                                                        // 4
        #expect(store[.global] == "abc" && stack.currentState == 4)
        #expect(stack.tree.map(\.id).sorted() == [1, 2, 3, 4])
        for (state, text) in [(3, "abc"), (2, "ab"), (1, "a"), (0, ""), (4, "abc")] as [(UInt32, String)] {
            try stack.goTo(state: state)
            #expect(store[.global] == text, "state \(state)")
        }
        try stack.perform(Append(store: store, text: "d"))                               // 5
        try stack.revertToSaved()                                                        // 6
        #expect(store[.global] == "abc" && !stack.isDirty())
        try stack.goTo(state: 5)
        #expect(store[.global] == "abcd")
        stack.checkInvariants()
    }

    /// A group that also changed another document cannot run for one of them: the refusal
    /// names it, and nothing moves.
    @Test func aRevertAcrossAGroupOfSeveralDocumentsNamesIt() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: letter))
        try stack.markSaved(letter)
        try stack.beginGroup(named: "Both")
        try stack.perform(Append(store: store, text: "b", context: letter))
        try stack.perform(Append(store: store, text: "1", context: sketch))
        try stack.endGroup()
        #expect(!stack.canRevertToSaved(letter))
        #expect(throws: UndoError.revertCrossesOtherDocuments(letter, step: "Both")) { try stack.revertToSaved(letter) }
        #expect(store[letter] == "ab" && store[sketch] == "1" && stack.currentState == 2)
    }

    /// Vim: `:earlier 10s` then `:later 10s` comes back. The second move counts from the time the
    /// first aimed at, not from when the state it reached was made.
    @Test func earlierThenLaterByTheSameTimeComesBack() throws {
        let store = TextStore()
        let clock = ManualUndoClock()
        let stack = UndoStack.testing(clock: clock)
        for text in ["a", "b", "c", "d"] {                    // at 0, 7, 14, 21 s
            try stack.perform(Append(store: store, text: text))
            clock.advance(milliseconds: 7_000)
        }
        try stack.earlier(.time(.seconds(10)))                // by 11 s: "ab"
        #expect(store[.global] == "ab")
        try stack.later(.time(.seconds(10)))                  // by 21 s: back at "abcd"
        #expect(store[.global] == "abcd" && stack.currentState == 4)
        try stack.earlier(.time(.seconds(5)))                 // by 16 s: "abc"
        try stack.earlier(.time(.seconds(5)))                 // by 11 s: "ab"
        try stack.later(.time(.seconds(10)))                  // by 21 s
        #expect(store[.global] == "abcd")
    }

    /// A distance of nothing stays (`earlier 0s` moved one state back).
    @Test func aDistanceOfNothingMovesNowhere() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b"] { try stack.perform(Append(store: store, text: text)) }
        try stack.markSaved()
        try stack.undo()
        for distance in [UndoTravel.states(0), .time(.zero), .saves(0)] {
            #expect(distance.isZero)
            #expect(stack.travelTarget(distance, earlier: true) == nil && stack.travelTarget(distance, earlier: false) == nil)
            #expect(try stack.earlier(distance) == nil)
            #expect(try stack.later(distance) == nil)
            #expect(stack.currentState == 1)
        }
        #expect(!UndoTravel.states(1).isZero && !UndoTravel.time(.seconds(1)).isZero)
    }

    /// The contexts list names them in one order whatever the hash seed (the C API returns it).
    @Test func theContextsAreListedByName() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for name in ["d", "b", "e", "a", "c"] { try stack.perform(Append(store: store, text: name, context: UndoContext(name))) }
        #expect(stack.contexts.map(\.name) == ["a", "b", "c", "d", "e"])
    }
}

/// A look at another state without a move (issue 32): the documents as at a state, the history
/// exactly as it was afterwards, also when a step on the way fails.
@Suite struct LookWithoutAMove {
    /// Everything a person or a journal could see of the history.
    struct Seen: Equatable {
        var tree: [UndoTreeNode]
        var state: UInt32
        var position: Int
        var titles: [String]
        var dirty: Bool
    }

    func seen(_ stack: UndoStack) -> Seen {
        Seen(tree: stack.tree, state: stack.currentState, position: stack.position,
             titles: [stack.undoMenuTitle, stack.redoMenuTitle], dirty: stack.isDirty())
    }

    /// a b c, undo two, d (c hangs as a branch), saved at "ab".
    func branched() throws -> (UndoStack, TextStore) {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        try stack.undo()
        try stack.markSaved()
        try stack.undo()
        try stack.perform(Append(store: store, text: "d"))
        return (stack, store)
    }

    @Test func theDocumentsAsAtAStateAndTheHistoryAsItWas() throws {
        let (stack, store) = try branched()
        let before = seen(stack)
        var notified = 0
        let observation = stack.observe { _, _ in notified += 1 }
        defer { observation.cancel() }
        for (state, text) in [(0, ""), (1, "a"), (2, "ab"), (3, "abc"), (4, "ad")] as [(UInt32, String)] {
            #expect(try stack.withDocuments(atState: state) { store[.global] } == text)
            #expect(store[.global] == "ad" && seen(stack) == before, "after a look at \(state)")
        }
        #expect(notified == 0)
        // Undo and redo go on as if nothing happened: the branch redo takes is the same.
        try stack.undo()
        try stack.redo()
        #expect(store[.global] == "ad")
        stack.checkInvariants()
    }

    @Test func aStepThatFailsOnTheWayLeavesEverythingAsItWas() throws {
        let (stack, store) = try branched()
        let before = seen(stack)
        store.failOnRedo = "c"
        #expect(throws: UndoError.self) { try stack.withDocuments(atState: 3) { store[.global] } }
        #expect(store[.global] == "ad" && seen(stack) == before)
        store.failOnRedo = nil
        #expect(throws: UndoError.stateNotFound(9)) { try stack.withDocuments(atState: 9) { 0 } }
        #expect(throws: TestFailure.self) { try stack.withDocuments(atState: 1) { throw TestFailure(description: "read") } }
        #expect(store[.global] == "ad" && seen(stack) == before)
        stack.checkInvariants()
    }
}

/// A new step made at an older state, and an undo or redo in one document that passes another
/// document's steps, keep every state as it was made: the steps whose state would change are
/// copies with new numbers on the current branch, and the originals stay where they were made
/// (issue 32). Per-document undo and redo work as before.
@Suite struct StatesAcrossDocuments {
    let letter = UndoContext("letter.txt"), sketch = UndoContext("sketch")

    func documents(_ stack: UndoStack, _ store: TextStore, at state: UInt32) throws -> [String] {
        try stack.goTo(state: state)
        return [store[letter], store[sketch]]
    }

    /// The sketch's step stays a redo step of the sketch after the letter's new step, as a copy
    /// (3); state 1 still has no letter.
    @Test func aNewStepAtAnOlderStateLeavesTheOtherDocumentsStatesAsTheyWereMade() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "s", context: sketch))     // 1
        try stack.goTo(state: 0)
        try stack.perform(Append(store: store, text: "Dear", context: letter))  // 2, then 1 pending above it
        #expect(stack.steps.map(\.serial) == [2, 0] && stack.currentState == 2 && stack.treeCount == 2)
        #expect(stack.canRedo(in: sketch) && !stack.canRedo(in: letter))
        try stack.redo(in: sketch)   // the pending copy of 1 becomes state 3
        #expect(store[letter] == "Dear" && store[sketch] == "s" && stack.currentState == 3)
        #expect(try documents(stack, store, at: 1) == ["", "s"])
        #expect(try documents(stack, store, at: 2) == ["Dear", ""])
        #expect(try documents(stack, store, at: 3) == ["Dear", "s"])
        #expect(try documents(stack, store, at: 0) == ["", ""])
        #expect(try documents(stack, store, at: 1) == ["", "s"])
        // Chronological: one state back from 3 is 2, one more is 1.
        try stack.goTo(state: 3)
        try stack.earlier(.states(1))
        #expect(stack.currentState == 2 && [store[letter], store[sketch]] == ["Dear", ""])
        try stack.earlier(.states(1))
        #expect(stack.currentState == 1 && [store[letter], store[sketch]] == ["", "s"])
        // The copy is not a state of the sketch of its own: it shows the sketch as at 1.
        #expect(stack.documentStates(of: sketch) == [0, 1])
        stack.checkInvariants()
    }

    /// An undo in the letter passes the sketch's newer step: the state it reaches is new (3),
    /// and 1 and 2 still show what they showed.
    @Test func anUndoInOneDocumentLeavesEveryStateAsItWasMade() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "Dear", context: letter))  // 1
        try stack.perform(Append(store: store, text: "r", context: sketch))     // 2
        try stack.undo(in: letter)
        #expect(store[letter] == "" && store[sketch] == "r")
        #expect(stack.currentState != 1 && stack.currentState != 2)
        let reached = stack.currentState
        #expect(try documents(stack, store, at: 1) == ["Dear", ""])
        #expect(try documents(stack, store, at: 2) == ["Dear", "r"])
        #expect(try documents(stack, store, at: reached) == ["", "r"])
        // Undo and redo in one document go on as before.
        try stack.redo(in: letter)
        #expect(store[letter] == "Dear" && store[sketch] == "r")
        try stack.undo(in: letter)
        try stack.undo(in: sketch)
        #expect(store[letter] == "" && store[sketch] == "")
        try stack.redo(in: sketch)
        #expect(store[letter] == "" && store[sketch] == "r")
        #expect(try documents(stack, store, at: 1) == ["Dear", ""])
        #expect(try documents(stack, store, at: 2) == ["Dear", "r"])
        #expect(try documents(stack, store, at: reached) == ["", "r"])
        stack.checkInvariants()
    }

    /// A redo in the sketch passes the letter's redo step.
    @Test func aRedoInOneDocumentLeavesEveryStateAsItWasMade() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "Dear", context: letter))  // 1
        try stack.perform(Append(store: store, text: "r", context: sketch))     // 2
        try stack.goTo(state: 0)
        try stack.redo(in: sketch)
        #expect(store[letter] == "" && store[sketch] == "r")
        #expect(stack.currentState > 2)
        let reached = stack.currentState
        #expect(try documents(stack, store, at: 2) == ["Dear", "r"])
        #expect(try documents(stack, store, at: 1) == ["Dear", ""])
        #expect(try documents(stack, store, at: reached) == ["", "r"])
        stack.checkInvariants()
    }

    /// What the copies cost, counted: a new step on top, an undo or redo of a document's newest
    /// step and a move of the whole history copy nothing; a new step below k redo steps of another
    /// document keeps those k as pending steps, no states (the originals stay, with the new
    /// step's document's redo step), which take numbers when they are redone.
    @Test func onlyTheStepsWhoseStatesWouldChangeAreCopied() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c", "d", "e"] { try stack.perform(Append(store: store, text: text, context: letter)) }   // 1-5
        try stack.undo(in: letter)
        try stack.redo(in: letter)
        for text in ["r", "s", "t"] { try stack.perform(Append(store: store, text: text, context: sketch)) }   // 6-8
        try stack.undo(count: 3, in: sketch)
        try stack.undo(in: letter)
        try stack.goTo(state: 8)
        try stack.goTo(state: 4)
        #expect(stack.treeCount == 8 && stack.steps.map(\.serial) == [1, 2, 3, 4, 5, 6, 7, 8])
        try stack.perform(Append(store: store, text: "x", context: letter))   // 9; 6-8 pending above it
        #expect(stack.treeCount == 4 + 1 + 4 && stack.steps.map(\.serial) == [1, 2, 3, 4, 9, 0, 0, 0])
        #expect(stack.tree.filter { $0.branch == 1 }.map(\.id) == [5, 6, 7, 8])
        try stack.redo(count: 3, in: sketch)
        #expect(store[letter] == "abcdx" && store[sketch] == "rst")
        #expect(stack.treeCount == 4 + 1 + 3 + 4 && stack.steps.map(\.serial) == [1, 2, 3, 4, 9, 10, 11, 12])
        stack.checkInvariants()
    }

    /// Undoing in the letter and then typing in it keeps the sketch's redo steps (as copies),
    /// and their originals still show the letter as it was.
    @Test func typingAfterAnUndoInOneDocumentKeepsTheOtherDocumentsRedoSteps() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: letter))     // 1
        try stack.perform(Append(store: store, text: "r", context: sketch))     // 2
        try stack.perform(Append(store: store, text: "c", context: sketch))     // 3
        try stack.undo(count: 2, in: sketch)
        try stack.undo(in: letter)
        try stack.perform(Append(store: store, text: "b", context: letter))
        #expect(store[letter] == "b" && store[sketch] == "")
        try stack.redo(count: 2, in: sketch)
        #expect(store[letter] == "b" && store[sketch] == "rc")
        #expect(try documents(stack, store, at: 3) == ["a", "rc"])
        #expect(try documents(stack, store, at: 2) == ["a", "r"])
        #expect(try documents(stack, store, at: 1) == ["a", ""])
        stack.checkInvariants()
    }
}

/// Other documents' redo steps kept above a change wait unnumbered: they are no states (not in
/// the tree, not counted by ``UndoStack/treeCount``) until they are redone, when they take a
/// number. So the tree grows with what the person did, not with a product of two of their
/// actions (issue 32): before, each change re-copied every kept redo step and hung the copies
/// before it as a branch.
@Suite struct PendingRedoSteps {
    let letter = UndoContext("letter.txt"), sketch = UndoContext("sketch")

    /// The guides' example: 20 steps undone in one document, then 30 changes in another, make
    /// 50 steps (the 20 where they were made and the 30), not 650; every change is one step.
    @Test func changesInOneDocumentDoNotRecopyTheOthersRedoSteps() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for index in 1...20 { try stack.perform(Append(store: store, text: "\(index % 10)", context: letter)) }
        try stack.undo(count: 20, in: letter)
        for index in 1...30 {
            try stack.perform(Append(store: store, text: "\(index % 10)", context: sketch))
            #expect(stack.treeCount == 20 + index)
        }
        #expect(stack.treeCount == 50 && stack.count == 50 && stack.redoCount == 20)
        #expect(stack.tree.allSatisfy { $0.id != 0 } && stack.steps.suffix(20).allSatisfy { $0.serial == 0 })
        // The letter's steps are still redoable, and each takes a number when it is redone.
        try stack.redo(count: 20, in: letter)
        #expect(store[letter] == "12345678901234567890" && store[sketch] == "123456789012345678901234567890")
        #expect(stack.treeCount == 70 && stack.currentState == 70)
        // The states keep their meaning: 20 is the letter alone, 50 the sketch alone.
        try stack.goTo(state: 20)
        #expect(store[letter] == "12345678901234567890" && store[sketch] == "")
        try stack.goTo(state: 50)
        #expect(store[letter] == "" && store[sketch] == "123456789012345678901234567890")
        #expect(stack.documentStates(of: letter) == Array(0...20))
        stack.checkInvariants()
    }

    /// An undo in one document that passes another's done steps copies those (their states
    /// would change), but its own step and the redo steps above wait unnumbered: repeated, the
    /// tree grows by the steps passed, not by them and every redo step again.
    @Test func anUndoPastOtherStepsNumbersNoRedoStep() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text, context: letter)) }   // 1-3
        for text in ["x", "y"] { try stack.perform(Append(store: store, text: text, context: sketch)) }       // 4-5
        try stack.undo(count: 3, in: letter)
        // The undo passed x and y: their copies and the originals; the letter's steps wait
        // unnumbered above.
        #expect(store[letter] == "" && store[sketch] == "xy")
        #expect(stack.steps.map(\.serial).suffix(3) == [0, 0, 0] && stack.redoCount == 3)
        // The call adds the copies of the two steps it passed, once: 5 + 2 (the undone steps
        // wait unnumbered; before, they were copies too: 5 + 2 + 3).
        #expect(stack.treeCount == 5 + 2)
        let grown = stack.treeCount
        try stack.perform(Append(store: store, text: "z", context: sketch))
        #expect(stack.treeCount == grown + 1)
        try stack.redo(count: 3, in: letter)
        #expect(store[letter] == "abc" && store[sketch] == "xyz" && stack.treeCount == grown + 4)
        try stack.goTo(state: 5)
        #expect(store[letter] == "abc" && store[sketch] == "xy")
        stack.checkInvariants()
    }

    /// A change in the document whose redo steps wait drops them (they were no states; their
    /// originals stay where they were made).
    @Test func pendingStepsThatCanNoLongerBeRedoneGo() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: letter))   // 1
        try stack.goTo(state: 0)
        try stack.perform(Append(store: store, text: "s", context: sketch))   // 2, a pending above
        #expect(stack.steps.map(\.serial) == [2, 0] && stack.canRedo(in: letter))
        try stack.perform(Append(store: store, text: "b", context: letter))   // 3: the letter changes
        #expect(stack.steps.map(\.serial) == [2, 3] && !stack.canRedo && stack.treeCount == 3)
        try stack.undo(in: letter)
        try stack.perform(Append(store: store, text: "t", context: sketch))   // 4; 3 hung at 2, b pending
        #expect(stack.steps.map(\.serial) == [2, 4, 0] && stack.treeCount == 4)
        // Moving onto another branch stores the pending step with the branch it waits on, after
        // its states; it comes back with it.
        try stack.goTo(state: 1)
        #expect(store[letter] == "a" && store[sketch] == "" && stack.treeCount == 4)
        try stack.goTo(state: 4)
        #expect(store[letter] == "" && store[sketch] == "st" && stack.canRedo(in: letter))
        try stack.redo(in: letter)
        #expect(store[letter] == "b" && stack.currentState == 5 && stack.treeCount == 5)
        stack.checkInvariants()
    }

    /// A redo in one document that passes pending steps of another numbers only the step it
    /// redoes; the pending steps it passes stay pending.
    @Test func aRedoPastPendingStepsNumbersOnlyItsStep() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: letter))   // 1
        try stack.perform(Append(store: store, text: "s", context: sketch))   // 2
        try stack.goTo(state: 0)
        try stack.perform(Append(store: store, text: "m", context: UndoContext("memo")))   // 3; 1 and 2 pending
        #expect(stack.steps.map(\.serial) == [3, 0, 0] && stack.treeCount == 3)
        try stack.redo(in: sketch)
        #expect(stack.steps.map(\.serial) == [3, 4, 0] && store[sketch] == "s" && store[letter] == "")
        #expect(stack.treeCount == 4)
        try stack.redo(in: letter)
        #expect(stack.steps.map(\.serial) == [3, 4, 5] && store[letter] == "a")
        try stack.goTo(state: 2)
        #expect(store[letter] == "a" && store[sketch] == "s" && store[UndoContext("memo")] == "")
        stack.checkInvariants()
    }

    /// A redo of several pending steps that fails on the way puts everything back as it was:
    /// the steps pending again, no number taken (the next state is the one it would have been).
    @Test func aFailedRedoOfPendingStepsLeavesThemPending() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["x", "y", "z"] { try stack.perform(Append(store: store, text: text, context: letter)) }   // 1-3
        try stack.undo(count: 3, in: letter)
        try stack.perform(Append(store: store, text: "s", context: sketch))   // 4; x, y, z pending
        let before = stack.steps
        store.failOn = "z"
        for whole in [false, true] {
            #expect(throws: UndoError.self) { whole ? try stack.redo(count: 3) : try stack.redo(count: 3, in: letter) }
            #expect(stack.steps == before && stack.treeCount == 4 && stack.currentState == 4)
            #expect(store[letter] == "" && store[sketch] == "s")
            stack.checkInvariants()
        }
        store.failOn = nil
        try stack.redo(count: 3, in: letter)
        #expect(stack.steps.map(\.serial) == [4, 5, 6, 7] && store[letter] == "xyz")
        stack.checkInvariants()
    }

    /// A snapshot taken with pending steps stored on another branch restores them there.
    @Test func pendingStepsOnAStoredBranchComeBackFromASnapshot() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: letter))   // 1
        try stack.undo(in: letter)
        try stack.perform(Append(store: store, text: "s", context: sketch))   // 2; a pending
        try stack.goTo(state: 1)                                              // [2, a] stored at 0
        let snapshot = try stack.snapshot { ($0 as? Append).map { ($0.text, $0.context) } }
        #expect(snapshot.branches.map { $0.steps.map(\.serial) } == [[2, 0]] && snapshot.pendingOrigins == [1])
        let copy = UndoStack.testing()
        try copy.restore(snapshot) { Append(store: store, text: $0.0, context: $0.1) }
        copy.checkInvariants()
        #expect(copy.treeCount == 2 && copy.tree.map(\.id) == [1, 2])
        try copy.goTo(state: 2)
        try copy.redo(in: letter)
        #expect(store[letter] == "a" && store[sketch] == "s" && copy.currentState == 3)
        copy.checkInvariants()
    }
}
