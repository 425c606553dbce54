import Testing

/// What a plugin load keeps is given back: 1,000 create/load/perform/destroy cycles from C leave
/// malloc's count of bytes in use where it was (counted with mallinfo2, not timed).
@Suite struct PluginLoadMemoryTests {
    @Test func memoryStaysFlatOverAThousandLoadCycles() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/load_cycles.c"],
                                         flags: ["-std=c99", "-Wall", "-Wextra", "-Werror"])
        let result = try CProgram.run(program, [CProgram.products + "/libUndoPluginTextEditor.so"])
        try #require(result.status == 0, "\(result.errors)")
        let fields = result.output.split(whereSeparator: \.isWhitespace)
        try #require(fields.count == 3 && fields[0] == "kept", "\(result.output)")
        let before = try #require(Int(fields[1])), after = try #require(Int(fields[2]))
        // Before the fix: about 635 bytes per cycle (635,000 here). Allow malloc's own slack.
        #expect(after - before < 16 * 1024, "\(after - before) bytes kept over 1,000 cycles")
    }
}
