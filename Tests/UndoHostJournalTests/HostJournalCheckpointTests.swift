import Foundation
import Testing
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost
import UndoTestSupport

/// A journal's checkpoint: taken after any change of a session, the journal reopens to the same
/// documents and history (every branch, save, time and position), goes on as the session would
/// have, and keeps only the changes after it. A checkpoint that cannot be taken writes nothing;
/// a damaged one is refused and the file left as it was.
@Suite struct HostJournalCheckpointTests {
    let journal = HostJournalTests()
    let a = UndoContext("a"), b = UndoContext("b")

    /// Every state of the tree, visited in order, and what each document holds there.
    func walk(_ host: PluginHost) throws -> [String] {
        let ids = [0] + host.history.withStack { $0.tree.map(\.id) }
        var seen: [String] = []
        for id in ids {
            try host.goTo(state: id)
            seen.append("\(id): \(try host.describe(a, plugin: HostJournalTests.text)) | \(try host.describe(b, plugin: HostJournalTests.text))")
        }
        return seen
    }

    /// The changes a session makes after reopening (the same in every run).
    func goOn(_ host: PluginHost) throws {
        try host.undo(count: 2)
        try host.perform("text.insert", [.i64(0), .string(">")], in: a)
        try host.redo(count: 1)
        try host.earlier(.states(3))
        try host.later(.saves(1))
    }

    /// A snapshot without the steps' times (those of changes made in another run differ).
    func timeless(_ snapshot: HostJournalTests.Snapshot) -> HostJournalTests.Snapshot {
        var copy = snapshot
        copy.tree = copy.tree.map { var node = $0; node.time = 0; return node }
        return copy
    }

    /// The session with a checkpoint after its `cut`-th change, reopened: the same documents and
    /// history (times included) as when it closed, and the same as the session never
    /// checkpointed after the same further changes.
    @Test(arguments: JournalDurability.allCases)
    func aCheckpointAfterAnyChangeReopensTheSameHistory(durability: JournalDurability) throws {
        let referencePath = journal.scratch("reference")
        let (reference, referenceClock) = journal.makeHost()
        let referenceJournal = try HostJournal.open(path: referencePath, durability: durability,
                                                    host: reference, clock: referenceClock)
        try journal.play(reference)
        referenceJournal.close()
        let counted = try sqliteRows(referencePath, "SELECT count(*) FROM changes;").first?.first
        let total = try #require(counted.flatMap { Int64($0) })
        let expectedWalk = try walk(reference)
        let (other, otherClock) = journal.makeHost()
        let otherJournal = try HostJournal.open(path: referencePath, host: other, clock: otherClock)
        try goOn(other)
        let expectedAfter = timeless(try journal.snapshot(other))
        otherJournal.close()
        for cut in 1...15 {
            let path = journal.scratch("cut-\(cut).undojournal")
            var info: CheckpointInfo?
            let closing: HostJournalTests.Snapshot
            do {
                let (host, clock) = journal.makeHost()
                let opened = try HostJournal.open(path: path, durability: durability, host: host, clock: clock)
                try journal.play(host) { made in
                    guard made == cut else { return }
                    if host.history.withStack({ $0.groupDepth }) > 0 {
                        // Inside the group: refused, nothing written.
                        #expect { try opened.checkpoint() } throws: { "\($0)".contains("a group is open: end it first") }
                    } else {
                        info = try opened.checkpoint()
                    }
                }
                closing = try journal.snapshot(host)
                opened.close()
            }
            guard let taken = info else {
                #expect(cut == 7 || cut == 8, "cut \(cut) is not in the group")
                continue
            }
            #expect(try sqliteRows(path, "SELECT count(*) FROM changes WHERE sequence <= \(taken.sequence);") == [["0"]],
                    "cut \(cut): the changes the checkpoint holds are dropped")
            let (host, clock) = journal.makeHost()
            let reopened = try HostJournal.open(path: path, durability: durability, host: host, clock: clock)
            #expect(reopened.restoredCheckpoint == taken, "cut \(cut)")
            #expect(Int64(reopened.restoredCount) == total - taken.sequence, "cut \(cut): only the later changes are replayed")
            #expect(try journal.snapshot(host) == closing, "cut \(cut)")
            try goOn(host)
            let after = try journal.snapshot(host)
            #expect(timeless(after) == expectedAfter, "cut \(cut): the session goes on as it would have")
            reopened.close()
            // Reopened once more (the changes after reopening journaled): the same again.
            let (again, againClock) = journal.makeHost()
            let third = try HostJournal.open(path: path, durability: durability, host: again, clock: againClock)
            #expect(try journal.snapshot(again) == after, "cut \(cut), third open")
            third.close()
        }
        // Every state of the tree holds what it held.
        let (host, clock) = journal.makeHost()
        let path = journal.scratch("walk.undojournal")
        let opened = try HostJournal.open(path: path, durability: durability, host: host, clock: clock)
        try journal.play(host) { made in if made == 9 { try opened.checkpoint() } }
        opened.close()
        let (walker, walkerClock) = journal.makeHost()
        let reopened = try HostJournal.open(path: path, host: walker, clock: walkerClock)
        #expect(try walk(walker) == expectedWalk)
        reopened.close()
    }

    /// Checkpoints one after another, and one on an empty journal; the documents come back in
    /// the order they were first used, and a context only named (the current one) too.
    @Test func checkpointsFollowOneAnother() throws {
        let path = journal.scratch("repeated.undojournal")
        do {
            let (host, clock) = journal.makeHost()
            let opened = try HostJournal.open(path: path, host: host, clock: clock)
            let empty = try opened.checkpoint()
            #expect(empty.sequence == 0 && empty.steps == 0 && empty.documents.isEmpty)
            try host.perform("text.insert", [.i64(0), .string("b")], in: b)
            try host.setCurrentContext(UndoContext("notes only"))
            let first = try opened.checkpoint()
            try host.perform("text.insert", [.i64(0), .string("a")], in: a)
            let second = try opened.checkpoint()
            #expect(first.sequence == 2 && second.sequence == 3)
            #expect(second.documents.map(\.description) == ["org.undohost.text \"b\"", " \"notes only\"", "org.undohost.text \"a\""])
            #expect(second.documentBytes > 0 && second.steps == 2)
            #expect(second.currentContext == "notes only")
            opened.close()
        }
        #expect(try sqliteRows(path, "SELECT count(*) FROM changes;") == [["0"]])
        let (host, clock) = journal.makeHost()
        let reopened = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(reopened.restoredCount == 0)
        #expect(reopened.restoredCheckpoint?.sequence == 3)
        #expect(try host.describe(a, plugin: HostJournalTests.text) == "a")
        #expect(try host.describe(b, plugin: HostJournalTests.text) == "b")
        #expect(host.history.withStack { $0.currentContext } == UndoContext("notes only"))
        // The current context is "notes only": each document's step is undone in it.
        try host.undo(count: 1, in: a)
        try host.undo(count: 1, in: b)
        #expect(try host.describe(a, plugin: HostJournalTests.text) == "")
        #expect(try host.describe(b, plugin: HostJournalTests.text) == "")
        reopened.close()
    }

    /// With a count limit, the history keeps 4 steps and the journal, checkpointed, keeps no
    /// more than they need: the documents are whole, and the 4 steps still undo.
    @Test func aLimitedHistoryKeepsItsJournalSmall() throws {
        let path = journal.scratch("limited.undojournal")
        var texts: [String] = []
        do {
            let (host, clock) = journal.makeHost()
            let opened = try HostJournal.open(path: path, host: host, clock: clock)
            try host.setLimits(count: 4, memory: nil)
            for round in 0..<60 {
                try host.breakCoalescing()
                try host.perform("text.insert", [.i64(0), .string("\(round % 10)")], in: a)
                if round % 20 == 19 { try opened.checkpoint() }
            }
            texts = try (0...4).map { _ in
                defer { _ = try? host.undo() }
                return try host.describe(a, plugin: HostJournalTests.text)
            }
            try host.redo(count: 4)
            opened.close()
        }
        // 120 changes (each insert after a break); the checkpoint after the last holds them, and
        // the 5 undos (the last found nothing, but ends a coalescing run all the same) and the
        // redo after it stay.
        #expect(try sqliteRows(path, "SELECT count(*) FROM checkpoint_steps;") == [["4"]])
        #expect(try sqliteRows(path, "SELECT kind FROM changes;") == [["undo"], ["undo"], ["undo"], ["undo"], ["undo"], ["redo"]])
        let (host, clock) = journal.makeHost()
        let reopened = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(host.history.withStack { $0.count } == 4)
        let again = try (0...4).map { _ in
            defer { _ = try? host.undo() }
            return try host.describe(a, plugin: HostJournalTests.text)
        }
        #expect(again == texts)
        #expect(texts.first?.count == 60)
        reopened.close()
    }

    /// A plugin without save_document: its changes stay and the journal reopens by replaying
    /// them; nothing was written.
    @Test func aPluginThatCannotSaveItsDocumentsKeepsEveryChange() throws {
        let steps = StepCheckTests()
        let (plugin, setMode) = try steps.buildDrift()
        setMode(0)
        let path = journal.scratch("drift.undojournal")
        do {
            let (host, clock) = try steps.makeHost(plugin)
            let opened = try HostJournal.open(path: path, host: host, clock: clock)
            try steps.play(host)
            let bytes = try journal.fingerprint(path)
            do {
                try opened.checkpoint()
                Issue.record("checkpointed")
            } catch {
                #expect(error.reason == .cannotCheckpoint)
                #expect(error.description.contains("plugin \(StepCheckTests.drift) cannot save its documents"), "\(error)")
            }
            #expect(try journal.fingerprint(path) == bytes, "a refused checkpoint wrote to the journal")
            try host.perform("drift.set", [.i64(3)], in: a)
            opened.close()
        }
        let (host, clock) = try steps.makeHost(plugin)
        let reopened = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(reopened.restoredCheckpoint == nil && reopened.restoredCount == 5)
        #expect(try host.describe(a, plugin: StepCheckTests.drift) == "3")
        reopened.close()
    }

    /// The statebox test plugin (Tests/UndoPluginHostTests/Fixtures/statebox.c) built into a
    /// folder of its own, with its mode setter (`void statebox_set_mode(int)`).
    func buildStatebox() throws -> (path: String, setMode: @convention(c) (Int32) -> Void) {
        let fixtures = SourceTree.path("Tests/UndoPluginHostTests/Fixtures")
        let output = TemporaryFolder.kept("statebox") + "/statebox.so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-shared", "-fPIC",
                             "-I", SourceTree.include, "-I", fixtures, "-o", output, fixtures + "/statebox.c"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed")
        // The same handle the host gets (dlopen of one file returns one library); never closed.
        let library = try #require(dlopen(output, RTLD_NOW))
        let symbol = try #require(dlsym(library, "statebox_set_mode"))
        // statebox.c declares it `void statebox_set_mode(int)`; int is Int32 here.
        return (output, unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Void).self))
    }

    /// A plugin that refuses a document's bytes on reopening, after another plugin's document
    /// was loaded: the open is refused naming the checkpoint, the file is left as it was, and
    /// the host too (the document loaded before closed again, no step); once the plugin loads
    /// its bytes, the journal opens.
    @Test func aCheckpointAPluginRefusesLeavesTheHostAsItWas() throws {
        let (plugin, setMode) = try buildStatebox()
        setMode(0)
        let path = journal.scratch("statebox.undojournal")
        func makeHost() throws -> (PluginHost, JournalClock) { try journal.makeHost(loading: plugin) }
        do {
            let (host, clock) = try makeHost()
            let opened = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string("text")], in: a)
            try host.perform("statebox.append", [.string("one")], in: a)
            try host.perform("statebox.append", [.string("two")], in: b)
            try opened.checkpoint()
            opened.close()
        }
        let bytes = try journal.fingerprint(path)
        setMode(4)  // load keeps a document, then fails
        let (host, clock) = try makeHost()
        do {
            _ = try HostJournal.open(path: path, host: host, clock: clock)
            Issue.record("opened")
        } catch {
            #expect(error.reason == .replay)
            #expect(error.description.contains("the checkpoint (after change 3) cannot be restored"), "\(error)")
        }
        #expect(try journal.fingerprint(path) == bytes, "a failed open changed the journal")
        #expect(host.history.withStack { $0.treeCount } == 0)
        #expect(try host.describe(a, plugin: HostJournalTests.text) == "", "the text document loaded first is closed again")
        #expect(try host.describe(a, plugin: "org.example.statebox") == "")
        #expect(try host.describe(b, plugin: "org.example.statebox") == "")
        #expect(host.documentsHoldingState().isEmpty, "\(host.documentsHoldingState())")
        setMode(0)
        let reopened = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(try host.describe(a, plugin: HostJournalTests.text) == "text")
        #expect(try host.describe(a, plugin: "org.example.statebox") == "one")
        #expect(try host.describe(b, plugin: "org.example.statebox") == "two")
        try host.undo(count: 2)
        #expect(try host.describe(a, plugin: "org.example.statebox") == "")
        reopened.close()
    }

    /// A plugin whose load refuses what its save wrote (statebox.c in mode 7): the checkpoint
    /// is refused naming the plugin and the document before any change is dropped, the file is
    /// left as it was, the plugin keeps no scratch document, and the journal reopens by
    /// replaying every change; once the bytes load back, the checkpoint is taken.
    @Test func aCheckpointWhoseBytesDoNotLoadBackIsRefused() throws {
        let (plugin, setMode) = try buildStatebox()
        setMode(0)
        defer { setMode(0) }
        let path = journal.scratch("unloadable.undojournal")
        func makeHost() throws -> (PluginHost, JournalClock) { try journal.makeHost(loading: plugin) }
        do {
            let (host, clock) = try makeHost()
            let opened = try HostJournal.open(path: path, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string("text")], in: a)
            try host.perform("statebox.append", [.string("one")], in: b)
            let bytes = try journal.fingerprint(path)
            let holding = host.documentsHoldingState()
            setMode(7)
            do {
                try opened.checkpoint()
                Issue.record("checkpointed bytes that do not load back")
            } catch {
                #expect(error.reason == .pluginFailed)
                #expect(error.description.contains("plugin org.example.statebox cannot load the bytes it saved for document \"b\""),
                        "\(error)")
                #expect(error.description.contains("unknown statebox format version"), "\(error)")
            }
            #expect(try journal.fingerprint(path) == bytes, "a refused checkpoint wrote to the journal")
            #expect(host.documentsHoldingState() == holding, "the scratch document is left: \(host.documentsHoldingState())")
            #expect(opened.restoredCheckpoint == nil)
            setMode(0)
            opened.close()
        }
        do {
            let (host, clock) = try makeHost()
            let reopened = try HostJournal.open(path: path, host: host, clock: clock)
            #expect(reopened.restoredCheckpoint == nil && reopened.restoredCount == 2)
            #expect(try host.describe(b, plugin: "org.example.statebox") == "one")
            let info = try reopened.checkpoint()
            #expect(info.sequence == 2)
            reopened.close()
        }
        let (host, clock) = try makeHost()
        let reopened = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(reopened.restoredCheckpoint?.sequence == 2 && reopened.restoredCount == 0)
        #expect(try host.describe(a, plugin: HostJournalTests.text) == "text")
        #expect(try host.describe(b, plugin: "org.example.statebox") == "one")
        reopened.close()
    }

    /// Refused, writing nothing: a group open; a step that is not a plugin's.
    @Test func whatCannotBeCheckpointedIsNamed() throws {
        let (host, clock) = journal.makeHost()
        let path = journal.scratch("refused.undojournal")
        let opened = try HostJournal.open(path: path, host: host, clock: clock)
        try host.beginGroup(named: "Open", context: a)
        try host.perform("text.insert", [.i64(0), .string("x")], in: a)
        #expect { try opened.checkpoint() } throws: { "\($0)".contains("a group is open") }
        try host.endGroup()
        final class Flag { var on = false }
        struct Toggle: UndoCommand {
            let flag: Flag
            var name: String? { "Toggle" }
            func perform(_ changes: inout UndoChanges) throws { flag.on.toggle() }
            func undo(_ changes: inout UndoChanges) throws { flag.on.toggle() }
        }
        try host.history.perform(Toggle(flag: Flag()))
        #expect { try opened.checkpoint() } throws: { "\($0)".contains("the step \"Toggle\"") }
        opened.close()
        #expect(try sqliteRows(path, "SELECT count(*) FROM checkpoint;") == [["0"]])
    }

    /// A damaged checkpoint is refused naming it, and the file is left as it was.
    @Test(arguments: [
        ("UPDATE checkpoint_steps SET arguments = '0 \"q\"' WHERE ordinal = 1;", "a row of checkpoint_steps fails its checksum"),
        ("DELETE FROM checkpoint_steps WHERE ordinal = (SELECT max(ordinal) FROM checkpoint_steps);", "rows are missing or left over"),
        ("UPDATE checkpoint SET position = 99;", "its record fails its checksum"),
        ("UPDATE checkpoint_documents SET state = x'00';", "a row of checkpoint_documents fails its checksum"),
    ])
    func aDamagedCheckpointIsRefused(damage: String, words: String) throws {
        let path = journal.scratch("damaged.undojournal")
        do {
            let (host, clock) = journal.makeHost()
            let opened = try HostJournal.open(path: path, host: host, clock: clock)
            try journal.play(host) { made in if made == 12 { try opened.checkpoint() } }
            opened.close()
        }
        try sqliteExecute(path, damage)
        let (host, _) = journal.makeHost()
        try journal.expectRefused(path, host: host, saying: words, reason: .damaged)
    }

    /// Automatic checkpoints (what undo-host does after each command): one is taken once
    /// `interval` changes and as many as the steps the last one wrote have come, so the steps
    /// all checkpoints write stay within twice the changes however long the history grows:
    /// counted, not timed.
    @Test func automaticCheckpointsWriteAtMostTwiceTheChanges() throws {
        let (host, clock) = journal.makeHost()
        // Normal durability: 6,000 synced commits would only make the test slow.
        let opened = try HostJournal.open(path: journal.scratch("automatic.undojournal"), durability: .normal,
                                          host: host, clock: clock)
        defer { opened.close() }
        var taken: [CheckpointInfo] = []
        var changes = 0
        for round in 0..<3000 {
            try host.perform("text.insert", [.i64(0), .string("\(round % 10)")], in: a)
            try host.breakCoalescing()
            changes += 2
            if round == 100 { try host.beginGroup(named: "Open", context: a) }
            if round == 105 { try host.endGroup(); changes += 2 }
            if let info = try opened.checkpointIfDue(every: 50) {
                #expect(host.history.withStack { $0.groupDepth } == 0)
                taken.append(info)
            }
        }
        let written = taken.reduce(0) { $0 + $1.steps }
        #expect(taken.count >= 8 && taken.count <= 12, "\(taken.map(\.steps))")
        #expect(written <= 2 * changes, "\(written) steps written for \(changes) changes")
        // Each came when due: 50 changes after the open, then as many as the last one wrote.
        #expect(taken.first?.sequence == 50)
        for (earlier, later) in zip(taken, taken.dropFirst()) {
            #expect(later.sequence - earlier.sequence >= Int64(max(50, earlier.steps)))
        }
        #expect(try opened.checkpointIfDue(every: 0) == nil)
    }

    /// The size of a closed journal's file and its free pages.
    func fileSize(_ path: String) throws -> (bytes: Int, freePages: Int) {
        let bytes = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).intValue
        let free = try #require(Int(try sqliteRows(path, "PRAGMA freelist_count;").first?.first ?? ""))
        return (bytes, free)
    }

    /// A checkpoint gives the pages of the changes it drops back: the file shrinks to about
    /// what it holds, with no free page left (auto_vacuum=INCREMENTAL); a journal made without
    /// auto_vacuum (the format-4 fixture) is switched at its first checkpoint.
    @Test func aCheckpointGivesFreedPagesBack() throws {
        let path = journal.scratch("vacuum.undojournal")
        let chunk = String(repeating: "x", count: 2000)
        do {
            let (host, clock) = journal.makeHost()
            let opened = try HostJournal.open(path: path, durability: .normal, host: host, clock: clock)
            for _ in 0..<200 {
                try host.perform("text.insert", [.i64(0), .string(chunk)], in: a)
                try host.perform("text.delete", [.i64(0), .i64(2000)], in: a)
            }
            try host.setLimits(count: 2, memory: nil)
            opened.close()
        }
        let before = try fileSize(path)
        #expect(try sqliteRows(path, "PRAGMA auto_vacuum;") == [["2"]])
        do {
            let (host, clock) = journal.makeHost()
            let opened = try HostJournal.open(path: path, host: host, clock: clock)
            let info = try opened.checkpoint()
            #expect(info.sequence == 401 && info.steps == 2)
            opened.close()
        }
        let after = try fileSize(path)
        #expect(after.freePages == 0, "\(after.freePages) pages free after a checkpoint")
        // Before: 400 changes of 2,000 bytes; after: the checkpoint of two steps.
        #expect(before.bytes > 800_000 && after.bytes < 100_000, "\(before.bytes) bytes before, \(after.bytes) after")

        let old = try journal.fixtureCopy("format-4")
        #expect(try sqliteRows(old, "PRAGMA auto_vacuum;") == [["0"]])
        do {
            let (host, clock) = journal.makeHost()
            let opened = try HostJournal.open(path: old, host: host, clock: clock)
            try opened.checkpoint()
            opened.close()
        }
        #expect(try sqliteRows(old, "PRAGMA auto_vacuum;") == [["2"]])
        #expect(try fileSize(old).freePages == 0)
        let (host, clock) = journal.makeHost()
        let reopened = try HostJournal.open(path: old, host: host, clock: clock)
        #expect(reopened.restoredCount == 0)
        journal.expectThePlayedSession(try journal.snapshot(host))
        reopened.close()
    }

    /// Automatic checkpoints weigh the documents' bytes too: with a large document and many
    /// small changes, they write about as many bytes as the changes, not the document again
    /// every `interval` changes: counted, not timed.
    @Test func automaticCheckpointsOfALargeDocumentWriteAboutTheChangesBytes() throws {
        let (host, clock) = journal.makeHost()
        let opened = try HostJournal.open(path: journal.scratch("large.undojournal"), durability: .normal,
                                          host: host, clock: clock)
        defer { opened.close() }
        // 200,000 characters: 1,000,012 bytes saved.
        try host.perform("text.insert", [.i64(0), .string(String(repeating: "y", count: 200_000))], in: a)
        try host.breakCoalescing()
        var taken: [CheckpointInfo] = []
        for round in 0..<3000 {
            try host.perform("text.insert", [.i64(0), .string("\(round % 10)")], in: b)
            try host.breakCoalescing()
            if let info = try opened.checkpointIfDue(every: 50) { taken.append(info) }
        }
        let written = taken.reduce(0) { $0 + $1.documentBytes }
        // 6,002 changes of a few hundred bytes at most each (the first 200,000 bytes).
        let changeBytes = 200_000 + 6_000 * 300
        #expect(taken.first?.sequence == 50)
        #expect(written <= taken[0].documentBytes + changeBytes + taken.count * HostJournal.checkpointByteAllowance,
                "\(taken.count) checkpoints wrote \(written) bytes of documents")
        #expect(taken.count <= 3, "\(taken.count) checkpoints")
    }

    /// The bytes of the changes replayed on reopening count towards the next automatic
    /// checkpoint, as they did before the journal closed.
    @Test func theChangesReplayedCountTowardsTheNextCheckpointsBytes() throws {
        let path = journal.scratch("replayed-bytes.undojournal")
        do {
            let (host, clock) = journal.makeHost()
            let opened = try HostJournal.open(path: path, durability: .normal, host: host, clock: clock)
            try host.perform("text.insert", [.i64(0), .string(String(repeating: "y", count: 200_000))], in: a)
            try opened.checkpoint()
            for _ in 0..<3 {
                try host.breakCoalescing()
                try host.perform("text.insert", [.i64(0), .string(String(repeating: "z", count: 400_000))], in: b)
            }
            opened.close()
        }
        let (host, clock) = journal.makeHost()
        let reopened = try HostJournal.open(path: path, host: host, clock: clock)
        defer { reopened.close() }
        #expect(reopened.restoredCount == 6 && reopened.restoredCheckpoint?.documentBytes == 1_000_012)
        let info = try reopened.checkpointIfDue(every: 1)
        #expect(info?.sequence == 7, "1.2 MB of changes replayed after a checkpoint of 1 MB of documents: one is due")
    }

    /// Reopening from a checkpoint runs no plugin step: the plugins are asked to load each
    /// document's bytes once, and only the changes after the checkpoint are performed.
    @Test func reopeningFromACheckpointReplaysOnlyTheChangesAfterIt() throws {
        let path = journal.scratch("counted.undojournal")
        do {
            let (host, clock) = journal.makeHost()
            let opened = try HostJournal.open(path: path, host: host, clock: clock)
            for round in 0..<500 {
                try host.breakCoalescing()
                try host.perform("text.insert", [.i64(0), .string("\(round % 10)")], in: round % 2 == 0 ? a : b)
            }
            try opened.checkpoint()
            try host.perform("text.insert", [.i64(0), .string("!")], in: a)
            opened.close()
        }
        let (host, clock) = journal.makeHost()
        var replayed: [HostChange] = []
        let reopened = try HostJournal.open(path: path, host: host, clock: clock) { change, _ in replayed.append(change) }
        #expect(replayed.count == 1)
        #expect(reopened.restoredCheckpoint?.steps == 500)
        #expect(host.history.withStack { $0.count } == 501)
        #expect(try host.describe(a, plugin: HostJournalTests.text).count == 251)
        reopened.close()
    }
}

/// Runs SQL on a journal file (the sqlite3 program), to damage it in a test.
func sqliteExecute(_ path: String, _ sql: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", path, sql]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "sqlite3 failed: \(sql)")
}
