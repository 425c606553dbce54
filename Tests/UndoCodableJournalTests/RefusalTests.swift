import Testing
import UndoCodableJournal
import UndoCore
import UndoJournal

@Suite("A journal that cannot be replayed is refused, clearly, and left as it was")
struct RefusalTests {
    /// A closed journal of `changes` inserts, each with a text that can be found in the file.
    static func journal(changes: Int, path: String = JournalFiles.newPath()) throws -> String {
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, durability: .normal, commands: JournalFiles.commands, model: documents)
        for index in 0..<changes {
            try journal.perform(InsertText(documents, "a", at: 0, "marker-\(1000 + index);", coalesces: false))
        }
        try journal.perform(DeleteText(documents, "a", at: 0, count: 3))
        journal.close()
        return path
    }

    /// Opens `path` expecting a refusal; checks the file is byte for byte what it was.
    static func refusal(_ path: String, commands: [any UndoJournaledCommand.Type] = JournalFiles.commands) -> JournalError? {
        let before = JournalFiles.bytes(path)
        let error = #expect(throws: JournalError.self) {
            _ = try UndoStackJournal(path: path, commands: commands, model: Documents())
        }
        #expect(JournalFiles.bytes(path) == before, "a failed open changed the file")
        return error
    }

    @Test("a refused open leaves the database and the -wal a crash left beside it as they were")
    func aRefusedOpenKeepsTheWAL() throws {
        let live = JournalFiles.newPath()
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: live, durability: .normal, commands: JournalFiles.commands, model: documents)
        for index in 0..<5 { try journal.perform(InsertText(documents, "a", at: 0, "marker-\(index);", coalesces: false)) }
        // As a crash leaves it: the last changes in the -wal.
        JournalFiles.write(JournalFiles.bytes(live), to: path)
        JournalFiles.write(JournalFiles.bytes(live + "-wal"), to: path + "-wal")
        journal.close()
        let wal = JournalFiles.bytes(path + "-wal")
        #expect(!wal.isEmpty)
        // Refused: the command types are not registered.
        let error = Self.refusal(path, commands: [DeleteText.self])
        #expect(error?.message.contains("not registered") == true, "\(String(describing: error))")
        let walKept = JournalFiles.bytes(path + "-wal") == wal
        #expect(walKept, "the refused open folded the -wal in")
        // The open that succeeds has every change, the -wal's too.
        let reopened = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: Documents())
        #expect(reopened.restoredCount == 5)
        reopened.close()
    }

    @Test("a truncated file is refused")
    func truncated() throws {
        let path = try Self.journal(changes: 300)
        let bytes = JournalFiles.bytes(path)
        #expect(bytes.count > 8192)
        JournalFiles.write(Array(bytes.prefix(bytes.count / 2)), to: path)
        let error = Self.refusal(path)
        #expect(error?.message.contains("damaged") == true)
        #expect(error?.description.hasPrefix("journal \(path): ") == true)
    }

    @Test("a byte flipped inside a command is refused, naming the change")
    func flippedByte() throws {
        let path = try Self.journal(changes: 50)
        var bytes = JournalFiles.bytes(path)
        let marker = Array("marker-1017;".utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: marker) })
        bytes[at + 10] ^= 0x01                                 // "7" becomes "6": still valid JSON and SQLite
        JournalFiles.write(bytes, to: path)
        let error = Self.refusal(path)
        #expect(error?.message == "the file is damaged (change 18 fails its checksum)")
    }

    @Test("a file that is not an SQLite database is refused")
    func notADatabase() throws {
        let path = JournalFiles.newPath()
        JournalFiles.write(Array(String(repeating: "not a database\n", count: 400).utf8), to: path)
        let error = Self.refusal(path)
        #expect(error?.message.contains("damaged") == true)
    }

    @Test("an undo-host session journal is refused as one")
    func sessionJournal() throws {
        // undo-host's committed journal of format 1 (its class is undo-host's own).
        let path = JournalFiles.newPath()
        JournalFiles.write(JournalFiles.bytes(JournalFiles.fixture("../../UndoHostJournalTests/Fixtures/format-1.undojournal")), to: path)
        #expect(!JournalFiles.bytes(path).isEmpty)
        let error = Self.refusal(path)
        #expect(error?.message == "it is an undo-host journal (of the plugin host or of session lines), not a history journal")
    }

    @Test("a newer format version is refused")
    func newerVersion() throws {
        let path = try Self.journal(changes: 2)
        let connection = try SQLiteConnection(path: path, create: false)
        try connection.execute("PRAGMA user_version=\(UndoStackJournal.formatVersion + 1);")
        connection.close()
        let error = Self.refusal(path)
        #expect(error?.message.contains("format version 3, newer than this program's 2") == true)
    }

    @Test("a change of a type not registered is refused, naming the change and the type")
    func unknownType() throws {
        let path = try Self.journal(changes: 3)
        let error = Self.refusal(path, commands: [InsertText.self])
        #expect(error?.message == "change 4 of type \"test.delete-text\" cannot be replayed: the command type is not registered "
                + "(register it in `commands:`); the journal was not changed")
    }

    @Test("a change that does not decode as its type is refused, naming it")
    func undecodable() throws {
        let path = try Self.journal(changes: 3)
        let error = Self.refusal(path, commands: [Impostor.self, DeleteText.self])
        #expect(error?.message.hasPrefix("change 1 of type \"test.insert-text\" cannot be decoded: ") == true)
    }

    @Test("a change that cannot be performed again is refused, naming it")
    func notPerformable() throws {
        // Journaled against a model that held "xy" at the start; replayed against an empty one.
        let path = JournalFiles.newPath()
        let original = Documents()
        original.texts["a"] = "xy"
        let journal = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: original)
        try journal.perform(InsertText(original, "a", at: 2, "z"))
        journal.close()
        let error = Self.refusal(path)
        #expect(error?.message == "change 1 of type \"test.insert-text\" cannot be performed again: "
                + "\(UndoError.actionFailed(step: "Typing", underlying: TestFailure("insert past the end"))); the journal was not changed")
    }

    @Test("a stack that is not empty is refused")
    func stackNotEmpty() throws {
        struct Note: UndoCommand {
            func perform(_ changes: inout UndoChanges) throws {}
            func undo(_ changes: inout UndoChanges) throws {}
        }
        let error = #expect(throws: JournalError.self) {
            _ = try UndoStackJournal(path: JournalFiles.newPath(), commands: JournalFiles.commands, model: Documents()) { clock in
                let stack = UndoStack(clock: clock)
                _ = try? stack.perform(Note())
                return stack
            }
        }
        #expect(error?.message.contains("not empty") == true)
    }
}
