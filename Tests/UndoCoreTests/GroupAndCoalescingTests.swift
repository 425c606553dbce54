import Testing
@testable import UndoCore

@Suite struct Groups {
    @Test func aGroupUndoesAsOneStepMembersInReverse() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Paste")
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        #expect(stack.groupDepth == 1)
        try stack.endGroup()
        #expect(stack.count == 1 && stack.undoMenuTitle == "Undo Paste")
        try stack.undo()   // Append.undo checks the text ends in its own text: reverse order
        #expect(store[.global] == "")
        try stack.redo()
        #expect(store[.global] == "abc")
        stack.checkInvariants()
    }

    /// A group costs what its members cost (added up as they are appended, so closing a
    /// group asks no member again), and still after members merge, annul or nest: the memory
    /// limit counts what the history really holds.
    @Test func aGroupCostsWhatItsMembersCostAfterMergesAndNesting() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        let overhead = UndoGroup(name: nil, context: .global).cost  // an empty group
        try stack.beginGroup(named: "Paste")
        try stack.perform(Append(store: store, text: "ab"))                 // 34
        try stack.perform(Append(store: store, text: "cde"))                // 35
        stack.checkInvariants()
        try stack.endGroup()
        #expect(stack.totalCost == overhead + (34 + 8) + (35 + 8))
        stack.checkInvariants()

        // Typing inside a group merges into its last member: the group's cost follows the text.
        try stack.beginGroup(named: "Edit")
        try stack.perform(Append(store: store, text: "x"))
        for text in ["1", "22", "333"] { try stack.perform(Append(store: store, text: text, typing: true)) }
        stack.checkInvariants()
        try stack.beginGroup(named: "Inner")
        try stack.perform(Append(store: store, text: "yz"))
        try stack.endGroup()
        try stack.endGroup()
        let inner = overhead + (34 + 8)
        let edit = overhead + (33 + 8) + (32 + 6 + 8) + (inner + 8)
        #expect(stack.totalCost == overhead + (34 + 8) + (35 + 8) + edit)
        stack.checkInvariants()

        // A limit just under both groups drops the first; the one just done stays.
        stack.memoryLimit = edit + 1
        #expect(stack.count == 1 && stack.totalCost == edit)
        try stack.undo()
        #expect(store[.global] == "abcde")
        stack.checkInvariants()
    }

    /// A group of members of several types lists, costs, undoes and redoes its members in order.
    @Test func membersOfSeveralTypesRunInOrder() throws {
        let store = TextStore()
        let counter = Counter()
        let stack = UndoStack.testing()
        let overhead = UndoGroup(name: nil, context: .global).cost
        try stack.beginGroup(named: "Mixed")
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        let open = try #require(stack.openGroups.last)
        #expect(open.members.count == 3)
        try stack.perform(Nudge(counter: counter))
        #expect(open.members.count == 4)
        try stack.perform(Append(store: store, text: "d"))
        stack.checkInvariants()
        try stack.endGroup()

        let group = try #require(stack.command(at: 0) as? UndoGroup)
        // Listed as the commands themselves, not as boxes.
        #expect(group.members.map { ($0 as? Append)?.text ?? ($0 is Nudge ? "nudge" : "?") } == ["a", "b", "c", "nudge", "d"])
        #expect(stack.totalCost == overhead + 4 * (33 + 8) + (MemoryLayout<Nudge>.size + 8))
        try stack.undo()   // Append.undo checks the text ends in its own text: reverse order
        #expect(store[.global] == "" && counter.value == 0)
        try stack.redo()
        #expect(store[.global] == "abcd" && counter.value == 1)
        stack.checkInvariants()
    }

    /// In a group of groups each undoes its members in
    /// reverse, and a failure in a nested group puts back what the outer one had undone.
    @Test func groupsOfGroupsUndoInReverseAndStayAtomic() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Outer")
        for outer in ["a", "b", "c"] {
            try stack.beginGroup(named: "Inner")
            for inner in ["1", "2"] { try stack.perform(Append(store: store, text: outer + inner)) }
            try stack.endGroup()
        }
        let open = try #require(stack.openGroups.last)
        #expect(open.members.count == 3)
        try stack.endGroup()
        stack.checkInvariants()
        #expect(store[.global] == "a1a2b1b2c1c2")
        store.failOn = "a2"   // c and b undo, then a fails in its second member: all redone
        #expect(throws: UndoError.self) { try stack.undo() }
        #expect(store[.global] == "a1a2b1b2c1c2" && stack.position == 1)
        store.failOn = nil
        try stack.undo()
        #expect(store[.global] == "")
        try stack.redo()
        #expect(store[.global] == "a1a2b1b2c1c2")
        stack.checkInvariants()
    }

    /// Members removed down to none: the next member, in a group without a context, gives the
    /// group its own.
    @Test func aGroupEmptiedTakesItsNextMembersContext() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        let document = UndoContext("doc")
        try stack.beginGroup(named: "Edit")
        try stack.perform(Append(store: store, text: "a"))
        try stack.removeAll(in: .global)
        let open = try #require(stack.openGroups.last)
        #expect(open.members.isEmpty)
        try stack.perform(Append(store: store, text: "b", context: document))
        #expect(open.context == document && open.members.count == 1)
        try stack.endGroup()
        stack.checkInvariants()
        try stack.undo(in: document)
        #expect(store[document] == "" && store[.global] == "a")
    }

    /// Closing one document leaves the groups of another as they were (their cost unchanged),
    /// and takes its own members out of a group that spans both.
    @Test func removingADocumentLeavesOtherGroupsAsTheyWere() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        let (one, two) = (UndoContext("one"), UndoContext("two"))
        try stack.beginGroup(named: "One")
        for text in ["a", "b"] { try stack.perform(Append(store: store, text: text, context: one)) }
        try stack.endGroup()
        try stack.beginGroup(named: "Both")
        try stack.perform(Append(store: store, text: "c", context: one))
        try stack.perform(Append(store: store, text: "x", context: two))
        try stack.endGroup()
        let kept = try #require(stack.command(at: 0) as? UndoGroup)
        let cost = kept.cost
        #expect(try stack.removeAll(in: two) == 1)
        #expect(kept.cost == cost && kept.members.count == 2)
        let both = try #require(stack.command(at: 1) as? UndoGroup)
        #expect(both.members.count == 1 && both.context == one)
        stack.checkInvariants()
        try stack.undo(count: 2)
        #expect(store[one] == "" && store[two] == "x")
        stack.checkInvariants()
    }

    @Test func nestedGroupsBecomeMembersOfTheirParent() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Outer")
        try stack.perform(Append(store: store, text: "a"))
        try stack.beginGroup(named: "Inner")
        try stack.perform(Append(store: store, text: "b"))
        try stack.perform(Append(store: store, text: "c"))
        try stack.endGroup()
        try stack.perform(Append(store: store, text: "d"))
        try stack.endGroup()
        #expect(stack.count == 1)
        #expect(stack.steps[0].memberCount == 3)
        try stack.undo()
        #expect(store[.global] == "")
        try stack.redo()
        #expect(store[.global] == "abcd")
    }

    @Test func anEmptyGroupLeavesNoStepAndKeepsRedo() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a"))
        try stack.undo()
        try stack.beginGroup(named: "Nothing")
        try stack.beginGroup()
        try stack.endGroup()
        try stack.endGroup()
        #expect(stack.count == 1 && stack.canRedo)
    }

    @Test func endingAGroupNeverBegunIsAnError() throws {
        let stack = UndoStack.testing()
        #expect(throws: UndoError.noOpenGroup) { try stack.endGroup() }
        #expect(stack.groupDepth == 0)
    }

    @Test func undoWhileAGroupIsOpenIsRefused() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.beginGroup()
        try stack.perform(Append(store: store, text: "a"))
        #expect(throws: UndoError.groupOpen) { try stack.undo() }
        try stack.endGroup()
        try stack.undo()
        #expect(store[.global] == "")
    }

    @Test func overlongGroupAndContextNamesAreRefused() throws {
        let stack = UndoStack.testing()
        let long = String(repeating: "가", count: UndoStack.maximumNameBytes / 3 + 1)   // 3 bytes each
        #expect(throws: UndoError.nameTooLong(what: "group name", bytes: long.utf8.count, limit: UndoStack.maximumNameBytes)) {
            try stack.beginGroup(named: long)
        }
        #expect(throws: UndoError.nameTooLong(what: "context name", bytes: long.utf8.count, limit: UndoStack.maximumNameBytes)) {
            try stack.beginGroup(named: "Paste", context: UndoContext(long))
        }
        #expect(stack.groupDepth == 0)
        try stack.beginGroup(named: String(repeating: "a", count: UndoStack.maximumNameBytes))
        #expect(stack.groupDepth == 1)
    }

    @Test func groupsNestOnlySoDeep() throws {
        let stack = UndoStack.testing()
        for _ in 0..<UndoStack.maximumGroupDepth { try stack.beginGroup() }
        #expect(throws: UndoError.groupTooDeep(limit: UndoStack.maximumGroupDepth)) { try stack.beginGroup() }
    }
}

@Suite struct Coalescing {
    @Test func aBurstOfTypingIsOneStep() throws {
        let clock = ManualUndoClock()
        let store = TextStore()
        let stack = UndoStack.testing(clock: clock)
        for ch in "hello" {
            try stack.perform(Append(store: store, text: String(ch), typing: true))
            clock.advance(milliseconds: 100)
        }
        #expect(stack.count == 1 && stack.undoMenuTitle == "Undo Typing")
        try stack.undo()
        #expect(store[.global] == "")
        try stack.redo()
        #expect(store[.global] == "hello")
    }

    @Test func aPauseLongerThanTheWindowStartsANewStep() throws {
        let clock = ManualUndoClock()
        let store = TextStore()
        let stack = UndoStack.testing(clock: clock)
        try stack.perform(Append(store: store, text: "a", typing: true))
        clock.advance(milliseconds: 499)
        try stack.perform(Append(store: store, text: "b", typing: true))
        clock.advance(milliseconds: 501)
        try stack.perform(Append(store: store, text: "c", typing: true))
        #expect(stack.count == 2)
        stack.coalescingWindow = .seconds(2)
        clock.advance(milliseconds: 1500)
        try stack.perform(Append(store: store, text: "d", typing: true))
        #expect(stack.count == 2)
        try stack.undo()
        #expect(store[.global] == "ab")
    }

    @Test(arguments: ["key", "break", "group", "undo", "save"])
    func aRunBreaksOn(_ breaker: String) throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", typing: true))
        switch breaker {
        case "key":
            try stack.perform(Append(store: store, text: "-"))
        case "break":
            stack.breakCoalescing()
        case "group":
            try stack.beginGroup(); try stack.perform(Append(store: store, text: "-")); try stack.endGroup()
        case "undo":
            try stack.perform(Append(store: store, text: "b", typing: true))
            try stack.undo(); try stack.redo()
        default:
            try stack.markSaved()
        }
        let before = stack.count
        try stack.perform(Append(store: store, text: "z", typing: true))
        #expect(stack.count == before + 1, "typing after \(breaker) should start a new step")
        try stack.undo()
        #expect(!store[.global].hasSuffix("z"))
    }

    @Test func differentContextsNeverCoalesce() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: UndoContext("one"), typing: true))
        try stack.perform(Append(store: store, text: "b", context: UndoContext("two"), typing: true))
        #expect(stack.count == 2)
    }

    @Test func aMergeThatCancelsOutAnnulsBothAndKeepsRedo() throws {
        let counter = Counter()
        let stack = UndoStack.testing()
        try stack.perform(Add(counter: counter, amount: 5))
        stack.breakCoalescing()
        try stack.perform(Add(counter: counter, amount: 2))
        try stack.perform(Add(counter: counter, amount: 3))
        #expect(stack.count == 2)            // 2 and 3 merged
        try stack.perform(Add(counter: counter, amount: -5))
        #expect(stack.count == 1)            // the merged +5 and -5 annul each other
        #expect(counter.value == 5)
        try stack.undo()
        #expect(counter.value == 0)
        stack.checkInvariants()
    }

    /// A merge has three outcomes (as in Rust's `undo`): merged, annulled, or refused, which
    /// keeps the two as separate steps; a command without a merge of its own refuses.
    @Test func aRefusedMergeKeepsSeparateSteps() throws {
        let counter = Counter()
        let stack = UndoStack.testing()
        for _ in 0..<10 { try stack.perform(Nudge(counter: counter)) }
        #expect(stack.count == 10 && stack.undoMenuTitle == "Undo Move")
        #expect(stack.steps.allSatisfy { $0.memberCount == 0 })
        try stack.undo()
        #expect(counter.value == 9)
        try stack.redo()
        #expect(counter.value == 10)
        stack.checkInvariants()
    }

    @Test func membersCoalesceInsideAGroup() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Fill")
        for ch in "abc" { try stack.perform(Append(store: store, text: String(ch), typing: true)) }
        try stack.endGroup()
        #expect(stack.steps[0].memberCount == 1)
        try stack.undo()
        #expect(store[.global] == "")
    }
}
