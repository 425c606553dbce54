/// The arguments of one perform or inverse call, copied from the host's values: read each by
/// position or by name, with its declared type.
///
///     let text = try args[0].string          // or try args["text"].string
///     let priority = try args[1].int32
///
/// A position past the declared parameters, an undeclared name, or a type other than the
/// declared one throws an ``UndoPluginError`` naming the action and the parameter, which fails
/// the call with that message (never a read of memory that is not there).
public struct UndoArguments: Sendable {
    /// The values, in the order of the declared parameters.
    public let values: [UndoValue]
    /// The declared parameters the values belong to.
    public let parameters: [UndoPluginParameter]
    /// The action's local id, for messages.
    public let actionID: String

    init(values: [UndoValue], parameters: [UndoPluginParameter], actionID: String) {
        self.values = values
        self.parameters = parameters
        self.actionID = actionID
    }

    /// How many arguments there are (as many as declared parameters).
    public var count: Int { values.count }

    /// The argument at `index`.
    /// - Parameter index: 0-based, below ``count``.
    /// - Throws: UNDO_EINVAL for a position past the declared parameters.
    /// - Complexity: O(1).
    public subscript(index: Int) -> UndoArgument {
        get throws(UndoPluginError) {
            guard values.indices.contains(index) else {
                // Messages count arguments from 1, as the host's do; the code's 0-based index is
                // shown as the code writes it.
                throw UndoPluginError(.invalidArgument, "\(actionID) has no args[\(index)]: it takes \(count) argument\(count == 1 ? "" : "s") (\(declared))")
            }
            return UndoArgument(value: values[index], parameter: parameters[index], index: index, actionID: actionID)
        }
    }

    /// The argument of the parameter `name`.
    /// - Parameter name: a declared parameter's name.
    /// - Throws: UNDO_ENOTFOUND for an undeclared name.
    /// - Complexity: O(number of parameters).
    public subscript(name: String) -> UndoArgument {
        get throws(UndoPluginError) {
            guard let index = parameters.firstIndex(where: { $0.name == name }) else {
                throw UndoPluginError(.notFound, "\(actionID) has no parameter \(name) (it takes \(declared))")
            }
            return try self[index]
        }
    }

    /// The argument of the parameter `key`, as its type: a key of another type than the value
    /// does not compile.
    /// - Parameter key: a declared parameter (``UndoParameterKey``).
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE when the action declares the
    ///   name with another type than the key's.
    /// - Complexity: O(number of parameters), plus the length of a string or bytes value.
    public subscript<Value: UndoPluginValue>(key: UndoParameterKey<Value>) -> Value {
        get throws(UndoPluginError) { try self[key.name].as(Value.self) }
    }

    private var declared: String { parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ") }
}

/// One argument of a call, read with its declared type (``UndoArguments``).
public struct UndoArgument: Sendable {
    /// The value the host gave.
    public let value: UndoValue
    /// The parameter it is the value of.
    public let parameter: UndoPluginParameter
    let index: Int
    let actionID: String

    /// The value as `Value`.
    /// - Parameter type: the Swift type of the declared parameter type (`Int32.self` for an i32).
    /// - Throws: UNDO_ETYPE when the parameter is declared with another type.
    /// - Complexity: O(1), or the length of a string or bytes value, which is copied.
    public func `as`<Value: UndoPluginValue>(_ type: Value.Type = Value.self) throws(UndoPluginError) -> Value {
        guard let typed = Value(undoValue: value) else {
            throw UndoPluginError(.wrongType, "\(actionID)'s argument \(index + 1) (\(parameter.name)) is \(parameter.type), not \(Value.undoType)")
        }
        return typed
    }

    /// An i32 argument. Throws UNDO_ETYPE for another type.
    public var int32: Int32 { get throws(UndoPluginError) { try self.as(Int32.self) } }
    /// A u32 argument. Throws UNDO_ETYPE for another type.
    public var uint32: UInt32 { get throws(UndoPluginError) { try self.as(UInt32.self) } }
    /// An i64 argument. Throws UNDO_ETYPE for another type.
    public var int64: Int64 { get throws(UndoPluginError) { try self.as(Int64.self) } }
    /// A u64 argument. Throws UNDO_ETYPE for another type.
    public var uint64: UInt64 { get throws(UndoPluginError) { try self.as(UInt64.self) } }
    /// An f64 argument. Throws UNDO_ETYPE for another type.
    public var double: Double { get throws(UndoPluginError) { try self.as(Double.self) } }
    /// A string argument. Throws UNDO_ETYPE for another type.
    public var string: String { get throws(UndoPluginError) { try self.as(String.self) } }
    /// A bytes argument. Throws UNDO_ETYPE for another type.
    public var bytes: [UInt8] { get throws(UndoPluginError) { try self.as([UInt8].self) } }
}
