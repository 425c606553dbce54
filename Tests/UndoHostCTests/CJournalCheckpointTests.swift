import Foundation
import Testing

/// Journal checkpoints from C (Fixtures/journal_checkpoint.c): one process checkpoints and makes
/// more changes, a second reopens from the checkpoint plus those changes and checks undo, redo
/// and the branch, then checkpoints again; a third reopens with nothing to replay. The refusals
/// (no journal, an open group, an observer, an action, a plugin without save_document, a bad
/// info struct) are checked in the program.
@Suite struct CJournalCheckpointTests {
    @Test func aCheckpointWrittenFromCRestoresTheDocumentsAndEveryBranch() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/journal_checkpoint.c"], extra: ["-ldl"])
        let folder = CProgram.temporaryFolder()
        let journal = folder + "/checkpointed.undojournal"
        let written = try run(program, ["write", journal])
        let branch = try #require(written.first { $0.hasPrefix("branch-state ") }?.split(separator: " ").last,
                                  "\(written)")
        let reopened = try run(program, ["reopen", journal, String(branch)])
        let again = try run(program, ["again", journal])
        let info = { (label: String, lines: [String]) in lines.filter { $0.hasPrefix(label + " sequence ") } }
        // What the open restored from is what the checkpoint wrote, in either process.
        #expect(info("checkpoint", written).count == 1, "\(written)")
        #expect(info("checkpoint", reopened) == info("checkpoint", written))
        #expect(info("second-checkpoint", reopened).count == 1, "\(reopened)")
        #expect(info("second-checkpoint", again) == info("second-checkpoint", reopened))
    }

    /// From inside an action (the test plugin reentry.c calls it through its hook), a checkpoint is
    /// UNDO_EREENTRANT.
    @Test func aCheckpointFromInsideAnActionIsRefused() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/journal_checkpoint.c"], extra: ["-ldl"])
        let (folder, plugin) = try testPlugin("reentry")
        _ = try run(program, ["reentrant", folder + "/reentrant.undojournal", plugin])
    }

    /// A plugin without save_document (reentry.c): the checkpoint is UNDO_ENOTSUP, writes
    /// nothing, and the journal replays every change.
    @Test func aPluginWithoutSaveDocumentKeepsEveryChange() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/journal_checkpoint.c"], extra: ["-ldl"])
        let (folder, plugin) = try testPlugin("reentry")
        _ = try run(program, ["without-save", folder + "/without-save.undojournal", plugin])
    }

    /// A plugin whose save_document fails (statebox.c in mode 1): no checkpoint, every change
    /// kept; once its save works, the checkpoint is taken and restores its document.
    @Test func aFailedSaveWritesNoCheckpoint() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/journal_checkpoint.c"], extra: ["-ldl"])
        let (folder, plugin) = try testPlugin("statebox")
        _ = try run(program, ["failing-save", folder + "/failing-save.undojournal", plugin])
    }

    /// A plugin whose load_document refuses what its save_document wrote (statebox.c in mode 7):
    /// UNDO_EPLUGIN naming the plugin and the document, every change kept.
    @Test func bytesThatDoNotLoadBackWriteNoCheckpoint() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/journal_checkpoint.c"], extra: ["-ldl"])
        let (folder, plugin) = try testPlugin("statebox")
        _ = try run(program, ["unloadable", folder + "/unloadable.undojournal", plugin])
    }

    /// Builds a test plugin of Tests/UndoPluginHostTests/Fixtures into a folder only we may write
    /// to (the history refuses plugins others could change). - Returns: the folder and the plugin.
    func testPlugin(_ name: String) throws -> (folder: String, plugin: String) {
        let folder = CProgram.temporaryFolder()
        let plugin = folder + "/lib\(name).so"
        let built = try CProgram.run("cc", CProgram.cFlags + ["-shared", "-fPIC", "-I", CProgram.include, "-o", plugin,
                                                             CProgram.root + "/Tests/UndoPluginHostTests/Fixtures/\(name).c"])
        try #require(built.status == 0, "\(built.errors)")
        return (folder, plugin)
    }

    func run(_ program: String, _ arguments: [String]) throws -> [String] {
        let result = try CProgram.run(program, [CProgram.products] + arguments)
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(checks > 4)
        #expect(lines.last == "done \(checks)", "the program stopped early: \(result.errors)")
        #expect(result.status == 0, "\(result.errors)")
        return lines
    }
}
