import Foundation
import Testing

/// What the peers (Qt, Rust `undo`) offer, from C (Fixtures/parity_api.c).
@Suite struct CParityAPITests {
    @Test func peerCapabilitiesWorkFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/parity_api.c"])
        let result = try CProgram.run(program, [CProgram.products])
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks)", "the program stopped early: \(result.errors)")
        #expect(checks >= 11)
        #expect(result.status == 0, "\(result.errors)")
    }
}
