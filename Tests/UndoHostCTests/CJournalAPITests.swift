import Foundation
import Testing

/// The journal from C (Fixtures/journal_api.c): one process writes and exits without destroying
/// its history, a second one reopens the journal and gets the same documents and tree back.
@Suite struct CJournalAPITests {
    @Test(arguments: ["full", "normal"])
    func aJournalWrittenFromCComesBackInAnotherProcess(durability: String) throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/journal_api.c"])
        let journal = CProgram.temporaryFolder() + "/journal-\(durability).undojournal"
        try? FileManager.default.removeItem(atPath: journal)
        let written = try run(program, ["write", journal, durability])
        let reopened = try run(program, ["reopen", journal, durability])
        let state = { (lines: [String]) in lines.filter { $0.hasPrefix("state ") } }
        #expect(state(written).count > 8, "\(written)")
        #expect(state(reopened) == state(written))
        #expect(written.contains("state document a \"xyz\" dirty 1"), "\(written)")
        // Third time: the change made after reopening came back too.
        let third = try run(program, ["reopen", journal, durability])
        #expect(third.contains("state document a \">xyz\" dirty 1"), "\(third)")
    }

    func run(_ program: String, _ arguments: [String]) throws -> [String] {
        let result = try CProgram.run(program, [CProgram.products] + arguments)
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks + 1)", "the program stopped early: \(result.errors)")
        #expect(result.status == 0, "\(result.errors)")
        return lines
    }
}
