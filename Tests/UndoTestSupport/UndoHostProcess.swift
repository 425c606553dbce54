import Foundation
import Testing

/// Runs the built `undo-host` binary, the way a person or a script does.
///
/// The binary is found in the build products folder (``BuildProducts``).
public enum UndoHostProcess {
    public struct Outcome {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String

        /// The standard output as lines (without the final empty one).
        public var lines: [String] {
            var lines = standardOutput.components(separatedBy: "\n")
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    /// The build products folder (undo-host, the plugins).
    public static var productsFolder: URL { BuildProducts.folderURL }

    public static var executable: URL { BuildProducts.url("undo-host") }

    /// `--plugins` for the two sample plugins the tests' expected output is written for (the
    /// products folder may hold other plugins too).
    public static var samplePlugins: [String] {
        ["libUndoPluginTextEditor.so", "libUndoPluginCanvas.so"].flatMap {
            ["--plugins", productsFolder.appendingPathComponent($0).path]
        }
    }

    /// Runs `undo-host arguments` with `input` on standard input (nothing: an empty, closed
    /// input), and waits for it to end. `fileSizeLimit` (KiB): no file it writes may grow past
    /// it, as on a full disk (bash's `ulimit -f`, with SIGXFSZ ignored so a write fails instead).
    public static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:],
                    directory: URL? = nil, fileSizeLimit: Int? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        let binary = executable
        try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                     "undo-host is not built next to the tests (\(binary.path)): run swift build first",
                     sourceLocation: sourceLocation)
        let folder = try TemporaryFolder()
        let outputFile = folder.url.appendingPathComponent("stdout")
        let errorFile = folder.url.appendingPathComponent("stderr")
        let inputFile = folder.url.appendingPathComponent("stdin")
        try Data(input.utf8).write(to: inputFile)
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)

        // Files, not pipes: nothing to drain concurrently, and no deadlock on large output.
        let process = Process()
        if let fileSizeLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "trap '' XFSZ; ulimit -f \(fileSizeLimit); exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        var processEnvironment = ProcessInfo.processInfo.environment
        processEnvironment["NO_COLOR"] = nil
        processEnvironment["UNDOHOST_PLUGIN_PATH"] = nil
        processEnvironment.merge(environment) { $1 }
        process.environment = processEnvironment
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "undo-host was killed by a signal", sourceLocation: sourceLocation)
        return Outcome(status: process.terminationStatus,
                       standardOutput: try String(contentsOf: outputFile, encoding: .utf8),
                       standardError: try String(contentsOf: errorFile, encoding: .utf8))
    }

    /// Runs a script file with `undo-host run FILE` (the file is named `name` in messages).
    public static func runScript(_ script: String, named name: String = "session.undo", extraArguments: [String] = [],
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent(name)
        try Data(script.utf8).write(to: file)
        // Run from the script's folder so messages name it as given.
        return try run(samplePlugins + extraArguments + ["run", name], directory: folder.url, sourceLocation: sourceLocation)
    }
}
