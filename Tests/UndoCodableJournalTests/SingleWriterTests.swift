import Foundation
import Testing
import UndoCodableJournal
import UndoCore
import UndoJournal

/// A history journal has one writer: while it is open, a second opening of the file, in this
/// process or another, is refused with an error that says so, and changes neither journal.
@Suite("A journal open for writing is not opened twice")
struct SingleWriterTests {
    @Test("a second opening in the same process is refused until the first closes")
    func secondOpeningInThisProcess() throws {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let first = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: documents)
        // Refused even before the first journal wrote a change (a new, empty file).
        let early = #expect(throws: JournalError.self) {
            _ = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: Documents())
        }
        #expect(early?.message.contains("already open") == true, "\(String(describing: early))")
        try first.perform(InsertText(documents, "a", at: 0, "one"))
        let refused = #expect(throws: JournalError.self) {
            _ = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: Documents())
        }
        #expect(refused?.message.contains("a history journal has one writer at a time") == true)
        #expect(refused?.description.contains(path) == true)
        try first.perform(InsertText(documents, "a", at: 3, " two"))   // the first goes on as if nothing happened
        first.close()
        let fresh = Documents()
        let reopened = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: fresh)
        #expect(reopened.restoredCount == 2)
        #expect(fresh.text("a") == "one two")
    }

    @Test("an opening in another process is refused while this one has the journal open")
    func secondOpeningInAnotherProcess() throws {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: documents)
        try journal.perform(InsertText(documents, "a", at: 0, "mine"))

        func runOther() throws -> (status: Int32, error: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CrashTests.executable)
            process.arguments = ["run", path, "full", "5", "1"]
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let other = try runOther()
        #expect(other.status == 2)
        #expect(other.error.contains("already open"), "\(other.error)")
        try journal.perform(InsertText(documents, "a", at: 4, "!"))
        journal.close()
        let fresh = Documents()
        let reopened = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: fresh)
        #expect(reopened.restoredCount == 2)
        #expect(fresh.text("a") == "mine!")
    }
}
