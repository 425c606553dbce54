import Testing
@testable import UndoCore

/// The branching history: branches kept, moves across them, chronological and timed travel,
/// limits on a tree. Scenarios follow Vim's documented undo tree (`:undo N`, `g-`/`g+`,
/// `:earlier`/`:later` with counts, times and file writes) and the history tests of Rust's
/// `undo` crate (branch, go_to, chronological order), written as our own.
@Suite struct HistoryTree {
    /// a b c, undo two, d: "a" then "ad", with "b c" kept as a branch at "a".
    func branched() throws -> (UndoStack, TextStore) {
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: nil)
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        try stack.undo(count: 2)
        try stack.perform(Append(store: store, text: "d"))
        stack.checkInvariants()
        return (stack, store)
    }

    @Test func aChangeAfterUndoingKeepsTheUndoneStepsAsABranch() throws {
        let (stack, store) = try branched()
        #expect(store[.global] == "ad")
        #expect(stack.count == 2 && stack.treeCount == 4 && stack.currentState == 4)
        #expect(!stack.canRedo)
        let tree = stack.tree
        #expect(tree.map(\.id) == [1, 4, 2, 3])
        #expect(tree.map(\.parent) == [0, 1, 1, 2])
        #expect(tree.map(\.branch) == [0, 0, 1, 1])
        #expect(tree.filter(\.isCurrent).map(\.id) == [4])
        #expect(tree.filter(\.isApplied).map(\.id) == [1, 4])
    }

    @Test func goToMovesAcrossBranchesAndRedoTakesTheBranchLastUsed() throws {
        let (stack, store) = try branched()
        let result = try #require(try stack.goTo(state: 3))
        #expect(store[.global] == "abc" && stack.currentState == 3)
        #expect(result.stepCount == 3 && result.direction == .undo)  // 4 is newer than 3
        #expect(try stack.redo() == nil)
        try stack.undo(count: 2)
        #expect(store[.global] == "a")
        try stack.redo()
        #expect(store[.global] == "ab")             // the branch last used
        try stack.goTo(state: 4)
        try stack.undo()
        try stack.redo()
        #expect(store[.global] == "ad")             // and now this one
        try stack.goTo(state: 0)
        #expect(store[.global] == "" && stack.currentState == 0)
        #expect(try stack.goTo(state: 0) == nil)
        #expect(throws: UndoError.stateNotFound(9)) { try stack.goTo(state: 9) }
        #expect(store[.global] == "")
        stack.checkInvariants()
    }

    /// Rust undo's "go_to": jumps between the tips of nested branches run only the steps on the
    /// way (counted), never the whole history again.
    @Test func aJumpRunsOnlyTheStepsOnTheWay() throws {
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: nil)
        for text in ["a", "b", "c", "d"] { try stack.perform(Append(store: store, text: text)) }   // 1-4
        try stack.undo(count: 2)
        for text in ["e", "f"] { try stack.perform(Append(store: store, text: text)) }             // 5, 6: abef
        try stack.undo(count: 1)
        try stack.perform(Append(store: store, text: "g"))                                         // 7: abeg
        try stack.goTo(state: 4)
        #expect(store[.global] == "abcd")
        // From abcd to abef: undo d c, redo e f.
        let toF = try #require(try stack.goTo(state: 6))
        #expect(store[.global] == "abef" && toF.stepCount == 4)
        // From abef to abeg (a sibling): undo f, redo g.
        let toG = try #require(try stack.goTo(state: 7))
        #expect(store[.global] == "abeg" && toG.stepCount == 2)
        try stack.goTo(state: 4)
        #expect(store[.global] == "abcd")
        stack.checkInvariants()
        #expect(stack.treeCount == 7)
    }

    /// Vim's `g-` and `g+`: every state in the order it was made, across branches.
    @Test func chronologicalMovesVisitEveryState() throws {
        let (stack, store) = try branched()
        var seen: [String] = [store[.global]]
        while try stack.earlier(.states(1)) != nil { seen.append(store[.global]) }
        #expect(seen == ["ad", "abc", "ab", "a", ""])
        var forward: [String] = []
        while try stack.later(.states(1)) != nil { forward.append(store[.global]) }
        #expect(forward == ["a", "ab", "abc", "ad"])
        // Vim's `:earlier 3` is `g-` three times; counts past the ends stop there.
        try stack.earlier(.states(3))
        #expect(store[.global] == "a")
        try stack.later(.states(100))
        #expect(store[.global] == "ad")
        try stack.earlier(.states(100))
        #expect(store[.global] == "")
        stack.checkInvariants()
    }

    @Test func timeTravelByDurations() throws {
        let store = TextStore()
        let clock = ManualUndoClock()
        let stack = UndoStack(coalescingWindow: nil, clock: clock)
        for text in ["a", "b", "c"] {        // at 0 s, 10 s, 20 s
            try stack.perform(Append(store: store, text: text))
            clock.advance(milliseconds: 10_000)
        }
        try stack.undo(count: 2)
        clock.advance(milliseconds: 10_000)
        try stack.perform(Append(store: store, text: "d"))   // at 40 s
        #expect(stack.tree.map(\.time) == [0, 40, 10, 20].map { $0 * 1_000_000_000 })
        try stack.earlier(.time(.seconds(25)))   // the newest state made by 15 s
        #expect(store[.global] == "ab")
        try stack.later(.time(.seconds(10)))     // the newest made by 20 s
        #expect(store[.global] == "abc")
        try stack.later(.time(.seconds(1)))      // nothing within 1 s: the next state
        #expect(store[.global] == "ad")
        try stack.earlier(.time(.seconds(3600)))
        #expect(store[.global] == "")
        #expect(try stack.earlier(.time(.seconds(1))) == nil)
        stack.checkInvariants()
    }

    @Test func aCoalescedStepTakesTheTimeOfItsLastChange() throws {
        let store = TextStore()
        let clock = ManualUndoClock()
        let stack = UndoStack(coalescingWindow: nil, clock: clock)
        try stack.perform(Append(store: store, text: "a", typing: true))
        clock.advance(milliseconds: 3_000)
        try stack.perform(Append(store: store, text: "b", typing: true))
        #expect(stack.tree.map(\.time) == [3_000_000_000])
    }

    /// Vim's `:earlier 1f`: the state at the last save, the save before, before the first change.
    @Test func timeTravelBySaves() throws {
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: nil)
        try stack.perform(Append(store: store, text: "a"))
        try stack.markSaved()
        try stack.perform(Append(store: store, text: "b"))
        try stack.perform(Append(store: store, text: "c"))
        try stack.markSaved()
        try stack.perform(Append(store: store, text: "d"))
        try stack.earlier(.saves(1))             // changes since the save count as one
        #expect(store[.global] == "abc" && !stack.isDirty())
        try stack.earlier(.saves(1))
        #expect(store[.global] == "a")
        try stack.earlier(.saves(1))
        #expect(store[.global] == "")
        try stack.later(.saves(1))
        #expect(store[.global] == "a")
        try stack.later(.saves(2))               // past the last save: the newest state
        #expect(store[.global] == "abcd")
        try stack.earlier(.saves(2))
        #expect(store[.global] == "a")
        #expect(stack.tree.filter(\.wasSaved).map(\.id) == [1, 3])
        #expect(stack.tree.filter(\.isSavePoint).map(\.id) == [3])
    }

    @Test func travelDistancesAreReadAndBadOnesNamed() throws {
        #expect(try UndoTravel(parsing: "3") == .states(3))
        #expect(try UndoTravel(parsing: "10s") == .time(.seconds(10)))
        #expect(try UndoTravel(parsing: "5m") == .time(.seconds(300)))
        #expect(try UndoTravel(parsing: "1h") == .time(.seconds(3600)))
        #expect(try UndoTravel(parsing: "1f") == .saves(1))
        for bad in ["", "s", "-1", "3x", "1.5s", "99999999999", "٣"] {
            #expect(throws: UndoError.invalidTravel(bad)) { try UndoTravel(parsing: bad) }
        }
        #expect(UndoError.invalidTravel("3x").description.contains("\"3x\""))
    }

    /// Limits count every branch and drop the oldest steps first, from the tips of the other
    /// branches and the start of the current one, never the step just done.
    @Test func limitsDropTheOldestStepsOfTheWholeTree() throws {
        let store = TextStore()
        let stack = UndoStack(countLimit: 5, coalescingWindow: nil)
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        try stack.undo(count: 2)
        for text in ["d", "e", "f"] { try stack.perform(Append(store: store, text: text)) }
        stack.checkInvariants()
        // a (1) was the oldest: it went; b c hang at the start now (the state with "a").
        #expect(stack.treeCount == 5 && stack.tree.map(\.id) == [4, 5, 6, 2, 3])
        try stack.goTo(state: 3)
        #expect(store[.global] == "abc")
        try stack.goTo(state: 6)
        try stack.perform(Append(store: store, text: "g"))
        // Now the branch's tip (c, 3) and then b (2) are older than the current branch's start.
        #expect(stack.tree.map(\.id) == [4, 5, 6, 7, 2])
        try stack.undo(count: 3)
        try stack.perform(Append(store: store, text: "h"))   // sets e f g aside at d: 6 steps
        #expect(stack.tree.map(\.id) == [4, 8, 5, 6, 7])
        #expect(store[.global] == "adh")
        stack.checkInvariants()
    }

    @Test func aMemoryLimitCountsTheStoredBranches() throws {
        let store = TextStore()
        let stack = UndoStack(memoryLimit: 33 * 4, coalescingWindow: nil)  // four one-letter steps
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        try stack.undo(count: 2)
        try stack.perform(Append(store: store, text: "d"))
        #expect(stack.totalCost == 33 * 4)
        try stack.perform(Append(store: store, text: "e"))
        #expect(stack.totalCost == 33 * 4 && stack.treeCount == 4)
        stack.checkInvariants()
    }

    /// Several documents: a change keeps the other documents' redo steps redoable on the current
    /// branch, as pending steps that take a number when redone (every redo step stays where it
    /// was made, as a branch: a state keeps the documents it was made with).
    @Test func aBranchHoldsTheRedoStepsAndTheOtherDocumentsKeepTheirs() throws {
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: nil)
        let one = UndoContext("one"), two = UndoContext("two")
        try stack.perform(Append(store: store, text: "a", context: one))    // 1
        try stack.perform(Append(store: store, text: "x", context: two))    // 2
        try stack.perform(Append(store: store, text: "b", context: one))    // 3
        try stack.undo(count: 2)
        try stack.perform(Append(store: store, text: "c", context: one))    // 4, and x pending above it
        #expect(stack.canRedo(in: two) && !stack.canRedo(in: one))
        #expect(stack.tree.filter { $0.branch == 1 }.map(\.id) == [2, 3])
        #expect(stack.steps.map(\.serial) == [1, 4, 0])
        try stack.redo(in: two)
        #expect(store[one] == "ac" && store[two] == "x" && stack.currentState == 5)
        // Each state shows what it showed when it was made.
        try stack.goTo(state: 3)
        #expect(store[one] == "ab" && store[two] == "x")
        try stack.goTo(state: 2)
        #expect(store[one] == "a" && store[two] == "x")
        try stack.goTo(state: 4)
        #expect(store[one] == "ac" && store[two] == "")
        stack.checkInvariants()
    }

    @Test func closingADocumentRemovesItsStepsFromEveryBranch() throws {
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: nil)
        let one = UndoContext("one"), two = UndoContext("two")
        try stack.perform(Append(store: store, text: "a", context: one))    // 1
        try stack.perform(Append(store: store, text: "x", context: two))    // 2
        try stack.perform(Append(store: store, text: "b", context: one))    // 3
        try stack.undo(count: 2)
        try stack.perform(Append(store: store, text: "y", context: two))    // 4, and b pending above it
        #expect(try stack.removeAll(in: two) == 2)
        stack.checkInvariants()
        #expect(stack.tree.map(\.id) == [1, 3] && stack.tree.map(\.parent) == [0, 1] && stack.steps.map(\.serial) == [1, 0])
        try stack.goTo(state: 3)
        #expect(store[one] == "ab")
    }

    /// Moving between branches again and again leaves the store's pool at most about twice its
    /// steps (emptied slots are compacted), and every state still holds its text.
    @Test func travelsKeepTheBranchStoreCompact() throws {
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: nil)
        var textAt: [UInt32: String] = [0: ""]
        for round in 0..<30 {
            try stack.perform(Append(store: store, text: String(round % 10)))
            textAt[stack.currentState] = store[.global]
            try stack.perform(Append(store: store, text: "x"))
            textAt[stack.currentState] = store[.global]
            try stack.undo()
        }
        var random = SplitMix(seed: 7)
        let ids = stack.tree.map(\.id)
        for _ in 0..<300 {
            let id = ids[Int(random.next() % UInt64(ids.count))]
            try stack.goTo(state: id)
            #expect(store[.global] == textAt[id])
            let (pool, stored) = stack.access { ($0.branches.pool.count, $0.branches.stepCount) }
            #expect(pool <= 2 * stored + 16)
        }
        stack.checkInvariants()
        #expect(stack.treeCount == 60)
    }

    @Test func aFailingJumpGoesBackToWhereItStarted() throws {
        let (stack, store) = try branched()
        store.failOnRedo = "c"
        #expect(throws: UndoError.self) { try stack.goTo(state: 3) }
        #expect(store[.global] == "ad" && stack.currentState == 4)
        stack.checkInvariants()
    }

    @Test func aJumpWaitsForAnOpenGroup() throws {
        let (stack, store) = try branched()
        try stack.beginGroup(named: "Group")
        #expect(throws: UndoError.groupOpen) { try stack.goTo(state: 3) }
        #expect(throws: UndoError.groupOpen) { try stack.earlier(.states(1)) }
        try stack.endGroup()
        #expect(store[.global] == "ad")
    }

    /// Random sessions: after every call, the documents hold exactly the text they had when
    /// the current state was made, and the record's invariants hold.
    @Test(arguments: 1...30)
    func randomSessionsReachEveryStateAsItWas(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let store = TextStore()
        let limit = seed % 3 == 0 ? 12 : nil
        let stack = UndoStack(countLimit: limit, coalescingWindow: nil)
        var textAt: [UInt32: String] = [0: ""]
        for step in 0..<150 {
            switch random.next() % 10 {
            case 0...3:
                try stack.perform(Append(store: store, text: String(step % 10), typing: random.next() % 4 == 0))
                textAt[stack.currentState] = store[.global]
            case 4: try stack.undo(count: Int(random.next() % 3) + 1)
            case 5: try stack.redo()
            case 6:
                let ids = [0] + stack.tree.map(\.id)
                try stack.goTo(state: ids[Int(random.next() % UInt64(ids.count))])
            case 7: try stack.earlier(.states(Int(random.next() % 3) + 1))
            case 8: try stack.later(.states(Int(random.next() % 3) + 1))
            default: stack.breakCoalescing()
            }
            stack.checkInvariants()
            if limit == nil || textAt[stack.currentState] != nil, stack.currentState != 0 || limit == nil {
                #expect(store[.global] == textAt[stack.currentState], "seed \(seed) step \(step)")
            }
        }
        #expect(limit == nil || stack.treeCount <= limit!)
    }
}

