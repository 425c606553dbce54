import UndoPluginABI

/// Why arguments do not fit an action's signature (or could not be parsed). Nothing was
/// performed.
public struct ActionArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Error, Sendable, Equatable {
        /// The number of arguments differs from the number of parameters.
        case wrongCount(expected: Int, given: Int)
        /// A value of another type than the parameter's, with no conversion between them.
        case wrongType(expected: ActionValueType, given: ActionValueType)
        /// A number that does not fit the parameter's type (`value` as written).
        case outOfRange(expected: ActionValueType, value: String)
        /// NaN or an infinity for an f64 parameter.
        case notFinite
        /// A string that is not valid UTF-8.
        case invalidUTF8
        /// A string with a NUL character inside (C would cut it there).
        case embeddedNUL
        /// A string or bytes value over the size limit.
        case tooLarge(size: Int, limit: Int)
        /// The argument text is malformed.
        case syntax(String)
        /// A C value with a type tag that is not an `UNDO_TYPE_*`.
        case unknownType(UInt32)
        /// A C value that breaks the rules of `undo_value` (NULL data with a size, say).
        case invalidValue(String)
    }

    public var kind: Kind
    /// The 0-based index of the argument, when one is at fault.
    public var index: Int?
    /// The name of its parameter, when known.
    public var parameter: String?
    /// The 1-based column in the parsed text, for parse errors and parsed arguments.
    public var column: Int?

    public init(_ kind: Kind, index: Int? = nil, parameter: String? = nil, column: Int? = nil) {
        self.kind = kind
        self.index = index
        self.parameter = parameter
        self.column = column
    }

    /// The ABI error code of this error (`UNDO_ECOUNT`, `UNDO_ETYPE`, ...).
    public var code: Int32 {
        switch kind {
        case .wrongCount: Int32(UNDO_ECOUNT)
        case .wrongType: Int32(UNDO_ETYPE)
        case .outOfRange, .notFinite: Int32(UNDO_ERANGE)
        case .invalidUTF8, .embeddedNUL: Int32(UNDO_EUTF8)
        case .tooLarge: Int32(UNDO_ELIMIT)
        case .syntax, .invalidValue: Int32(UNDO_EINVAL)
        case .unknownType: Int32(UNDO_ETYPE)
        }
    }

    public var description: String {
        var place: [String] = []
        if let index { place.append("argument \(index + 1)" + (parameter.map { " (\($0))" } ?? "")) }
        if let column { place.append("column \(column)") }
        let prefix = place.isEmpty ? "" : place.joined(separator: ", ") + ": "
        return prefix + reason
    }

    /// The reason alone, without the place.
    public var reason: String {
        switch kind {
        case .wrongCount(let expected, let given):
            "expected \(expected) argument\(expected == 1 ? "" : "s"), got \(given)"
        case .wrongType(let expected, let given): "expected \(expected), got \(given)"
        case .outOfRange(let expected, let value): "\(value) does not fit in \(expected)"
        case .notFinite: "expected a finite number"
        case .invalidUTF8: "the string is not valid UTF-8"
        case .embeddedNUL: "the string contains a NUL character"
        case .tooLarge(let size, let limit): "\(size) bytes is over the limit of \(limit)"
        case .syntax(let message): message
        case .unknownType(let tag): "unknown value type \(tag)"
        case .invalidValue(let message): message
        }
    }
}
