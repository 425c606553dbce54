import Foundation
import Testing
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost
import UndoTestSupport

/// The journal's files under faults: a refused open writes to neither the database nor its
/// `-wal`; a link in a folder others may write is refused before SQLite follows it.
@Suite struct JournalFileTests {
    static let text = "org.undohost.text"

    func makeHost(plugins: Bool = true) -> (PluginHost, JournalClock) {
        let clock = JournalClock()
        let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil, clock: clock)))
        if plugins { _ = host.loadBundledPlugins() }
        return (host, clock)
    }

    /// The bytes of the database and of its -wal (nil when missing).
    func bytes(_ path: String) -> [Data?] {
        [path, path + "-wal", path + "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: $0)) }
    }

    /// A journal as a crash leaves it: its last changes in its `-wal`, not yet in the database
    /// (copied while the journal is open: the files on disk are what a SIGKILL leaves).
    func crashedJournal(in folder: TemporaryFolder, changes: Int = 3) throws -> String {
        let live = folder.path("live.undojournal")
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: live, host: host, clock: clock)
        for index in 0..<changes {
            try host.perform("text.insert", [.i64(Int64(index)), .string("x")], in: UndoContext("a"))
        }
        let crashed = folder.path("crashed.undojournal")
        try FileManager.default.copyItem(atPath: live, toPath: crashed)
        try FileManager.default.copyItem(atPath: live + "-wal", toPath: crashed + "-wal")
        journal.close()
        return crashed
    }

    @Test("A refused open leaves the database and its -wal byte for byte as they were")
    func aRefusedOpenWritesNeitherFile() throws {
        let folder = try TemporaryFolder()
        let path = try crashedJournal(in: folder)
        let before = bytes(path)
        #expect(before[1] != nil && before[1]!.count > 0, "the copy has no -wal to keep")
        let (bare, _) = makeHost(plugins: false)
        #expect { _ = try HostJournal.open(path: path, host: bare) } throws: {
            "\($0)".contains("it is not loaded")
        }
        #expect(bytes(path) == before, "a refused open wrote to the database or its -wal")
        // The -wal kept is still the journal's: with the plugin, every change comes back.
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(journal.restoredCount == 3)
        #expect(try host.describe(UndoContext("a"), plugin: Self.text).contains("xxx"))
        journal.close()
    }

    @Test("Another journal's -wal beside a journal is refused, and neither file is changed")
    func anotherJournalsWALIsRefused() throws {
        let folder = try TemporaryFolder()
        // A closed journal: everything in its database.
        let path = folder.path("mine.undojournal")
        do {
            let (host, clock) = makeHost()
            let journal = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string("mine")], in: UndoContext("a"))
            journal.close()
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        // Another journal as a crash left it, its whole state in its -wal; that -wal beside mine.
        let other = try crashedJournal(in: folder)
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: path + "-wal")
        let before = bytes(path)
        let (host, clock) = makeHost()
        #expect { _ = try HostJournal.open(path: path, host: host, clock: clock) } throws: {
            "\($0)".contains("its -wal (\(path)-wal) does not continue it") && ($0 as? JournalError)?.reason == .damaged
        }
        #expect(bytes(path) == before, "the refused open changed the journal or its -wal")
        #expect(host.history.withStack { $0.treeCount } == 0)
        // Moved away, as the message says: the journal opens as its database holds it.
        #expect(rename(path + "-wal", folder.path("moved-wal")) == 0)
        let journal = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(try host.describe(UndoContext("a"), plugin: Self.text).contains("mine"))
        journal.close()
    }

    @Test("A journal's own -wal after a crash, beside a database that holds earlier changes, is kept")
    func theJournalsOwnWALIsKept() throws {
        let folder = try TemporaryFolder()
        let live = folder.path("live.undojournal")
        do {
            let (host, clock) = makeHost()
            let journal = try HostJournal.open(path: live, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string("a")], in: UndoContext("a"))
            journal.close()
        }
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: live, host: host, clock: clock)
        try host.perform("text.insert", [.i64(1), .string("b")], in: UndoContext("a"))
        let crashed = folder.path("crashed.undojournal")
        try FileManager.default.copyItem(atPath: live, toPath: crashed)
        try FileManager.default.copyItem(atPath: live + "-wal", toPath: crashed + "-wal")
        journal.close()
        let (again, againClock) = makeHost()
        let reopened = try HostJournal.open(path: crashed, host: again, clock: againClock)
        #expect(reopened.restoredCount == 2)
        #expect(try again.describe(UndoContext("a"), plugin: Self.text).contains("ab"))
        reopened.close()
    }

    @Test("undo-host's peek at a journal's format leaves its -wal as it is")
    func lookingAtTheFormatWritesNothing() throws {
        let folder = try TemporaryFolder()
        let path = try crashedJournal(in: folder)
        let before = bytes(path)
        #expect(HostJournal.isHostJournal(path))
        #expect(bytes(path) == before)
    }

    /// A folder like /tmp: everyone may write it, with the sticky bit.
    func stickyFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        #expect(chmod(folder.path, 0o1777) == 0)
        return folder
    }

    @Test("A dangling link to the journal in a sticky folder others may write is refused, and its target is not created")
    func aDanglingLinkInAStickyFolderIsRefused() throws {
        let sticky = try stickyFolder()
        let elsewhere = try TemporaryFolder()
        let target = elsewhere.path("target.undojournal")
        let link = sticky.path("notes.undojournal")
        #expect(symlink(target, link) == 0)
        let (host, clock) = makeHost()
        #expect { _ = try HostJournal.open(path: link, host: host, clock: clock) } throws: {
            "\($0)".contains("\(link) is a link, and its folder \(sticky.path) is writable by group and others (mode 1777)")
        }
        #expect(!FileManager.default.fileExists(atPath: target), "SQLite followed the link and created its target")
    }

    @Test("A link to the -wal in a sticky folder is refused")
    func aLinkedWALInAStickyFolderIsRefused() throws {
        let sticky = try stickyFolder()
        let elsewhere = try TemporaryFolder()
        let path = sticky.path("notes.undojournal")
        #expect(symlink(elsewhere.path("wal"), path + "-wal") == 0)
        let (host, clock) = makeHost()
        #expect { _ = try HostJournal.open(path: path, host: host, clock: clock) } throws: {
            "\($0)".contains("\(path)-wal is a link")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: elsewhere.path("wal")))
    }

    @Test("A journal in a sticky folder, not a link, opens; a link in a folder only this user may write opens")
    func theJournalsOwnFilesOpen() throws {
        let sticky = try stickyFolder()
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: sticky.path("notes.undojournal"), host: host, clock: clock)
        journal.close()
        let own = try TemporaryFolder()
        let link = own.path("link.undojournal")
        #expect(symlink(own.path("target.undojournal"), link) == 0)
        let (other, otherClock) = makeHost()
        let linked = try HostJournal.open(path: link, host: other, clock: otherClock)
        linked.close()
        #expect(FileManager.default.fileExists(atPath: own.path("target.undojournal")))
    }
}
