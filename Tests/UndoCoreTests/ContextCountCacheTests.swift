import Testing
@testable import UndoCore

/// The per-context counts remember the context counted last and where its count is, so the
/// steps of one document are counted without hashing its name; the counts must stay exact
/// whatever the order, and copies must stay apart.
@Suite struct ContextCountCacheTests {
    static let documents = (0..<5).map { UndoContext("document number \($0) with a long name") }

    @Test func aRunOfOneDocumentIsCountedThroughTheRememberedPlace() {
        var counts = ContextCounts()
        let document = Self.documents[0]
        counts.add(1, done: true, to: document)
        #expect(counts.recentContext == document)
        let place = counts.recentIndex
        for _ in 0..<10 { counts.add(1, done: true, to: document) }
        counts.move(in: document, toDone: false)
        #expect(counts.recentIndex == place)
        #expect(counts[document].done == 10 && counts[document].redo == 1)
        // A context equal by name but made apart is the same context.
        #expect(counts[UndoContext(String(document.name))].done == 10)
        // Another document moves the remembered place; emptying a count forgets it.
        counts.add(1, done: false, to: Self.documents[1])
        #expect(counts.recentContext == Self.documents[1])
        counts.add(-1, done: false, to: Self.documents[1])
        #expect(counts.recentContext == nil && counts.recentIndex == nil)
        #expect(counts[Self.documents[1]].isEmpty)
        #expect(counts.others.count == 1)
    }

    /// Random adds and moves over five documents and the global context, checked against plain
    /// counting, with copies taken and changed on the way.
    @Test(arguments: [7, 8, 9])
    func randomCountsStayExact(seed: UInt64) {
        var generator = SplitMix(seed: seed)
        var counts = ContextCounts()
        var expected: [String: (done: Int, redo: Int)] = [:]
        for round in 0..<5_000 {
            let context = Int.random(in: 0..<6, using: &generator) == 5 ? UndoContext.global : Self.documents[Int.random(in: 0..<5, using: &generator)]
            var entry = expected[context.name] ?? (0, 0)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                let done = Int.random(in: 0..<2, using: &generator) == 0
                counts.add(1, done: done, to: context)
                if done { entry.done += 1 } else { entry.redo += 1 }
            case 1 where entry.done > 0:
                counts.move(in: context, toDone: false)
                entry.done -= 1
                entry.redo += 1
            case 2 where entry.redo > 0:
                counts.add(-1, done: false, to: context)
                entry.redo -= 1
            default:
                break
            }
            expected[context.name] = entry
            if round % 50 == 0 {
                // A copy changed apart from the original.
                var copy = counts
                copy.add(1, done: true, to: context)
                #expect(copy[context].done == entry.done + 1)
            }
            #expect(counts[context].done == entry.done && counts[context].redo == entry.redo, "round \(round)")
        }
        for (name, entry) in expected {
            let count = counts[UndoContext(name)]
            #expect(count.done == entry.done && count.redo == entry.redo)
        }
        #expect(counts.others.count == expected.filter { !$0.key.isEmpty && ($0.value.done > 0 || $0.value.redo > 0) }.count)
    }
}
