import Foundation
import Testing
import UndoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// undo-host --isolate and load --isolated with a journal (issue 31): a plugin's crash is one
/// failed line and is never journaled as done; a journal reopens to every acknowledged change,
/// also after undo-host itself was killed in the middle of an isolated call.
@Suite("Isolated plugins in sessions")
struct IsolatedPluginSessionTests {
    /// The crasher fixture (Tests/UndoPluginHostTests/Fixtures/crasher.c), built with cc.
    static func crasher(in folder: TemporaryFolder) throws -> String {
        let plugin = folder.url.appendingPathComponent("crasher.so").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-std=c99", "-shared", "-fPIC", "-I", SourceTree.root + "/Include", "-o", plugin,
                             SourceTree.root + "/Tests/UndoPluginHostTests/Fixtures/crasher.c"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return plugin
    }

    /// Read-only: each reopening must find the journal as the run left it.
    static let questions = "history\nshow a\nshow b\n"

    /// Each function crashing (segfault, abort, exit, a hang) with a journal in full
    /// durability: each bad line fails with UNDO_ECRASHED, the others work, and the reopened
    /// journal (isolated or not) is the session of the script without the bad lines.
    @Test func crashesInEveryFunctionAreNeverJournaledAsDone() throws {
        let folder = try TemporaryFolder()
        let plugin = try Self.crasher(in: folder)
        // Bad lines (marked "BAD ") each followed by a good call (three crashes in a row would
        // disable the plugin): perform (a segfault, a hang, an exit), the inverse (an abort),
        // save_document in a checkpoint (a segfault).
        let marked = ["doc a", "crasher.append \"Hello\"", "BAD crasher.append \"!segv\"", "crasher.type \" wo\"",
                      "BAD crasher.append \"!loop\"", "crasher.type \"rld\"", "BAD crasher.append \"!exit\"", "doc b",
                      "crasher.append \"B\"", "crasher.append \"?abort\"", "BAD undo", "doc c", "crasher.append \"$segv\"",
                      "BAD checkpoint", "doc a", "crasher.append \"!\""]
        let script = marked.map { $0.hasPrefix("BAD ") ? String($0.dropFirst(4)) : $0 }
        let good = marked.filter { !$0.hasPrefix("BAD ") }
        let journal = folder.url.appendingPathComponent("crashes.undojournal").path
        let isolated = ["--isolate", "--plugin-watchdog", "\(Sanitizers.watchdog(400))", "--plugins", plugin]
        let run = try UndoHostProcess.run(isolated + ["--keep-going", "--journal", journal, "--durability", "full"],
                                          input: script.joined(separator: "\n") + "\n")
        #expect(run.status == 1)
        let crashes = run.standardError.split(separator: "\n").filter { $0.contains("UNDO_ECRASHED") }.count
        #expect(crashes == 5, "\(run.standardError)")
        // The checkpoint's crash has the crash's code, not UNDO_EPLUGIN with the crash in its text.
        let checkpointLine = run.standardError.split(separator: "\n").first { $0.contains("cannot checkpoint") } ?? ""
        #expect(checkpointLine.contains("UNDO_ECRASHED") && !checkpointLine.contains("UNDO_EPLUGIN"), "\(run.standardError)")
        for cause in ["SIGSEGV", "watchdog", "status 3", "SIGABRT"] {
            #expect(run.standardError.contains(cause), "\(cause): \(run.standardError)")
        }
        let referenceJournal = folder.url.appendingPathComponent("reference.undojournal").path
        _ = try UndoHostProcess.run(isolated + ["--keep-going", "--journal", referenceJournal, "--durability", "full"],
                                    input: good.joined(separator: "\n") + "\n")
        let reference = try UndoHostProcess.run(["--plugins", plugin, "--journal", referenceJournal, "--keep-going"],
                                                input: Self.questions)
        for options in [isolated, ["--plugins", plugin]] {
            let reopened = try UndoHostProcess.run(options + ["--journal", journal, "--keep-going"], input: Self.questions)
            #expect(reopened.standardOutput == reference.standardOutput)
            #expect(reopened.standardOutput.contains("Hello world!"))
        }
    }

    /// undo-host killed while an isolated plugin loops in a call: the reopened journal holds
    /// every acknowledged line and not the one under way; the plugin's process went with it.
    @Test func killedInTheMiddleOfAnIsolatedCallLosesNoAcknowledgedChange() throws {
        let folder = try TemporaryFolder()
        let plugin = try Self.crasher(in: folder)
        let journal = folder.url.appendingPathComponent("killed.undojournal").path
        let live = try LiveUndoHost(["--isolate", "--plugin-watchdog", "60000", "--plugins", plugin, "--json",
                                     "--keep-going", "--journal", journal, "--durability", "full"])
        for line in ["doc a", "crasher.append \"kept\"", "crasher.append \" too\""] {
            live.send(line)
            #expect(live.readLine() != nil)
        }
        live.send("crasher.append \"!loop\"")
        usleep(300_000)
        live.kill()
        let reopened = try UndoHostProcess.run(["--plugins", plugin, "--journal", journal, "--keep-going"],
                                               input: "show a\nhistory\n")
        #expect(reopened.standardOutput.contains("kept too"), "\(reopened.standardOutput)")
        #expect(!reopened.standardOutput.contains("loop"), "\(reopened.standardOutput)")
    }

    /// The journal crash test of JournalSessionTests with every plugin isolated: SIGKILL at
    /// 40 points of a 240-line session, each reopened journal holds every acknowledged line.
    @Test func killedAtAnyPointWithIsolatedPlugins() throws {
        try JournalSessionTests.kill(durability: "full", seed: 7, every: 6, options: ["--isolate"])
    }
}
