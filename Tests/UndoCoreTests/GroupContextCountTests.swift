import Testing
@testable import UndoCore

/// A group whose members all change its own context is counted for that context by comparing
/// contexts, without building the set of its contexts; every other group is counted for each
/// context it changes. `checkInvariants()` recounts every step from scratch and compares.
@Suite struct GroupContextCounts {
    let store = TextStore()
    let a = UndoContext("a"), b = UndoContext("b")

    private func insert(_ text: String, in context: UndoContext) -> Append {
        Append(store: store, text: text, context: context)
    }

    @Test func aGroupOfOneContextCountsForItAlone() throws {
        let stack = UndoStack()
        try stack.beginGroup(named: "Paste")
        try stack.perform(insert("x", in: a))
        try stack.perform(insert("y", in: a))
        try stack.endGroup()
        stack.checkInvariants()
        #expect(stack.canUndo(in: a) && !stack.canUndo(in: b) && !stack.canUndo(in: .global))
        let group = try #require(stack.access { UndoGroup.group(in: $0.steps[0].command) })
        #expect(group.onlyContext == a)
        try stack.undo()
        stack.checkInvariants()
        #expect(stack.canRedo(in: a) && !stack.canRedo(in: b))
    }

    @Test func aGroupAcrossContextsCountsForEach() throws {
        let stack = UndoStack()
        try stack.beginGroup(named: "Mixed")
        try stack.perform(insert("x", in: a))
        try stack.perform(insert("y", in: b))
        try stack.endGroup()
        stack.checkInvariants()
        #expect(stack.canUndo(in: a) && stack.canUndo(in: b))
        let group = try #require(stack.access { UndoGroup.group(in: $0.steps[0].command) })
        #expect(group.onlyContext == nil)
        try stack.undo(in: b)
        stack.checkInvariants()
        #expect(stack.canRedo(in: a) && stack.canRedo(in: b) && !stack.canUndo(in: a))
    }

    @Test func aGroupOpenedInOneContextWithMembersOfAnotherCountsForBoth() throws {
        let stack = UndoStack()
        try stack.beginGroup(named: "Elsewhere", context: a)
        try stack.perform(insert("x", in: b))
        try stack.endGroup()
        stack.checkInvariants()
        #expect(stack.canUndo(in: a) && stack.canUndo(in: b))
    }

    @Test func aNestedGroupOfAnotherContextIsSeen() throws {
        let stack = UndoStack()
        try stack.beginGroup(named: "Outer")
        try stack.perform(insert("x", in: a))
        try stack.beginGroup(named: "Inner", context: a)
        try stack.perform(insert("y", in: b))
        try stack.endGroup()
        try stack.endGroup()
        stack.checkInvariants()
        #expect(stack.canUndo(in: a) && stack.canUndo(in: b))
        let outer = try #require(stack.access { UndoGroup.group(in: $0.steps[0].command) })
        #expect(outer.onlyContext == nil)

        let same = UndoStack()
        try same.beginGroup(named: "Outer")
        try same.perform(insert("x", in: a))
        try same.beginGroup(named: "Inner")
        try same.perform(insert("y", in: a))
        try same.endGroup()
        try same.endGroup()
        same.checkInvariants()
        let sameOuter = try #require(same.access { UndoGroup.group(in: $0.steps[0].command) })
        #expect(sameOuter.onlyContext == a)
        #expect(same.canUndo(in: a) && !same.canUndo(in: b))
    }

    @Test func aGroupsCostIsItsMembersCostsAndItsOwn() throws {
        let stack = UndoStack()
        try stack.beginGroup(named: "Paste")
        try stack.perform(insert("xy", in: a))
        try stack.perform(insert("z", in: a))
        try stack.endGroup()
        // Append costs 32 bytes plus its text; a group adds its object, 16 and 8 a member.
        let expected = MemoryLayout<UndoGroup>.size + 16 + (32 + 2 + 8) + (32 + 1 + 8)
        #expect(stack.totalCost == expected)
        stack.checkInvariants()
    }
}
