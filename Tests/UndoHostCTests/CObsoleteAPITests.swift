import Foundation
import Testing

/// Obsolete steps from C: undo_result.obsolete_count, positions and titles (Fixtures/obsolete_api.c).
@Suite struct CObsoleteAPITests {
    @Test func obsoleteStepsWorkFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/obsolete_api.c"])
        // The test plugin whose values every document shares (a folder only we may write to).
        let plugin = CProgram.temporaryFolder() + "/libobsolete.so"
        let built = try CProgram.run("cc", CProgram.cFlags + ["-shared", "-fPIC", "-I", CProgram.include, "-o", plugin,
                                                             CProgram.root + "/Tests/UndoPluginHostTests/Fixtures/obsolete.c"])
        try #require(built.status == 0, "\(built.errors)")
        let result = try CProgram.run(program, [CProgram.products, plugin])
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks)", "the program stopped early: \(result.errors)")
        #expect(checks >= 45)
        #expect(result.status == 0, "\(result.errors)")
    }
}
