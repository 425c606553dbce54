import Testing
import UndoCodableJournal
import UndoCore

@Suite("Reopening is linear in the changes")
struct LinearReplayTests {
    /// Journals `changes` changes (inserts, an undo and then a redo of the newest one each ten), reopens, and
    /// gives how often commands were decoded and performed while reopening.
    static func reopen(changes: Int) throws -> (decodes: Int, performs: Int, restored: Int) {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, durability: .normal, commands: JournalFiles.commands, model: documents)
        for index in 0..<changes {
            if index % 10 == 8 {
                try journal.undo()
            } else if index % 10 == 9 {
                try journal.redo()
            } else {
                try journal.perform(InsertText(documents, "a", at: 0, "x", coalesces: false))
            }
        }
        journal.close()
        let fresh = Documents()
        let reopened = try UndoStackJournal(path: path, durability: .normal, commands: JournalFiles.commands, model: fresh)
        #expect(fresh.texts == documents.texts)
        return (fresh.decodes, fresh.performs, reopened.restoredCount)
    }

    @Test("each change is decoded once and replayed once", arguments: [100, 1000])
    func decodesOncePerChange(changes: Int) throws {
        let counted = try Self.reopen(changes: changes)
        let commands = changes - 2 * changes / 10
        #expect(counted.restored == changes)
        #expect(counted.decodes == commands)
        // Each command performed once, and once more by each redo.
        #expect(counted.performs == commands + changes / 10)
    }
}
