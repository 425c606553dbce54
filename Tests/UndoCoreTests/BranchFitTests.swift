import Testing
@testable import UndoCore

/// Every step is done and undone on the very state it was made on, in each document it
/// changes, however undo and redo in one document, reverts and moves across branches mix:
/// `Placed` checks it, and these sequences are the smallest that broke it.
@Suite struct BranchFit {
    let a = UndoContext("a"), b = UndoContext("b")

    /// An undo in one document moved its step past the other document's newer step, on which
    /// a branch of that other document hung: going there redid the branch on top of that step.
    /// Now the steps stay where they were made (with the branch) and the current branch goes on
    /// with copies, so every state shows what it showed when it was made.
    @Test func anUndoInOneDocumentKeepsTheOtherDocumentsBranchesWhereTheyWereMade() throws {
        let (stack, documents) = (UndoStack(coalescingWindow: nil), PlacedDocuments())
        try stack.perform(Placed(documents, "a1", in: a))   // 1
        try stack.perform(Placed(documents, "b2", in: b))   // 2
        try stack.undo(in: b)
        try stack.perform(Placed(documents, "b3", in: b))   // 3: 2 stays at 1
        try stack.undo(in: a)                                 // 1 passes 3: copy 4 (of 3), 1 pending above
        #expect(stack.steps.map(\.serial) == [4, 0] && stack.currentState == 4)
        #expect(documents[a] == "" && documents[b] == "b3")
        stack.checkInvariants()
        for (state, texts) in [(2, ["a1", "b2"]), (3, ["a1", "b3"]), (1, ["a1", ""]), (4, ["", "b3"]),
                               (0, ["", ""]), (2, ["a1", "b2"])] as [(UInt32, [String])] {
            try stack.goTo(state: state)
            #expect([documents[a], documents[b]] == texts, "state \(state)")
        }
        // The pending step came back with its branch: redone, it is state 5.
        try stack.goTo(state: 4)
        try stack.redo(in: a)
        #expect([documents[a], documents[b]] == ["a1", "b3"] && stack.currentState == 5)
        #expect(documents.violations.isEmpty, "\(documents.violations)")
        stack.checkInvariants()
    }

    /// A new step goes below the other documents' redo steps: a branch hanging at one of those
    /// that changes the new step's document was redone on top of it. Now the redo steps stay
    /// where they were made and the other document's come back above the new step as copies.
    @Test func aChangeLeavesTheRedoStepsWhereTheyWereMade() throws {
        let (stack, documents) = (UndoStack(coalescingWindow: nil), PlacedDocuments())
        try stack.perform(Placed(documents, "b1", in: b))   // 1
        try stack.perform(Placed(documents, "a2", in: a))   // 2
        try stack.goTo(state: 1)
        try stack.perform(Placed(documents, "b3", in: b))   // 3, and 2 pending above it
        #expect(stack.steps.map(\.serial) == [1, 3, 0])
        try stack.perform(Placed(documents, "a5", in: a))   // 4: the pending 2 goes (a changed)
        #expect(stack.steps.map(\.serial) == [1, 3, 4] && !stack.canRedo)
        try stack.goTo(state: 0)
        try stack.perform(Placed(documents, "a6", in: a))   // 5, and 1 and 3 pending above it
        #expect(stack.steps.map(\.serial) == [5, 0, 0] && stack.canRedo(in: b))
        stack.checkInvariants()
        for (state, texts) in [(2, ["a2", "b1"]), (4, ["a5", "b1b3"]), (3, ["", "b1b3"]),
                               (1, ["", "b1"]), (5, ["a6", ""])] as [(UInt32, [String])] {
            try stack.goTo(state: state)
            #expect([documents[a], documents[b]] == texts, "state \(state)")
        }
        try stack.redo(count: 2, in: b)
        #expect([documents[a], documents[b]] == ["a6", "b1b3"] && stack.currentState == 7)
        #expect(documents.violations.isEmpty, "\(documents.violations)")
        stack.checkInvariants()
    }

    /// One document: a revert forwards folded the steps it redid into its own step, and the
    /// redo step after them was set aside at the state before them.
    @Test func aRevertForwardsHangsTheStepsAfterItsOwnAtIt() throws {
        let (stack, documents) = (UndoStack(coalescingWindow: nil), PlacedDocuments())
        stack.currentContext = a
        try stack.perform(Placed(documents, "1", in: a))   // 1
        try stack.perform(Placed(documents, "2", in: a))   // 2
        try stack.undo()
        try stack.markSaved()                                // "1" saved
        try stack.earlier(.states(1))                        // at the start
        try stack.revertToSaved()                            // 3: redoes 1, in its own step
        #expect(documents[a] == "1")
        stack.checkInvariants()
        try stack.earlier(.states(1))                        // 2, made on "1", hangs at 3
        #expect(documents.violations.isEmpty, "\(documents.violations)")
        #expect(documents[a] == "12" && stack.currentState == 2)
        try stack.goTo(state: 0)
        #expect(documents[a] == "")
        #expect(documents.violations.isEmpty, "\(documents.violations)")
        stack.checkInvariants()
    }

    /// An undo in one document that would have left a branch changing both documents at no
    /// state it fits dropped that branch; now the branch stays at the steps it was made on.
    @Test func anUndoDropsNoBranch() throws {
        let (stack, documents) = (UndoStack(coalescingWindow: nil), PlacedDocuments())
        try stack.perform(Placed(documents, "b1", in: b))   // 1
        try stack.perform(Placed(documents, "a2", in: a))   // 2
        try stack.goTo(state: 1)
        try stack.perform(Placed(documents, "a3", in: a))   // 3: 2 stays at 1
        try stack.perform(Placed(documents, "b4", in: b))   // 4
        try stack.goTo(state: 2)                             // list 1 2, branch 3 4 at 1
        #expect(stack.treeCount == 4)
        try stack.undo(in: b)                                // 1 passes 2: copy 5 (of 2), 1 pending above
        #expect(documents[a] == "a2" && documents[b] == "")
        #expect(stack.tree.map(\.id).sorted() == [1, 2, 3, 4, 5])
        try stack.goTo(state: 4)
        #expect(documents[a] == "a3" && documents[b] == "b1b4")
        try stack.goTo(state: 0)
        try stack.goTo(state: 1)
        #expect(documents[a] == "" && documents[b] == "b1")
        #expect(documents.violations.isEmpty, "\(documents.violations)")
        stack.checkInvariants()
    }

    /// Random sessions of two documents with undo and redo in one or all, saves, reverts and
    /// moves across branches: no step ever runs on a state it was not made on.
    @Test(arguments: 1...40)
    func randomSessionsRunEveryStepOnItsOwnState(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let (stack, documents) = (UndoStack(countLimit: seed % 4 == 0 ? 10 : nil, coalescingWindow: nil), PlacedDocuments())
        let contexts = [a, b]
        for step in 0..<120 {
            try randomPlacedStep(stack, documents, &random, step, contexts: contexts, kinds: 10)
            stack.checkInvariants()
            #expect(documents.violations.isEmpty, "seed \(seed) step \(step): \(documents.violations)")
            if !documents.violations.isEmpty { return }
        }
    }
}

/// Documents whose commands note any step run on a state other than its own.
final class PlacedDocuments {
    var texts: [UndoContext: String] = [:]
    var violations: [String] = []
    subscript(context: UndoContext) -> String { texts[context, default: ""] }
}

/// Appends `text` to the text its document had when it was made; doing or undoing it on any
/// other text is noted as a violation (and done anyway, so the session goes on).
struct Placed: UndoCommand {
    let documents: PlacedDocuments
    let text: String
    var before: String
    let context: UndoContext

    init(_ documents: PlacedDocuments, _ text: String, in context: UndoContext) {
        self.documents = documents
        self.text = text
        self.before = documents[context]
        self.context = context
    }

    var name: String? { "Put \(text)" }

    func perform(_ changes: inout UndoChanges) throws {
        if documents[context] != before {
            documents.violations.append("\(text) redone on \(context.name) \"\(documents[context])\", made on \"\(before)\"")
        }
        documents.texts[context] = before + text
    }

    func undo(_ changes: inout UndoChanges) throws {
        if documents[context] != before + text {
            documents.violations.append("\(text) undone on \(context.name) \"\(documents[context])\", made on \"\(before)\"")
        }
        documents.texts[context] = before
    }
}

/// One random change of a session of `Placed` steps: a perform (kinds 0 to 2), an undo or redo
/// in one document or all, a move to any state, earlier or later, a save, a revert; with
/// `kinds` 12, also a group of two steps (9) and a change of the current context (10); with 13,
/// also a move of one document (12). The same
/// `random` makes the same change.
func randomPlacedStep(_ stack: UndoStack, _ documents: PlacedDocuments, _ random: inout SplitMix, _ step: Int,
                      contexts: [UndoContext], kinds: UInt64) throws {
    let context = contexts[Int(random.next() % UInt64(contexts.count))]
    let scope: UndoContext? = random.next() % 3 == 0 ? nil : context
    switch random.next() % kinds {
    case 0, 1, 2: try stack.perform(Placed(documents, "\(step) ", in: context))
    case 3: try stack.undo(count: 1, in: scope)
    case 4: try stack.redo(count: 1, in: scope)
    case 5:
        let ids = [0] + stack.tree.map(\.id)
        try stack.goTo(state: ids[Int(random.next() % UInt64(ids.count))])
    case 6: try stack.earlier(.states(Int(random.next() % 2) + 1))
    case 7: try stack.later(.states(Int(random.next() % 2) + 1))
    case 8: try stack.markSaved(context)
    case 9 where kinds > 10:
        try stack.beginGroup(named: "Group \(step)", description: random.next() % 2 == 0 ? "Two \(step)" : nil, context: context)
        try stack.perform(Placed(documents, "g\(step) ", in: context))
        try stack.perform(Placed(documents, "h\(step) ", in: contexts[Int(random.next() % UInt64(contexts.count))]))
        try stack.endGroup()
    case 10 where kinds > 10: stack.currentContext = random.next() % 3 == 0 ? nil : context
    case 12 where kinds > 12:
        // A move of one document (refused when its way crosses a group of several: the same
        // change refuses the same in a copy).
        switch random.next() % 3 {
        case 0: _ = try? stack.earlier(Int(random.next() % 2) + 1, in: context)
        case 1: _ = try? stack.later(Int(random.next() % 2) + 1, in: context)
        default:
            let ids = [0] + stack.tree.map(\.id)
            _ = try? stack.goTo(state: ids[Int(random.next() % UInt64(ids.count))], in: context)
        }
    default:
        if stack.canRevertToSaved(context) { try stack.revertToSaved(context) }
    }
}
