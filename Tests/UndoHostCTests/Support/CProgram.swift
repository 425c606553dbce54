import Foundation
import Testing
import UndoTestSupport

/// Building and running C and C++ programs against Include/ and the built libundohost.so, the
/// way a C user would.
enum CProgram {
    static let root = SourceTree.root
    static let include = root + "/Include"

    /// The build products folder, where SwiftPM puts libundohost.so and the plugins.
    static let products = BuildProducts.folder
    static let library = products + "/libundohost.so"

    /// The strict flags of the issue: the header must compile cleanly with them.
    static let cFlags = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"]
    static let cxxFlags = ["-std=c++17", "-Wall", "-Wextra", "-pedantic", "-Werror"]

    struct Output {
        var status: Int32
        var output: String
        var errors: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a program (a path, or a name found in PATH) and waits for it.
    /// Runs a fixture that prints "ok - what" or "not ok - what: detail" a line per check and
    /// "done N" at its end: records each failed check as an issue, and expects the program to
    /// have reached its end (its last line counts its checks) with status 0.
    /// - Returns: its lines and the number of checks they hold.
    @discardableResult
    static func runChecks(_ program: String, _ arguments: [String]) throws -> (lines: [String], checks: Int) {
        let result = try run(program, arguments)
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks)", "\(program) stopped early: \(result.errors)")
        #expect(result.status == 0, "\(result.errors)")
        return (lines, checks)
    }

    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both pipes at once so a chatty program cannot block on a full one.
        // The lock orders the reader's write before the read below (isFinished alone does not,
        // ThreadSanitizer reports a race).
        let errorLock = NSLock()
        nonisolated(unsafe) var errorData = Data()
        let reader = Thread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorLock.withLock { errorData = data }
        }
        reader.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        let errorText = errorLock.withLock { String(decoding: errorData, as: UTF8.self) }
        return Output(status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
                      errors: errorText)
    }

    /// A fresh temporary folder (left in place).
    static func temporaryFolder() -> String { TemporaryFolder.kept("undohost-capi") }

    /// Whether these tests run under AddressSanitizer (scripts/sanitizers.sh asan). Then
    /// libundohost.so calls the sanitizer's runtime, so a program linking it must carry that
    /// runtime too.
    static let isAddressSanitized = Sanitizers.isAddressSanitized

    /// The compiler to link a program against this build's libundohost.so, and its extra
    /// flags: under a sanitizer the toolchain's clang with -fsanitize=address (or thread),
    /// whose runtime is the one the Swift code was instrumented for.
    static func linking(with compiler: String) -> (compiler: String, flags: [String]) {
        let clang = compiler == "c++" ? "clang++" : "clang"
        if isAddressSanitized { return (clang, ["-fsanitize=address"]) }
        if Sanitizers.isThreadSanitized {
            // The toolchain's TSan runtime intercepts libdispatch, so it needs it (and Blocks)
            // from the Swift runtime's folder beside clang.
            let swiftLibraries = toolchainSwiftLibraries(of: clang)
            return (clang, ["-fsanitize=thread", "-L", swiftLibraries, "-ldispatch", "-lBlocksRuntime",
                            "-Wl,-rpath," + swiftLibraries])
        }
        return (compiler, [])
    }

    /// The folder of the Swift runtime's libraries in the toolchain whose `clang` is on PATH
    /// (`usr/bin/clang` → `usr/lib/swift/linux`).
    static func toolchainSwiftLibraries(of clang: String) -> String {
        let found = (try? run("/bin/sh", ["-c", "command -v \(clang)"]))?.output
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let resolved = URL(fileURLWithPath: found).resolvingSymlinksInPath()
        return resolved.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/swift/linux").path
    }

    /// Compiles and links `sources` with `compiler` against the header and the library.
    /// - Returns: the executable's path.
    static func build(_ sources: [String], compiler: String = "cc", flags: [String] = cFlags,
                      extra: [String] = []) throws -> String {
        let executable = temporaryFolder() + "/program"
        let (compiler, sanitizerFlags) = linking(with: compiler)
        let arguments = flags + sanitizerFlags + ["-I", include] + sources
            + ["-o", executable, "-L", products, "-lundohost", "-Wl,-rpath," + products] + extra
        let result = try run(compiler, arguments)
        guard result.status == 0 else { throw Failure(description: "\(compiler) \(arguments.joined(separator: " ")):\n\(result.errors)") }
        return executable
    }
}
