import Testing
@testable import UndoCore

/// `removeAll(matching:)` with a matcher of one type (``UndoCommandOfTypeMatcher``): each
/// command held as that type is handed to `matches(picked:)` where it is held, the others are
/// asked through the generic method, and the history left is the one a plain matcher leaves.
@Suite struct UndoCommandOfTypeMatcherTests {
    /// Picks the `Picked` commands with an odd number (all of them with `everyOne`), and logs
    /// how each was asked: the typed method, or the generic one.
    struct OddOnes<Picked: UndoCommand>: UndoCommandOfTypeMatcher {
        final class Log {
            var picked: [Int] = []
            var generic: [String] = []
        }
        let log = Log()
        var everyOne = false

        func matches(picked command: borrowing Picked) -> Bool {
            let number = CommandChunksTests.number(of: copy command)
            log.picked.append(number)
            return everyOne || number % 2 != 0
        }

        /// The protocol's own generic method, written out to log what reaches it.
        func matches<C: UndoCommand>(_ command: borrowing C) -> Bool {
            log.generic.append("\(C.self)")
            guard C.self == Picked.self, let picked = (copy command) as? Picked else { return false }
            return matches(picked: picked)
        }
    }

    /// Steps, a closed group and an open one, each with held (wide), small and boxed commands.
    static func fill(_ stack: UndoStack, _ census: Census, startingWithSmall: Bool) throws {
        var number = 0
        func add(_ kind: Int) throws {
            defer { number += 1 }
            switch kind {
            case 0: try stack.perform(WideNumberedCommand(number: number, token: Token(census)))
            case 1: try stack.perform(NumberedCommand(number: number, token: Token(census)))
            default: try stack.perform(HugeNumberedCommand(number: number, token: Token(census)))
            }
        }
        if startingWithSmall { try add(1) }
        for kind in [0, 0, 0, 1, 0, 2, 0] { try add(kind) }
        try stack.beginGroup(named: "Closed")
        for kind in [0, 1, 0, 0, 2] { try add(kind) }
        try stack.endGroup()
        for kind in [0, 0] { try add(kind) }
        try stack.undo()
        try stack.beginGroup(named: "Open")
        for kind in [0, 1, 0] { try add(kind) }
    }

    /// The typed matcher leaves the history a closure leaves, frees what it took, and each
    /// command of its type is judged once, by the typed method.
    @Test(arguments: [false, true])
    func aTypedMatcherLeavesWhatAPlainOneLeaves(startingWithSmall: Bool) throws {
        let census = Census(), plainCensus = Census()
        let stack = UndoStack.testing(), plain = UndoStack.testing()
        try Self.fill(stack, census, startingWithSmall: startingWithSmall)
        try Self.fill(plain, plainCensus, startingWithSmall: startingWithSmall)
        let matcher = OddOnes<WideNumberedCommand>()
        let removed = try stack.removeAll(matching: matcher)
        var widesOffered = 0
        let plainRemoved = try plain.removeAll { command in
            guard command is WideNumberedCommand else { return false }
            widesOffered += 1
            return CommandChunksTests.number(of: command) % 2 != 0
        }
        #expect(removed == plainRemoved && removed > 0)
        #expect(census.alive == plainCensus.alive)
        // Each wide command was judged once, as the closure was asked of each.
        #expect(widesOffered >= 10 && matcher.log.picked.count == widesOffered && Set(matcher.log.picked).count == widesOffered)
        try stack.endGroup()
        try plain.endGroup()
        stack.checkInvariants()
        #expect(stack.names == plain.names && stack.undoCount == plain.undoCount && stack.count == plain.count)
        let numbers = { (stack: UndoStack) in
            (0..<stack.count).map { index -> [Int] in
                let command = stack.command(at: index)
                guard let group = UndoGroup.group(in: command) else { return [CommandChunksTests.number(of: command)] }
                return group.members.map { CommandChunksTests.number(of: $0) }
            }
        }
        #expect(numbers(stack) == numbers(plain))
        while stack.canUndo { try stack.undo() }
        while stack.canRedo { try stack.redo() }
        #expect(stack.undoCount == stack.count)
    }

    /// An unload's shape: the steps and a group's members are all of the matcher's type and
    /// go, after a small step that stays (or none). Each is read where it is held, in the
    /// oldest run and after it: the generic method is asked of the small step alone.
    @Test(arguments: [false, true])
    func heldCommandsNeverReachTheGenericMethod(afterASmallStep: Bool) throws {
        let census = Census()
        let stack = UndoStack.testing()
        if afterASmallStep { try stack.perform(NumberedCommand(number: -1, token: Token(census))) }
        let steps = CommandChunks.chunkSize + 3
        for number in 0..<steps { try stack.perform(WideNumberedCommand(number: number, token: Token(census))) }
        try stack.beginGroup(named: "Members")
        for number in steps..<(steps + 4) { try stack.perform(WideNumberedCommand(number: number, token: Token(census))) }
        try stack.endGroup()
        var matcher = OddOnes<WideNumberedCommand>()
        matcher.everyOne = true
        #expect(try stack.removeAll(matching: matcher) == steps + 4)
        #expect(matcher.log.generic == (afterASmallStep ? ["NumberedCommand"] : []))
        #expect(matcher.log.picked == Array(0..<(steps + 4)))
        #expect(stack.count == (afterASmallStep ? 1 : 0) && census.alive == (afterASmallStep ? 1 : 0))
        stack.checkInvariants()
    }

    /// A small type, held in an existential, is judged through the generic method, once each;
    /// a group type is never offered, whichever type the matcher names.
    @Test func aSmallTypeAndAGroupTypeAreJudgedAsBefore() throws {
        let census = Census()
        let stack = UndoStack.testing()
        for number in 0..<6 { try stack.perform(NumberedCommand(number: number, token: Token(census))) }
        let small = OddOnes<NumberedCommand>()
        #expect(try stack.removeAll(matching: small) == 3)
        #expect(small.log.generic == Array(repeating: "NumberedCommand", count: 6))
        #expect(small.log.picked == Array(0..<6))
        #expect(RemoveAllWhereTests.tags(stack) == [0, 2, 4] && census.alive == 3)

        struct EveryGroup: UndoCommandOfTypeMatcher {
            func matches(picked command: borrowing UndoGroup) -> Bool { true }
        }
        try stack.beginGroup(named: "Kept")
        try stack.perform(NumberedCommand(number: 6, token: Token(census)))
        try stack.endGroup()
        #expect(try stack.removeAll(matching: EveryGroup()) == 0)
        #expect(stack.count == 4 && census.alive == 4)
        stack.checkInvariants()
    }
}
