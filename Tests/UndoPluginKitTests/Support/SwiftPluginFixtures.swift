import Foundation
import UndoCore
import UndoPluginHost
import UndoTestSupport

/// Where the tests find the plugins SwiftPM built: the folder of the test binary.
enum SwiftPluginFixtures {
    static let products = BuildProducts.folder
    static let notes = products + "/libUndoPluginSwiftNotes.so"
    static let textEditor = products + "/libUndoPluginTextEditor.so"

    /// A host with its own history and no coalescing time limit (slow machines coalesce too);
    /// log messages are kept.
    static func makeHost() -> (PluginHost, LogMessages) {
        let log = LogMessages()
        let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil)), log: { log.add($0) })
        return (host, log)
    }

    /// Runs a program from PATH and returns its exit status and standard output.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

final class LogMessages: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [PluginLogMessage] = []
    var all: [PluginLogMessage] { lock.withLock { collected } }
    func add(_ message: PluginLogMessage) { lock.withLock { collected.append(message) } }
}

extension PluginHost {
    var stepCount: Int { history.withStack { $0.count } }
    var undoTitle: String { history.withStack { $0.undoMenuTitle } }
    var redoTitle: String { history.withStack { $0.redoMenuTitle } }
}
