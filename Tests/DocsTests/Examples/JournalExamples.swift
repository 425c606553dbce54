import Foundation
import UndoTestSupport
// docs:begin journal
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost

// docs:end journal
extension DocExamples {
    /// docs/using-the-history-from-swift.md, "A journal".
    static func journal() throws {
        let folder = try TemporaryFolder("undo-docs")
        defer { withExtendedLifetime(folder) {} }  // removed at the end, with the journal's -wal and -shm
        let path = folder.path("letter.undojournal")
        // docs:begin journal
        // A host as a program makes one each time it starts, journaled in `path`: a JournalClock (wall-clock times,
        // which mean the same after a restart), its plugins, then the journal.
        func start() throws -> (PluginHost, HostJournal) {
            let clock = JournalClock()
            let host = PluginHost(history: SharedUndoHistory(UndoStack(clock: clock)))
            _ = host.loadBundledPlugins()
            let journal = try HostJournal.open(path: path, durability: .full, host: host, clock: clock)
            return (host, journal)
        }
        let letter = UndoContext("letter.txt")

        var (host, journal) = try start()
        try host.perform("text.insert", argumentText: #"0 "Dear Ann""#, in: letter)   // on disk when it returns
        try host.breakCoalescing()
        try host.perform("text.insert", argumentText: #"8 ", thanks""#, in: letter)
        try host.undo()
        try host.perform("text.insert", argumentText: #"8 ", sorry""#, in: letter)   // ", thanks" stays on a branch
        journal.close()                                                               // or a crash: nothing is lost

        (host, journal) = try start()
        print(journal.restoredCount, "changes restored")
        print(try host.describe(letter, plugin: "org.undohost.text"))
        try host.goTo(state: 2)                                                       // the branch is back too
        print(try host.describe(letter, plugin: "org.undohost.text"))
        journal.close()
        // docs:end journal
    }

    /// docs/using-the-history-from-swift.md, "Checkpoints".
    static func journalCheckpoint() throws {
        let folder = try TemporaryFolder("undo-docs")
        defer { withExtendedLifetime(folder) {} }  // removed at the end, with the journal's -wal and -shm
        let path = folder.path("notes.undojournal")
        func start() throws -> (PluginHost, HostJournal) {
            let clock = JournalClock()
            let host = PluginHost(history: SharedUndoHistory(UndoStack(countLimit: 100, clock: clock)))
            _ = host.loadBundledPlugins()
            return (host, try HostJournal.open(path: path, host: host, clock: clock))
        }
        let notes = UndoContext("notes.txt")
        // docs:begin journal-checkpoint
        var (host, journal) = try start()
        for word in ["thanks", "Ann, ", "Dear "] {
            try host.breakCoalescing()
            try host.perform("text.insert", argumentText: "0 \(ActionValue.string(word))", in: notes)
        }
        let checkpoint = try journal.checkpoint()               // the documents as bytes, the history as values
        print("checkpoint after change", checkpoint.sequence, "holds", checkpoint.steps, "steps,",
              checkpoint.documents.count, "document")
        try host.undo()                                         // journaled after the checkpoint
        journal.close()

        (host, journal) = try start()
        print("restored from change", journal.restoredCheckpoint?.sequence ?? 0, "then", journal.restoredCount, "change")
        print(try host.describe(notes, plugin: "org.undohost.text"))
        try host.undo()                                         // the steps came back without running
        print(try host.describe(notes, plugin: "org.undohost.text"))
        journal.close()
        // docs:end journal-checkpoint
    }
}
