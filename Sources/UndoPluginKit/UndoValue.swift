import UndoPluginABI

/// The type of a parameter or value (`UNDO_TYPE_*`).
public enum UndoValueType: UInt32, Sendable, Hashable, CaseIterable {
    case i32 = 1, u32 = 2, i64 = 3, u64 = 4, f64 = 5, string = 6, bytes = 7
}

/// One typed value crossing the boundary: an inverse argument handed back from perform, an
/// argument of a merge, or an argument of a recorded step.
///
/// Swift-owned: the kit makes the C `undo_value` (and the memory it points to) only for the
/// duration of the host call that copies it.
public enum UndoValue: Sendable, Hashable {
    case i32(Int32)
    case u32(UInt32)
    case i64(Int64)
    case u64(UInt64)
    case f64(Double)
    /// UTF-8 without NUL characters (the host refuses them).
    case string(String)
    case bytes([UInt8])

    public var type: UndoValueType {
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

    /// The value of any integer case that fits in Int64, else nil.
    public var integer: Int64? {
        switch self {
        case .i32(let v): Int64(v)
        case .u32(let v): Int64(v)
        case .i64(let v): v
        case .u64(let v): Int64(exactly: v)
        default: nil
        }
    }

    public var double: Double? { if case .f64(let v) = self { v } else { nil } }
    public var string: String? { if case .string(let v) = self { v } else { nil } }
    public var bytes: [UInt8]? { if case .bytes(let v) = self { v } else { nil } }
}
