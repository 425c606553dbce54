import Testing
@testable import UndoCore

/// A group keeps its members' cost and what it knows of their contexts as they are added
/// (`UndoGroup.Parts.keptCost`, `UndoGroup.Known`), so closing it and counting it into the
/// history ask no member again. Any other change to the members (a merge, an annulled member, a
/// removal) forgets what is kept, which is then worked out again. Here what a group answers is
/// compared with what its members say, worked out by the test itself, after every step of
/// random histories.
@Suite struct GroupSummaryTests {
    final class Model {
        /// How many times a member was asked its cost.
        var costsAsked = 0
        var values: [UndoContext: Int] = [:]
    }

    /// Adds to a value of its context; its cost follows its amount, so a merge changes it. With
    /// `merging`, it coalesces with the one before (in the same context); two that sum to zero
    /// annul each other.
    struct Shift: UndoCommand {
        let model: Model
        var amount: Int
        var context: UndoContext
        var merging = false
        var name: String? { "Shift" }
        var cost: Int {
            model.costsAsked += 1
            return 16 + abs(amount)
        }
        var coalescingKey: UndoCoalescingKey? { merging ? UndoCoalescingKey("shift") : nil }
        func perform(_ changes: inout UndoChanges) { model.values[context, default: 0] += amount }
        func undo(_ changes: inout UndoChanges) { model.values[context, default: 0] -= amount }
        mutating func merge(with next: Shift) -> UndoMerge {
            amount += next.amount
            return amount == 0 ? .annulled : .merged
        }
    }

    static let contexts = [UndoContext.global, UndoContext("a"), UndoContext("b")]

    @Test func closingAGroupAsksNoMemberAgain() throws {
        let model = Model()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Macro")
        for index in 0..<10 { try stack.perform(Shift(model: model, amount: index + 1, context: .global)) }
        #expect(model.costsAsked == 10)  // each member once, as it is added
        try stack.endGroup()
        #expect(model.costsAsked == 10)
        #expect(stack.totalCost == UndoGroup(name: nil, context: .global).cost + (1...10).reduce(0) { $0 + 16 + $1 + 8 })
        try stack.undo()
        try stack.redo()
        #expect(model.costsAsked == 10)
        #expect(model.values[.global] == 55)
        stack.checkInvariants()
    }

    @Test func aMergeInAnOpenGroupIsSeenInItsCost() throws {
        let model = Model()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Edit")
        try stack.perform(Shift(model: model, amount: 1, context: .global))
        try stack.perform(Shift(model: model, amount: 2, context: .global, merging: true))
        try stack.perform(Shift(model: model, amount: 3, context: .global, merging: true))  // merged: 5
        let group = try #require(stack.openGroups.last)
        #expect(group.members.count == 2)
        #expect(group.cost == UndoGroup(name: nil, context: .global).cost + (16 + 1 + 8) + (16 + 5 + 8))
        try stack.perform(Shift(model: model, amount: -5, context: .global, merging: true))  // annulled
        #expect(group.members.count == 1)
        #expect(group.cost == UndoGroup(name: nil, context: .global).cost + (16 + 1 + 8))
        try stack.endGroup()
        stack.checkInvariants()
    }

    @Test func whatIsKeptFollowsTheMembersThroughRandomHistories() throws {
        for seed: UInt64 in [1, 2, 3] {
            var random = SplitMix(seed: seed)
            let model = Model()
            let stack = UndoStack.testing()
            var checked = 0
            for _ in 0..<600 {
                switch Int.random(in: 0..<20, using: &random) {
                case 0..<3 where stack.groupDepth < 4:
                    let context = Int.random(in: 0...3, using: &random)
                    try stack.beginGroup(named: "Group", context: context == 3 ? nil : Self.contexts[context])
                case 3..<5 where stack.groupDepth > 0:
                    try stack.endGroup()
                case 5 where stack.groupDepth > 0:
                    try stack.cancelGroup()
                case 6..<8 where stack.groupDepth == 0:
                    try stack.undo()
                case 8 where stack.groupDepth == 0:
                    try stack.redo()
                case 9:
                    // A removal: every member of a group that adds 3 or -3 goes.
                    _ = try stack.removeAll { ($0 as? Shift).map { abs($0.amount) == 3 } ?? false }
                default:
                    var amount = Int.random(in: -3...3, using: &random)
                    if amount == 0 { amount = 1 }
                    let context = Self.contexts[Int.random(in: 0..<Self.contexts.count, using: &random)]
                    try stack.perform(Shift(model: model, amount: amount, context: context,
                                            merging: Bool.random(using: &random)))
                }
                stack.checkInvariants()
                for group in Self.groups(of: stack) {
                    try Self.expectAnswersMatchMembers(of: group)
                    checked += 1
                }
            }
            #expect(checked > 100, "seed \(seed): too few groups checked (\(checked))")
        }
    }

    /// The groups of the history (every step of every branch) and the open ones.
    static func groups(of stack: UndoStack) -> [UndoGroup] {
        var groups = stack.openGroups
        stack.access { record in
            record.forEachStep { step, _, _ in
                if let group = UndoGroup.group(in: step.command) { groups.append(group) }
            }
        }
        return groups
    }

    /// The group's cost, one context and contexts, against those worked out here from its
    /// members, nested groups' members included.
    static func expectAnswersMatchMembers(of group: UndoGroup) throws {
        let overhead = UndoGroup(name: nil, context: .global).cost
        func expectedCost(_ group: UndoGroup) -> Int {
            group.members.reduce(overhead) { total, member in
                total + (UndoGroup.group(in: member).map(expectedCost) ?? member.cost) + 8
            }
        }
        func expectedContexts(_ group: UndoGroup) -> Set<UndoContext> {
            group.members.reduce(into: []) { contexts, member in
                contexts.insert(member.context)
                if let nested = UndoGroup.group(in: member) { contexts.formUnion(expectedContexts(nested)) }
            }
        }
        let contexts = expectedContexts(group)
        #expect(group.cost == expectedCost(group))
        #expect(group.allContexts == contexts)
        #expect(group.onlyContext == (contexts.count == 1 ? contexts.first : nil))
        #expect(group.keptMatchesMembers)
        for member in group.members {
            if let nested = UndoGroup.group(in: member) { try expectAnswersMatchMembers(of: nested) }
        }
    }
}
