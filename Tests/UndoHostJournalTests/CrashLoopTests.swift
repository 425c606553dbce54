import Foundation
import Testing
import UndoTestSupport

/// The way out of a crash loop, through undo-host in child processes: a change that now crashes
/// its plugin when replayed kills the first open; the next stops before it, says so, and keeps
/// it and the changes after it in the file; a save_document that crashes in an automatic
/// checkpoint kills one session, and the next turns automatic checkpoints off for that plugin.
@Suite struct CrashLoopTests {
    /// Fixtures/crash.c built into a folder of its own (only this user may write it).
    func buildCrashPlugin(version: String? = nil) throws -> String {
        let output = TemporaryFolder.kept("crash-plugin") + "/crash.so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-shared", "-fPIC",
                             "-I", SourceTree.include, "-o", output] + (version.map { ["-DCRASH_VERSION=\"\($0)\""] } ?? []) + [
                             SourceTree.path("Tests/UndoHostJournalTests/Fixtures/crash.c")]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed")
        return output
    }

    struct Run {
        var status: Int32
        var crashed: Bool
        var output: String
        var errors: String
    }

    /// undo-host with `arguments`, `input` on its standard input, and `environment` added.
    func undoHost(_ arguments: [String], input: String, environment: [String: String] = [:]) throws -> Run {
        let folder = try TemporaryFolder()
        let files = ["stdin", "stdout", "stderr"].map { folder.url.appendingPathComponent($0) }
        try Data(input.utf8).write(to: files[0])
        try Data().write(to: files[1])
        try Data().write(to: files[2])
        let process = Process()
        process.executableURL = BuildProducts.url("undo-host")
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["UNDOHOST_PLUGIN_PATH"] = nil
        // The Swift runtime's backtracer would print pages for the crash the test makes.
        merged["SWIFT_BACKTRACE"] = "enable=no"
        merged.merge(environment) { $1 }
        process.environment = merged
        process.standardInput = try FileHandle(forReadingFrom: files[0])
        process.standardOutput = try FileHandle(forWritingTo: files[1])
        process.standardError = try FileHandle(forWritingTo: files[2])
        try process.run()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, crashed: process.terminationReason == .uncaughtSignal,
                   output: try String(contentsOf: files[1], encoding: .utf8),
                   errors: try String(contentsOf: files[2], encoding: .utf8))
    }

    @Test("A change whose replay crashes: the next open stops before it, says so, and keeps it and the later ones in the file")
    func aReplayThatCrashesIsStoppedBefore() throws {
        let plugin = try buildCrashPlugin()
        let path = TemporaryFolder.kept("crash-loop") + "/notes.undojournal"
        let arguments = ["--plugins", plugin, "--journal", path]
        let first = try undoHost(arguments, input: "crash.set 1\ncrash.set 13\ncrash.set 2\n")
        #expect(first.status == 0 && !first.crashed, "\(first.errors)")
        // The plugin now crashes on 13: the open dies replaying change 2.
        let crash = ["UNDOHOST_TEST_CRASH_ON": "13"]
        let dying = try undoHost(arguments, input: "", environment: crash)
        #expect(dying.crashed, "the replay did not crash: \(dying.errors)")
        // The next open stops before change 2, says so, and shows the document after change 1.
        let stopped = try undoHost(arguments, input: "show\n", environment: crash)
        #expect(!stopped.crashed && stopped.status == 0, "\(stopped.errors)")
        #expect(stopped.errors.contains("the last open died replaying change 2 (perform org.undohost.test.crash/set"), "\(stopped.errors)")
        #expect(stopped.errors.contains("changes 2 to 3 stay in the file"), "\(stopped.errors)")
        #expect(stopped.output.contains("  1"), "\(stopped.output)")
        // And so does every open with the same plugin; a change is refused, naming why.
        let again = try undoHost(arguments, input: "crash.set 5\n", environment: crash)
        #expect(!again.crashed)
        #expect(again.errors.contains("read-only: the last open died replaying change 2"), "\(again.errors)")
        #expect(try sqliteRows(path, "SELECT count(*) FROM changes;") == [["3"]], "the changes kept back left the file")
        // The same plugin no longer crashing still stops there: the marker holds until the plugin
        // changes version (or it is removed).
        let same = try undoHost(arguments, input: "show\n")
        #expect(same.errors.contains("this open stopped before it"), "\(same.errors)")
        // The plugin fixed, a new version: every change comes back.
        let fixedPlugin = try buildCrashPlugin(version: "1.1")
        let fixed = try undoHost(["--plugins", fixedPlugin, "--journal", path], input: "show\n")
        #expect(!fixed.crashed && fixed.status == 0, "\(fixed.errors)")
        #expect(fixed.errors.contains("3 changes restored"), "\(fixed.errors)")
        #expect(fixed.output.contains("  2"), "\(fixed.output)")
        #expect(!FileManager.default.fileExists(atPath: path + "-replay"))
    }

    @Test("A load_document that crashes restoring the checkpoint: the next open is refused, saying so, instead of crashing")
    func aCheckpointRestoreThatCrashesIsRefused() throws {
        let plugin = try buildCrashPlugin()
        let path = TemporaryFolder.kept("crash-loop") + "/loaded.undojournal"
        let arguments = ["--plugins", plugin, "--journal", path]
        let written = try undoHost(arguments + ["--checkpoint-every", "1"], input: "crash.set 1\ncrash.set 2\n")
        #expect(written.status == 0 && !written.crashed, "\(written.errors)")
        let crash = ["UNDOHOST_TEST_CRASH_IN_LOAD": "1"]
        let dying = try undoHost(arguments, input: "", environment: crash)
        #expect(dying.crashed, "the restore did not crash: \(dying.errors)")
        let refused = try undoHost(arguments, input: "show\n", environment: crash)
        #expect(!refused.crashed && refused.status != 0)
        #expect(refused.errors.contains("the last open of this journal died restoring its checkpoint"), "\(refused.errors)")
        #expect(unlink(path + "-replay") == 0)
        let fixed = try undoHost(arguments, input: "show\n")
        #expect(!fixed.crashed && fixed.status == 0 && fixed.output.contains("  2"), "\(fixed.output)\(fixed.errors)")
    }

    @Test("A save_document that crashes in an automatic checkpoint: the next session warns and takes none for that plugin")
    func aCheckpointThatCrashesTurnsThemOff() throws {
        let plugin = try buildCrashPlugin()
        let path = TemporaryFolder.kept("crash-loop") + "/saved.undojournal"
        let arguments = ["--plugins", plugin, "--journal", path, "--checkpoint-every", "1"]
        let crash = ["UNDOHOST_TEST_CRASH_IN_SAVE": "1"]
        let dying = try undoHost(arguments, input: "crash.set 1\ncrash.set 2\n", environment: crash)
        #expect(dying.crashed, "the checkpoint did not crash: \(dying.errors)")
        let next = try undoHost(arguments, input: "crash.set 3\ncrash.set 4\nshow\n", environment: crash)
        #expect(!next.crashed && next.status == 0, "\(next.errors)")
        #expect(next.errors.contains("automatic checkpoints are off while a document of it is in the journal"), "\(next.errors)")
        #expect(next.errors.contains("org.undohost.test.crash"), "\(next.errors)")
        #expect(next.output.contains("  4"), "\(next.output)")
        #expect(try sqliteRows(path, "SELECT count(*) FROM changes;") == [["3"]])
        #expect(try sqliteRows(path, "SELECT count(*) FROM checkpoint;") == [["0"]])
    }
}
