import Testing
@testable import UndoCore

/// A history taken as values and rebuilt in another stack (what a journal's checkpoint does) is
/// the same history: the same tree, position, titles and saves, and every later change, undo,
/// move and revert does the same in both. A snapshot that does not make a history is refused.
@Suite struct HistorySnapshotTests {
    let a = UndoContext("a"), b = UndoContext("b")

    /// What a `Placed` step keeps in a snapshot.
    struct Kept: Equatable {
        var text: String
        var before: String
        var context: UndoContext
    }

    static func encode(_ command: any UndoCommand) -> Kept? {
        (command as? Placed).map { Kept(text: $0.text, before: $0.before, context: $0.context) }
    }

    /// A copy of `stack` through a snapshot, over a copy of its documents.
    static func restored(_ stack: UndoStack, _ documents: PlacedDocuments, clock: ManualUndoClock = ManualUndoClock())
        throws -> (UndoStack, PlacedDocuments)
    {
        let snapshot = try stack.snapshot(encoding: encode)
        let copy = PlacedDocuments()
        copy.texts = documents.texts
        let other = UndoStack(coalescingWindow: nil, clock: clock)
        try other.restore(snapshot) { kept in
            var placed = Placed(copy, kept.text, in: kept.context)
            placed.before = kept.before
            return placed
        }
        other.checkInvariants()
        return (other, copy)
    }

    struct Seen: Equatable {
        var tree: [UndoTreeNode]
        var state: UInt32
        var position: Int
        var count: Int
        var titles: [String]
        var dirty: [Bool]
        var texts: [String]
        var cost: Int
        /// Each document's own states and the one it is at (copies and document moves are none).
        var documentStates: [[UInt32]]
        var documentState: [UInt32]
    }

    func seen(_ stack: UndoStack, _ documents: PlacedDocuments) -> Seen {
        Seen(tree: stack.tree, state: stack.currentState, position: stack.position, count: stack.count,
             titles: [nil, a, b].flatMap { [stack.undoMenuTitle(in: $0), stack.redoMenuTitle(in: $0)] },
             dirty: [a, b].map { stack.isDirty($0) }, texts: [documents[a], documents[b]], cost: stack.totalCost,
             documentStates: [a, b].map { stack.documentStates(of: $0) }, documentState: [a, b].map { stack.documentState(of: $0) })
    }

    /// One random change (``randomPlacedStep``, groups and the current context included), a
    /// moment after the last.
    func randomStep(_ stack: UndoStack, _ documents: PlacedDocuments, _ random: inout SplitMix, _ step: Int,
                    _ clock: ManualUndoClock) throws {
        clock.advance(milliseconds: 1 + random.next() % 3000)
        try randomPlacedStep(stack, documents, &random, step, contexts: [a, b], kinds: 13)
    }

    /// Sessions cut at a random point: the copy and the original then take the same changes
    /// and must stay alike after every one.
    @Test(arguments: 1...30)
    func aRestoredHistoryGoesOnAsTheOriginal(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let limit: Int? = seed % 3 == 0 ? 12 : nil
        let clock = ManualUndoClock(), copyClock = ManualUndoClock()
        let (stack, documents) = (UndoStack(countLimit: limit, coalescingWindow: nil, clock: clock), PlacedDocuments())
        let cut = 20 + Int(random.next() % 80)
        for step in 0..<cut { try randomStep(stack, documents, &random, step, clock) }
        copyClock.advance(milliseconds: clock.nanoseconds() / 1_000_000)
        let (copy, copied) = try Self.restored(stack, documents, clock: copyClock)
        #expect(copy.countLimit == limit)
        #expect(seen(copy, copied) == seen(stack, documents), "seed \(seed) at the cut")
        var mirror = random
        for step in cut..<(cut + 60) {
            try randomStep(stack, documents, &random, step, clock)
            try randomStep(copy, copied, &mirror, step, copyClock)
            copy.checkInvariants()
            #expect(seen(copy, copied) == seen(stack, documents), "seed \(seed) step \(step)")
            if seen(copy, copied) != seen(stack, documents) { return }
        }
        #expect(documents.violations.isEmpty && copied.violations.isEmpty, "\(documents.violations) \(copied.violations)")
    }

    /// The copies an undo in one document makes and a document move's step stay what they are
    /// in the restored history: no state of a document of their own (issue 32).
    @Test func copiesAndDocumentMovesAreKept() throws {
        let (stack, documents) = (UndoStack(coalescingWindow: nil), PlacedDocuments())
        try stack.perform(Placed(documents, "a1", in: a))   // 1
        try stack.perform(Placed(documents, "b2", in: b))   // 2
        try stack.undo(in: a)                                 // copy 3 (of 2), a1 pending above it
        try stack.goTo(state: 1, in: a)                       // 4: a document move
        let snapshot = try stack.snapshot(encoding: Self.encode)
        #expect(snapshot.copies == [.init(state: 3, target: 2)])
        #expect(snapshot.documentMoves == [.init(state: 4, target: 1)])
        let (copy, copied) = try Self.restored(stack, documents)
        #expect(seen(copy, copied) == seen(stack, documents))
        #expect(copy.documentStates(of: a) == [0, 1] && copy.documentState(of: a) == 1 && copy.documentState(of: b) == 2)
        var bad = snapshot
        bad.copies.append(.init(state: 9, target: 1))
        #expect(throws: UndoSnapshotError("a copy or document move names state 9, which is not in the history")) { try bad.validate() }
    }

    /// Pending redo steps (another document's redo steps kept above a change, no states yet)
    /// are kept as such: the restored history numbers them when they are redone, as the
    /// original does, and a snapshot whose pending steps do not fit is refused (issue 32).
    @Test func pendingRedoStepsAreKeptUnnumbered() throws {
        // Clocks alike: a pending step takes its time when it is redone.
        let (stack, documents) = (UndoStack(coalescingWindow: nil, clock: ManualUndoClock()), PlacedDocuments())
        for text in ["a1", "a2", "a3"] { try stack.perform(Placed(documents, text, in: a)) }   // 1-3
        try stack.undo(count: 3, in: a)
        try stack.perform(Placed(documents, "b4", in: b))   // 4; a's three steps pending above it
        let snapshot = try stack.snapshot(encoding: Self.encode)
        #expect(snapshot.steps.map(\.serial) == [4, 0, 0, 0] && snapshot.pendingOrigins == [1, 2, 3])
        let (copy, copied) = try Self.restored(stack, documents)
        #expect(seen(copy, copied) == seen(stack, documents))
        #expect(copy.treeCount == 4 && copy.count == 4)
        for history in [stack, copy] {
            try history.redo(count: 2, in: a)
            try history.perform(Placed(history === stack ? documents : copied, "b7", in: b))
        }
        #expect(seen(copy, copied) == seen(stack, documents))
        #expect(stack.steps.map(\.serial) == [4, 5, 6, 7, 0] && copied[a] == "a1a2" && copied[b] == "b4b7")
        var bad = snapshot
        bad.pendingOrigins = [1, 2]
        #expect(throws: UndoSnapshotError("3 pending steps have 2 origins")) { try bad.validate() }
        bad = snapshot
        bad.position = 2
        #expect(throws: UndoSnapshotError("the current branch has a pending step (serial 0) that is not a redo step at its end")) {
            try bad.validate()
        }
        bad = snapshot
        bad.pendingOrigins = [1, 2, 9]
        #expect(throws: UndoSnapshotError("a pending step copies state 9, which was never made (the next serial is 5)")) {
            try bad.validate()
        }
    }

    /// The coalescing run goes on across a snapshot: the next change with the key joins the step.
    @Test func theCoalescingRunGoesOn() throws {
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: nil)
        try stack.perform(Append(store: store, text: "a", typing: true))
        let snapshot = try stack.snapshot { ($0 as? Append)?.text }
        #expect(snapshot.coalescingOpen)
        let copy = UndoStack(coalescingWindow: nil)
        try copy.restore(snapshot) { Append(store: store, text: $0, typing: true) }
        try copy.perform(Append(store: store, text: "b", typing: true))
        #expect(copy.count == 1)
        #expect(store[.global] == "ab")
        try copy.undo()
        #expect(store[.global] == "")
    }

    @Test func aCommandThatCannotBeKeptIsNamed() throws {
        let stack = UndoStack()
        let documents = PlacedDocuments()
        try stack.perform(Placed(documents, "x", in: a))
        #expect(throws: UndoSnapshotError.self) { _ = try stack.snapshot { _ -> Kept? in nil } }
        do {
            _ = try stack.snapshot { _ -> Kept? in nil }
        } catch {
            #expect(error.message.contains("Put x"), "\(error)")
        }
        try stack.beginGroup(named: "Open")
        #expect(throws: UndoSnapshotError("a group is open: end it first")) { _ = try stack.snapshot(encoding: Self.encode) }
    }

    /// Snapshots that make no history are refused, and the stack stays empty.
    @Test func aSnapshotThatMakesNoHistoryIsRefused() throws {
        let documents = PlacedDocuments()
        let stack = UndoStack(coalescingWindow: nil)
        for text in ["1", "2", "3"] { try stack.perform(Placed(documents, text, in: a)) }
        try stack.undo(count: 2)
        try stack.perform(Placed(documents, "4", in: a))
        let good = try stack.snapshot(encoding: Self.encode)
        #expect(good.branches.count == 1)
        func refused(_ change: (inout UndoHistorySnapshot<Kept>) -> Void, _ words: String) {
            var bad = good
            change(&bad)
            let target = UndoStack()
            do {
                try target.restore(bad) { Placed(documents, $0.text, in: $0.context) }
                Issue.record("restored: \(words)")
            } catch {
                #expect(error.message.contains(words), "\(error)")
            }
            #expect(target.treeCount == 0)
        }
        refused({ $0.position = 9 }, "outside")
        refused({ $0.steps[0].serial = 0 }, "serial 0")
        refused({ $0.branches[0].steps[0].serial = $0.steps[0].serial }, "repeated")
        refused({ $0.branches[0].fork = 77 }, "not in the history")
        refused({ $0.branches.append(.init(fork: $0.branches[0].steps[0].serial, steps: [])) }, "no steps")
        refused({ $0.nextSerial = $0.steps[0].serial }, "not below the next serial")
        // Values a file could hold: a next serial near the wrap, a negative cost or limit, a
        // save mark of a state never made, a context over the name limit.
        refused({ $0.nextSerial = UInt32.max }, "next serial \(UInt32.max) is over")
        refused({ $0.steps[0].cost = -1 }, "negative cost -1")
        refused({ $0.countLimit = -3 }, "count limit -3 is negative")
        refused({ $0.saveLog.append($0.nextSerial + 5) }, "never made")
        refused({ $0.currentContext = UndoContext(String(repeating: "c", count: 5000)) }, "5000 bytes")
        refused({ $0.countLimit = 2 }, "over the count limit")
        refused({ $0.steps[0].content = .group(name: "G", description: nil, context: .global, members: []) }, "no members")
        refused({ $0.steps[0].content = .reverted(name: "R", context: .global, group: $0.steps[1].content) }, "no group")
        // A cycle: two branches hanging at each other's steps.
        refused({ snapshot in
            let first = snapshot.branches[0].steps[0].serial
            snapshot.branches.append(.init(fork: first, steps: [.init(serial: 90, time: 0, cost: 1, content: snapshot.steps[0].content)]))
            snapshot.branches[0].fork = 90
            snapshot.nextSerial = 91
        }, "cycle")
        // Restoring into a history that has steps.
        #expect(throws: UndoSnapshotError.self) { try stack.restore(good) { Placed(documents, $0.text, in: $0.context) } }
        // A decoding that fails names its error.
        let target = UndoStack()
        #expect(throws: UndoSnapshotError.self) {
            try target.restore(good) { _ -> any UndoCommand in throw UndoSnapshotError("no such step type") }
        }
        #expect(target.treeCount == 0)
    }
}
