import Foundation
import Testing

/// Branches and time travel from C (Fixtures/tree_api.c): goto, earlier, later, the tree.
@Suite struct CTreeAPITests {
    @Test func branchesAndTimeTravelWorkFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/tree_api.c"])
        let checks = try CProgram.runChecks(program, [CProgram.products]).checks
        #expect(checks >= 25)
    }
}
