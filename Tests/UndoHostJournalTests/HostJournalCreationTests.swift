import Foundation
import Testing
import UndoCore
@testable import UndoHostJournal
import UndoJournal
import UndoPluginHost
import UndoTestSupport

/// Creating a journal: a file that never held one (left empty by a creation that failed) is
/// not "damaged" (two processes creating one at once: JournalCreationRaceTests). And a journal
/// never makes the host load a plugin: the program loads them.
@Suite struct HostJournalCreationTests {
    static let text = "org.undohost.text"

    func scratch(_ name: String) -> String {
        let path = TemporaryFolder.kept("host-journal-creation") + "/" + name
        for file in [path, path + "-wal", path + "-journal"] { try? FileManager.default.removeItem(atPath: file) }
        return path
    }

    func makeHost(plugins: Bool = true) -> (PluginHost, JournalClock) {
        let clock = JournalClock()
        let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil, clock: clock)))
        if plugins { _ = host.loadBundledPlugins() }
        return (host, clock)
    }

    @Test("An empty (0-byte) file opens as a new journal")
    func anEmptyFileStartsAfresh() throws {
        let path = scratch("empty.undojournal")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(journal.restoredCount == 0)
        try host.perform("text.insert", [.i64(0), .string("x")], in: UndoContext("a"))
        journal.close()
        let (again, againClock) = makeHost()
        let reopened = try HostJournal.open(path: path, host: again, clock: againClock)
        #expect(reopened.restoredCount == 1)
        #expect(try again.describe(UndoContext("a"), plugin: Self.text) == (try host.describe(UndoContext("a"), plugin: Self.text)))
        reopened.close()
    }

    @Test("A new journal whose first write fails leaves no file behind, and opens once the fault is gone")
    func aFailedCreationLeavesNoFile() throws {
        let path = scratch("first-write.undojournal")
        // The -wal file cannot be made (a folder is in its place): the first write fails.
        try FileManager.default.createDirectory(atPath: path + "-wal", withIntermediateDirectories: false)
        let (host, clock) = makeHost()
        do {
            _ = try HostJournal.open(path: path, host: host, clock: clock)
            Issue.record("opened")
        } catch {
            #expect(error.reason != .damaged, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: path), "the failed creation left a file")
        try FileManager.default.removeItem(atPath: path + "-wal")
        let journal = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(journal.restoredCount == 0)
        journal.close()
    }

    // MARK: A journal loads no code

    /// A journal whose host loaded the text plugin after it was opened (a `load` change).
    func journalLoadingText(_ name: String, checkpoint: Bool) throws -> (path: String, plugin: String) {
        let path = scratch(name)
        let (bundled, _) = makeHost()
        let file = try #require(bundled.plugins.first { $0.id == Self.text }?.path)
        let (host, clock) = makeHost(plugins: false)
        let journal = try HostJournal.open(path: path, host: host, clock: clock)
        _ = try host.load(file: file)
        try host.perform("text.insert", [.i64(0), .string("x")], in: UndoContext("a"))
        if checkpoint { try journal.checkpoint() }
        journal.close()
        return (path, file)
    }

    @Test("A journal's load change does not load the plugin: the open is refused naming it, its version and the path it was loaded from")
    func aLoadChangeLoadsNothing() throws {
        for checkpoint in [false, true] {
            let (path, file) = try journalLoadingText("load-\(checkpoint).undojournal", checkpoint: checkpoint)
            let (bare, clock) = makeHost(plugins: false)
            do {
                _ = try HostJournal.open(path: path, host: bare, clock: clock)
                Issue.record("opened")
            } catch {
                #expect(error.reason == .pluginMissing, "\(error)")
                for words in ["it needs plugin \(Self.text)", "it is not loaded", file, "undo-host --plugins \(file)"] {
                    #expect(error.description.contains(words), "\(error)")
                }
            }
            #expect(bare.plugins.isEmpty, "the journal loaded a plugin")
            // With the plugin loaded by the program, it opens.
            let (host, hostClock) = makeHost()
            let journal = try HostJournal.open(path: path, host: host, clock: hostClock)
            #expect(try host.describe(UndoContext("a"), plugin: Self.text).contains("x"))
            journal.close()
        }
    }

    @Test("A forged checkpoint_plugins row naming another plugin's file makes the host load nothing")
    func aForgedCheckpointPluginLoadsNothing() throws {
        let (path, _) = try journalLoadingText("forged-plugins.undojournal", checkpoint: true)
        let (bundled, _) = makeHost()
        let canvas = try #require(bundled.plugins.first { $0.id == "org.undohost.canvas" })
        let connection = try SQLiteConnection(path: path, create: false)
        let values: [SQLiteConnection.Value] = [.integer(1), .text(canvas.path), .text(canvas.id), .text(canvas.version)]
        try connection.query("UPDATE checkpoint_plugins SET path = ?, plugin = ?, plugin_version = ?, checksum = ? WHERE ordinal = 1;",
                             [values[1], values[2], values[3], try #require(Checkpoint.sealed(values).last)])
        connection.close()
        // Only the text plugin loaded, by the program.
        let (host, clock) = makeHost(plugins: false)
        let file = try #require(bundled.plugins.first { $0.id == Self.text }?.path)
        _ = try host.load(file: file)
        do {
            _ = try HostJournal.open(path: path, host: host, clock: clock)
            Issue.record("opened")
        } catch {
            #expect(error.reason == .pluginMissing, "\(error)")
            #expect(error.description.contains("it needs plugin org.undohost.canvas"), "\(error)")
            #expect(error.description.contains(canvas.path), "\(error)")
        }
        #expect(host.plugins.map(\.id) == [Self.text], "the journal loaded a plugin")
    }
}
