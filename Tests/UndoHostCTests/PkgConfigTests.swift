import Foundation
import Testing

/// scripts/undohost.pc.sh writes a pkg-config file that pkg-config finds and that builds and
/// links a C program: `cc app.c $(pkg-config --cflags --libs undohost)`.
@Suite struct PkgConfigTests {
    @Test func pkgConfigBuildsTheExample() throws {
        let folder = CProgram.temporaryFolder()
        let script = try CProgram.run("bash", [CProgram.root + "/scripts/undohost.pc.sh", "--libdir", CProgram.products,
                                              "--output", folder])
        try #require(script.status == 0, "\(script.errors)")
        let environment = ["PKG_CONFIG_PATH": folder]
        let version = try CProgram.run("pkg-config", ["--modversion", "undohost"], environment: environment)
        #expect(version.output == "1.8\n", "\(version.errors)")  // the ABI version of undo_common.h
        let flags = try CProgram.run("pkg-config", ["--cflags", "--libs", "undohost"], environment: environment)
        try #require(flags.status == 0, "\(flags.errors)")
        let words = flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(words.contains("-I" + CProgram.include))
        #expect(words.contains("-lundohost"))

        let executable = folder + "/c-host"
        let (compiler, sanitizerFlags) = CProgram.linking(with: "cc")
        let build = try CProgram.run(compiler, sanitizerFlags + [CProgram.root + "/examples/c-host/main.c", "-o", executable] + words)
        try #require(build.status == 0, "\(build.errors)")
        // Runs from anywhere, without LD_LIBRARY_PATH: the rpath finds the library.
        let run = try CProgram.run(executable, [], environment: ["LD_LIBRARY_PATH": ""])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("menu: [Undo Typing] [Redo Bold]"))
    }
}
