#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoHostTerminal

/// Where the tool writes: standard output for results, standard error for errors and warnings.
public protocol ToolOutput: AnyObject {
    func write(_ text: String, error: Bool)
}

/// The process's standard output and error, written unbuffered so that a program driving the
/// tool through a pipe sees each answer as soon as it is made.
public final class StandardStreams: ToolOutput {
    public init() {}
    public func write(_ text: String, error: Bool) {
        let descriptor = error ? STDERR_FILENO : STDOUT_FILENO
        var bytes = Array(TerminalText.escapingControls(text).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Collects output in memory (for tests that drive a session in-process).
public final class CapturedOutput: ToolOutput {
    public private(set) var standardOutput = ""
    public private(set) var standardError = ""
    public init() {}
    public func write(_ text: String, error: Bool) {
        let text = TerminalText.escapingControls(text)
        if error { standardError += text } else { standardOutput += text }
    }
}

/// Where a failing command was, for its error line.
public enum CommandPlace: Sendable {
    /// Typed at the prompt.
    case prompt
    /// Line `line` of a script named `file`.
    case script(file: String, line: Int)
}

/// Prints outcomes: as text (errors on standard error as `FILE:LINE: reason` with a hint
/// line), or as one JSON object per line on standard output (errors included).
public struct OutcomePresenter {
    public let output: ToolOutput
    public let json: Bool
    public let style: TextStyle
    /// The room text has (`show` fits a document into it).
    public var layout: TextLayout
    /// The language of everything printed as text (`--json`'s keys and kinds stay as they are).
    public var words: SessionText

    public init(output: ToolOutput, json: Bool, style: TextStyle, layout: TextLayout = .standard,
                words: SessionText = .english) {
        self.output = output
        self.json = json
        self.style = style
        self.layout = layout
        self.words = words
    }

    public func present(_ outcome: CommandOutcome, at place: CommandPlace) {
        if json {
            var object = outcome.json
            if case .script(let file, let line) = place, case .object(var members) = object {
                members.insert(contentsOf: [("file", .string(file)), ("line", .integer(line))], at: 0)
                object = .object(members)
            }
            output.write(object.serialized + "\n", error: false)
            return
        }
        if let error = outcome.error {
            presentError(error, at: place, state: outcome.state)
            return
        }
        let text = outcome.text(style: style, layout: layout, words: words)
        if !text.isEmpty { output.write(text + "\n", error: false) }
    }

    /// An error not from one command (a group never ended): a text error line, or a `--json`
    /// object with the state, like every other.
    public func presentError(_ error: SessionError, at place: CommandPlace, state: SessionState) {
        if json {
            var members: [(String, JSONValue)] = []
            if case .script(let file, let line) = place { members += [("file", .string(file)), ("line", .integer(line))] }
            members += [("command", "end"), ("ok", false), ("error", error.json), ("state", state.json)]
            output.write(JSONValue.object(members).serialized + "\n", error: false)
            return
        }
        var text: String
        switch place {
        case .prompt: text = words.errorPrefix
        case .script(let file, let line): text = "\(file):\(line): "
        }
        text += error.codeName + ": " + error.message
        if let column = error.column, case .prompt = place { text += words.column(column) }
        var hint = error.hint.map { "  " + words.hint + $0 }
        if case .prompt = place {
            // At the prompt, wrapped to the terminal as help is; a script's error stays one
            // FILE:LINE line (and its hint one more) for the tools that read them.
            text = text.wrapped(to: layout.width, indent: 2)
            hint = hint?.wrapped(to: layout.width, indent: 4)
        }
        if let hint { text += "\n" + hint }
        output.write(text + "\n", error: true)
    }

    /// A line of its own, not about one command (warnings, the banner).
    public func note(_ text: String, error: Bool = false) {
        output.write(text + "\n", error: error)
    }
}
