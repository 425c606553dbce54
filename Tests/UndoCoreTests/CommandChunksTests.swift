import Testing
@testable import UndoCore

/// The step list keeps its commands in chunks that never move (``CommandChunks``): every change
/// must keep the commands, in order, each destroyed exactly once, across chunk boundaries, and a
/// copy must never change with the original.
@Suite struct CommandChunksTests {
    static func numbers(_ chunks: CommandChunks) -> [Int] {
        (0..<chunks.count).map { number(of: chunks[$0]) }
    }

    static func number(of command: any UndoCommand) -> Int {
        switch command {
        case let command as NumberedCommand: return command.number
        case let command as WideNumberedCommand: return command.number
        case let command as HugeNumberedCommand: return command.number
        default:
            Issue.record("a \(type(of: command)) among the numbered commands")
            return -1
        }
    }

    /// A command numbered `number`, of 16 bytes, or (`mixed`) of 16, 64 or 96 bytes by turns.
    static func command(_ number: Int, _ census: Census, mixed: Bool, using generator: inout SplitMix) -> any UndoCommand {
        guard mixed else { return NumberedCommand(number: number, token: Token(census)) }
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: return NumberedCommand(number: number, token: Token(census))
        case 1: return WideNumberedCommand(number: number, token: Token(census))
        default: return HugeNumberedCommand(number: number, token: Token(census))
        }
    }

    @Test func appendsAcrossChunksKeepOrderAndRoom() {
        let census = Census()
        var chunks = CommandChunks()
        let size = CommandChunks.chunkSize
        for number in 0..<(2 * size + 5) {
            chunks.append(NumberedCommand(number: number, token: Token(census)))
            chunks.checkInvariants()
        }
        #expect(chunks.count == 2 * size + 5)
        #expect(chunks.chunkCount == 3)
        // The room is the commands plus less than one chunk.
        #expect(chunks.state!.pointee.capacity == 3 * size)
        #expect(Self.numbers(chunks) == Array(0..<(2 * size + 5)))
        #expect(census.alive == 2 * size + 5)
        chunks.removeAll()
        #expect(census.alive == 0)
    }

    @Test func aFewCommandsTakeAFewSlots() {
        let census = Census()
        var chunks = CommandChunks()
        for number in 0..<5 { chunks.append(NumberedCommand(number: number, token: Token(census))) }
        chunks.checkInvariants()
        #expect(chunks.state!.pointee.capacity == 8)
    }

    @Test func aCopyNeverChangesWithTheOriginal() {
        let census = Census()
        var original = CommandChunks()
        let total = CommandChunks.chunkSize + 100
        for number in 0..<total { original.append(NumberedCommand(number: number, token: Token(census))) }
        var copy = original
        copy[3] = NumberedCommand(number: -3, token: Token(census))
        copy.append(NumberedCommand(number: -1, token: Token(census)))
        _ = copy.remove(at: CommandChunks.chunkSize + 1)
        original.checkInvariants()
        copy.checkInvariants()
        #expect(Self.numbers(original) == Array(0..<total))
        var expected = Array(0..<total)
        expected[3] = -3
        expected.append(-1)
        expected.remove(at: CommandChunks.chunkSize + 1)
        #expect(Self.numbers(copy) == expected)
        // The original changes alone too.
        original.removeSuffix(from: 10)
        #expect(Self.numbers(original) == Array(0..<10))
        #expect(Self.numbers(copy) == expected)
        original.removeAll()
        copy.removeAll()
        #expect(census.alive == 0)
    }

    /// Every operation, at random places, against an array doing the same; each command freed
    /// once (the census ends at zero).
    /// With `mixed`, commands of three sizes: held in an existential (16 bytes), in a wide
    /// slot (64) and boxed in a wide slot (96); the chunks turn wide on the way.
    @Test(arguments: [1, 2, 3], [false, true])
    func randomOperationsMatchAnArray(seed: UInt64, mixed: Bool) {
        let census = Census()
        var generator = SplitMix(seed: seed)
        var chunks = CommandChunks()
        var model: [Int] = []
        var nextNumber = 0
        for round in 0..<6_000 {
            let command = Self.command(nextNumber, census, mixed: mixed, using: &generator)
            let number = nextNumber
            nextNumber += 1
            switch Int.random(in: 0..<20, using: &generator) {
            case 0..<10:
                chunks.append(command)
                model.append(number)
            case 10 where !model.isEmpty:
                let index = Int.random(in: 0...model.count, using: &generator)
                chunks.insert(command, at: index)
                model.insert(number, at: index)
            case 11 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &generator)
                _ = chunks.remove(at: index)
                model.remove(at: index)
            case 12 where !model.isEmpty:
                chunks.removeLast()
                model.removeLast()
            case 13 where !model.isEmpty:
                let from = Int.random(in: 0..<model.count, using: &generator), to = Int.random(in: 0..<model.count, using: &generator)
                chunks.move(from: from, to: to)
                model.insert(model.remove(at: from), at: to)
            case 14 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &generator)
                chunks[index] = command
                model[index] = number
            case 15 where model.count > 2 * CommandChunks.chunkSize:
                chunks.removeFirstChunks(1)
                model.removeFirst(CommandChunks.chunkSize)
            case 16 where chunks.chunkCount == 1 && !model.isEmpty:
                let k = Int.random(in: 0..<model.count, using: &generator)
                chunks.removeFirstOfOnlyChunk(k)
                model.removeFirst(k)
            case 17 where Int.random(in: 0..<10, using: &generator) == 0:
                let index = Int.random(in: 0...model.count, using: &generator)
                chunks.removeSuffix(from: index)
                model.removeSuffix(from: index)
            case 18:
                // A copy taken and changed: the original must not see it.
                var copy = chunks
                copy.append(command)
                #expect(Self.numbers(chunks) == model, "round \(round): a copy's change showed in the original")
            default:
                break
            }
            chunks.checkInvariants()
            if round % 500 == 0 { #expect(Self.numbers(chunks) == model, "round \(round)") }
        }
        #expect(Self.numbers(chunks) == model)
        // Mixed: the wide commands made the chunks wide (a narrow one only before them).
        #expect(!mixed || chunks.count == 0 || chunks.isWide(chunks.count - 1))
        #expect(census.alive == model.count)
        chunks.removeAll()
        #expect(census.alive == 0)
    }

    /// A command of 25 to 64 bytes is held in a wide slot, with its own type: the chunk it
    /// comes into turns wide (its commands moved), later chunks are made wide, and one of over
    /// 64 bytes is held there as an existential. Each is read, changed and destroyed once.
    @Test func wideCommandsAreHeldInPlace() {
        let census = Census()
        var chunks = CommandChunks()
        for number in 0..<3 { chunks.append(NumberedCommand(number: number, token: Token(census))) }
        #expect(!chunks.isWide(0))
        chunks.append(WideNumberedCommand(number: 3, token: Token(census)))
        #expect(chunks.isWide(0) && chunks.isWide(3))
        chunks.append(HugeNumberedCommand(number: 4, token: Token(census)))
        let total = 2 * CommandChunks.chunkSize + 3
        for number in 5..<total { chunks.append(NumberedCommand(number: number, token: Token(census))) }
        chunks.checkInvariants()
        #expect(chunks.chunkCount == 3)
        #expect((0..<total).allSatisfy { chunks.isWide($0) })
        #expect(Self.numbers(chunks) == Array(0..<total))
        #expect(chunks[3] is WideNumberedCommand && chunks[4] is HugeNumberedCommand && chunks[5] is NumberedCommand)

        // Changed in place with its own type: the wide command's padding, seen by later reads.
        struct Bump: StepCommandChange {
            typealias Failure = Never
            var seen: [String] = []
            mutating func change<C: UndoCommand>(_ command: inout C) -> Int {
                seen.append("\(C.self)")
                guard var wide = command as? WideNumberedCommand else { return 0 }
                wide.padding.0 += 100
                command = wide as! C
                return wide.padding.0
            }
        }
        var bump = Bump()
        #expect(chunks.change(at: 3, &bump) == 101)
        #expect(chunks.change(at: 4, &bump) == 0)
        #expect(bump.seen == ["WideNumberedCommand", "HugeNumberedCommand"])
        #expect((chunks[3] as? WideNumberedCommand)?.padding.0 == 101)

        // A copy is of the same kinds and its own.
        var copy = chunks
        copy[3] = NumberedCommand(number: -3, token: Token(census))
        copy.checkInvariants()
        #expect(Self.numbers(chunks) == Array(0..<total))
        #expect(copy.isWide(3) && Self.number(of: copy[3]) == -3)
        #expect(census.alive == total + 1)
        copy.removeAll()
        chunks.removeSuffix(from: 2)
        #expect(census.alive == 2)
        chunks.removeAll()
        #expect(census.alive == 0)
    }

    /// A history with a limit drops its oldest steps chunk by chunk: the kept steps stay the
    /// newest, in order, and undo and redo run them all.
    /// With `wide`, of steps of 64 bytes, held in wide slots.
    @Test(arguments: [false, true])
    func aLimitedHistoryDropsAcrossChunks(wide: Bool) throws {
        final class Counter { var value = 0 }
        struct Add: UndoCommand {
            let counter: Counter
            let amount: Int
            func perform(_ changes: inout UndoChanges) { counter.value += amount }
            func undo(_ changes: inout UndoChanges) { counter.value -= amount }
        }
        struct WideAdd: UndoCommand {
            let counter: Counter
            let amount: Int
            var padding: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
            func perform(_ changes: inout UndoChanges) { counter.value += amount }
            func undo(_ changes: inout UndoChanges) { counter.value -= amount }
        }
        let counter = Counter()
        let limit = CommandChunks.chunkSize + 300
        let stack = UndoStack(countLimit: limit)
        let pushes = 4 * CommandChunks.chunkSize + 17
        for amount in 1...pushes {
            if wide { try stack.perform(WideAdd(counter: counter, amount: amount)) } else { try stack.perform(Add(counter: counter, amount: amount)) }
        }
        stack.checkInvariants()
        #expect(stack.undoCount == limit)
        let total = counter.value
        for _ in 0..<limit { try stack.undo() }
        // The kept steps are the newest `limit` pushes.
        let kept = ((pushes - limit + 1)...pushes).reduce(0, +)
        #expect(total - counter.value == kept)
        for _ in 0..<limit { try stack.redo() }
        #expect(counter.value == total)
        stack.checkInvariants()
    }
}

extension Array {
    fileprivate mutating func removeSuffix(from index: Int) { removeSubrange(index...) }
}
