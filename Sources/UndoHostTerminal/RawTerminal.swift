#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The terminal settings to put back, kept where a signal handler can reach them (a handler
/// cannot capture anything). Written only on the main thread, before handlers can run.
/// On the heap rather than a global `termios`: Swift 6.3 lays out a zero-initialized global of
/// this C struct packed, without its 3 inner padding bytes (57 of 60 bytes), so storing a whole
/// termios overran it (AddressSanitizer: global-buffer-overflow).
nonisolated(unsafe) private let savedTerminalSettings: UnsafeMutablePointer<termios> = {
    let storage = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    storage.initialize(to: termios())
    return storage
}()
nonisolated(unsafe) private var terminalIsRaw = false

/// Puts the terminal back the way it was found, if raw mode is on. Safe in a signal handler
/// (tcsetattr is async-signal-safe).
private func restoreTerminalSettings() {
    guard terminalIsRaw else { return }
    _ = tcsetattr(STDIN_FILENO, TCSANOW, savedTerminalSettings)
    terminalIsRaw = false
}

/// Restores the terminal, then lets the signal do what it does by default (end the process).
private func restoreTerminalAndResignal(_ signalNumber: Int32) {
    restoreTerminalSettings()
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}

/// The terminal on standard input, switched to raw mode only while a line is being read, so
/// command output and plugin logs print as usual. Whatever happens (a signal, an error, the
/// end of the program) the settings it changed are put back.
public final class RawTerminal {
    private var handlersInstalled = false

    public init() {}

    /// Whether standard input and output are a terminal.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// The terminal's width in columns, or `nil` when unknown.
    public static var columns: Int? { size?.columns }

    /// The size of the terminal on standard output, or `nil` when it is not a terminal.
    public static var size: (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), size.ws_row > 0 ? Int(size.ws_row) : 24)
    }

    /// Runs `body` with the terminal in raw mode: no echo, no line buffering, Ctrl+C and
    /// Ctrl+Z as bytes (the line editor handles them), output processing kept (so "\n" still
    /// starts a new line).
    public func withRawMode<R>(_ body: () throws -> R) rethrows -> R {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return try body() }
        savedTerminalSettings.pointee = settings
        installHandlersOnce()
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | ISTRIP)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1  // a read returns after one byte
            controlCharacters[Int(VTIME)] = 0 // with no timeout
        }
        terminalIsRaw = true
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { restoreTerminalSettings() }
        return try body()
    }

    /// Reads what the terminal has (at least one byte); `nil` at end of input or on an error.
    public func readBytes() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 { return Array(buffer[..<count]) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    /// Whether more input arrives within `milliseconds` (to tell a lone Escape from a sequence).
    public func hasInput(within milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Writes `text` at once (the prompt and line redraws bypass stdout's buffer).
    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Signals that end the program put the terminal back first; so does a normal exit.
    private func installHandlersOnce() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        var signals = sigset_t()
        sigemptyset(&signals)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { restoreTerminalAndResignal($0) }
            sigaddset(&signals, signalNumber)
        }
        // A parent may have started us with these blocked (some process launchers pass their
        // thread's mask on); then they would never arrive and the terminal stay raw.
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        atexit { restoreTerminalSettings() }
    }
}
