import Foundation
import UndoTestSupport
// docs:begin history-journal
import UndoCodableJournal
import UndoCore

// docs:end history-journal
extension DocExamples {
    /// docs/using-the-history-from-swift.md, "Keeping the history in a file".
    static func historyJournal() throws {
        let folder = try TemporaryFolder("undo-docs")
        defer { withExtendedLifetime(folder) {} }  // removed at the end
        let path = folder.path("notes.history")
        // docs:begin history-journal
        final class Note { var text = "" }

        struct Append: UndoJournaledCommand {
            static var journalName: String { "note.append" }   // kept in the file: never change it
            let note: Note                                      // the model: not encoded
            let text: String

            enum CodingKeys: CodingKey { case text }
            init(note: Note, text: String) { self.note = note; self.text = text }
            init(from decoder: any Decoder) throws {
                note = try decoder.journalModel(Note.self)      // the model the journal was opened with
                text = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .text)
            }

            var name: String? { "Type \"\(text.trimmingPrefix(" "))\"" }
            func perform(_ changes: inout UndoChanges) throws { note.text += text }
            func undo(_ changes: inout UndoChanges) throws { note.text.removeLast(text.count) }
        }

        // The first run: a new file starts empty.
        var note = Note()
        var journal = try UndoStackJournal(path: path, durability: .full, commands: [Append.self], model: note)
        for word in ["one", " two", " three"] {
            try journal.perform(Append(note: note, text: word))
        }
        try journal.markSaved()
        try journal.undo(count: 2)
        try journal.perform(Append(note: note, text: " four"))  // " two three" stays, as a branch
        print(note.text, "| states:", journal.stack.tree.map(\.id))
        journal.close()                                         // or a crash: every change is written

        // The next run: the same history and, by replaying it, the same note.
        note = Note()
        journal = try UndoStackJournal(path: path, commands: [Append.self], model: note)
        print(note.text, "| replayed:", journal.restoredCount, "changes | edited:", journal.stack.isDirty())
        try journal.earlier(.saves(1))                          // back to the saved state, on the branch
        print(note.text, "| edited:", journal.stack.isDirty(), "|", journal.stack.undoMenuTitle)
        // docs:end history-journal
    }
}
