import Foundation
import Testing

/// undo_history_describe_range (ABI 1.8) from C (Fixtures/describe_range.c), built as C99 and
/// as C++17, each with every warning an error.
@Suite struct CDescribeRangeTests {
    @Test(arguments: [false, true]) func partsOfViewsFromC(cxx: Bool) throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/describe_range.c"],
                                         compiler: cxx ? "c++" : "cc",
                                         flags: cxx ? ["-x", "c++"] + CProgram.cxxFlags : CProgram.cFlags)
        let checks = try CProgram.runChecks(program, [CProgram.products]).checks
        #expect(checks >= 20)
    }
}
