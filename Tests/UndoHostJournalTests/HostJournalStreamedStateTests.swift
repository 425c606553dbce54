import Testing
import UndoCore
@testable import UndoHostJournal
import UndoJournal
import UndoPluginHost

/// Reopening from a checkpoint hands a state in pieces to a plugin with load_document_v2
/// (ABI 1.8) a row of `checkpoint_pieces` at a time: the open keeps only each document's first
/// row, and the rest are read again as the plugin reads them, never joined. Counted, not timed.
@Suite struct HostJournalStreamedStateTests {
    let journal = HostJournalTests()
    let big = UndoContext("big")

    @Test func aStateInPiecesReachesThePluginARowAtATime() throws {
        let path = journal.scratch("streamed-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let characters = 2_000_000
        let total = 12 + 5 * characters // 10,000,012 bytes: rows of 4 MiB, 4 MiB and the rest
        let expected = HostJournalLargeDocumentTests.text(characters, from: 0)
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string(expected)], in: big)
            #expect(try writer.checkpoint().documentRows == 3)
            writer.close()
        }
        let connection = try SQLiteConnection(path: path, create: false)
        defer { connection.close() }
        let checkpoint = try #require(try Checkpoint.read(from: connection, format: 5))
        let document = try #require(checkpoint.documents.first)
        // Read and checked at the open, but only the first row kept.
        #expect(document.state.count == Checkpoint.pieceSize)
        #expect(document.stateCount == total)
        #expect(document.pieces == 1...2)
        let (host, _) = journal.makeHost()
        let source = Checkpoint.source(of: document, in: connection)
        try host.loadDocumentState(from: source, plugin: HostJournalTests.text, context: big)
        #expect(source.blocksTaken == 3)
        #expect(source.bytesCopied == total, "each byte copied once, into the plugin's buffers")
        #expect(try host.describe(big, plugin: HostJournalTests.text) == expected)

        // A row gone between the open's check and the load fails the load, named; nothing is kept.
        try connection.execute("DELETE FROM checkpoint_pieces WHERE ordinal = 2;")
        let other = UndoContext("other")
        do {
            try host.loadDocumentState(from: Checkpoint.source(of: document, in: connection),
                                       plugin: HostJournalTests.text, context: other)
            Issue.record("a state missing a row was loaded")
        } catch {
            #expect("\(error)".contains("the checkpoint is damaged: piece 2 of checkpoint_pieces changed"), "\(error)")
        }
        #expect(try host.describe(other, plugin: HostJournalTests.text) == "")
    }

    /// A checkpoint writes its rows first and checks them by loading each state back from the
    /// rows, piece by piece, so while the plugin loads a large state the journal holds only its
    /// first piece (not the whole state beside the plugin's document and the scratch one).
    /// Counted, not timed: the bytes the checkpoint still holds at the check, and the blocks
    /// read back from the rows.
    @Test func aCheckpointChecksItsRowsHoldingNoWholeState() throws {
        let path = journal.scratch("checked-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let characters = 2_000_000
        let total = 12 + 5 * characters // 10,000,012 bytes: rows of 4 MiB, 4 MiB and the rest
        let (host, clock) = journal.makeHost()
        let writer = try HostJournal.open(path: path, host: host, clock: clock)
        defer { writer.close() }
        try host.perform("text.insert", [.i64(0), .string(HostJournalLargeDocumentTests.text(characters, from: 0))], in: big)
        let info = try writer.checkpoint()
        #expect(info.documentRows == 3)
        #expect(info.documentBytes == total)
        let check = try #require(writer.lastStatistics)
        #expect(check.bytesHeld == Checkpoint.pieceSize, "only the first piece is held while the plugin loads the state")
        #expect(check.blocksRead == 3, "the first piece, then each row of checkpoint_pieces")
        #expect(check.bytesRead == total, "each byte read back once")
        writer.close()
        #expect(try sqliteRows(path, "SELECT count(*) FROM changes;") == [["0"]], "the change is dropped: the check passed")
    }

    /// A checkpoint writes the history's records (each step's arguments as script text: as large
    /// as the text the history keeps) before the states are loaded back, and frees them then:
    /// while the plugin loads the scratch document, the checkpoint holds none of them (it held
    /// them all, beside the scratch document: 6 steps of 16 MiB of text added 0.2 times the
    /// state to the checkpoint's peak). Counted, not timed; the rows, the step count and the
    /// reopened history are unchanged.
    @Test func aCheckpointHoldsNoHistoryRecordWhileTheStatesLoadBack() throws {
        let path = journal.scratch("checked-history-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let characters = 1_000_000
        let first = HostJournalLargeDocumentTests.text(characters, from: 0)
        let second = HostJournalLargeDocumentTests.text(characters, from: characters)
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string(first)], in: big)
            try host.breakCoalescing()
            try host.perform("text.insert", [.i64(Int64(characters)), .string(second)], in: big)
            try host.undo(count: 1) // a step to redo is written too
            let info = try writer.checkpoint()
            #expect(info.steps == 2)
            let statistics = try #require(writer.lastStatistics)
            #expect(statistics.historyBytesHeld == 0, "no step's arguments held while the state loads back")
            #expect(statistics.bytesHeld == Checkpoint.pieceSize, "the state's first piece only")
            writer.close()
        }
        // Every step was written whole before its record was freed.
        #expect(try sqliteRows(path, "SELECT count(*), sum(length(arguments)) FROM checkpoint_steps;")
            == [["2", "\("0 \"\"".count + "\(characters) \"\"".count + 2 * characters)"]])
        #expect(try sqliteRows(path, "SELECT count(*) FROM changes;") == [["0"]])
        let (host, clock) = journal.makeHost()
        let reader = try HostJournal.open(path: path, host: host, clock: clock)
        defer { reader.close() }
        #expect(reader.restoredCheckpoint?.steps == 2)
        #expect(try host.describe(big, plugin: HostJournalTests.text) == first)
        try host.redo(count: 1)
        #expect(try host.describe(big, plugin: HostJournalTests.text) == first + second)
        try host.undo(count: 2)
        #expect(try host.describe(big, plugin: HostJournalTests.text) == "")
    }

    /// A checkpoint writes each piece of a state as a row as the plugin's save_document_v2
    /// hands it on (ABI 1.8), instead of gathering the state first: while the plugin saves a
    /// state of 10 MB, the checkpoint holds at most its first piece (kept for the document's
    /// row) and the block being filled. Each further row is then read back once to be sealed
    /// with the count of pieces. Counted, not timed.
    @Test func aCheckpointWritesEachPieceAsThePluginSavesIt() throws {
        let path = journal.scratch("streamed-save-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let characters = 2_000_000
        let total = 12 + 5 * characters // 10,000,012 bytes: rows of 4 MiB, 4 MiB and the rest
        let expected = HostJournalLargeDocumentTests.text(characters, from: 0)
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string(expected)], in: big)
            let info = try writer.checkpoint()
            #expect(info.documentBytes == total && info.documentRows == 3)
            let statistics = try #require(writer.lastStatistics)
            #expect(statistics.mostBytesHeldSaving <= 2 * Checkpoint.pieceSize, "the first piece and one block, not the state")
            #expect(statistics.mostBytesHeldSaving < total)
            #expect(statistics.rowsSealedAgain == 2, "each further row read back once")
            writer.close()
        }
        // The rows are what a state gathered whole would have made: each piece numbered and
        // sealed with the count, and the state reopens equal.
        #expect(try sqliteRows(path, "SELECT piece, pieces, length(bytes) FROM checkpoint_pieces ORDER BY ordinal;")
            == [["1", "2", "\(Checkpoint.pieceSize)"], ["2", "2", "\(total - 2 * Checkpoint.pieceSize)"]])
        let (host, clock) = journal.makeHost()
        let reader = try HostJournal.open(path: path, host: host, clock: clock)
        defer { reader.close() }
        #expect(try host.describe(big, plugin: HostJournalTests.text) == expected)
    }

    /// A row that cannot be written while the plugin saves (the disk full in the middle of the
    /// state) fails the checkpoint as the journal's failure, not the plugin's; the transaction
    /// is rolled back, every change stays and the file reopens to the same document.
    @Test func aRowThatCannotBeWrittenDuringTheSaveKeepsEveryChange() throws {
        let path = journal.scratch("streamed-full-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let expected = HostJournalLargeDocumentTests.text(2_000_000, from: 0)
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string(expected)], in: big)
            try writer.commit()
            try writer.withConnection { connection throws(SQLiteFailure) in
                let pages = try connection.integer("PRAGMA page_count;")
                _ = try connection.integer("PRAGMA max_page_count=\(pages + 16);")
            }
            #expect {
                try writer.checkpoint()
            } throws: { error in
                "\(error)".contains("cannot write the checkpoint") && "\(error)".contains("full")
                    && (error as? JournalError)?.reason != .pluginFailed
            }
            #expect(try writer.withConnection { connection throws(SQLiteFailure) in try connection.integer("SELECT count(*) FROM changes;") } == 1)
            #expect(try writer.withConnection { connection throws(SQLiteFailure) in try connection.integer("SELECT count(*) FROM checkpoint_pieces;") } == 0)
            writer.close()
        }
        let (host, clock) = journal.makeHost()
        let reader = try HostJournal.open(path: path, host: host, clock: clock)
        defer { reader.close() }
        #expect(reader.restoredCheckpoint == nil)
        #expect(try host.describe(big, plugin: HostJournalTests.text) == expected)
    }
}
