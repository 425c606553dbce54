import Foundation
import Glibc
import Testing
import UndoTestSupport

/// Runs the built `undo-host` on a pseudo-terminal, so it sees a terminal on standard input and
/// output (interactive mode), and lets a test type keys and read what the screen receives.
final class PseudoTerminal {
    enum Failure: Error, CustomStringConvertible {
        case system(String)
        case timedOut(waitingFor: String, received: String)
        var description: String {
            switch self {
            case .system(let what): "pseudo-terminal: \(what)"
            case .timedOut(let text, let received): "timed out waiting for \(text.debugDescription); received: \(received.debugDescription)"
            }
        }
    }

    let master: Int32
    let slave: Int32
    let process = Process()
    /// Everything the program wrote, as received (decoded whole, so a character split between
    /// two reads is intact).
    private var received: [UInt8] = []
    /// How many bytes of it the test has read.
    private var readOffset = 0
    var transcript: String { String(decoding: received, as: UTF8.self) }
    private var unread: String { String(decoding: received[readOffset...], as: UTF8.self) }

    init(arguments: [String] = [], environment: [String: String] = [:], columns: UInt16 = 100, rows: UInt16 = 24) throws {
        let calls = try PseudoTerminalCalls()
        master = calls.openMaster(O_RDWR | O_NOCTTY)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, calls.grant(master) == 0, calls.unlock(master) == 0,
              calls.slaveName(master, &name, name.count) == 0 else {
            throw Failure.system("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        slave = open(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw Failure.system("cannot open its slave side") }
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)

        process.executableURL = UndoHostProcess.executable
        process.arguments = UndoHostProcess.samplePlugins + arguments
        var processEnvironment = ProcessInfo.processInfo.environment
        processEnvironment["NO_COLOR"] = nil
        processEnvironment["UNDOHOST_PLUGIN_PATH"] = nil
        processEnvironment["TERM"] = "xterm"
        processEnvironment.merge(environment) { $1 }
        process.environment = processEnvironment
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
        close(slave)
    }

    /// Sends keys as a terminal would (`"\r"` is Enter, `"\u{1B}[D"` the left arrow).
    func type(_ keys: String) {
        var bytes = Array(keys.utf8)
        _ = bytes.withUnsafeMutableBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads until the unread output contains `text`; returns that output (up to and including
    /// `text`) and marks it read.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 20) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let unread = self.unread
            if let range = unread.range(of: text) {
                let part = String(unread[..<range.upperBound])
                readOffset += part.utf8.count
                return part
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw Failure.timedOut(waitingFor: text, received: unread) }
            readAvailable(waitingUpTo: min(remaining, 0.2))
        }
    }

    /// Waits for a fresh, empty prompt (a redraw while typing has text after the prompt; an
    /// empty line's is followed at once by the carriage return that places the cursor).
    /// - Returns: the output before it.
    @discardableResult
    func waitForPrompt(_ prompt: String, timeout: TimeInterval = 20) throws -> String {
        try waitFor("\r\u{1B}[J" + prompt + "\r", timeout: timeout)
    }

    /// Waits for the program to end. - Returns: its exit status.
    func waitForExit(timeout: TimeInterval = 20) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else { throw Failure.timedOut(waitingFor: "exit", received: unread) }
            readAvailable(waitingUpTo: 0.05)
        }
        readAvailable(waitingUpTo: 0.05)
        return process.terminationStatus
    }

    /// The terminal's settings now, as the program left them.
    var settings: termios {
        var settings = termios()
        tcgetattr(slave, &settings)
        return settings
    }

    private func readAvailable(waitingUpTo seconds: TimeInterval) {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if count > 0 { received += buffer[..<count] }
    }
}

/// The C library's pseudo-terminal calls. Swift's Glibc module leaves them out (they need
/// _XOPEN_SOURCE), so they are looked up in the C library already loaded.
private struct PseudoTerminalCalls {
    let openMaster: @convention(c) (Int32) -> Int32
    let grant: @convention(c) (Int32) -> Int32
    let unlock: @convention(c) (Int32) -> Int32
    let slaveName: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    init() throws {
        func lookUp<F>(_ name: String, as type: F.Type) throws -> F {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
                throw PseudoTerminal.Failure.system("\(name) is not in the C library")
            }
            return unsafeBitCast(symbol, to: F.self)
        }
        openMaster = try lookUp("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        grant = try lookUp("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        unlock = try lookUp("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        slaveName = try lookUp("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
    }
}
