import Foundation
import Testing
import UndoHostSession
import UndoJournal
import UndoTestSupport

/// undo-host's session journal of format 1, which it reads only (to upgrade it): entries come back in order, and a file
/// that is not a journal of this format, or is damaged, is refused with the reason, without being changed.
@Suite struct SessionLineJournalTests {
    func scratch(_ name: String) -> String {
        TemporaryFolder.kept("undo-journal") + "/" + name
    }

    func written(_ count: Int) throws -> String {
        let path = scratch("j.db")
        try writeFormatOneJournal(path, (1...count).map { index in
            SessionLineJournal.Entry(sequence: Int64(index), time: UInt64(index) * 1_000_000_000,
                                     document: index % 2 == 0 ? "a.txt" : "b.txt",
                                     command: "org.undohost.text/insert 0 \"entry \(index) \(String(repeating: "x", count: 200))\"")
        })
        return path
    }

    @Test func entriesComeBackInOrder() throws {
        let path = try written(50)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let journal = try SessionLineJournal(path: path)
        #expect(journal.entries.count == 50)
        #expect(journal.entries.map(\.sequence) == Array(1...50))
        #expect(journal.entries[1].document == "a.txt" && journal.entries[1].time == 2_000_000_000)
        #expect(journal.entries[49].command.hasPrefix("org.undohost.text/insert 0 \"entry 50 "))
        // Reading leaves the file as it was, and no file beside it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func aMissingFileIsRefusedAndNotMade() throws {
        let path = scratch("missing.undojournal")
        #expect(throws: JournalError.self) { try SessionLineJournal(path: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("A format-1 journal whose replay undo-host refuses keeps its database and -wal as they were")
    func aRefusedReplayWritesNeitherFile() throws {
        let folder = try TemporaryFolder()
        let live = folder.path("live.db")
        let path = folder.path("crashed.db")
        try writeFormatOneJournal(live, [
            .init(sequence: 1, time: 1_000_000_000, document: "untitled", command: "text.insert 0 \"a\""),
            .init(sequence: 2, time: 2_000_000_000, document: "untitled", command: "no-such-command 1"),
        ]) { connection in
            // As a crash leaves it: the entries in the -wal.
            try FileManager.default.copyItem(atPath: live, toPath: path)
            try FileManager.default.copyItem(atPath: live + "-wal", toPath: path + "-wal")
        }
        let bytes = { [path, path + "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: $0)) } }
        let before = bytes()
        #expect(before[1] != nil)
        let outcome = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", path])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("change 2 (no-such-command 1) cannot be replayed"), "\(outcome.standardError)")
        #expect(bytes() == before, "the refused replay wrote to the journal or its -wal")
    }

    func expectRefused(_ path: String, saying words: String) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try SessionLineJournal(path: path)
            Issue.record("opened \(path)")
        } catch {
            #expect(error.description.contains(words), "\(error)")
            #expect(error.description.contains(path))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "a failed open changed the file")
    }

    @Test func aFlippedByteIsFoundAndNamed() throws {
        let path = try written(40)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Inside the text of one entry: SQLite's own checks do not look at it, the checksum does.
        let marker = Data("entry 17 ".utf8)
        let range = try #require(bytes.range(of: marker))
        bytes[range.lowerBound + 6] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        try expectRefused(path, saying: "entry 17 fails its checksum")
    }

    @Test func aTruncatedFileIsRefused() throws {
        let path = try written(200)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        try expectRefused(path, saying: "damaged")
    }

    @Test func aDamagedHeaderIsRefused() throws {
        let path = try written(5)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[3] ^= 0xff   // "SQLite format 3"
        try bytes.write(to: URL(fileURLWithPath: path))
        try expectRefused(path, saying: "damaged")
    }

    @Test func anotherFormatVersionOrFileIsRefused() throws {
        let path = try written(3)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // The header's user_version (offset 60, big-endian): a journal of format 2.
        bytes[63] = 2
        try bytes.write(to: URL(fileURLWithPath: path))
        try expectRefused(path, saying: "format version 2, newer than this program's 1")

        let text = scratch("notes.txt")
        try Data("just some text, not a database at all............................................................".utf8)
            .write(to: URL(fileURLWithPath: text))
        try expectRefused(text, saying: "damaged")
    }

    /// The format of version 1, as written by this version: a file kept in the repository that
    /// every later version must still read.
    @Test func theCommittedVersionOneJournalIsRead() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../UndoHostJournalTests/Fixtures/format-1.undojournal").standardized
        let copy = scratch("format-1.undojournal")
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: copy))
        let journal = try SessionLineJournal(path: copy)
        #expect(journal.entries.map(\.command) == [
            "org.undohost.text/insert 0 \"Dear Ann\"", "break", "org.undohost.text/insert 8 \", thanks\"", "save",
            "undo 1", "org.undohost.text/insert 8 \", sorry\"", "goto 2",
        ])
        #expect(journal.entries.allSatisfy { $0.document == "untitled" })
    }
}

/// Writes a journal of format 1 as undo-host wrote them before it upgraded them instead: the
/// schema, then each entry with its checksum.
/// Writes a format-1 journal as undo-host wrote them; `whileOpen` runs before it is closed (the
/// entries then wait in its -wal, as a crash leaves them).
func writeFormatOneJournal(_ path: String, _ entries: [SessionLineJournal.Entry],
                           whileOpen: (SQLiteConnection) throws -> Void = { _ in }) throws {
    let connection = try SQLiteConnection(path: path, create: true)
    defer { connection.close() }
    try connection.execute("""
        PRAGMA journal_mode=WAL;
        BEGIN;
        PRAGMA application_id=\(JournalApplicationID.undoHost);
        PRAGMA user_version=1;
        CREATE TABLE entries(sequence INTEGER PRIMARY KEY, time INTEGER NOT NULL,
                             document TEXT NOT NULL, command TEXT NOT NULL, checksum INTEGER NOT NULL);
        COMMIT;
        """)
    for entry in entries {
        try connection.query("INSERT INTO entries(sequence, time, document, command, checksum) VALUES (?, ?, ?, ?, ?);",
                             [.integer(entry.sequence), .integer(Int64(bitPattern: entry.time)), .text(entry.document),
                              .text(entry.command), .integer(entry.checksum)])
    }
    try whileOpen(connection)
}
