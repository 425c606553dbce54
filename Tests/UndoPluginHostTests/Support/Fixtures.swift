import Foundation
import Testing
import UndoCore
import UndoTestSupport
@testable import UndoPluginHost

/// Paths, builds and helpers shared by the plugin host tests.
enum Fixtures {
    static let root = SourceTree.root
    static let include = root + "/Include"
    static let sources = root + "/Tests/UndoPluginHostTests/Fixtures"

    static let products = BuildProducts.folder
    static let textEditor = products + "/libUndoPluginTextEditor.so"
    static let canvas = products + "/libUndoPluginCanvas.so"

    /// A fresh temporary folder (left in place).
    static func temporaryFolder() -> String { TemporaryFolder.kept("undohost-test") }

    struct ToolResult {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs a program (found in PATH) and waits for it.
    static func run(_ tool: String, _ arguments: [String]) throws -> ToolResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolResult(status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
                          errors: String(decoding: errData, as: UTF8.self))
    }

    struct BuildError: Error, CustomStringConvertible {
        var description: String
    }

    /// Builds a fixture plugin with the system C compiler, the way an outside author would:
    /// `cc -std=c99 -Wall -Wextra -pedantic -Werror -shared -fPIC -I Include -o X.so file.c`.
    /// With `cxx`, the same file is compiled as C++17 by `c++ -x c++`.
    static func buildPlugin(_ source: String, defines: [String] = [], flags: [String] = [], name: String? = nil,
                            in folder: String? = nil, cxx: Bool = false) throws -> String {
        let folder = folder ?? temporaryFolder()
        let output = folder + "/" + (name ?? (source as NSString).deletingPathExtension + ".so")
        let language = cxx ? ["-x", "c++", "-std=c++17"] : ["-std=c99"]
        let result = try run(cxx ? "c++" : "cc", language + ["-Wall", "-Wextra", "-pedantic", "-Werror", "-shared", "-fPIC",
                                    "-I", include] + flags + defines.map { "-D" + $0 } + ["-o", output, sources + "/" + source])
        guard result.status == 0 else { throw BuildError(description: "cc failed for \(source) \(defines): \(result.errors)") }
        return output
    }

    /// The address of a function a fixture plugin exports besides its entry (test helpers).
    static func function<F>(_ name: String, in path: String, as type: F.Type) throws -> F {
        let library = try DynamicLibrary(opening: path)
        guard let address = library.symbol(named: name) else { throw BuildError(description: "\(path) has no \(name)") }
        return unsafeBitCast(address, to: type)
    }
}

/// Collects log messages from a host.
final class LogCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [PluginLogMessage] = []
    var messages: [PluginLogMessage] { lock.withLock { collected } }
    func add(_ message: PluginLogMessage) { lock.withLock { collected.append(message) } }
}

/// A host with its own history (no coalescing time limit, so slow machines coalesce too) and
/// a log collector.
func makeHost(coalescingWindow: Duration? = nil) -> (PluginHost, LogCollector) {
    let log = LogCollector()
    let history = SharedUndoHistory(UndoStack(coalescingWindow: coalescingWindow))
    let host = PluginHost(history: history, log: { log.add($0) })
    return (host, log)
}

extension PluginHost {
    /// The number of steps in the history.
    var stepCount: Int { history.withStack { $0.count } }
    var undoTitle: String { history.withStack { $0.undoMenuTitle } }
    var redoTitle: String { history.withStack { $0.redoMenuTitle } }
    func show(_ context: String, _ plugin: String) throws -> String {
        try describe(UndoContext(context), plugin: plugin)
    }
}

/// Runs `body` expecting a PluginHostError, and returns it (nil when nothing was thrown).
func hostError(_ body: () throws -> Void) -> PluginHostError? {
    do {
        try body()
        return nil
    } catch let error as PluginHostError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}
