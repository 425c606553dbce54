import Foundation
import Testing
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost
import UndoTestSupport

/// The one rule when a change cannot be written (the disk is full, a sync fails): the change
/// that failed is reported as made but not written, every later change is refused before it is
/// made, and the file reopens to the last change it holds — never to a state that never was.
@Suite struct WriteFailureTests {
    let journal = HostJournalTests()
    let a = UndoContext("a")

    /// Makes every write that needs a new page fail, as a full disk does (SQLITE_FULL).
    func fillTheDisk(_ opened: HostJournal) throws {
        try opened.withConnection { connection throws(SQLiteFailure) in
            let pages = try connection.integer("PRAGMA page_count;")
            _ = try connection.integer("PRAGMA max_page_count=\(pages);")
        }
    }

    @Test(arguments: JournalDurability.allCases)
    func aChangeThatCannotBeWrittenRefusesEveryLaterOne(durability: JournalDurability) throws {
        let path = journal.scratch("full-disk.undojournal")
        do {
            let (host, clock) = journal.makeHost()
            let opened = try HostJournal.open(path: path, durability: durability, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string("kept")], in: a)
            try opened.commit()
            try fillTheDisk(opened)
            // Larger than a page: it needs new pages, which the full disk refuses.
            let big = String(repeating: "x", count: 20_000)
            #expect {
                try host.perform("text.insert", [.i64(0), .string(big)], in: a)
            } throws: { error in
                "\(error)".contains("was made but could not be written") && "\(error)".contains("reopen the journal")
            }
            #expect(opened.writeFailure != nil)
            let before = host.history.withStack { $0.count }
            // Every later change is refused before it is made: the history does not move.
            #expect {
                try host.perform("text.insert", [.i64(0), .string("y")], in: a)
            } throws: { error in "\(error)".contains("the change was refused, not made") }
            #expect(throws: PluginHostError.self) { try host.undo() }
            #expect(throws: PluginHostError.self) { try host.markSaved(a) }
            #expect(host.history.withStack { $0.count } == before)
            opened.close()
        }
        // The file reopens to the last change it holds.
        let (host, clock) = journal.makeHost()
        let reopened = try HostJournal.open(path: path, durability: durability, host: host, clock: clock)
        defer { reopened.close() }
        #expect(try host.describe(a, plugin: HostJournalTests.text) == "kept")
        #expect(host.history.withStack { $0.count } == 1)
        try host.perform("text.insert", [.i64(4), .string("!")], in: a)
    }

    @Test("in normal durability, a group that cannot be committed is rolled back and reported by the next change")
    func aFailedGroupCommitIsReported() throws {
        let path = journal.scratch("failed-group.undojournal")
        do {
            let (host, clock) = journal.makeHost()
            let opened = try HostJournal.open(path: path, durability: .normal, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string("kept")], in: a)
            try opened.commit()
            try host.breakCoalescing()
            try host.perform("text.insert", [.i64(4), .string(" waiting")], in: a)
            try fillTheDisk(opened)
            try host.breakCoalescing()
            #expect(throws: PluginHostError.self) {
                try host.perform("text.insert", [.i64(0), .string(String(repeating: "z", count: 20_000))], in: a)
            }
            // The group waiting was rolled back with it: the next change says so, and is refused.
            #expect {
                try host.perform("text.insert", [.i64(0), .string("y")], in: a)
            } throws: { error in "\(error)".contains("refused") }
            // Said once, by the calls above: nothing waits, and the journal says why it refuses.
            try opened.commit()
            #expect(opened.writeFailure?.contains("could not be written") == true)
            opened.close()
        }
        let (host, clock) = journal.makeHost()
        let reopened = try HostJournal.open(path: path, durability: .normal, host: host, clock: clock)
        defer { reopened.close() }
        // Within normal's documented window: the changes committed come back, the group lost is gone whole.
        #expect(try host.describe(a, plugin: HostJournalTests.text) == "kept")
    }
}

/// A step a plugin records on its own (`undo_host.record`) goes through the one path that
/// journals every change: a reopened journal has it, and the undo after it undoes it.
@Suite struct PluginRecordedStepTests {
    typealias UISet = @convention(c) (UnsafePointer<CChar>?, Int64) -> Int32

    /// The probe fixture built into a folder of its own, and its "user interface" setter.
    func buildProbe() throws -> (path: String, uiSet: UISet) {
        let output = TemporaryFolder.kept("probe") + "/probe.so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                             "-I", SourceTree.include, "-I", SourceTree.path("Tests/UndoPluginHostTests/Fixtures"),
                             "-o", output, SourceTree.path("Tests/UndoPluginHostTests/Fixtures/probe.c")]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed")
        let library = try #require(dlopen(output, RTLD_NOW))
        let symbol = try #require(dlsym(library, "probe_ui_set"))
        // probe.c declares it `int32_t probe_ui_set(const char *, int64_t)`.
        return (output, unsafeBitCast(symbol, to: UISet.self))
    }

    @Test func aStepThePluginRecordsIsJournaled() throws {
        let (plugin, uiSet) = try buildProbe()
        let path = HostJournalTests().scratch("recorded.undojournal")
        let doc = UndoContext("doc")
        func host() throws -> (PluginHost, JournalClock) {
            let clock = JournalClock()
            let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil, clock: clock)))
            _ = try host.load(file: plugin)
            return (host, clock)
        }
        do {
            let (writer, clock) = try host()
            let journal = try HostJournal.open(path: path, host: writer, clock: clock)
            #expect(uiSet("doc", 42) == 0)
            #expect(uiSet("doc", 7) == 0)
            try writer.undo()
            #expect(try writer.describe(doc, plugin: "org.undohost.test.probe").hasPrefix("value=42 "))
            journal.close()
            try writer.unload("org.undohost.test.probe")
        }
        let (reader, clock) = try host()
        let journal = try HostJournal.open(path: path, host: reader, clock: clock)
        defer { journal.close() }
        #expect(try reader.describe(doc, plugin: "org.undohost.test.probe").hasPrefix("value=42 "))
        #expect(reader.history.withStack { ($0.count, $0.position) } == (2, 1))
        try reader.redo()
        #expect(try reader.describe(doc, plugin: "org.undohost.test.probe").hasPrefix("value=7 "))
    }
}
