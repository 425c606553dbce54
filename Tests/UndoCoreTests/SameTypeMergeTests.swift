import Testing
@testable import UndoCore

/// A change that coalesces is merged into the newest step as the step's own type, in place
/// (`SameTypeView`: the step's type compared with the change's, no cast, no copy): what it
/// merges, what it refuses, and what it leaves alone.
@Suite struct SameTypeMerges {
    /// Typing in one document, merged by a class: the history holds its object, not a copy.
    final class Run: UndoCommand {
        let store: TextStore
        var text: String
        var offered = 0
        init(store: TextStore, text: String) { self.store = store; self.text = text }
        var name: String? { "Typing" }
        var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("typing") }
        func perform(_ changes: inout UndoChanges) throws { store[.global] += text }
        func undo(_ changes: inout UndoChanges) throws { store[.global].removeLast(text.count) }
        func merge(with next: Run) -> UndoMerge {
            offered += 1
            text += next.text
            return .merged
        }
    }

    /// Another type with the key `Append` uses: never offered to an `Append` step.
    struct Stamp: UndoCommand {
        let counter: Counter
        var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("typing") }
        func perform(_ changes: inout UndoChanges) throws { counter.value += 1 }
        func undo(_ changes: inout UndoChanges) throws { counter.value -= 1 }
        func merge(with next: Stamp) -> UndoMerge {
            Issue.record("a Stamp was offered another Stamp across an Append")
            return .merged
        }
    }

    /// A step too large for the existential's inline room (`Append`) sits in a box; a copy of
    /// the step read before the merge shares it. The merge changes the history's step only.
    @Test func aMergeIntoASharedBoxLeavesTheCopyAsItWas() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        #expect(MemoryLayout<Append>.size > 3 * MemoryLayout<Int>.size)  // boxed in an existential
        try stack.perform(Append(store: store, text: "a", typing: true))
        let before = stack.command(at: 0)
        try stack.perform(Append(store: store, text: "b", typing: true))
        try stack.perform(Append(store: store, text: "c", typing: true))
        #expect(stack.count == 1)
        #expect((before as? Append)?.text == "a")
        #expect((stack.command(at: 0) as? Append)?.text == "abc")
        #expect(stack.totalCost == 32 + 3)  // measured after the merge, as the step's own type
        try stack.undo()
        #expect(store[.global] == "")
        stack.checkInvariants()
    }

    /// An inline step (`Add`: two words) merges and annuls in place.
    @Test func anInlineStepMergesAndAnnulsInPlace() throws {
        let counter = Counter()
        let stack = UndoStack.testing()
        try stack.perform(Add(counter: counter, amount: 2))
        try stack.perform(Add(counter: counter, amount: 3))
        #expect(stack.count == 1 && (stack.command(at: 0) as? Add)?.amount == 5)
        try stack.perform(Add(counter: counter, amount: -5))
        #expect(stack.count == 0 && counter.value == 0)
        stack.checkInvariants()
    }

    /// A change of another type with the same key is a step of its own, both ways, and the step
    /// below it is not offered the change after it.
    @Test func aChangeOfAnotherTypeWithTheSameKeyIsAStepOfItsOwn() throws {
        let store = TextStore()
        let counter = Counter()
        let stack = UndoStack.testing()
        try stack.perform(Stamp(counter: counter))
        try stack.perform(Append(store: store, text: "a", typing: true))
        try stack.perform(Stamp(counter: counter))
        try stack.perform(Append(store: store, text: "b", typing: true))
        #expect(stack.count == 4)
        #expect(store[.global] == "ab" && counter.value == 2)
        for _ in 0..<4 { try stack.undo() }
        #expect(store[.global] == "" && counter.value == 0)
        stack.checkInvariants()
    }

    /// A class command: the history's step is the object pushed first, offered each keystroke
    /// once.
    @Test func aClassStepIsMergedIntoItsOwnObject() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        let first = Run(store: store, text: "h")
        try stack.perform(first)
        for text in ["e", "l", "l", "o"] { try stack.perform(Run(store: store, text: text)) }
        #expect(stack.count == 1 && first.offered == 4 && first.text == "hello")
        #expect((stack.command(at: 0) as? Run) === first)
        try stack.undo()
        #expect(store[.global] == "")
        try stack.redo()
        #expect(store[.global] == "hello")
        stack.checkInvariants()
    }

    /// Inside an open group, the group's newest member merges the same way.
    @Test func aGroupsNewestMemberMergesInPlace() throws {
        let store = TextStore()
        let counter = Counter()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Edit")
        try stack.perform(Append(store: store, text: "x", typing: true))
        try stack.perform(Append(store: store, text: "y", typing: true))
        try stack.perform(Stamp(counter: counter))
        try stack.perform(Append(store: store, text: "z", typing: true))
        try stack.endGroup()
        #expect(stack.count == 1)
        let group = try #require(stack.command(at: 0) as? UndoGroup)
        #expect(group.members.count == 3)
        #expect((group.members[0] as? Append)?.text == "xy")
        try stack.undo()
        #expect(store[.global] == "" && counter.value == 0)
        stack.checkInvariants()
    }

    /// A run whose key the history asks about in place (`hasCoalescingKey(_:)`): each change is
    /// asked once whether it has a key at all, the newest step once per change offered to it
    /// (through the default `hasCoalescingKey(of:)`, which reads the offered change's key once),
    /// and the newest step's own key's getter never.
    final class KeyedRun: UndoCommand {
        let store: TextStore
        let key: String
        var text: String
        var keyReads = 0
        var keyChecks = 0
        init(store: TextStore, key: String, text: String) { self.store = store; self.key = key; self.text = text }
        var coalescingKey: UndoCoalescingKey? { keyReads += 1; return UndoCoalescingKey(key) }
        func hasCoalescingKey(_ key: UndoCoalescingKey?) -> Bool {
            keyChecks += 1
            return key?.rawValue == self.key
        }
        func perform(_ changes: inout UndoChanges) throws { store[.global] += text }
        func undo(_ changes: inout UndoChanges) throws { store[.global].removeLast(text.count) }
        func merge(with next: KeyedRun) -> UndoMerge {
            text += next.text
            return .merged
        }
    }

    @Test func theNewestStepIsAskedForItsKeyInPlace() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        let first = KeyedRun(store: store, key: "typing", text: "a")
        try stack.perform(first)
        for letter in ["b", "c", "d"] { try stack.perform(KeyedRun(store: store, key: "typing", text: letter)) }
        #expect(stack.count == 1)
        #expect(first.text == "abcd")
        #expect(first.keyChecks == 4)  // whether it has a key when it came in, then once per change offered
        #expect(first.keyReads == 0)
        // Another key: the step says no, and the change becomes a step of its own.
        let other = KeyedRun(store: store, key: "pasting", text: "e")
        try stack.perform(other)
        #expect(stack.count == 2)
        #expect(first.keyChecks == 5 && first.text == "abcd")
        #expect(other.keyReads == 1 && other.keyChecks == 1)
        try stack.undo()
        #expect(store[.global] == "abcd")
        stack.checkInvariants()
    }

    /// The default answer compares the getter's key: a command that does not answer in place
    /// merges exactly as before.
    @Test func theDefaultAnswerComparesTheKey() {
        let store = TextStore()
        let append = Append(store: store, text: "a", typing: true)
        #expect(append.hasCoalescingKey(append.coalescingKey))
        #expect(!append.hasCoalescingKey(nil))
        #expect(!append.hasCoalescingKey(UndoCoalescingKey("other")))
        let plain = Append(store: store, text: "a", typing: false)
        #expect(plain.coalescingKey == nil && plain.hasCoalescingKey(nil))
        #expect(!plain.hasCoalescingKey(append.coalescingKey))
        // Two changes of one type: their keys compared.
        #expect(append.hasCoalescingKey(of: Append(store: store, text: "b", typing: true)))
        #expect(!append.hasCoalescingKey(of: plain) && !plain.hasCoalescingKey(of: append))
        #expect(plain.hasCoalescingKey(of: Append(store: store, text: "b", typing: false)))
    }
}
