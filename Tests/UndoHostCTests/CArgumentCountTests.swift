import Foundation
import Testing

/// The value arrays of the C API are read only after their count is checked
/// (Fixtures/argument_counts.c): values before a PROT_NONE guard page, with counts past them.
@Suite struct CArgumentCountTests {
    @Test func aCountPastTheArrayIsRefusedBeforeAnythingIsRead() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/argument_counts.c"])
        let result = try CProgram.run(program, [CProgram.products])
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks)", "the program stopped early (a read past the array?): \(result.errors)")
        #expect(checks == 10)
        #expect(result.status == 0, "\(result.errors)")
    }
}
