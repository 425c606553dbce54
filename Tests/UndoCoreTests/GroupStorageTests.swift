import Testing
@testable import UndoCore

/// A group keeps its name, description and parts behind one flag (``GroupStorage``) instead of
/// the run time's exclusivity checks: accesses must still never overlap, and everything must
/// read back and be freed with the group.
@Suite struct GroupStorageTests {
    final class GroupBox {
        var group: UndoGroup?
    }

    /// A member that reads its own group when asked for its cost.
    struct MeasuresItsGroup: UndoCommand {
        let box: GroupBox
        var cost: Int { box.group!.members.count }
        func perform(_ changes: inout UndoChanges) {}
        func undo(_ changes: inout UndoChanges) {}
    }

    /// A member that reads its own group while it runs (allowed: the members are moved out of
    /// the group while they run).
    struct RunsReadingItsGroup: UndoCommand {
        let box: GroupBox
        func perform(_ changes: inout UndoChanges) { _ = box.group!.name }
        func undo(_ changes: inout UndoChanges) { _ = box.group!.context }
    }

    struct Counted: UndoCommand {
        let token: Token
        func perform(_ changes: inout UndoChanges) {}
        func undo(_ changes: inout UndoChanges) {}
    }

    @Test func anOverlappingAccessStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let box = GroupBox()
            let group = UndoGroup(name: "Group", context: .global)
            box.group = group
            group.append(MeasuresItsGroup(box: box))
            // What is kept, worked out again (as after a change in place), asks each member its
            // cost inside the group's access.
            group.membersChanged()
            _ = group.cost
        }
    }

    /// A member is measured before it goes into its group's list, outside the group's access:
    /// its cost may read its group then (the group keeps it, so closing asks no member again).
    @Test func aMemberMayReadItsGroupWhenItIsAdded() {
        let box = GroupBox()
        let group = UndoGroup(name: "Group", context: .global)
        box.group = group
        group.append(typed: MeasuresItsGroup(box: box))
        group.append(MeasuresItsGroup(box: box) as any UndoCommand)
        #expect(group.cost == UndoGroup(name: nil, context: .global).cost + (0 + 8) + (1 + 8))
        box.group = nil
    }

    @Test func aMemberMayReadItsGroupWhileItRuns() throws {
        let box = GroupBox()
        let group = UndoGroup(name: "Group", context: .global)
        box.group = group
        group.append(typed: RunsReadingItsGroup(box: box))
        var changes = UndoChanges()
        try group.undo(&changes)
        try group.perform(&changes)
        #expect(group.members.count == 1)
        box.group = nil
    }

    @Test func fieldsReadBackAndGoWithTheGroup() {
        let census = Census()
        do {
            let document = UndoContext("document")
            let group = UndoGroup(name: "Format", context: .global)
            group.historyDescription = "Bold, then italic"
            group.append(typed: Counted(token: Token(census)))
            group.append(Counted(token: Token(census)) as any UndoCommand)
            #expect(group.name == "Format")
            #expect(group.historyDescription == "Bold, then italic")
            #expect(group.members.count == 2)
            #expect(census.alive == 2)
            group.name = "Style"
            group.context = document
            #expect(group.name == "Style")
            #expect(group.context == document)
        }
        #expect(census.alive == 0)
    }
}

/// Keystrokes merged into the newest member of an open group change it in place: the group's
/// list keeps its buffer across every merge (it was copied on each before, O(members) a
/// keystroke).
@Suite struct GroupMergeInPlace {
    @Test func keystrokesInAnOpenGroupMergeWithoutCopyingTheMembers() throws {
        let stack = UndoStack.testing()
        let store = TextStore()
        try stack.beginGroup(named: "Macro")
        for index in 0..<50 { try stack.perform(Append(store: store, text: "x\(index)", typing: false)) }
        try stack.perform(Append(store: store, text: "a", typing: true))
        func buffer() -> ObjectIdentifier? {
            stack.openGroups.last!.storage.access { $0.parts.members.buffer.map(ObjectIdentifier.init) }
        }
        for letter in "bcdefghij" {
            let before = buffer()
            try stack.perform(Append(store: store, text: String(letter), typing: true))
            #expect(buffer() == before, "the members were copied by the merge of \(letter)")
        }
        #expect(stack.openGroups.last!.members.count == 51)
        try stack.endGroup()
        #expect(store[.global].hasSuffix("abcdefghij"))
        try stack.undo()
        #expect(store[.global] == "")
        stack.checkInvariants()
    }
}
