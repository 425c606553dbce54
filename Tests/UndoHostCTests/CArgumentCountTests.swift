import Foundation
import Testing

/// The value arrays of the C API are read only after their count is checked
/// (Fixtures/argument_counts.c): values before a PROT_NONE guard page, with counts past them.
@Suite struct CArgumentCountTests {
    @Test func aCountPastTheArrayIsRefusedBeforeAnythingIsRead() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/argument_counts.c"])
        let checks = try CProgram.runChecks(program, [CProgram.products]).checks
        #expect(checks == 10)
    }
}
