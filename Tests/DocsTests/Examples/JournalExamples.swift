import Foundation
// docs:begin journal
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost

// docs:end journal
extension DocExamples {
    /// docs/using-the-history-from-swift.md, "A journal".
    static func journal() throws {
        let path = NSTemporaryDirectory() + "letter-\(UUID().uuidString).undojournal"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
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
}
