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

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
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
