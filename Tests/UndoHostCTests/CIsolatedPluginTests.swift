import Foundation
import Testing
import UndoTestSupport

/// Isolated plugins from C (Fixtures/isolated_plugin.c, with the crasher plugin of the plugin
/// host's tests): libundohost.so finds undo-plugin-runner next to itself.
@Suite struct CIsolatedPluginTests {
    @Test func crashesAndHangsOfAnIsolatedPluginAreErrorsInC() throws {
        let folder = CProgram.temporaryFolder()
        let plugin = folder + "/crasher.so"
        let built = try CProgram.run("cc", CProgram.cFlags + ["-shared", "-fPIC", "-I", CProgram.include, "-o", plugin,
                                                             CProgram.root + "/Tests/UndoPluginHostTests/Fixtures/crasher.c"])
        #expect(built.status == 0, "\(built.errors)")
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/isolated_plugin.c"])
        let checks = try CProgram.runChecks(program, [plugin, "\(Sanitizers.watchdog(500))"]).checks
        #expect(checks >= 20)
    }
}
