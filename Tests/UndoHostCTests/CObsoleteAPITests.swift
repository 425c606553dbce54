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
        let checks = try CProgram.runChecks(program, [CProgram.products, plugin]).checks
        #expect(checks >= 45)
    }
}
