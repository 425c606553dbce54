import Foundation
import Testing

/// Forgetting the save point, the limits and transactions, from C
/// (Fixtures/forgetting_limits_transactions.c).
@Suite struct CForgettingLimitsAndTransactionsTests {
    @Test func forgettingLimitsAndTransactionsWorkFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/forgetting_limits_transactions.c"])
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
