import Testing
@testable import UndoCore

/// `removeAll(where:)` judges the oldest steps that go with their commands read in place, then
/// walks the rest as before: every command (a group's members included) is offered to the
/// predicate exactly once, and the history left is the one the walk alone left.
@Suite struct RemoveAllWhereTests {
    static func tags(_ stack: UndoStack) -> [Int] {
        (0..<stack.count).map { (stack.command(at: $0) as! NumberedCommand).number }
    }

    /// An unload of the plugin whose steps are the whole history: every step goes, across chunks.
    @Test func removingEveryStepOffersEachOnceAndFreesIt() throws {
        let census = Census()
        let stack = UndoStack.testing()
        let steps = 2 * CommandChunks.chunkSize + 7
        for tag in 0..<steps { try stack.perform(NumberedCommand(number: tag, token: Token(census))) }
        try stack.undo(count: 5)
        var offered = 0
        let removed = try stack.removeAll { _ in offered += 1; return true }
        #expect(removed == steps && offered == steps)
        #expect(stack.count == 0 && stack.undoCount == 0 && census.alive == 0)
        stack.checkInvariants()
    }

    /// The members taken out of open groups are counted with the steps: the count says what
    /// left the history (it left them out, and a closed document's removal said too few).
    @Test func membersOfOpenGroupsAreCounted() throws {
        let census = Census()
        let stack = UndoStack.testing()
        try stack.perform(NumberedCommand(number: 0, token: Token(census)))
        try stack.beginGroup(named: "Outer")
        try stack.perform(WideNumberedCommand(number: 1, token: Token(census)))
        try stack.perform(NumberedCommand(number: 2, token: Token(census)))
        try stack.beginGroup(named: "Inner")
        try stack.perform(NumberedCommand(number: 3, token: Token(census)))
        try stack.perform(WideNumberedCommand(number: 4, token: Token(census)))
        let removed = try stack.removeAll { !($0 is NumberedCommand) || ($0 as! NumberedCommand).number != 2 }
        #expect(removed == 4)
        #expect(census.alive == 1)
        try stack.endGroup()
        try stack.endGroup()
        stack.checkInvariants()
        #expect(stack.count == 1)
        let outer = try #require(UndoGroup.group(in: stack.command(at: 0)))
        #expect(outer.members.map { ($0 as? NumberedCommand)?.number } == [2])
    }

    /// `removeAll(matching:)` offers each command with its own type, wherever the history holds
    /// it (in an existential, or itself in a wide slot): the leading run judged in place, the
    /// rest walked, each offered once, and the commands freed.
    @Test(arguments: [false, true])
    func aMatcherSeesEachCommandAsItsOwnType(leadingRun: Bool) throws {
        struct WideOnes: UndoCommandMatcher {
            final class Log { var seen: [String] = [] }
            let log = Log()
            func matches<C: UndoCommand>(_ command: borrowing C) -> Bool {
                log.seen.append("\(C.self)")
                return C.self == WideNumberedCommand.self
            }
        }
        let census = Census()
        let stack = UndoStack.testing()
        // Wide commands first (the leading run that goes) or after a small one (which stays).
        if !leadingRun { try stack.perform(NumberedCommand(number: -1, token: Token(census))) }
        for tag in 0..<6 {
            switch tag % 3 {
            case 0, 1: try stack.perform(WideNumberedCommand(number: tag, token: Token(census)))
            default: try stack.perform(HugeNumberedCommand(number: tag, token: Token(census)))
            }
        }
        let matcher = WideOnes()
        let removed = try stack.removeAll(matching: matcher)
        #expect(removed == 4)
        let expected = (leadingRun ? [] : ["NumberedCommand"])
            + ["WideNumberedCommand", "WideNumberedCommand", "HugeNumberedCommand",
               "WideNumberedCommand", "WideNumberedCommand", "HugeNumberedCommand"]
        #expect(matcher.log.seen == expected)
        #expect((0..<stack.count).map { CommandChunksTests.number(of: stack.command(at: $0)) } == (leadingRun ? [2, 5] : [-1, 2, 5]))
        #expect(census.alive == (leadingRun ? 2 : 3))
        stack.checkInvariants()
        while stack.canUndo { try stack.undo() }
        while stack.canRedo { try stack.redo() }
        #expect(stack.undoCount == stack.count)
    }

    /// A run of removed steps first, then kept and removed ones: the position counts the kept
    /// steps done.
    @Test func aLeadingRunThenOthers() throws {
        let census = Census()
        let stack = UndoStack.testing()
        for tag in 0..<10 { try stack.perform(NumberedCommand(number: tag, token: Token(census))) }
        try stack.undo(count: 3)  // 7 done
        let gone: Set = [0, 1, 2, 5, 8]
        var offered: [Int] = []
        let removed = try stack.removeAll { command in
            let tag = (command as! NumberedCommand).number
            offered.append(tag)
            return gone.contains(tag)
        }
        #expect(removed == 5)
        #expect(offered == Array(0..<10))
        #expect(Self.tags(stack) == [3, 4, 6, 7, 9])
        #expect(stack.undoCount == 3)  // 3, 4 and 6 were done
        #expect(census.alive == 5)
        stack.checkInvariants()
        while stack.canUndo { try stack.undo() }
        while stack.canRedo { try stack.redo() }
        #expect(stack.undoCount == 5)
    }

    /// A branch that hung at a removed leading step hangs at the empty history's state.
    @Test func aBranchAtALeadingRemovedStep() throws {
        let census = Census()
        let stack = UndoStack.testing()
        try stack.perform(NumberedCommand(number: 0, token: Token(census)))
        try stack.perform(NumberedCommand(number: 1, token: Token(census)))
        try stack.undo()
        try stack.perform(NumberedCommand(number: 2, token: Token(census)))  // 1 hangs as a branch at 0's state
        var offered: [Int] = []
        let removed = try stack.removeAll { command in
            let tag = (command as! NumberedCommand).number
            offered.append(tag)
            return tag == 0
        }
        #expect(removed == 1)
        #expect(offered.sorted() == [0, 1, 2])
        #expect(Self.tags(stack) == [2])
        #expect(census.alive == 2)
        stack.checkInvariants()
    }

    /// The leading pass stops at a group: its members are judged by the walk, once each.
    @Test func aGroupAfterALeadingRun() throws {
        let census = Census()
        let stack = UndoStack.testing()
        try stack.perform(NumberedCommand(number: 0, token: Token(census)))
        try stack.beginGroup(named: "Group")
        for tag in 1...3 { try stack.perform(NumberedCommand(number: tag, token: Token(census))) }
        try stack.endGroup()
        try stack.perform(NumberedCommand(number: 4, token: Token(census)))
        var offered: [Int] = []
        let removed = try stack.removeAll { command in
            let tag = (command as! NumberedCommand).number
            offered.append(tag)
            return tag != 4
        }
        #expect(removed == 4)
        #expect(offered == [0, 1, 2, 3, 4])
        #expect(Self.tags(stack) == [4])
        #expect(census.alive == 1)
        stack.checkInvariants()
    }

    /// A group first whose members are not all removed: it stays, measured again, and the walk
    /// goes on after it without offering its members twice.
    @Test func aGroupWithMembersLeftFirst() throws {
        let census = Census()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Group")
        for tag in 0...2 { try stack.perform(NumberedCommand(number: tag, token: Token(census))) }
        try stack.endGroup()
        for tag in 3...4 { try stack.perform(NumberedCommand(number: tag, token: Token(census))) }
        var offered: [Int] = []
        let removed = try stack.removeAll { command in
            let tag = (command as! NumberedCommand).number
            offered.append(tag)
            return tag == 1 || tag == 3
        }
        #expect(removed == 2)
        #expect(offered == [0, 1, 2, 3, 4])
        #expect(stack.count == 2 && census.alive == 3)
        let members = UndoGroup.group(in: stack.command(at: 0))?.members.map { ($0 as! NumberedCommand).number }
        #expect(members == [0, 2])
        stack.checkInvariants()
    }

    /// Nested groups count the commands they lose (a nested group left empty goes, its
    /// commands counted once).
    @Test func nestedGroupsCountTheirCommands() throws {
        let census = Census()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Outer")
        try stack.perform(NumberedCommand(number: 0, token: Token(census)))
        try stack.beginGroup(named: "Inner")
        for tag in 1...2 { try stack.perform(NumberedCommand(number: tag, token: Token(census))) }
        try stack.endGroup()
        try stack.perform(NumberedCommand(number: 3, token: Token(census)))
        try stack.endGroup()
        var offered = 0
        let removed = try stack.removeAll { command in
            offered += 1
            return (command as! NumberedCommand).number != 3
        }
        #expect(removed == 3 && offered == 4)
        let members = UndoGroup.group(in: stack.command(at: 0))?.members.map { ($0 as! NumberedCommand).number }
        #expect(members == [3] && census.alive == 1)
        stack.checkInvariants()
    }
}
