import Foundation
import Testing
import UndoCore
import UndoJournal
import UndoPluginHost

/// A journal keeps each perform's step as it came out (name, description, coalescing key,
/// inverse arguments), and a replay must make the same step again: a plugin that now makes
/// another one is refused, naming the change, the plugin and what differs, and the file is left
/// unchanged.
@Suite struct StepCheckTests {
    static let drift = "org.undohost.test.drift"

    /// The drift fixture built into a folder of its own (its global mode is then this test's).
    func buildDrift() throws -> (path: String, setMode: @convention(c) (Int32) -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drift-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = folder + "/drift.so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-shared", "-fPIC",
                             "-I", root.path + "/Include", "-o", output,
                             root.path + "/Tests/UndoJournalTests/Fixtures/drift.c"]
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
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("steps-\(UUID().uuidString).undojournal").path
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
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("drift-\(UUID().uuidString).undojournal").path
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
