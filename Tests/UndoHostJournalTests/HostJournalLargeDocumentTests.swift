import Foundation
import Testing
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost
import UndoTestSupport

/// Documents whose state is more than one value (`UNDO_MAX_VALUE_SIZE`, 16 MiB): saved by a
/// plugin with save_document_v2 (ABI 1.8) in pieces, kept by a format-5 journal in rows of at
/// most 4 MiB, and loaded back whole.
@Suite struct HostJournalLargeDocumentTests {
    let journal = HostJournalTests()
    static let text = HostJournalTests.text
    let big = UndoContext("big")

    /// 3,500,000 characters: the text plugin's state is 12 + 5 per character = 17,500,012
    /// bytes, over 16 MiB (the most a 1.7 save may write).
    static let characters = 3_500_000
    static let stateBytes = 12 + 5 * characters
    /// Text that is not one character repeated, so a piece out of place shows.
    static func text(_ count: Int, from start: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars)
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(count)
        for index in start..<(start + count) { scalars.append(letters[(index / 7 + index) % letters.count]) }
        return String(scalars)
    }

    /// The rows a state of `bytes` takes in a format-5 journal: its first 4 MiB in its
    /// document's row, and one row per further 4 MiB.
    static func rows(_ bytes: Int) -> Int { 1 + (bytes <= 4 << 20 ? 0 : (bytes - 1) / (4 << 20)) }

    @Test func aDocumentOverSixteenMiBCheckpointsAndReopensEqual() throws {
        let path = journal.scratch("large-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        let half = Self.characters / 2
        let expected: String
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string(Self.text(half, from: 0))], in: big)
            try host.breakCoalescing()
            try host.perform("text.insert", [.i64(Int64(half)), .string(Self.text(Self.characters - half, from: half))], in: big)
            expected = try host.describe(big, plugin: Self.text)
            #expect(expected.unicodeScalars.count == Self.characters)
            // The plugin's save goes over 16 MiB, and the checkpoint takes it, in pieces.
            let saved = try #require(try host.saveDocumentState(plugin: Self.text, context: big))
            #expect(saved.count == Self.stateBytes && saved.count > 16 << 20)
            let info = try writer.checkpoint()
            #expect(info.documentBytes == Self.stateBytes)
            // Counted, not timed: the state takes ceil(bytes / 4 MiB) rows, none over 4 MiB.
            #expect(info.documentRows == Self.rows(Self.stateBytes) && info.documentRows == 5)
            writer.close()
        }
        #expect(try sqliteRows(path, "SELECT count(*), max(length(bytes)) FROM checkpoint_pieces;") == [["4", "4194304"]])
        #expect(try sqliteRows(path, "SELECT length(state) FROM checkpoint_documents;") == [["4194304"]])
        #expect(try sqliteRows(path, "SELECT count(*) FROM changes;") == [["0"]])
        let (host, clock) = journal.makeHost()
        let reader = try HostJournal.open(path: path, host: host, clock: clock)
        defer { reader.close() }
        #expect(reader.restoredCount == 0)
        #expect(reader.restoredCheckpoint?.documentBytes == Self.stateBytes)
        #expect(try host.describe(big, plugin: Self.text) == expected)
        // And it undoes back to empty, as the session did.
        try host.undo(count: 2)
        #expect(try host.describe(big, plugin: Self.text) == "")
    }

    /// A piece lost from the end, or every piece after the first, is damage, named.
    @Test func aLostPieceIsDamage() throws {
        let path = journal.scratch("large-lost-\(UInt32.random(in: 0...UInt32.max)).undojournal")
        do {
            let (host, clock) = journal.makeHost()
            let writer = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string(Self.text(1_000_000, from: 0))], in: big)
            #expect(try writer.checkpoint().documentRows == 2)
            writer.close()
        }
        for (name, query) in [("last", "DELETE FROM checkpoint_pieces WHERE ordinal = 1;"),
                              ("every", "DELETE FROM checkpoint_pieces;")] {
            let copy = journal.scratch("large-lost-\(name)-\(UInt32.random(in: 0...UInt32.max)).undojournal")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try runSQLite(copy, query)
            let (host, clock) = journal.makeHost()
            #expect(throws: JournalError.self) { try HostJournal.open(path: copy, host: host, clock: clock) }
            do {
                _ = try HostJournal.open(path: copy, host: host, clock: clock)
            } catch {
                #expect(error.message.contains("the checkpoint is damaged"))
                #expect(error.reason == .damaged)
            }
        }
    }

    /// Writes `Fixtures/format-5.undojournal` again (only when asked: the committed file is
    /// what later versions must read): `play` with a group description, a document "big" of
    /// 900,000 characters (4,500,012 bytes of state: two rows) after its 9th change, then a
    /// checkpoint, so the file holds a state in pieces and the changes after it.
    /// `UNDOHOST_WRITE_FIXTURE=1 swift test --filter writeTheVersionFiveFixture`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["UNDOHOST_WRITE_FIXTURE"] != nil))
    func writeTheVersionFiveFixture() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/format-5.undojournal")
        try? FileManager.default.removeItem(at: fixture)
        let (host, clock) = journal.makeHost()
        let writer = try HostJournal.open(path: fixture.path, host: host, clock: clock)
        try journal.play(host, groupDescription: HostJournalTests.groupDescription) { made in
            if made == 9 {
                try host.perform("text.insert", [.i64(0), .string(Self.text(900_000, from: 0))], in: big)
                try writer.checkpoint()
            }
        }
        writer.close()
    }

    /// A journal of format 5 written by this version, with a document in two pieces, committed:
    /// every later version reads it.
    @Test func theCommittedVersionFiveJournalIsRead() throws {
        let copy = try journal.fixtureCopy("format-5")
        #expect(try sqliteRows(copy, "PRAGMA user_version;") == [["5"]])
        let (host, clock) = journal.makeHost()
        let reader = try HostJournal.open(path: copy, host: host, clock: clock)
        defer { reader.close() }
        let checkpoint = try #require(reader.restoredCheckpoint)
        // a, b and big, whose 4,500,012 bytes take two rows.
        #expect(checkpoint.documentRows == 4 && checkpoint.documents.count == 3)
        #expect(checkpoint.documentBytes > 12 + 5 * 900_000)
        // The big document is in the state the checkpoint restored (the session then moved
        // back over it): found whole, piece after piece, at one state of the tree.
        let ids = host.history.withStack { $0.tree.map(\.id) }
        var found = 0
        let whole = Self.text(900_000, from: 0)
        for id in ids {
            try host.goTo(state: id)
            if try host.describe(big, plugin: Self.text) == whole { found += 1 }
        }
        #expect(found >= 1)
    }

    /// The committed format-4 journal (states in one row each) still reads after format 5,
    /// and becomes format 5 once opened, keeping its checkpoint.
    @Test func theFormatFourJournalBecomesFormatFive() throws {
        let copy = try journal.fixtureCopy("format-4")
        do {
            let (host, clock) = journal.makeHost()
            let reader = try HostJournal.open(path: copy, host: host, clock: clock)
            #expect(reader.restoredCheckpoint?.documentRows == 2)
            reader.close()
        }
        #expect(try sqliteRows(copy, "PRAGMA user_version;") == [["5"]])
        let (host, clock) = journal.makeHost()
        let reader = try HostJournal.open(path: copy, host: host, clock: clock)
        defer { reader.close() }
        journal.expectThePlayedSession(try journal.snapshot(host))
    }
}

/// Runs one SQL statement on the file with the sqlite3 tool (to damage a journal on purpose).
func runSQLite(_ path: String, _ sql: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", path, sql]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
}
