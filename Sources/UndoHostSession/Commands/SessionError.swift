/// Why a session command failed: one clear line saying what went wrong and where, and a hint
/// (the expected signature, the closest command or action id). Nothing was changed.
public struct SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of mistake, for `--json` readers.
    public enum Kind: String, Sendable {
        case unknownCommand, unknownAction, ambiguousAction, arguments, syntax
        case plugin, pluginLoad, history, nothingToDo, document
    }

    public var kind: Kind
    public var message: String
    public var hint: String?
    /// The 1-based column in the command line where the problem is, when known.
    public var column: Int?

    public init(_ kind: Kind, _ message: String, hint: String? = nil, column: Int? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.column = column
    }

    public var description: String { message }

    var json: JSONValue {
        .object([("kind", .string(kind.rawValue)), ("message", .string(message)),
                 ("hint", .optional(hint)), ("column", .optional(column))])
    }
}
