import Testing

/// A step's description, action type and typed arguments from C (Fixtures/step_texts.c): Qt's
/// action text beside text, the Rust crate `undo`'s entries read back, and every bad input.
@Suite struct StepTextsCTests {
    @Test func aStepsTextsAndValuesFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/step_texts.c"])
        let checks = try CProgram.runChecks(program, []).checks
        #expect(checks > 40)
    }
}
