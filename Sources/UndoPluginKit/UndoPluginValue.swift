/// A Swift type a parameter of an action can have: each knows its ABI type and converts to and
/// from ``UndoValue``, so merge arguments and inverse arguments are read and set with their
/// types instead of by position in `[UndoValue]`.
///
/// The kit makes `Int32`, `UInt32`, `Int64`, `UInt64`, `Double`, `String` and `[UInt8]` conform,
/// one per ABI type (i32, u32, i64, u64, f64, string, bytes). `Int` does not: it has no ABI type,
/// so an integer literal given where a value is expected must be typed (`Int64(0)`), or given
/// through an ``UndoParameterKey``, whose type it takes.
public protocol UndoPluginValue: Sendable {
    /// The parameter type a value of this type arrives as (`UNDO_TYPE_*`).
    static var undoType: UndoValueType { get }
    /// The value held by `value`, or nil when `value` is of another type.
    /// - Parameter value: a value the host gave.
    init?(undoValue value: UndoValue)
    /// This value, tagged with its type.
    var undoValue: UndoValue { get }
}

extension Int32: UndoPluginValue {
    public static var undoType: UndoValueType { .i32 }
    /// - Parameter value: an `.i32` value.
    public init?(undoValue value: UndoValue) { guard case .i32(let v) = value else { return nil }; self = v }
    public var undoValue: UndoValue { .i32(self) }
}

extension UInt32: UndoPluginValue {
    public static var undoType: UndoValueType { .u32 }
    /// - Parameter value: a `.u32` value.
    public init?(undoValue value: UndoValue) { guard case .u32(let v) = value else { return nil }; self = v }
    public var undoValue: UndoValue { .u32(self) }
}

extension Int64: UndoPluginValue {
    public static var undoType: UndoValueType { .i64 }
    /// - Parameter value: an `.i64` value.
    public init?(undoValue value: UndoValue) { guard case .i64(let v) = value else { return nil }; self = v }
    public var undoValue: UndoValue { .i64(self) }
}

extension UInt64: UndoPluginValue {
    public static var undoType: UndoValueType { .u64 }
    /// - Parameter value: a `.u64` value.
    public init?(undoValue value: UndoValue) { guard case .u64(let v) = value else { return nil }; self = v }
    public var undoValue: UndoValue { .u64(self) }
}

extension Double: UndoPluginValue {
    public static var undoType: UndoValueType { .f64 }
    /// - Parameter value: an `.f64` value.
    public init?(undoValue value: UndoValue) { guard case .f64(let v) = value else { return nil }; self = v }
    public var undoValue: UndoValue { .f64(self) }
}

extension String: UndoPluginValue {
    public static var undoType: UndoValueType { .string }
    /// - Parameter value: a `.string` value.
    public init?(undoValue value: UndoValue) { guard case .string(let v) = value else { return nil }; self = v }
    public var undoValue: UndoValue { .string(self) }
}

extension Array: UndoPluginValue where Element == UInt8 {
    public static var undoType: UndoValueType { .bytes }
    /// - Parameter value: a `.bytes` value.
    public init?(undoValue value: UndoValue) { guard case .bytes(let v) = value else { return nil }; self = v }
    public var undoValue: UndoValue { .bytes(self) }
}

/// A declared parameter with its Swift type: `let position = UndoParameterKey<Int64>("position")`.
///
/// Declare the action's parameters from keys (`parameters: [.init(position), .init(text)]`),
/// then read and set values through them (`try args[position]`,
/// `try call.setInverseArgument(position, 0)`, `try steps.next(position)`): the value takes the
/// key's type, so a value of another type does not compile, where a name (`"position"`) is
/// checked only when the call runs.
public struct UndoParameterKey<Value: UndoPluginValue>: Sendable, Hashable {
    /// The parameter's name: ASCII letters, digits and '_'.
    public let name: String

    /// - Parameter name: the parameter's name.
    public init(_ name: String) { self.name = name }

    /// The parameter it declares: its name and its ABI type.
    public var parameter: UndoPluginParameter { UndoPluginParameter(name, Value.undoType) }
}

extension UndoPluginParameter {
    /// The parameter a key declares (`.init(position)`).
    /// - Parameter key: the parameter's name and Swift type.
    public init<Value: UndoPluginValue>(_ key: UndoParameterKey<Value>) {
        self.init(key.name, Value.undoType)
    }
}
