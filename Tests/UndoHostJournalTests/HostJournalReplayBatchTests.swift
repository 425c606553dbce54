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
/// change (no arguments larger than ``HostJournal/keptArgumentBytes``), never every change's
/// arguments at once. A batch of changes whose arguments were all kept is replayed as the
/// check read it, not read again. Counted, not timed.
@Suite struct HostJournalReplayBatchTests {
    let journal = HostJournalTests()
    static let text = HostJournalTests.text
    let doc = UndoContext("doc")

    /// A journal of `count` insertions of `text`, each with a break after it; the document.
    func write(_ path: String, count: Int, text: (Int) -> String) throws -> String {
        let (host, clock) = journal.makeHost()
        let writer = try HostJournal.open(path: path, host: host, clock: clock)
        defer { writer.close() }
        var position = 0
        for index in 0..<count {
            try host.perform("text.insert", [.i64(Int64(position)), .string(text(index))], in: doc)
            position += text(index).count
            try host.breakCoalescing()
        }
        return try host.describe(doc, plugin: Self.text)
    }

    /// Insertions whose arguments are over ``HostJournal/keptArgumentBytes``: their outlines
    /// drop them, and every batch is read again.
    @Test func manyChangesReplayInBatchesOfAtMostTheRowLimit() throws {
        let path = journal.scratch("batches-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let count = HostJournal.replayBatchRows * 3 + 7
        let inserted = String(repeating: "x", count: HostJournal.keptArgumentBytes + 1)
        let expected: String
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            for index in 0..<count {
                try host.perform("text.insert", [.i64(Int64(index)), .string(inserted)], in: doc)
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
        #expect(statistics.changesReadAgain == reader.restoredCount && statistics.changesKept == 0)
        // Undo goes on from what was replayed.
        try host.undo(count: 1)
        #expect(try host.describe(doc, plugin: Self.text).count == expected.count - inserted.count)
    }

    /// Insertions of one character (`3 "x"`, within ``HostJournal/keptArgumentBytes``): the
    /// check keeps their arguments, and the replay reads no change from the file again.
    @Test func smallChangesReplayAsTheCheckReadThem() throws {
        let path = journal.scratch("batches-small-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let count = HostJournal.replayBatchRows * 3 + 7
        let expected = try write(path, count: count) { index in String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index % 26))) }
        let (host, clock) = journal.makeHost()
        var followed = 0
        let reader = try HostJournal.open(path: path, host: host, clock: clock, following: { _, _ in followed += 1 })
        defer { reader.close() }
        #expect(reader.restoredCount == 2 * count && followed == reader.restoredCount)
        #expect(try host.describe(doc, plugin: Self.text) == expected)
        let statistics = reader.replayStatistics
        #expect(statistics.changesKept == reader.restoredCount)
        #expect(statistics.changesReadAgain == 0 && statistics.batches == 0)
        // One action all along (breaks between): its id is resolved once, not once a change.
        #expect(statistics.actionsResolved == 1)
        try host.undo(count: 1)
        #expect(try host.describe(doc, plugin: Self.text) == String(expected.dropLast()))
    }

    /// The replay resolves an action's id once for a run of performs of it, again when another
    /// action comes between, and again after a plugin is unloaded and loaded: the action type
    /// is then the new load's, and the changes after it replay through it.
    @Test func anActionIsResolvedOncePerRunAndAgainAfterALoad() throws {
        let path = journal.scratch("batches-resolved-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let other = UndoContext("other")
        let expected: (String, String)
        do {
            let (host, clock) = journal.makeHost()
            let file = try #require(host.plugins.first { $0.id == Self.text }?.path)
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            for index in 0..<5 {
                try host.perform("text.insert", [.i64(Int64(index)), .string("a")], in: doc)
                try host.breakCoalescing()
            }
            try host.perform("text.delete", [.i64(0), .i64(1)], in: doc)
            try host.perform("text.insert", [.i64(0), .string("b")], in: doc)
            try host.unload(Self.text)
            _ = try host.load(file: file)
            for index in 0..<3 {
                try host.perform("text.insert", [.i64(Int64(index)), .string("c")], in: other)
                try host.breakCoalescing()
            }
            expected = (try host.describe(doc, plugin: Self.text), try host.describe(other, plugin: Self.text))
            writer.close()
        }
        let (host, clock) = journal.makeHost()
        let reader = try HostJournal.open(path: path, host: host, clock: clock)
        defer { reader.close() }
        #expect((try host.describe(doc, plugin: Self.text), try host.describe(other, plugin: Self.text)) == expected)
        // insert (5 and a break after each), delete, insert; after the load, insert.
        #expect(reader.replayStatistics.actionsResolved == 4)
    }

    /// Small and large changes mixed: a batch holding a change whose arguments were dropped is
    /// read again whole; one of small changes only is not.
    @Test func aBatchIsReadAgainOnlyWhenAChangeInItDroppedItsArguments() throws {
        let path = journal.scratch("batches-mixed-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let count = HostJournal.replayBatchRows * 2
        // The first 128 insertions (256 changes with their breaks: the first batch) small, the
        // rest small too but for one of 40 characters in the middle of the last batch.
        let large = count - HostJournal.replayBatchRows / 4
        let expected = try write(path, count: count) { index in index == large ? String(repeating: "L", count: 40) : "s" }
        let (host, clock) = journal.makeHost()
        let reader = try HostJournal.open(path: path, host: host, clock: clock)
        defer { reader.close() }
        #expect(try host.describe(doc, plugin: Self.text) == expected)
        let statistics = reader.replayStatistics
        #expect(reader.restoredCount == 4 * HostJournal.replayBatchRows)
        #expect(statistics.batches == 1 && statistics.changesReadAgain == HostJournal.replayBatchRows)
        #expect(statistics.changesKept == 3 * HostJournal.replayBatchRows)
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
        try connection.query(ChangeRow.select(format: HostJournal.formatVersion)) { (row: SQLiteConnection.RowReader) in
            if let record = ChangeRow(row, after: ChangeRow.Row(sequence: 0, time: 0)),
               let change = try? record.row.checkedChange() { changes.append(change) }
        }
        guard case .perform(let step) = try #require(changes.first) else { Issue.record("not a perform"); return }
        #expect(step.arguments.utf8.count > 100_000)
        guard case .perform(let outline) = changes[0].outline else { Issue.record("not a perform"); return }
        #expect(outline.arguments.isEmpty && (outline.inverseArguments ?? "").isEmpty)
        #expect(outline.plugin == step.plugin && outline.action == step.action && outline.context == step.context)
        let kept = changes[0].outline(keepingArgumentsUpTo: HostJournal.keptArgumentBytes)
        #expect(kept.droppedArguments && kept.change == changes[0].outline)
    }

    /// What the open keeps of a change whose arguments and inverse arguments are both small:
    /// the change whole; one of them larger, and both are dropped.
    @Test func anOutlineKeepsSmallArguments() throws {
        let small = PluginStepRecord(plugin: "p", pluginVersion: "1.0", action: "p.a", context: "", arguments: "3 \"x\"",
                                     name: "A", inverseArguments: "3 1", description: nil, coalescing: .never)
        let kept = HostChange.perform(small).outline(keepingArgumentsUpTo: HostJournal.keptArgumentBytes)
        #expect(!kept.droppedArguments && kept.change == .perform(small))
        var larger = small
        larger.inverseArguments = String(repeating: "9", count: HostJournal.keptArgumentBytes + 1)
        let dropped = HostChange.perform(larger).outline(keepingArgumentsUpTo: HostJournal.keptArgumentBytes)
        guard case .perform(let outline) = dropped.change else { Issue.record("not a perform"); return }
        #expect(dropped.droppedArguments && outline.arguments.isEmpty && outline.inverseArguments == "")
        let undo = HostChange.history(.undo(count: 1, scope: .whole))
        #expect(undo.outline(keepingArgumentsUpTo: 0) == (change: undo, droppedArguments: false))
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
        try connection.query(ChangeRow.select(format: HostJournal.formatVersion)) { (reader: SQLiteConnection.RowReader) in
            if let row = ChangeRow(reader, after: ChangeRow.Row(sequence: 0, time: 0)) { rows.append(row) }
        }
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
