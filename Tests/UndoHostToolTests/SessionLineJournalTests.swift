import Foundation
import Testing
import UndoHostSession
import UndoJournal
import UndoTestSupport

/// undo-host's session journal of format 1: a new one starts empty, entries come back in order, and a file that is not
/// a journal of this format, or is damaged, is refused with the reason, without being changed.
@Suite struct SessionLineJournalTests {
    func scratch(_ name: String) -> String {
        TemporaryFolder.kept("undo-journal") + "/" + name
    }

    func written(_ count: Int, durability: JournalDurability = .full) throws -> String {
        let path = scratch("j.db")
        let journal = try SessionLineJournal(path: path, durability: durability)
        #expect(journal.restored.isEmpty)
        for index in 1...count {
            try journal.append(document: index % 2 == 0 ? "a.txt" : "b.txt",
                               command: "org.undohost.text/insert 0 \"entry \(index) \(String(repeating: "x", count: 200))\"",
                               time: UInt64(index) * 1_000_000_000)
        }
        journal.close()
        return path
    }

    @Test(arguments: JournalDurability.allCases)
    func entriesComeBackInOrder(durability: JournalDurability) throws {
        let path = try written(50, durability: durability)
        let journal = try SessionLineJournal(path: path, durability: durability)
        #expect(journal.restored.count == 50)
        #expect(journal.restored.map(\.sequence) == Array(1...50))
        #expect(journal.restored[1].document == "a.txt" && journal.restored[1].time == 2_000_000_000)
        #expect(journal.restored[49].command.hasPrefix("org.undohost.text/insert 0 \"entry 50 "))
        try journal.append(document: "a.txt", command: "undo 1")
        journal.close()
        #expect(try SessionLineJournal(path: path).restored.last?.sequence == 51)
    }

    @Test("A format-1 journal whose replay undo-host refuses keeps its database and -wal as they were")
    func aRefusedReplayWritesNeitherFile() throws {
        let folder = try TemporaryFolder()
        let live = folder.path("live.db")
        let journal = try SessionLineJournal(path: live)
        try journal.append(document: "untitled", command: "text.insert 0 \"a\"")
        try journal.append(document: "untitled", command: "no-such-command 1")
        // As a crash leaves it: the entries in the -wal.
        let path = folder.path("crashed.db")
        try FileManager.default.copyItem(atPath: live, toPath: path)
        try FileManager.default.copyItem(atPath: live + "-wal", toPath: path + "-wal")
        journal.close()
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
        #expect(journal.restored.map(\.command) == [
            "org.undohost.text/insert 0 \"Dear Ann\"", "break", "org.undohost.text/insert 8 \", thanks\"", "save",
            "undo 1", "org.undohost.text/insert 8 \", sorry\"", "goto 2",
        ])
        #expect(journal.restored.allSatisfy { $0.document == "untitled" })
    }
}
