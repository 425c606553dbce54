import Foundation
import Testing

/// Obsolete steps from C: undo_result.obsolete_count, positions and titles (Fixtures/obsolete_api.c).
@Suite struct CObsoleteAPITests {
    @Test func obsoleteStepsWorkFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/obsolete_api.c"])
        let result = try CProgram.run(program, [CProgram.products])
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks)", "the program stopped early: \(result.errors)")
        #expect(checks >= 27)
        #expect(result.status == 0, "\(result.errors)")
    }
}
