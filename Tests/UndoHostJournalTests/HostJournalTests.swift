import Foundation
import Testing
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost
import UndoTestSupport

/// The journal of a plugin host, from Swift: what a host did comes back in a new host (the
/// documents, the tree with its times, saves and position); a journal that needs a plugin that
/// is missing or of another major version is refused, naming it, and left unchanged.
@Suite struct HostJournalTests {
    static let text = "org.undohost.text"

    func scratch(_ name: String) -> String {
        TemporaryFolder.kept("host-journal") + "/" + name
    }

    /// A host as a program makes one to journal: a JournalClock, the bundled plugins loaded.
    func makeHost(plugins: Bool = true) -> (PluginHost, JournalClock) {
        let clock = JournalClock()
        let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil, clock: clock)))
        if plugins { _ = host.loadBundledPlugins() }
        return (host, clock)
    }

    /// A host with the bundled plugins and the plugin at `path` loaded.
    func makeHost(loading path: String) throws -> (PluginHost, JournalClock) {
        let (host, clock) = makeHost()
        _ = try host.load(file: path)
        return (host, clock)
    }

    struct Snapshot: Equatable {
        var documents: [String]
        var tree: [UndoTreeNode]
        var current: UInt32
        var dirty: [Bool]
    }

    func snapshot(_ host: PluginHost) throws -> Snapshot {
        let documents = ["a", "b"]
        return Snapshot(documents: try documents.map { try host.describe(UndoContext($0), plugin: Self.text) },
                        tree: host.history.withStack { $0.tree }, current: host.history.withStack { $0.currentState },
                        dirty: host.history.withStack { stack in documents.map { stack.isDirty(UndoContext($0)) } })
    }

    /// Branches, a save, a group, a revert, a move back: every kind of change the host journals.
    /// `between` is called after each of its 15 changes (besides the breaks and the group begin), with their count.
    func play(_ host: PluginHost, groupDescription: String? = nil, between: (Int) throws -> Void = { _ in }) throws {
        let a = UndoContext("a"), b = UndoContext("b")
        var made = 0
        func then(_ change: () throws -> Void) throws {
            try change()
            made += 1
            try between(made)
        }
        func type(_ context: UndoContext, _ position: Int, _ text: String) throws {
            try host.breakCoalescing()
            try then { try host.perform("text.insert", [.i64(Int64(position)), .string(text)], in: context) }
        }
        try type(a, 0, "x")
        try type(a, 1, "y")
        try type(a, 2, "z")
        try then { try host.undo(count: 2) }
        try type(a, 1, "w")
        try then { try host.markSaved(a) }
        try host.beginGroup(named: "Both", description: groupDescription, context: b)
        try type(b, 0, "1")
        try type(b, 1, "2")
        try then { try host.endGroup() }
        try type(a, 2, "!")
        try then { try host.revertToSaved(a) }
        try type(b, 2, "3")
        try then { try host.goTo(state: 3) }
        try then { try host.setCurrentContext(b) }
        try then { try host.undo(count: 1, in: a) }
    }

    @Test("An undo that finds nothing to undo is journaled: it ends the coalescing run, and the reopened history keeps two steps")
    func anEmptyUndoIsJournaled() throws {
        let path = scratch("empty-undo.undojournal")
        let a = UndoContext("a")
        let steps: Int
        do {
            let (host, clock) = makeHost()
            let journal = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string("x")], in: a)
            try host.setCurrentContext(UndoContext("b"))
            #expect(try host.undo() == nil)  // nothing in b: no step moves, but typing starts anew
            try host.perform("text.insert", [.i64(1), .string("y")], in: a)
            steps = host.history.withStack { $0.count }
            journal.close()
        }
        #expect(steps == 2)
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: path, host: host, clock: clock)
        defer { journal.close() }
        #expect(host.history.withStack { $0.count } == steps)
        #expect(try host.describe(a, plugin: Self.text) == "xy")
    }

    @Test(arguments: JournalDurability.allCases)
    func aReopenedJournalIsTheHistoryAsItWas(durability: JournalDurability) throws {
        let path = scratch("swift.undojournal")
        let before: Snapshot
        do {
            let (host, clock) = makeHost()
            let journal = try HostJournal.open(path: path, durability: durability, host: host, clock: clock)
            #expect(journal.restoredCount == 0)
            try play(host)
            before = try snapshot(host)
            journal.close()
        }
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: path, durability: durability, host: host, clock: clock)
        #expect(journal.restoredCount > 15)
        let after = try snapshot(host)
        #expect(after == before)
        #expect(after.documents == ["xy", ""])
        #expect(host.history.withStack { $0.currentContext } == UndoContext("b"))
        journal.close()
    }

    @Test func theHistoryMustBeEmptyAndHaveNoJournal() throws {
        let (host, clock) = makeHost()
        try host.perform("text.insert", [.i64(0), .string("x")], in: UndoContext("a"))
        #expect(throws: JournalError.self) { try HostJournal.open(path: scratch("j"), host: host, clock: clock) }
        let (other, otherClock) = makeHost()
        let journal = try HostJournal.open(path: scratch("j"), host: other, clock: otherClock)
        #expect(throws: JournalError.self) { try HostJournal.open(path: scratch("k"), host: other, clock: otherClock) }
        journal.close()
    }

    /// One writer: a second opening of an open journal, in this process, is refused as busy
    /// and changes nothing; once the first closes, it opens.
    @Test func aJournalHasOneWriter() throws {
        let path = scratch("one-writer.undojournal")
        let (host, clock) = makeHost()
        let first = try HostJournal.open(path: path, host: host, clock: clock)
        try host.perform("text.insert", [.i64(0), .string("x")], in: UndoContext("a"))
        let (other, otherClock) = makeHost()
        #expect { _ = try HostJournal.open(path: path, host: other, clock: otherClock) } throws: {
            "\($0)".contains("it is already open (by another journal in this process)")
        }
        #expect(other.history.withStack { $0.treeCount } == 0)
        first.close()
        let second = try HostJournal.open(path: path, host: other, clock: otherClock)
        #expect(second.restoredCount == 1)
        second.close()
    }

    /// The bytes and the modification time of a file (and of its -wal file).
    func fingerprint(_ path: String) throws -> [Data] {
        try [path, path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }.map {
            try Data(contentsOf: URL(fileURLWithPath: $0))
        }
    }

    func expectRefused(_ path: String, host: PluginHost, saying words: String, reason: JournalError.Reason) throws {
        let bytes = try fingerprint(path)
        do {
            _ = try HostJournal.open(path: path, host: host)
            Issue.record("opened")
        } catch {
            #expect(error.description.contains(words), "\(error)")
            #expect(error.reason == reason)
        }
        #expect(try fingerprint(path) == bytes, "a failed open changed the journal")
        #expect(host.history.withStack { $0.treeCount } == 0, "a failed open changed the history")
    }

    @Test func aMissingPluginIsNamedWithItsVersion() throws {
        let path = scratch("missing.undojournal")
        let (host, clock) = makeHost()
        let version = try #require(host.plugins.first { $0.id == Self.text }?.version)
        let journal = try HostJournal.open(path: path, host: host, clock: clock)
        try host.perform("text.insert", [.i64(0), .string("x")], in: UndoContext("a"))
        journal.close()
        let (bare, _) = makeHost(plugins: false)
        try expectRefused(path, host: bare,
                          saying: "journal \(path): it needs plugin \(Self.text) \(HostChange.major(version)).x (written with \(version)); it is not loaded",
                          reason: .pluginMissing)
    }

    @Test func anotherMajorVersionIsNamed() throws {
        let path = scratch("major.undojournal")
        let (writer, clock) = makeHost()
        let loaded = try #require(writer.plugins.first { $0.id == Self.text }?.version)
        let journal = try HostJournal.open(path: path, host: writer, clock: clock)
        // As a text plugin of major version 9 would have recorded it.
        try journal.record(.perform(.call(plugin: Self.text, pluginVersion: "9.2.0", action: Self.text + "/insert",
                                          context: "a", arguments: "0 \"x\"")))
        journal.close()
        let (host, _) = makeHost()
        try expectRefused(path, host: host,
                          saying: "it needs plugin \(Self.text) 9.x (written with 9.2.0); loaded: \(loaded)",
                          reason: .pluginVersion)
    }

    @Test func aDamagedChangeIsRefusedNamingIt() throws {
        let path = scratch("damaged.undojournal")
        let (writer, clock) = makeHost()
        let journal = try HostJournal.open(path: path, host: writer, clock: clock)
        try writer.perform("text.insert", [.i64(0), .string("abcdefgh")], in: UndoContext("a"))
        journal.close()
        // Flip one byte inside the text of the change (the file's own checks cannot see it).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let needle = Data("abcdefgh".utf8)
        let range = try #require(bytes.range(of: needle))
        bytes[range.lowerBound] = UInt8(ascii: "X")
        try bytes.write(to: URL(fileURLWithPath: path))
        let (host, _) = makeHost()
        try expectRefused(path, host: host, saying: "change 1 fails its checksum", reason: .damaged)
    }

    /// A copy of a committed journal fixture (`Fixtures/NAME.undojournal`), to open and change.
    func fixtureCopy(_ name: String) throws -> String {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name).undojournal")
        let copy = scratch("\(name).undojournal")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: copy)
        return copy
    }

    /// What `play` leaves, as every fixture written by it reopens.
    func expectThePlayedSession(_ restored: Snapshot) {
        #expect(restored.documents == ["xy", ""])
        #expect(restored.current == 2)
        #expect(restored.tree.count == 8)
        #expect(restored.dirty == [true, false])
    }

    /// The group "Both" came back with its description (moves the host to it).
    func expectTheGroupDescription(_ host: PluginHost, _ restored: Snapshot) throws {
        let both = try #require(restored.tree.first { $0.name == "Both" })
        try host.goTo(state: both.id)
        #expect(host.history.withStack { $0.steps.first { $0.name == "Both" }?.historyDescription } == Self.groupDescription)
    }

    /// A journal of format 2 written by this version, committed: every later version reads it.
    @Test func theCommittedVersionTwoJournalIsRead() throws {
        let copy = try fixtureCopy("format-2")
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: copy, host: host, clock: clock)
        defer { journal.close() }
        #expect(journal.restoredCount == 24)
        let restored = try snapshot(host)
        expectThePlayedSession(restored)
        #expect(restored.tree.first?.time == 1_795_639_252_186_387_359)
    }

    /// The session the format-3 fixture holds: `play` with a group description.
    static let groupDescription = "Type 1 and 2 into b"

    /// Writes `Fixtures/format-3.undojournal` again (only when asked: the committed file is
    /// what later versions must read): `UNDOHOST_WRITE_FIXTURE=1 swift test --filter writeTheVersionThreeFixture`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["UNDOHOST_WRITE_FIXTURE"] != nil))
    func writeTheVersionThreeFixture() throws {
        try writeFixture("format-3") { _, _ in }
    }

    /// Writes `Fixtures/NAME.undojournal` anew: `play` with the group description, `between`
    /// called after each of its changes. Closed, the WAL is empty: the one file is the journal
    /// (its -wal and -shm are not committed).
    func writeFixture(_ name: String, between: (Int, HostJournal) throws -> Void) throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name).undojournal")
        try? FileManager.default.removeItem(at: fixture)
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: fixture.path, host: host, clock: clock)
        try play(host, groupDescription: Self.groupDescription) { made in try between(made, journal) }
        journal.close()
    }

    /// A journal of format 3 written by this version, committed: every later version reads it,
    /// with each perform's step (checked on replay) and the group's description.
    @Test func theCommittedVersionThreeJournalIsRead() throws {
        let copy = try fixtureCopy("format-3")
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: copy, host: host, clock: clock)
        defer { journal.close() }
        #expect(journal.restoredCount == 24)
        let restored = try snapshot(host)
        expectThePlayedSession(restored)
        // The group came back with its description.
        try expectTheGroupDescription(host, restored)
    }

    /// Writes `Fixtures/format-4.undojournal` again (only when asked): `play` with a group
    /// description and a checkpoint after its 9th change (the group closed), so the file holds a
    /// checkpoint and the changes after it.
    /// `UNDOHOST_WRITE_FIXTURE=1 swift test --filter writeTheVersionFourFixture`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["UNDOHOST_WRITE_FIXTURE"] != nil))
    func writeTheVersionFourFixture() throws {
        try writeFixture("format-4") { made, journal in if made == 9 { try journal.checkpoint() } }
    }

    /// A journal of format 4 written by this version, with a checkpoint, committed: every later
    /// version reads it (the checkpoint, then the changes after it).
    @Test func theCommittedVersionFourJournalIsRead() throws {
        let copy = try fixtureCopy("format-4")
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: copy, host: host, clock: clock)
        defer { journal.close() }
        let checkpoint = try #require(journal.restoredCheckpoint)
        #expect(checkpoint.sequence == 16 && checkpoint.steps == 5)
        #expect(checkpoint.documents == [PluginDocument(plugin: Self.text, context: UndoContext("a")),
                                         PluginDocument(plugin: Self.text, context: UndoContext("b"))])
        #expect(journal.restoredCount == 8)
        let restored = try snapshot(host)
        expectThePlayedSession(restored)
        try expectTheGroupDescription(host, restored)
        #expect(try host.describe(UndoContext("b"), plugin: Self.text) == "12")
    }

    /// A journal of format 3 becomes format 5 once replayed, and then takes checkpoints.
    @Test func aVersionThreeJournalTakesCheckpoints() throws {
        let copy = try fixtureCopy("format-3")
        let before: Snapshot
        do {
            let (host, clock) = makeHost()
            let journal = try HostJournal.open(path: copy, host: host, clock: clock)
            #expect(try journal.checkpoint().sequence == 24)
            before = try snapshot(host)
            journal.close()
        }
        #expect(try sqliteRows(copy, "PRAGMA user_version;") == [["5"]])
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: copy, host: host, clock: clock)
        #expect(journal.restoredCount == 0 && journal.restoredCheckpoint?.sequence == 24)
        #expect(try snapshot(host) == before)
        journal.close()
    }

    /// A journal of format 2 is brought to format 5 once replayed (the step columns and the
    /// checkpoint tables), and its later changes keep their steps; it still reopens.
    @Test func aVersionTwoJournalGainsTheStepColumns() throws {
        let copy = try fixtureCopy("format-2")
        do {
            let (host, clock) = makeHost()
            let journal = try HostJournal.open(path: copy, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string("z")], in: UndoContext("b"))
            journal.close()
        }
        #expect(try sqliteRows(copy, "PRAGMA user_version;") == [["5"]])
        #expect(try sqliteRows(copy, "SELECT step_name, inverse_arguments FROM changes WHERE sequence = 25;").count == 1)
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: copy, host: host, clock: clock)
        #expect(journal.restoredCount == 25)
        #expect(try host.describe(UndoContext("b"), plugin: Self.text) == "z")
        journal.close()
    }
}

/// A journal keeps each perform's step as it came out (name, description, coalescing key,
/// inverse arguments), and a replay must make the same step again: a plugin that now makes
/// another one is refused, naming the change, the plugin and what differs, and the file is left
/// unchanged.
@Suite struct StepCheckTests {
    static let drift = "org.undohost.test.drift"

    /// The drift fixture built into a folder of its own (its global mode is then this test's).
    func buildDrift() throws -> (path: String, setMode: @convention(c) (Int32) -> Void) {
        let output = TemporaryFolder.kept("drift") + "/drift.so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-shared", "-fPIC",
                             "-I", SourceTree.include, "-o", output,
                             SourceTree.path("Tests/UndoHostJournalTests/Fixtures/drift.c")]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed")
        // The same handle the host gets (dlopen of one file returns one library); never closed.
        let library = try #require(dlopen(output, RTLD_NOW))
        let symbol = try #require(dlsym(library, "drift_set_mode"))
        // drift.c declares it `void drift_set_mode(int32_t)`.
        return (output, unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Void).self))
    }

    func makeHost(_ plugin: String) throws -> (PluginHost, JournalClock) {
        let clock = JournalClock()
        let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil, clock: clock)))
        _ = try host.load(file: plugin)
        return (host, clock)
    }

    func play(_ host: PluginHost) throws {
        for value in [5, 7, 9] {
            try host.perform("drift.set", [.i64(Int64(value))], in: UndoContext("a"))
        }
        try host.undo()
    }

    func fingerprint(_ path: String) throws -> [Data] {
        try [path, path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }.map {
            try Data(contentsOf: URL(fileURLWithPath: $0))
        }
    }

    @Test func theStepIsKeptAndTheSameStepRestores() throws {
        let (plugin, setMode) = try buildDrift()
        setMode(0)
        let path = TemporaryFolder.kept("steps") + "/steps.undojournal"
        do {
            let (host, clock) = try makeHost(plugin)
            let journal = try HostJournal.open(path: path, host: host, clock: clock)
            try play(host)
            journal.close()
        }
        // What each row holds, as typed columns.
        let rows = try sqliteRows(path, "SELECT step_name, description, coalescing_key, inverse_arguments FROM changes WHERE kind = 'perform' ORDER BY sequence;")
        #expect(rows == [["Set Value", "Set to 5", "\(Self.drift)/set", "0"],
                         ["Set Value", "Set to 7", "\(Self.drift)/set", "5"],
                         ["Set Value", "Set to 9", "\(Self.drift)/set", "7"]])
        let (host, clock) = try makeHost(plugin)
        let journal = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(journal.restoredCount == 4)
        #expect(try host.describe(UndoContext("a"), plugin: Self.drift) == "7")
        #expect(host.history.withStack { $0.count } == 3)
        journal.close()
    }

    @Test(arguments: [(1, "inverse arguments \"0\" → \"1000\""),
                      (2, "coalescing key \"org.undohost.test.drift/set\" → \"org.undohost.test.drift/set-again\"")])
    func aStepThatComesOutOtherwiseIsRefused(mode: Int32, difference: String) throws {
        let (plugin, setMode) = try buildDrift()
        setMode(0)
        let path = TemporaryFolder.kept("drift") + "/drift.undojournal"
        do {
            let (host, clock) = try makeHost(plugin)
            let journal = try HostJournal.open(path: path, host: host, clock: clock)
            try play(host)
            journal.close()
        }
        setMode(mode)
        let bytes = try fingerprint(path)
        let (host, clock) = try makeHost(plugin)
        do {
            _ = try HostJournal.open(path: path, host: host, clock: clock)
            Issue.record("opened")
        } catch {
            // The first change, the first perform, already differs.
            #expect(error.description == "journal \(path): change 1 (perform \(Self.drift)/set): plugin \(Self.drift) 1.0 "
                    + "(written with 1.0) now makes another step: \(difference); the plugin is not deterministic, "
                    + "or changed behaviour within its major version", "\(error)")
            #expect(error.reason == .replay)
        }
        #expect(try fingerprint(path) == bytes, "a failed open changed the journal")
        // And the host is as it was: what the replay made before the refusal is taken out.
        #expect(host.history.withStack { $0.treeCount } == 0)
        #expect(host.documentsHoldingState().isEmpty)
    }
}

extension StepCheckTests {
    /// A plugin build whose merge changed: the journal keeps what became of each step (a step
    /// of its own, merged), and a replay in which it comes out otherwise is refused, so a later
    /// redo never gives another document.
    @Test(arguments: [(Int32(3), Int32(0), "merge: merged into the step before → a step of its own"),
                      (Int32(0), Int32(3), "merge: a step of its own → merged into the step before")])
    func aMergeThatComesOutOtherwiseIsRefused(written: Int32, reopened: Int32, difference: String) throws {
        let (plugin, setMode) = try buildDrift()
        setMode(written)
        let path = TemporaryFolder.kept("drift-merge") + "/merge.undojournal"
        do {
            let (host, clock) = try makeHost(plugin)
            let journal = try HostJournal.open(path: path, host: host, clock: clock)
            try play(host)
            #expect(host.history.withStack { $0.count } == (written == 3 ? 1 : 3))
            journal.close()
        }
        // Kept beside the step: 1 a step of its own, 2 merged.
        let rows = try sqliteRows(path, "SELECT first FROM changes WHERE kind = 'perform' ORDER BY sequence;")
        #expect(rows == (written == 3 ? [["1"], ["2"], ["2"]] : [["1"], ["1"], ["1"]]))
        // The same build reopens.
        do {
            let (host, clock) = try makeHost(plugin)
            let journal = try HostJournal.open(path: path, host: host, clock: clock)
            #expect(host.history.withStack { $0.count } == (written == 3 ? 1 : 3))
            journal.close()
        }
        setMode(reopened)
        defer { setMode(0) }
        let bytes = try fingerprint(path)
        let (host, clock) = try makeHost(plugin)
        do {
            _ = try HostJournal.open(path: path, host: host, clock: clock)
            Issue.record("opened")
        } catch {
            #expect(error.description == "journal \(path): change 2 (perform \(Self.drift)/set): plugin \(Self.drift) 1.0 "
                    + "(written with 1.0) now makes another step: \(difference); the plugin is not deterministic, "
                    + "or changed behaviour within its major version", "\(error)")
            #expect(error.reason == .replay)
        }
        #expect(try fingerprint(path) == bytes, "a failed open changed the journal")
    }
}

/// The rows of a query, every column as text.
func sqliteRows(_ path: String, _ query: String) throws -> [[String]] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", "-readonly", "-separator", "\u{1F}", path, query]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map {
        $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
    }
}
