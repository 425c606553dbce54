import Foundation
import Testing
import UndoCore
@testable import UndoHostJournal
import UndoJournal
import UndoPluginHost
import UndoTestSupport

/// Reopening replays the changes in batches read from the file as it goes: the open holds one
/// batch of changes whole (at most ``HostJournal/replayBatchRows`` changes and
/// ``HostJournal/replayBatchBytes`` bytes, or one larger change), and an outline of each
/// change (no arguments), never every change's arguments at once. Counted, not timed.
@Suite struct HostJournalReplayBatchTests {
    let journal = HostJournalTests()
    static let text = HostJournalTests.text
    let doc = UndoContext("doc")

    @Test func manySmallChangesReplayInBatchesOfAtMostTheRowLimit() throws {
        let path = journal.scratch("batches-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let count = HostJournal.replayBatchRows * 3 + 7
        let expected: String
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            for index in 0..<count {
                try host.perform("text.insert", [.i64(Int64(index)), .string("x")], in: doc)
                try host.breakCoalescing()
            }
            expected = try host.describe(doc, plugin: Self.text)
            writer.close()
        }
        let (host, clock) = journal.makeHost()
        var followed = 0
        let reader = try HostJournal.open(path: path, host: host, clock: clock, following: { _, _ in followed += 1 })
        defer { reader.close() }
        #expect(reader.restoredCount >= count)
        #expect(followed == reader.restoredCount)
        #expect(try host.describe(doc, plugin: Self.text) == expected)
        let statistics = reader.replayStatistics
        // Before: one batch of every change.
        #expect(statistics.mostRows == HostJournal.replayBatchRows)
        #expect(statistics.batches == (reader.restoredCount + HostJournal.replayBatchRows - 1) / HostJournal.replayBatchRows)
        // Undo goes on from what was replayed.
        try host.undo(count: 1)
        #expect(try host.describe(doc, plugin: Self.text).count == expected.count - 1)
    }

    /// What the open keeps of each change until it ends: the plugin, action and context, not
    /// the arguments (the text of an insertion).
    @Test func anOutlineKeepsNoArguments() throws {
        let path = journal.scratch("batches-outline-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string(String(repeating: "z", count: 100_000))], in: doc)
            writer.close()
        }
        let connection = try SQLiteConnection(path: path, create: false)
        defer { connection.close() }
        var changes: [HostChange] = []
        try connection.query(ChangeRow.select(format: HostJournal.formatVersion)) { row in
            if let record = ChangeRow(row), let change = try? record.row.checkedChange() { changes.append(change) }
        }
        guard case .perform(let step) = try #require(changes.first) else { Issue.record("not a perform"); return }
        #expect(step.arguments.utf8.count > 100_000)
        guard case .perform(let outline) = changes[0].outline else { Issue.record("not a perform"); return }
        #expect(outline.arguments.isEmpty && (outline.inverseArguments ?? "").isEmpty)
        #expect(outline.plugin == step.plugin && outline.action == step.action && outline.context == step.context)
    }

    /// Large insertions: a batch holds at most 4 MiB of changes, or one larger change alone,
    /// so the open never holds two of them (their arguments) at once.
    @Test func largeChangesReplayOneAtATime() throws {
        let path = journal.scratch("batches-large-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let size = 3 << 20
        let expected: String
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            for index in 0..<4 {
                try host.perform("text.insert", [.i64(Int64(index * size)), .string(String(repeating: "ab", count: size / 2))], in: doc)
                try host.breakCoalescing()
            }
            expected = try host.describe(doc, plugin: Self.text)
            writer.close()
        }
        let (host, clock) = journal.makeHost()
        let reader = try HostJournal.open(path: path, host: host, clock: clock)
        defer { reader.close() }
        #expect(try host.describe(doc, plugin: Self.text) == expected)
        let statistics = reader.replayStatistics
        // Each insertion with the small break after it: 4 batches, none holding two insertions.
        #expect(reader.restoredCount == 8)
        #expect(statistics.batches == 4 && statistics.mostRows == 2)
        #expect(statistics.mostBytes >= size && statistics.mostBytes < 2 * size)
    }

    /// A refused open (a change that no longer replays) still takes out every document the
    /// changes named, from the outlines, and leaves the file as it was.
    @Test func aChangeDamagedAfterTheFirstBatchIsRefusedAndTakenOut() throws {
        let path = journal.scratch("batches-refused-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let count = HostJournal.replayBatchRows + 10
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            for index in 0..<count {
                try host.perform("text.insert", [.i64(Int64(index)), .string("y")], in: doc)
                try host.breakCoalescing()
            }
            writer.close()
        }
        // The last insertion (in the second batch) moved past the end, its checksum made good:
        // its replay fails, and the open is refused.
        let connection = try SQLiteConnection(path: path, create: false)
        var rows: [ChangeRow] = []
        try connection.query(ChangeRow.select(format: HostJournal.formatVersion)) { if let row = ChangeRow($0) { rows.append(row) } }
        var row = try #require(rows.last { $0.row.kind == "perform" }).row
        #expect(row.kind == "perform" && row.arguments == "\(count - 1) \"y\"", "\(row.arguments)")
        row.arguments = "100000 \"y\""
        row.checksum = row.computedChecksum
        try connection.query("DELETE FROM changes WHERE sequence = \(row.sequence);")
        try connection.query(ChangeRow.insert, row.values)
        connection.close()
        let (host, clock) = journal.makeHost()
        let error = try #require(throws: JournalError.self) { try HostJournal.open(path: path, host: host, clock: clock) }
        #expect(error.reason == .replay && error.description.contains("change \(row.sequence)"), "\(error)")
        #expect(try host.describe(doc, plugin: Self.text) == "")
        #expect(host.history.withStack { $0.treeCount } == 0)
    }
}
