import Foundation
import Testing
import UndoTestSupport

/// undo-host on a full disk: the change that cannot be written is reported as made but not
/// written, every later change is refused and the history does not move, and the journal reopens
/// to the last change it holds.
@Suite("Journal: a full disk")
struct JournalWriteFailureTests {
    /// A script of one small change, then thirty of 3 KB each: more than 80 KiB of journal.
    func fillingScript(in folder: TemporaryFolder, then last: [String] = []) throws -> String {
        let big = String(repeating: "x", count: 3_000)
        let script = folder.path("fill.undo")
        try (["text.insert 0 \"kept\""] + Array(repeating: "text.insert 0 \"\(big)\"", count: 30) + last)
            .joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        return script
    }

    @Test("in full durability, the change that fails is said, and every later one is refused")
    func everyLaterChangeIsRefused() throws {
        let folder = try TemporaryFolder()
        let journal = folder.path("full.undojournal")
        let script = try fillingScript(in: folder, then: ["history"])
        let full = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal, "--keep-going", "run", script],
                                           fileSizeLimit: 80)
        let errors = full.standardError.split(separator: "\n")
        let failed = try #require(errors.firstIndex { $0.contains("was made but could not be written") },
                                  "\(full.standardError)")
        let later = errors[(failed + 1)...]
        #expect(!later.isEmpty && later.allSatisfy { $0.contains("the change was refused, not made") }, "\(full.standardError)")
        #expect(full.status == 1)
        // The history lists the changes up to the one that failed (made, but not in the file).
        let done = full.standardOutput.split(separator: "\n").filter { $0.contains("Typing") }.count
        let reopened = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal], input: "history\n")
        let restored = reopened.standardOutput.split(separator: "\n").filter { $0.contains("Typing") }.count
        #expect(restored == done - 1 && restored >= 1, "\(full.standardOutput)\n---\n\(reopened.standardOutput)")
        #expect(reopened.status == 0, "\(reopened.standardError)")
    }

    @Test("in normal durability, a group that cannot be committed is said at the end, and the file reopens")
    func aGroupThatCannotBeCommittedIsSaid() throws {
        let folder = try TemporaryFolder()
        let journal = folder.path("normal.undojournal")
        let script = try fillingScript(in: folder)
        let full = try UndoHostProcess.run(UndoHostProcess.samplePlugins
                                           + ["--journal", journal, "--durability", "normal", "--keep-going", "run", script],
                                           fileSizeLimit: 80)
        #expect(full.standardError.contains("could not be"), "\(full.standardError)")
        #expect(full.status == 1)
        let reopened = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal], input: "history\n")
        #expect(reopened.status == 0, "\(reopened.standardError)")
    }
}
