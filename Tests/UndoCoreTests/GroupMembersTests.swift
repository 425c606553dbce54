import Testing
@testable import UndoCore

/// A group keeps its members in one block of slots of the history's two kinds
/// (``GroupMembers``): every change must keep them in order, each destroyed exactly once, a
/// member of 25 to 64 bytes held in its slot itself, and a copy must never change with the
/// original.
@Suite struct GroupMembersTests {
    static func numbers(_ members: GroupMembers) -> [Int] {
        (0..<members.count).map { CommandChunksTests.number(of: members[$0]) }
    }

    /// Picks the members whose number is a multiple of `modulus`, read in place.
    struct MultipleJudge: StepCommandRead {
        let modulus: Int
        var asked = 0
        mutating func read<C: UndoCommand>(_ member: borrowing C) -> GroupMembers.Verdict {
            asked += 1
            let goes = CommandChunksTests.number(of: copy member) % modulus == 0
            return GroupMembers.Verdict(goes: goes, removed: goes ? 1 : 0)
        }
    }

    /// Random appends, removals, filters and copies, of members of 16 bytes or of 16, 64 and 96
    /// bytes by turns, against an array.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64], [false, true])
    func randomChangesMatchAnArray(seed: UInt64, mixed: Bool) {
        let census = Census()
        var generator = SplitMix(seed: seed)
        do {
            var members = GroupMembers(reserving: Int.random(in: 0..<3, using: &generator))
            var model: [Int] = []
            var copies: [(GroupMembers, [Int])] = []
            var next = 0
            for _ in 0..<400 {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0...5:
                    members.append(CommandChunksTests.command(next, census, mixed: mixed, using: &generator))
                    model.append(next)
                    next += 1
                case 6:
                    guard !model.isEmpty else { continue }
                    #expect(CommandChunksTests.number(of: members[members.count - 1]) == model.removeLast())
                    members.dropLast()
                case 7:
                    let modulus = Int.random(in: 2...5, using: &generator)
                    var judge = MultipleJudge(modulus: modulus)
                    let removed = members.removeAll(judging: &judge, held: nil)
                    #expect(judge.asked == model.count)
                    #expect(removed == model.count { $0 % modulus == 0 })
                    model.removeAll { $0 % modulus == 0 }
                case 8:
                    copies.append((members, model))
                default:
                    var run = CountingChange()
                    members.change(0..<members.count, reversed: Bool.random(using: &generator), &run)
                    #expect(run.changed == model.count)
                }
                members.checkInvariants()
                #expect(Self.numbers(members) == model)
            }
            // Each copy kept what it had when taken, whatever happened to the list after.
            for (copy, numbers) in copies {
                copy.checkInvariants()
                #expect(Self.numbers(copy) == numbers)
            }
            #expect(census.alive > 0)
        }
        #expect(census.alive == 0)
    }

    /// Counts the members it is run on (with their own types or as existentials).
    struct CountingChange: StepCommandChange {
        var changed = 0
        mutating func change<C: UndoCommand>(_ command: inout C) -> Int {
            changed += 1
            return changed
        }
    }

    @Test func aWideMemberIsHeldInItsSlotAndTheSlotsTurnWide() {
        let census = Census()
        do {
            var members = GroupMembers(reserving: 2)
            members.append(typed: NumberedCommand(number: 0, token: Token(census)))
            #expect(!members.isWide)
            members.append(typed: WideNumberedCommand(number: 1, token: Token(census)))
            #expect(members.isWide)
            members.append(typed: HugeNumberedCommand(number: 2, token: Token(census)))
            members.append(typed: NumberedCommand(number: 3, token: Token(census)))
            members.checkInvariants()
            #expect(Self.numbers(members) == [0, 1, 2, 3])
            #expect(census.alive == 4)
        }
        #expect(census.alive == 0)
    }

    /// A group of 64-byte members runs them in order, newest first on undo, and puts back
    /// those already run when one fails.
    @Test func aGroupOfWideMembersRunsInOrderAndRollsBack() throws {
        let log = RunLog()
        let group = UndoGroup(name: "Wide", context: .global)
        for number in 0..<5 { group.append(typed: LoggedWideCommand(number: number, log: log)) }
        #expect(group.storage.access { $0.parts.members.isWide })
        var changes = UndoChanges()
        try group.perform(&changes)
        try group.undo(&changes)
        #expect(log.entries == ["+0", "+1", "+2", "+3", "+4", "-4", "-3", "-2", "-1", "-0"])

        log.entries = []
        log.failing = 3
        #expect(throws: UndoError.self) { try group.perform(&changes) }
        #expect(log.entries == ["+0", "+1", "+2", "-2", "-1", "-0"])
        log.entries = []
        log.failing = 3
        #expect(throws: UndoError.self) { try group.undo(&changes) }
        #expect(log.entries == ["-4", "+4"])
    }

    /// A group opened after a group whose first member was wide (a plugin step) makes its
    /// block wide from the start, with room for as many members: a macro of ten wide members
    /// is one block, not a narrow one made at beginGroup and a wide one at its first member. A
    /// group whose first member is small puts the next group back to narrow slots.
    @Test func aRepeatedGroupOfWideMembersIsOneBlock() throws {
        let log = RunLog()
        let counter = Counter()
        let history = UndoStack()
        func block() -> (id: ObjectIdentifier?, wide: Bool, room: Int?) {
            history.openGroups.last!.storage.access {
                ($0.parts.members.buffer.map(ObjectIdentifier.init), $0.parts.members.isWide,
                 $0.parts.members.buffer?.fields.room)
            }
        }
        try history.beginGroup(named: "Macro")
        for number in 0..<10 { try history.perform(LoggedWideCommand(number: number, log: log)) }
        try history.endGroup()

        try history.beginGroup(named: "Macro")
        let made = block()
        #expect(made.wide, "the block was made narrow although the last group began with a wide member")
        #expect(made.room == 10)
        for number in 0..<10 {
            try history.perform(LoggedWideCommand(number: number, log: log))
            #expect(block().id == made.id, "member \(number) moved the members into a new block")
        }
        try history.endGroup()

        // Small members after it: held in the wide block (no move); the group after them is narrow.
        try history.beginGroup(named: "Count")
        for amount in 1...3 { try history.perform(Increment(counter: counter, amount: amount)) }
        try history.endGroup()
        try history.beginGroup(named: "Count")
        #expect(!block().wide)
        try history.perform(Increment(counter: counter, amount: 4))
        try history.endGroup()
        history.checkInvariants()
        #expect(history.count == 4)
        #expect(counter.value == 10)
        try history.undo(count: 4)
        #expect(counter.value == 0)
        history.checkInvariants()
    }

    /// Typing into an open group merges into its newest member in place, 64-byte members
    /// included; the member removed from the group by a filter is freed once.
    @Test func typingIntoAnOpenGroupMergesIntoAWideMember() throws {
        let log = RunLog()
        let history = UndoStack()
        try history.beginGroup(named: "Edit")
        for number in 0..<3 { try history.perform(LoggedWideCommand(number: number, log: log, typing: true)) }
        try history.perform(LoggedWideCommand(number: 9, log: log))
        try history.endGroup()
        history.checkInvariants()
        let group = try #require(UndoGroup.group(in: history.command(at: history.count - 1)))
        #expect(group.memberCount == 2)
        #expect((group.members.first as? LoggedWideCommand)?.merged == [0, 1, 2])

        log.entries = []
        try history.undo()
        #expect(log.entries == ["-9", "-0"])
        #expect(try history.removeAll { ($0 as? LoggedWideCommand)?.number == 9 } == 1)
        history.checkInvariants()
        #expect(group.memberCount == 1)
    }
}

final class RunLog {
    var entries: [String] = []
    /// The number of the command whose perform or undo fails next.
    var failing: Int?
}

/// A 64-byte command that logs its runs; with `typing`, keystrokes merge into it.
struct LoggedWideCommand: UndoCommand {
    let number: Int
    let log: RunLog
    var typing = false
    var merged: [Int] = []
    var padding: (Int, Int, Int) = (1, 2, 3)

    init(number: Int, log: RunLog, typing: Bool = false) {
        self.number = number
        self.log = log
        self.typing = typing
        merged = [number]
    }

    var coalescingKey: UndoCoalescingKey? { typing ? UndoCoalescingKey("typing") : nil }

    func perform(_ changes: inout UndoChanges) throws {
        if log.failing == number {
            log.failing = nil
            throw TestFailure(description: "\(number) fails")
        }
        log.entries.append("+\(number)")
    }

    func undo(_ changes: inout UndoChanges) throws {
        if log.failing == number {
            log.failing = nil
            throw TestFailure(description: "\(number) fails")
        }
        log.entries.append("-\(number)")
    }

    mutating func merge(with next: LoggedWideCommand) -> UndoMerge {
        merged += next.merged
        return .merged
    }
}
