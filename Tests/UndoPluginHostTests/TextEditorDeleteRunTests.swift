import Testing
import UndoCore
@testable import UndoPluginHost

/// The text editor joins a run of deletes as it joins typing: a backspace run and a
/// forward-delete run are one step each, which undo puts back whole, with the styles.
@Suite struct TextEditorDeleteRunTests {
    static let text = "org.undohost.text"

    func editor() throws -> PluginHost {
        let (host, _) = makeHost()
        try host.load(file: Fixtures.textEditor)
        return host
    }

    func delete(_ host: PluginHost, at position: Int, _ length: Int = 1, in document: String = "a") throws {
        try host.perform("text.delete", [.i64(Int64(position)), .i64(Int64(length))], in: UndoContext(document))
    }

    @Test func aBackspaceRunAndAForwardDeleteRunAreOneStepEach() throws {
        let host = try editor()
        let document = UndoContext("a")
        try host.perform("text.insert", [.i64(0), .string("hello world")], in: document)
        try host.perform("text.bold", [.i64(6), .i64(5)], in: document)
        // Backspace over "world" from its end: 10, 9, 8, 7, 6.
        for position in stride(from: 10, through: 6, by: -1) { try delete(host, at: position) }
        #expect(host.stepCount == 3)
        #expect(try host.show("a", Self.text) == "hello ")
        #expect(host.history.withStack { $0.steps.last?.historyDescription } == "Delete \"world\"")
        // Forward delete at 0, three times.
        for _ in 0..<3 { try delete(host, at: 0) }
        #expect(host.stepCount == 4)
        #expect(try host.show("a", Self.text) == "lo ")
        #expect(host.history.withStack { $0.steps.last?.historyDescription } == "Delete \"hel\"")
        #expect(host.undoTitle == "Undo Delete")
        try host.undo()
        #expect(try host.show("a", Self.text) == "hello ")
        try host.undo()
        #expect(try host.show("a", Self.text) == "hello <b>world</b>")
        try host.redo()
        #expect(try host.show("a", Self.text) == "hello ")
        try host.redo()
        #expect(try host.show("a", Self.text) == "lo ")
    }

    @Test func deletesThatAreNotAdjacentStaySeparate() throws {
        let host = try editor()
        try host.perform("text.insert", [.i64(0), .string("abcdefgh")], in: UndoContext("a"))
        try delete(host, at: 6)     // "abcdefh"
        try delete(host, at: 2)     // elsewhere: a new step ("abdefh")
        try delete(host, at: 2, 2)  // forward at the same place: joins ("abfh")
        try delete(host, at: 3)     // after it, not before: a new step ("abf")
        #expect(host.stepCount == 4)
        #expect(try host.show("a", Self.text) == "abf")
        // Typing after a delete is a step of its own, and a delete after typing too.
        try host.perform("text.insert", [.i64(3), .string("x")], in: UndoContext("a"))
        try delete(host, at: 3)
        #expect(host.stepCount == 6)
        #expect(try host.show("a", Self.text) == "abf")
        for expected in ["abfx", "abf", "abfh", "abcdefh", "abcdefgh", ""] {
            try host.undo()
            #expect(try host.show("a", Self.text) == expected)
        }
    }

    /// A trace of single-character edits in the shape of the automerge-paper trace (runs of
    /// typing, backspace runs, a few forward deletes, the cursor moving now and then among the
    /// last paragraphs), generated from a fixed seed and played with no pause and no time
    /// limit, as the trace was: a run goes on where the last edit left off (typing at its end, a
    /// delete at the last delete's position or just before it). One step per run, where each
    /// delete was a step of its own before. docs/plugins.md quotes these figures.
    @Test func aGeneratedEditingTraceUndoesInRuns() throws {
        let host = try editor()
        let document = UndoContext("paper")
        var random = TraceRandom(seed: 33)
        var length = 0, cursor = 0
        var edits = 0, deletes = 0
        // The steps expected: a new one where a run does not go on from the last.
        var runs = 0, stepsWithoutDeleteRuns = 0
        var lastWasTyping: Bool?
        var lastEnd = -1
        let target = 259_778
        while edits < target {
            // Now and then the cursor moves, among the last 2,000 characters.
            if random.next(100) < 30 { cursor = max(0, length - Int(random.next(2_000))) }
            let kind = random.next(100)
            let startedAt = cursor
            var firstDeleteAt = -1, lastDeleteAt = -1
            let typing = kind < 62 || length == 0
            let count: Int
            if typing {
                count = 1 + Int(random.next(12))
                for _ in 0..<count {
                    try host.perform("text.insert", [.i64(Int64(cursor)), .string("e")], in: document)
                    cursor += 1; length += 1
                }
            } else if kind < 95 {
                count = min(cursor, 1 + Int(random.next(8)))
                for _ in 0..<count {
                    cursor -= 1
                    try delete(host, at: cursor, in: "paper")
                    length -= 1
                    if firstDeleteAt < 0 { firstDeleteAt = cursor }
                    lastDeleteAt = cursor
                }
            } else {
                count = min(length - cursor, 1 + Int(random.next(4)))
                for _ in 0..<count { try delete(host, at: cursor, in: "paper") }
                length -= count
                (firstDeleteAt, lastDeleteAt) = (cursor, cursor)
            }
            guard count > 0 else { continue }
            edits += count
            if !typing { deletes += count }
            // A run goes on from the last when it starts where that one left off: typing at its
            // end; a delete at the last delete's position, or just before it.
            let first = typing ? startedAt : firstDeleteAt
            let goesOn = lastWasTyping == typing
                && (typing ? first == lastEnd : first == lastEnd || first + 1 == lastEnd)
            if !goesOn { runs += 1 }
            stepsWithoutDeleteRuns += typing ? (goesOn ? 0 : 1) : count
            lastWasTyping = typing
            lastEnd = typing ? cursor : lastDeleteAt
        }
        let steps = host.stepCount
        print("text editor trace: \(edits) edits (\(deletes) deletes): \(steps) steps, "
              + "\(stepsWithoutDeleteRuns) when each delete is a step")
        #expect(steps == runs)
        #expect([edits, deletes, steps, stepsWithoutDeleteRuns] == [259_779, 73_761, 29_022, 90_056])
        // Undone whole, the document is empty again; redone whole, as it was.
        let written = try host.show("paper", Self.text)
        try host.undo(count: steps)
        #expect(try host.show("paper", Self.text) == "")
        try host.redo(count: steps)
        #expect(try host.show("paper", Self.text) == written)
    }
}

/// SplitMix64: a small generator whose numbers are the same on every machine and run.
struct TraceRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return (z ^ (z >> 31)) % bound
    }
}
