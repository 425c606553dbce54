import Foundation
import Testing
import UndoHostSession
import UndoTestSupport

/// Forgetting the save point, limits and cancelled groups (transactions) at undo-host, as Qt's
/// QUndoStack and the Rust crate `undo` offer them: scripts run by the built binary with the
/// bundled plugins.
@Suite("Scripts: save --forget, limit, group cancel")
struct ForgettingLimitsAndTransactionsScriptTests {
    @Test("save --forget: dirty wherever undo and redo go, until the next save")
    func forgetTheSavePoint() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "a"
            save
            save --forget
            undo
            redo
            expect UNDO_ESTATE revert
            save --json-typo
            save
            """, extraArguments: ["--keep-going", "--json"])
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 8, "\(run.standardOutput)")
        // The state after each line: the failed `save --json-typo` changed nothing.
        let dirty = lines.map { $0.contains("\"dirty\":true") }
        #expect(dirty == [true, false, true, true, true, true, true, false], "\(run.standardOutput)")
        #expect(lines[2].contains("\"command\":\"save --forget\""))
        #expect(lines[6].contains("--json-typo") && lines[6].contains("save [--forget]"))
    }

    @Test("save --forget in Korean")
    func forgetTheSavePointInKorean() throws {
        let run = try UndoHostProcess.runScript("text.insert 0 \"a\"\nsave --forget\n",
                                                extraArguments: ["--locale", "ko"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("이제 untitled에는 저장된 상태가 없습니다"))
    }
}

extension ForgettingLimitsAndTransactionsScriptTests {
    @Test("limit N keeps N steps (0: unlimited); lowered below the redo steps, the farthest go")
    func limits() throws {
        let run = try UndoHostProcess.runScript("""
            limit
            text.insert 0 "a"
            break
            text.insert 1 "b"
            break
            text.insert 2 "c"
            undo 2
            limit 2
            redo 2
            expect UNDO_EEMPTY redo
            limit 0
            expect UNDO_EINVAL limit -1
            expect UNDO_EINVAL limit 1 2
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("No limit: every step is kept (0 steps now)\n"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("At most 2 steps kept, the oldest dropped first (2 steps now)\nRedo Typing"))
        #expect(run.standardOutput.hasSuffix("No limit: every step is kept (2 steps now)\n"), "\(run.standardOutput)")
    }
}

extension ForgettingLimitsAndTransactionsScriptTests {
    @Test("group cancel takes a transaction back, leaves no step and keeps the redo steps")
    func cancelATransaction() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "a"
            break
            text.insert 1 "b"
            undo
            group begin "Preview"
            text.insert 1 "xy"
            group begin "Inner"
            text.insert 3 "z"
            group cancel
            show
            group cancel
            show
            history
            expect UNDO_ESTATE group cancel
            group begin
            group cancel
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Cancelled \"Inner\": its changes are taken back"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("axy"))
        #expect(run.standardOutput.contains("Cancelled \"Preview\": its changes are taken back"))
        #expect(run.standardOutput.contains("""
            History (1 of 2 done)
                 Start
            > 1  Typing "a"  untitled
              2  Typing "b"  untitled  undone
            """), "\(run.standardOutput)")
        #expect(run.standardOutput.hasSuffix("Cancelled the group: it had no changes\n"))
    }
}
