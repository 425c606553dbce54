import Foundation
import Testing
import UndoCore
@testable import UndoHostJournal
import UndoJournal
import UndoPluginHost
import UndoTestSupport

/// Crafted journals: rows a forger wrote with valid checksums (computed the way the journal's
/// own code does), whose values a caller could not have given. Each is refused naming the
/// change or table and the value, reason `.damaged`, the file unchanged; none traps or hangs.
@Suite struct HostJournalCraftedTests {
    static let text = "org.undohost.text"
    /// The sequence of the last change ``journal(_:checkpoint:recording:)`` makes before those it records.
    static let last = 9

    func scratch(_ name: String) -> String {
        TemporaryFolder.kept("host-journal-crafted") + "/" + name
    }

    func makeHost() -> (PluginHost, JournalClock) {
        let clock = JournalClock()
        let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil, clock: clock)))
        _ = host.loadBundledPlugins()
        return (host, clock)
    }

    func fingerprint(_ path: String) throws -> [Data] {
        try [path, path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }.map {
            try Data(contentsOf: URL(fileURLWithPath: $0))
        }
    }

    func expectRefused(_ path: String, saying words: [String], reason: JournalError.Reason = .damaged) throws {
        let (host, clock) = makeHost()
        let bytes = try fingerprint(path)
        do {
            let journal = try HostJournal.open(path: path, host: host, clock: clock)
            journal.close()
            Issue.record("opened")
        } catch {
            for word in words { #expect(error.description.contains(word), "\(error)") }
            #expect(error.reason == reason, "\(error)")
        }
        #expect(try fingerprint(path) == bytes, "a refused open changed the journal")
        #expect(host.history.withStack { $0.treeCount } == 0, "a refused open changed the history")
        #expect(host.history.withStack { $0.currentContext } == nil, "a refused open changed the current context")
    }

    /// A journal of three steps in context "a", an undo, a step (so a branch) and a save (its
    /// last change is ``last``), then `changes` recorded as they are (a forger's rows: the writer computes their checksums).
    func journal(_ name: String, checkpoint: Bool = false, recording changes: [HostChange] = []) throws -> String {
        let path = scratch(name)
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: path, host: host, clock: clock)
        let a = UndoContext("a")
        for (position, text) in ["x", "y", "z"].enumerated() {
            try host.breakCoalescing()
            try host.perform("text.insert", [.i64(Int64(position)), .string(text)], in: a)
        }
        try host.undo(count: 1)
        try host.perform("text.insert", [.i64(2), .string("w")], in: a)
        try host.markSaved(a)
        if checkpoint { try journal.checkpoint() }
        for change in changes { try journal.record(change) }
        journal.close()
        if !changes.isEmpty {
            let connection = try SQLiteConnection(path: path, create: false)
            defer { connection.close() }
            let made = try connection.integer("SELECT max(sequence) FROM changes;")
            #expect(made == Int64(Self.last + changes.count), "the journal has \(made) changes")
        }
        return path
    }

    /// Rewrites one row of a checkpoint table: `column` (0-based) set to `value`, the row's
    /// checksum recomputed as Checkpoint's own code does (`Checkpoint.sealed`).
    func forgeCheckpoint(_ path: String, table: String, row: Int64 = 1, column: Int, _ value: SQLiteConnection.Value) throws {
        let connection = try SQLiteConnection(path: path, create: false)
        defer { connection.close() }
        var rows: [[SQLiteConnection.Value]] = []
        try connection.query("SELECT * FROM \(table) WHERE rowid = ?;", [.integer(row)]) { rows.append($0) }
        var values = Array(try #require(rows.first).dropLast())
        values[column] = value
        let sealed = Checkpoint.sealed(values)
        let names = try columns(of: table, connection)
        try connection.query("UPDATE \(table) SET \(names[column]) = ?, checksum = ? WHERE rowid = ?;",
                             [value, try #require(sealed.last), .integer(row)])
    }

    func columns(of table: String, _ connection: SQLiteConnection) throws -> [String] {
        var names: [String] = []
        try connection.query("PRAGMA table_info(\(table));") { row in
            if case .text(let name) = row[1] { names.append(name) }
        }
        return names
    }

    // MARK: Checkpoints

    @Test("A checkpoint sequence of 2^63 - 1 is refused, not counted on from (it trapped)")
    func aCheckpointSequenceAtTheTopIsRefused() throws {
        let path = try journal("sequence.undojournal", checkpoint: true)
        try forgeCheckpoint(path, table: "checkpoint", column: 0, .integer(Int64.max))
        try expectRefused(path, saying: ["checkpoint", "sequence \(Int64.max)"])
    }

    @Test("A next serial that would wrap is refused (tree looped for ever)")
    func aNextSerialThatWrapsIsRefused() throws {
        for next in [Int64(UInt32.max), 2] {
            let path = try journal("next-serial-\(next).undojournal", checkpoint: true)
            try forgeCheckpoint(path, table: "checkpoint", column: 3, .integer(next))
            try expectRefused(path, saying: ["checkpoint", "next serial \(next)"])
        }
    }

    @Test("Negative limits in a checkpoint are refused, named")
    func negativeCheckpointLimitsAreRefused() throws {
        for (column, name) in [(4, "count_limit"), (5, "memory_limit")] {
            let path = try journal("limit-\(name).undojournal", checkpoint: true)
            try forgeCheckpoint(path, table: "checkpoint", column: column, .integer(-3))
            try expectRefused(path, saying: ["checkpoint", "\(name) -3"])
        }
    }

    @Test("A checkpoint's current context over 4,096 bytes is refused")
    func aLongCheckpointContextIsRefused() throws {
        let path = try journal("long-current.undojournal", checkpoint: true)
        try forgeCheckpoint(path, table: "checkpoint", column: 6, .text(String(repeating: "c", count: 10 << 20)))
        try forgeCheckpoint(path, table: "checkpoint", column: 7, .integer(1))
        try expectRefused(path, saying: ["checkpoint", "\(10 << 20) bytes"])
    }

    @Test("A save mark of a state never made is refused")
    func aSaveMarkOfAMissingStateIsRefused() throws {
        let path = try journal("save-mark.undojournal", checkpoint: true)
        try forgeCheckpoint(path, table: "checkpoint_marks", column: 3, .integer(999))
        try expectRefused(path, saying: ["checkpoint", "state 999"])
    }

    @Test("Step costs of plus or minus 2^63 are refused, not clamped")
    func outlandishCostsAreRefused() throws {
        for cost in [Int64.max, Int64.min, -1] {
            let path = try journal("cost-\(cost).undojournal", checkpoint: true)
            try forgeCheckpoint(path, table: "checkpoint_steps", column: 6, .integer(cost))
            try expectRefused(path, saying: ["checkpoint", "cost of \(cost)"])
        }
    }

    @Test("Groups nested deeper than a caller can make them are refused (a long chain would exhaust the stack)")
    func deeplyNestedGroupsAreRefused() throws {
        let path = try journal("nested.undojournal", checkpoint: true)
        let (host, _) = makeHost()
        let version = try #require(host.plugins.first { $0.id == Self.text }?.version)
        let connection = try SQLiteConnection(path: path, create: false)
        try connection.execute("BEGIN; DELETE FROM checkpoint_steps;")
        // 200 groups, each the only member of the one before, around one insert.
        let depth = 200
        for ordinal in 1...depth {
            let values: [SQLiteConnection.Value] = [
                .integer(Int64(ordinal)), .integer(0), .integer(0), .integer(Int64(ordinal - 1)), .integer(ordinal == 1 ? 1 : 0),
                .integer(0), .integer(ordinal == 1 ? 1 : 0), .text("group"), .integer(0), .text(""), .text(""), .text("a"),
                .text(""), .text(""), .text(""), .text(""), .text(""), .text(""),
            ]
            try connection.query("INSERT INTO checkpoint_steps VALUES (\(Array(repeating: "?", count: 19).joined(separator: ", ")));",
                                 Checkpoint.sealed(values))
        }
        let command: [SQLiteConnection.Value] = [
            .integer(Int64(depth + 1)), .integer(0), .integer(0), .integer(Int64(depth)), .integer(0), .integer(0), .integer(0),
            .text("command"), .integer(16), .text(""), .text(""), .text("a"), .text(Self.text), .text(version),
            .text(Self.text + "/insert"), .text("0 \"q\""), .text("0 1"), .text(""),
        ]
        try connection.query("INSERT INTO checkpoint_steps VALUES (\(Array(repeating: "?", count: 19).joined(separator: ", ")));",
                             Checkpoint.sealed(command))
        var records: [[SQLiteConnection.Value]] = []
        try connection.query("SELECT * FROM checkpoint;") { records.append($0) }
        var record = Array(try #require(records.first).dropLast())
        record[2] = .integer(1)  // position
        record[12] = .integer(Int64(depth + 1))  // steps
        try connection.query("DELETE FROM checkpoint;")
        try connection.query("INSERT INTO checkpoint VALUES (\(Array(repeating: "?", count: 15).joined(separator: ", ")));",
                             Checkpoint.sealed(record))
        try connection.execute("COMMIT;")
        connection.close()
        try expectRefused(path, saying: ["checkpoint", "nested"])
    }

    // MARK: Changes

    @Test("Undo counts no caller can give (2^62, 0, -5) are refused, naming the change")
    func impossibleUndoCountsAreRefused() throws {
        for count in [1 << 62, 0, -5] {
            let path = try journal("undo-\(count).undojournal", recording: [.history(.undo(count: count, scope: .whole))])
            try expectRefused(path, saying: ["change \(Self.last + 1) (undo)", "count \(count)"])
        }
    }

    @Test("Negative limits and a negative move are refused, naming the change")
    func negativeLimitsAreRefused() throws {
        let limits = try journal("limits.undojournal", recording: [.history(.limits(count: -3, memory: nil))])
        try expectRefused(limits, saying: ["change \(Self.last + 1) (limits)", "count limit -3"])
        let memory = try journal("memory.undojournal", recording: [.history(.limits(count: nil, memory: -1 << 40))])
        try expectRefused(memory, saying: ["change \(Self.last + 1) (limits)", "memory limit \(-1 << 40)"])
        let move = try journal("move.undojournal", recording: [.history(.move(position: -2))])
        try expectRefused(move, saying: ["change \(Self.last + 1) (move)", "position -2"])
    }

    @Test("A context of 10 MiB in a change is refused, not made the current context")
    func aHugeContextIsRefused() throws {
        let path = try journal("huge-context.undojournal",
                               recording: [.history(.currentContext(String(repeating: "c", count: 10 << 20)))])
        try expectRefused(path, saying: ["change \(Self.last + 1) (context)", "\(10 << 20) bytes"])
    }

    @Test("A change whose time is before the previous one's is refused")
    func aTimeGoingBackwardsIsRefused() throws {
        let path = try journal("time.undojournal", recording: [.history(.breakCoalescing)])
        let connection = try SQLiteConnection(path: path, create: false)
        var times: [Int64] = []
        try connection.query("SELECT time FROM changes WHERE sequence = \(Self.last);") { row in
            if case .integer(let time) = row[0] { times.append(time) }
        }
        let earlier = try #require(times.first) - 1_000_000_000
        // The row as the writer would have written it, with the earlier time.
        let row = ChangeRow.Row(sequence: Int64(Self.last + 1), time: UInt64(earlier), change: .history(.breakCoalescing))
        try connection.query("DELETE FROM changes WHERE sequence = \(Self.last + 1);")
        try connection.query(ChangeRow.insert, row.values)
        connection.close()
        try expectRefused(path, saying: ["change \(Self.last + 1) (break)", "time \(earlier)"])
    }

    @Test("A perform whose plugin column names another plugin than its action's is refused")
    func aPerformOfAnotherPluginsActionIsRefused() throws {
        let (host, _) = makeHost()
        let canvas = try #require(host.plugins.first { $0.id == "org.undohost.canvas" })
        let path = try journal("other-plugin.undojournal", recording: [
            .perform(.call(plugin: canvas.id, pluginVersion: canvas.version, action: Self.text + "/insert", context: "a",
                           arguments: "0 \"q\"")),
        ])
        try expectRefused(path, saying: ["change \(Self.last + 1) (perform)", "is plugin \(Self.text)'s, not org.undohost.canvas's"])
    }

    @Test("A journal's own changes still open: times, counts and limits a caller gives are kept")
    func theWritersOwnValuesOpen() throws {
        let path = try journal("fine.undojournal", checkpoint: true, recording: [
            .history(.undo(count: Int(UInt32.max), scope: .whole)), .history(.limits(count: 0, memory: 1 << 40)),
        ])
        let (host, clock) = makeHost()
        let journal = try HostJournal.open(path: path, host: host, clock: clock)
        #expect(journal.restoredCount == 2)
        host.history.withStack { $0.checkInvariants() }
        journal.close()
    }
}
