import Foundation
import Testing

/// Forgetting the save point, the limits and transactions, from C
/// (Fixtures/forgetting_limits_transactions.c).
@Suite struct CForgettingLimitsAndTransactionsTests {
    @Test func forgettingLimitsAndTransactionsWorkFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/forgetting_limits_transactions.c"])
        let checks = try CProgram.runChecks(program, [CProgram.products]).checks
        #expect(checks >= 11)
    }
}
