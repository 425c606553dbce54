import Foundation
import Testing

/// The C and C++ examples in examples/, built with the system compilers against the header and
/// the built libundohost.so, run and checked.
@Suite struct CHostExampleTests {
    @Test func theCExampleTypesBoldsAndUndoes() throws {
        let program = try CProgram.build([CProgram.root + "/examples/c-host/main.c"])
        let result = try CProgram.run(program, [])
        #expect(result.status == 0, "\(result.errors)")
        var lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // How many plugins are bundled is not this test's business; that they load is.
        let first = lines.removeFirst()
        let count = Int(first.replacingOccurrences(of: "loaded ", with: "").replacingOccurrences(of: " plugins", with: ""))
        #expect((count ?? 0) >= 2, "\(first)")
        #expect(lines == [
            #"text: "Hello world""#,
            "menu: [Undo Typing] [Redo]",
            #"text: "<b>Hello</b> world""#,
            "menu: [Undo Bold] [Redo]",
            "undid Bold at 0+5",
            #"text: "Hello world""#,
            "menu: [Undo Typing] [Redo Bold]",
            "undid Typing",
            #"text: """#,
            "menu: [Undo] [Redo Typing]",
            "undo again: UNDO_EEMPTY",
            "redid 2 steps",
            #"text: "<b>Hello</b> world""#,
            "menu: [Undo Bold] [Redo]",
            "bad arguments: UNDO_ETYPE: text.bold: argument 2 (length), column 3: expected i64, got string (expected text.bold(position: i64, length: i64))",
            "menu refreshes: 5",
            "after destroy: UNDO_EHANDLE",
            "",
        ])
    }

    @Test func theCppExampleUsesTheHeaderFromCpp() throws {
        let program = try CProgram.build([CProgram.root + "/examples/cpp-host/main.cpp"], compiler: "c++",
                                         flags: CProgram.cxxFlags)
        let result = try CProgram.run(program, [])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == """
            Undo New Note
            #0 [2] Milk
            #1 [1] Bread
            after undo: "Undo", clean
            refused: UNDO_ERANGE: notes.erase perform failed: no note 7 in "groceries" (it has 0) [UNDO_ERANGE]

            """)
    }

    @Test(arguments: [("cc", CProgram.cFlags, "c"), ("c++", CProgram.cxxFlags, "c++")])
    func theHeaderAloneCompilesCleanly(compiler: String, flags: [String], language: String) throws {
        let folder = CProgram.temporaryFolder()
        let source = folder + "/only_header." + (language == "c" ? "c" : "cpp")
        // Also with -Wconversion and -Wshadow: the static inline value makers are compiled into
        // every client, so they must not warn in anyone's build.
        try "#include <undohost/undo_host.h>\nint main(void) { return undo_i32(0).as.i32; }\n"
            .write(toFile: source, atomically: true, encoding: .utf8)
        let result = try CProgram.run(compiler, flags + ["-Wconversion", "-Wshadow", "-fsyntax-only", "-I", CProgram.include, source])
        #expect(result.status == 0, "\(result.errors)")
    }
}
