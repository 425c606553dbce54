import Foundation

/// The folder a document's examples run in, laid out like a checkout after `swift build`: the
/// repository's top-level entries (linked), `.build/debug` (a link to this build's products),
/// the files the document's blocks write, and `bin/` first in PATH with `undo-host`.
final class DocumentWorkspace {
    let folder: String

    init() throws {
        folder = Program.temporaryFolder()
        let manager = FileManager.default
        for entry in try manager.contentsOfDirectory(atPath: Repository.root)
        where entry != ".git" && !entry.hasPrefix(".build") {
            try manager.createSymbolicLink(atPath: folder + "/" + entry, withDestinationPath: Repository.root + "/" + entry)
        }
        try manager.createDirectory(atPath: folder + "/.build", withIntermediateDirectories: false)
        try manager.createSymbolicLink(atPath: folder + "/.build/debug", withDestinationPath: Repository.products)
        try manager.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: false)
        try manager.createSymbolicLink(atPath: folder + "/bin/undo-host", withDestinationPath: Repository.products + "/undo-host")
        if Repository.isAddressSanitized {
            // A program linking the sanitized libundohost.so needs the runtime the Swift code was
            // instrumented for: the toolchain's clang with -fsanitize=address stands in for cc and c++.
            // A plugin is built with the system's compiler, as the document says. The linker's
            // notes that the sanitizer's own local symbols cannot be exported are
            // not the document's output: they are left out (nothing else is).
            for (name, compiler) in [("cc", "clang"), ("c++", "clang++")] {
                try write("bin/" + name, """
                    #!/bin/sh
                    # A plugin (-shared) does not link libundohost: built as the document says.
                    case " $* " in *" -shared "*) exec /usr/bin/\(name) "$@" ;; esac
                    errors=$(mktemp)
                    \(compiler) -fsanitize=address "$@" 2>"$errors"
                    status=$?
                    grep -v "warning: Cannot export local symbol '__asan_" "$errors" >&2
                    rm -f "$errors"
                    exit $status

                    """)
                chmod(folder + "/bin/" + name, 0o755)
            }
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes a file of the workspace (a plain name, or one under a folder of its own).
    func write(_ name: String, _ text: String) throws {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Runs a program in the workspace, with `bin/` first in PATH.
    func run(_ program: String, _ arguments: [String]) throws -> ProgramOutput {
        let path = folder + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try Program.run(program, arguments, in: folder, environment: ["PATH": path, "LC_ALL": "C.UTF-8"])
    }

    /// Runs the commands of a console block in one shell, in order, and returns what each
    /// printed (standard output and standard error together, as a terminal shows them).
    func runSession(_ commands: [String]) throws -> [String] {
        let separator = "\u{1E}docs-next-command\u{1E}"
        var script = "exec 2>&1\nunset UNDOHOST_PLUGIN_PATH UNDOHOST_PLUGIN_CALLS\n"
        for command in commands {
            // The separator keeps the command's status, so a later `echo $?` shows it.
            script += command + "\ndocs_status=$?; printf '\\n%s\\n' '\(separator)'; (exit $docs_status)\n"
        }
        let result = try run("bash", ["-c", script])
        var outputs = result.output.components(separatedBy: "\n" + separator + "\n")
        outputs.removeLast()  // what follows the last separator: nothing
        return outputs
    }
}
