import Testing
@testable import UndoCore

/// A command that only carries a number, to compare the storage against an Array.
private struct Tag: UndoCommand {
    var value: Int
    mutating func perform(_ changes: inout UndoChanges) throws {}
    mutating func undo(_ changes: inout UndoChanges) throws {}
}

@Suite struct StepStorageModel {
    /// Random operations across many chunk boundaries agree with a plain array.
    @Test(arguments: [1, 2, 3])
    func agreesWithAnArray(seed: UInt64) {
        var generator = SplitMix(seed: seed)
        var storage = StepStorage()
        var model: [(Int, UInt32)] = []
        var next = 0
        for _ in 0..<20_000 {
            let roll = Int.random(in: 0..<100, using: &generator)
            switch roll {
            case 0..<45:
                next += 1
                storage.append(Tag(value: next), serial: UInt32(next))
                model.append((next, UInt32(next)))
            case 45..<60 where !model.isEmpty:
                let (command, serial) = storage.removeFirst()
                let expected = model.removeFirst()
                #expect((command as! Tag).value == expected.0 && serial == expected.1)
            case 60..<70 where !model.isEmpty:
                let (command, _) = storage.removeLast()
                #expect((command as! Tag).value == model.removeLast().0)
            case 70..<80:
                next += 1
                let index = Int.random(in: 0...model.count, using: &generator)
                storage.insert(Tag(value: next), serial: UInt32(next), at: index)
                model.insert((next, UInt32(next)), at: index)
            case 80..<90 where !model.isEmpty:
                let from = Int.random(in: 0..<model.count, using: &generator)
                let to = Int.random(in: 0..<model.count, using: &generator)
                storage.relocate(from: from, to: to)
                model.insert(model.remove(at: from), at: to)
            case 90..<95 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &generator)
                let (command, _) = storage.remove(at: index)
                #expect((command as! Tag).value == model.remove(at: index).0)
            default:
                break
            }
        }
        #expect(storage.count == model.count)
        for (index, expected) in model.enumerated() {
            #expect((storage.command(at: index) as! Tag).value == expected.0)
            #expect(storage.serial(at: index) == expected.1)
        }
        storage.removeAll()
        #expect(storage.count == 0 && storage.allocatedBytes == 0)
    }

    /// A history trimmed at the front for long (a count limit) frees its oldest chunks and
    /// compacts the chunk table, keeping every remaining step in order.
    @Test func aLongTrimmedHistoryCompactsItsChunkTable() {
        var storage = StepStorage()
        let chunk = StepStorage.chunkSize
        var oldest = 0
        var next = 0
        // Forty chunks in, then trimmed as a limit of three chunks would, twice over.
        for _ in 0..<2 {
            for _ in 0..<(chunk * 40) {
                storage.append(Tag(value: next), serial: UInt32(truncatingIfNeeded: next))
                next += 1
                if storage.count > chunk * 3 {
                    let (command, serial) = storage.removeFirst()
                    #expect((command as! Tag).value == oldest && serial == UInt32(truncatingIfNeeded: oldest))
                    oldest += 1
                }
            }
            #expect(storage.count == chunk * 3)
            for index in stride(from: 0, to: storage.count, by: 97) {
                #expect((storage.command(at: index) as! Tag).value == oldest + index)
            }
            // The table holds the live chunks and at most a few freed ones, not all forty.
            #expect(storage.chunks.count - storage.chunkStart <= 4)
            #expect(storage.chunks.count <= 2 * 33 + 4)
        }
        storage.removeAll()
        #expect(storage.count == 0 && storage.allocatedBytes == 0)
    }

    @Test func aSmallCommandIsStoredInlineIn44Bytes() {
        #expect(MemoryLayout<any UndoCommand>.size == 40)
        var storage = StepStorage()
        for i in 0..<(StepStorage.chunkSize * 4) { storage.append(Tag(value: i), serial: UInt32(i)) }
        #expect(storage.allocatedBytes / storage.count == 44)
        storage.removeAll()
    }
}

/// A small deterministic generator so failures reproduce.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
