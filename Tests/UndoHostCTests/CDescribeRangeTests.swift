import Foundation
import Testing

/// undo_history_describe_range (ABI 1.8) from C (Fixtures/describe_range.c), built as C99 and
/// as C++17, each with every warning an error.
@Suite struct CDescribeRangeTests {
    @Test(arguments: [false, true]) func partsOfViewsFromC(cxx: Bool) throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/describe_range.c"],
                                         compiler: cxx ? "c++" : "cc",
                                         flags: cxx ? ["-x", "c++"] + CProgram.cxxFlags : CProgram.cFlags)
        let result = try CProgram.run(program, [CProgram.products])
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
