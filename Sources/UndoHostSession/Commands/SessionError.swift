import UndoPluginABI
import UndoPluginHost

/// Why a session command failed: one clear line saying what went wrong and where, its error
/// code (named as in undo_common.h, `UNDO_ERANGE`), and a hint (the expected signature, the
/// closest command or action id). Nothing was changed.
public struct SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of mistake, for `--json` readers.
    public enum Kind: String, Sendable {
        case unknownCommand, unknownAction, ambiguousAction, arguments, syntax
        case plugin, pluginLoad, history, nothingToDo, document
        /// An `expect CODE COMMAND` line whose command did not fail with CODE.
        case expectation
        /// The script itself could not be read as lines (one too long, not UTF-8).
        case input
    }

    public var kind: Kind
    public var message: String
    /// The negative error code of undo_common.h (`UNDO_EINVAL`, ...).
    public var code: Int32
    public var hint: String?
    /// The 1-based column in the command line where the problem is, when known.
    public var column: Int?

    /// - Parameter code: the error code; by default the one the kind stands for.
    public init(_ kind: Kind, _ message: String, code: Int32? = nil, hint: String? = nil, column: Int? = nil) {
        self.kind = kind
        self.message = Self.capped(message)
        self.code = code ?? Self.defaultCode(of: kind)
        self.hint = hint.map(Self.capped)
        self.column = column
    }

    /// The longest message or hint, in Characters: a 10 MB word echoed in an error is cut.
    static let maximumMessageLength = 1024

    /// `text`, or its start and a note of its size when it is longer than the cap.
    static func capped(_ text: String) -> String {
        guard text.utf8.count > maximumMessageLength else { return text }
        let start = text.prefix(maximumMessageLength)
        guard start.endIndex < text.endIndex else { return text }
        return start + "… (\(text.utf8.count) bytes in all)"
    }

    /// The code's name, `UNDO_ERANGE` (`UNDO_EUNKNOWN` for a code not in the table).
    public var codeName: String { ErrorReport.name(of: code) }

    public var description: String { codeName + ": " + message }

    static func defaultCode(of kind: Kind) -> Int32 {
        switch kind {
        case .unknownCommand, .unknownAction, .document: UNDO_ENOTFOUND
        case .ambiguousAction, .arguments, .syntax, .input: UNDO_EINVAL
        case .plugin: UNDO_EPLUGIN
        case .pluginLoad: UNDO_ELOAD
        case .history, .expectation: UNDO_ESTATE
        case .nothingToDo: UNDO_EEMPTY
        }
    }

    var json: JSONValue {
        .object([("kind", .string(kind.rawValue)), ("code", .string(codeName)), ("codeNumber", .integer(code)),
                 ("message", .string(message)), ("hint", .optional(hint)), ("column", .optional(column))])
    }
}
