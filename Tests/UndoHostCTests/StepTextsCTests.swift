import Testing

/// A step's description, action type and typed arguments from C (Fixtures/step_texts.c): Qt's
/// action text beside text, the Rust crate `undo`'s entries read back, and every bad input.
@Suite struct StepTextsCTests {
    @Test func aStepsTextsAndValuesFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/step_texts.c"])
        let result = try CProgram.run(program, [])
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks)", "the program stopped early: \(result.errors)")
        #expect(checks > 40)
        #expect(result.status == 0, "\(result.errors)")
    }
}
