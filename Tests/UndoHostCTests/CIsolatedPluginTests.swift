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
        let result = try CProgram.run(program, [plugin, "\(Sanitizers.watchdog(500))"])
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks)", "the program stopped early: \(result.errors)")
        #expect(checks >= 20)
        #expect(result.status == 0, "\(result.errors)")
    }
}
