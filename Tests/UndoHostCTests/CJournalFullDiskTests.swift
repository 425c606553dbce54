import Foundation
import Testing

/// A journal on a full disk, from C (Fixtures/journal_full_disk.c): the change that cannot be
/// written is said, every later change is refused before it is made, and the journal reopens to
/// the last change written.
@Suite struct CJournalFullDiskTests {
    @Test func everyLaterChangeIsRefused() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/journal_full_disk.c"])
        let journal = CProgram.temporaryFolder() + "/full.undojournal"
        let result = try CProgram.run(program, [CProgram.products, journal])
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") { Issue.record(Comment(rawValue: failure)) }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(checks >= 10 && lines.last == "done \(checks)", "\(result.output)\n\(result.errors)")
        #expect(result.status == 0, "\(result.errors)")
    }
}
