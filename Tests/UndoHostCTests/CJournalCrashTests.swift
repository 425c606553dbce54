import Foundation
import Testing
import UndoTestSupport

/// The way out of a crash loop from C (Fixtures/journal_crash.c, the plugin
/// UndoHostJournalTests/Fixtures/crash.c): a change whose replay crashes the plugin kills the
/// first open; the next returns the changes before it, says in undo_history_last_error that it
/// stopped, refuses new changes, and keeps the rest in the file.
@Suite struct CJournalCrashTests {
    @Test func anOpenAfterOneThatDiedInReplayStopsBeforeTheChange() throws {
        let folder = CProgram.temporaryFolder()
        let plugin = folder + "/crash.so"
        let built = try CProgram.run("cc", CProgram.cFlags + ["-shared", "-fPIC", "-I", CProgram.include, "-o", plugin,
                                                             CProgram.root + "/Tests/UndoHostJournalTests/Fixtures/crash.c"])
        try #require(built.status == 0, "\(built.errors)")
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/journal_crash.c"])
        let journal = folder + "/crash.undojournal"
        let written = try CProgram.run(program, ["write", plugin, journal])
        #expect(written.status == 0 && written.output.contains("document 2"), "\(written.output)\(written.errors)")
        let crash = ["UNDOHOST_TEST_CRASH_ON": "13", "SWIFT_BACKTRACE": "enable=no"]
        let dying = try CProgram.run(program, ["open", plugin, journal], environment: crash)
        #expect(!dying.output.contains("done"), "the replay did not crash: \(dying.output)")
        let stopped = try CProgram.run(program, ["open", plugin, journal], environment: crash)
        #expect(stopped.status == 0, "\(stopped.output)\(stopped.errors)")
        #expect(stopped.output.contains("open 1\n"), "\(stopped.output)")
        #expect(stopped.output.contains("message journal \(journal): the last open died replaying change 2"), "\(stopped.output)")
        #expect(stopped.output.contains("document 1\n"), "\(stopped.output)")
        #expect(stopped.output.contains("read-only: the last open died replaying change 2"), "\(stopped.output)")
        #expect(FileManager.default.fileExists(atPath: journal + "-replay"))
    }
}
