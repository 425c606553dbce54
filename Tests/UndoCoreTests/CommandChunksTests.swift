import Testing
@testable import UndoCore

/// The step list keeps its commands in chunks that never move (``CommandChunks``): every change
/// must keep the commands, in order, each destroyed exactly once, across chunk boundaries, and a
/// copy must never change with the original.
@Suite struct CommandChunksTests {
    static func numbers(_ chunks: CommandChunks) -> [Int] {
        (0..<chunks.count).map { (chunks[$0] as! NumberedCommand).number }
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
    @Test(arguments: [1, 2, 3])
    func randomOperationsMatchAnArray(seed: UInt64) {
        let census = Census()
        var generator = SplitMix(seed: seed)
        var chunks = CommandChunks()
        var model: [Int] = []
        var nextNumber = 0
        for round in 0..<6_000 {
            let command = NumberedCommand(number: nextNumber, token: Token(census))
            nextNumber += 1
            switch Int.random(in: 0..<20, using: &generator) {
            case 0..<10:
                chunks.append(command)
                model.append(command.number)
            case 10 where !model.isEmpty:
                let index = Int.random(in: 0...model.count, using: &generator)
                chunks.insert(command, at: index)
                model.insert(command.number, at: index)
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
                model[index] = command.number
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
        #expect(census.alive == model.count)
        chunks.removeAll()
        #expect(census.alive == 0)
    }

    /// A history with a limit drops its oldest steps chunk by chunk: the kept steps stay the
    /// newest, in order, and undo and redo run them all.
    @Test func aLimitedHistoryDropsAcrossChunks() throws {
        final class Counter { var value = 0 }
        struct Add: UndoCommand {
            let counter: Counter
            let amount: Int
            func perform(_ changes: inout UndoChanges) { counter.value += amount }
            func undo(_ changes: inout UndoChanges) { counter.value -= amount }
        }
        let counter = Counter()
        let limit = CommandChunks.chunkSize + 300
        let stack = UndoStack(countLimit: limit)
        let pushes = 4 * CommandChunks.chunkSize + 17
        for amount in 1...pushes { try stack.perform(Add(counter: counter, amount: amount)) }
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
