import UndoPluginABI

/// The type of an action parameter or value, as the plugin ABI numbers it (`UNDO_TYPE_*`).
public enum ActionValueType: UInt32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case i32 = 1, u32 = 2, i64 = 3, u64 = 4, f64 = 5, string = 6, bytes = 7

    /// The name used in signatures: "i32", "string", ...
    public var description: String {
        switch self {
        case .i32: "i32"
        case .u32: "u32"
        case .i64: "i64"
        case .u64: "u64"
        case .f64: "f64"
        case .string: "string"
        case .bytes: "bytes"
        }
    }

    /// Whether the type is a number (an integer type or f64): its values fit in 64 bits.
    public var isNumber: Bool { self != .string && self != .bytes }

    /// Whether the type is one of the four integer types.
    public var isInteger: Bool {
        switch self {
        case .i32, .u32, .i64, .u64: true
        default: false
        }
    }
}

/// One typed value: an argument of a plugin action or of its inverse.
///
/// Its `description` is the script literal that ``ActionArguments/parse(_:for:)`` reads back:
/// `12`, `-3`, `2.5`, `"a \"quoted\" text"`, `x"00ff"`.
public enum ActionValue: Sendable, Hashable, CustomStringConvertible {
    case i32(Int32)
    case u32(UInt32)
    case i64(Int64)
    case u64(UInt64)
    case f64(Double)
    /// UTF-8 text without NUL characters (checked against a parameter).
    case string(String)
    case bytes([UInt8])

    public var type: ActionValueType {
        switch self {
        case .i32: .i32
        case .u32: .u32
        case .i64: .i64
        case .u64: .u64
        case .f64: .f64
        case .string: .string
        case .bytes: .bytes
        }
    }

    public var description: String {
        switch self {
        case .i32(let v): String(v)
        case .u32(let v): String(v)
        case .i64(let v): String(v)
        case .u64(let v): String(v)
        case .f64(let v): v.description
        case .string(let s): Self.quoted(s)
        case .bytes(let b): "x\"" + b.map { Self.hex($0) }.joined() + "\""
        }
    }

    /// The bytes this value keeps alive (for a step's cost).
    var storageSize: Int {
        switch self {
        case .string(let s): 16 + s.utf8.count
        case .bytes(let b): 16 + b.count
        default: 16
        }
    }

    /// `text` in double quotes, with `"`, `\\`, and control characters escaped.
    /// Only ASCII bytes are ever escaped, so the text is read as UTF-8 and copied in runs
    /// between escapes (one copy of a 16 MiB argument, not one append per character).
    /// - Complexity: O(bytes of `text`).
    static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        let utf8 = text.utf8
        var runStart = utf8.startIndex
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            let escape: String? = switch byte {
            case UInt8(ascii: "\""): "\\\""
            case UInt8(ascii: "\\"): "\\\\"
            case UInt8(ascii: "\n"): "\\n"
            case UInt8(ascii: "\t"): "\\t"
            case UInt8(ascii: "\r"): "\\r"
            case _ where byte < 0x20 || byte == 0x7F: "\\u{" + String(byte, radix: 16) + "}"
            default: nil
            }
            if let escape {
                // An ASCII byte starts a scalar: the run before it ends on a scalar's edge.
                result += text[runStart..<index]
                result += escape
                runStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        result += text[runStart..<utf8.endIndex]
        result += "\""
        return result
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}

/// One named parameter of an action type.
public struct ActionParameter: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var type: ActionValueType
    public init(_ name: String, _ type: ActionValueType) {
        self.name = name
        self.type = type
    }
    /// "position: i64"
    public var description: String { "\(name): \(type)" }
}

/// The parameter list of a perform or inverse function.
public struct ActionSignature: Sendable, Hashable, CustomStringConvertible {
    public var parameters: [ActionParameter]
    public init(_ parameters: [ActionParameter]) { self.parameters = parameters }
    /// "(position: i64, text: string)"
    public var description: String { "(" + parameters.map(\.description).joined(separator: ", ") + ")" }
    public var types: [ActionValueType] { parameters.map(\.type) }
}
