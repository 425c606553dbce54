import UndoPluginABI

/// The two steps a merge function is asked to combine, copied into Swift values.
///
/// Read an argument by its declared name and type: `try steps.next("priority", as: Int32.self)`.
public struct UndoMergeRequest: Sendable {
    public let previousArguments: [UndoValue]
    public let previousInverseArguments: [UndoValue]
    public let nextArguments: [UndoValue]
    public let nextInverseArguments: [UndoValue]
    /// The declared parameter names of perform and of the inverse.
    let parameterNames: [String]
    let inverseParameterNames: [String]

    /// The previous step's argument `name`.
    /// - Parameters:
    ///   - name: a declared parameter's name.
    ///   - type: its Swift type (`Int32.self` for an i32).
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE for another type.
    /// - Complexity: O(number of parameters).
    public func previous<Value: UndoPluginValue>(_ name: String, as type: Value.Type = Value.self) throws(UndoPluginError) -> Value {
        try Self.value(name, in: previousArguments, names: parameterNames, what: "parameter")
    }

    /// The next step's argument `name`.
    /// - Parameters:
    ///   - name: a declared parameter's name.
    ///   - type: its Swift type.
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE for another type.
    /// - Complexity: O(number of parameters).
    public func next<Value: UndoPluginValue>(_ name: String, as type: Value.Type = Value.self) throws(UndoPluginError) -> Value {
        try Self.value(name, in: nextArguments, names: parameterNames, what: "parameter")
    }

    /// The previous step's inverse argument `name`.
    /// - Parameters:
    ///   - name: a declared inverse parameter's name (perform's when the inverse takes perform's).
    ///   - type: its Swift type.
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE for another type.
    /// - Complexity: O(number of parameters).
    public func previousInverse<Value: UndoPluginValue>(_ name: String, as type: Value.Type = Value.self) throws(UndoPluginError) -> Value {
        try Self.value(name, in: previousInverseArguments, names: inverseParameterNames, what: "inverse parameter")
    }

    /// The next step's inverse argument `name`.
    /// - Parameters:
    ///   - name: a declared inverse parameter's name.
    ///   - type: its Swift type.
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE for another type.
    /// - Complexity: O(number of parameters).
    public func nextInverse<Value: UndoPluginValue>(_ name: String, as type: Value.Type = Value.self) throws(UndoPluginError) -> Value {
        try Self.value(name, in: nextInverseArguments, names: inverseParameterNames, what: "inverse parameter")
    }

    /// The previous step's argument `key`, of the key's type.
    /// - Parameter key: a declared parameter.
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE for another declared type.
    /// - Complexity: O(number of parameters).
    public func previous<Value: UndoPluginValue>(_ key: UndoParameterKey<Value>) throws(UndoPluginError) -> Value {
        try previous(key.name, as: Value.self)
    }

    /// The next step's argument `key`, of the key's type.
    /// - Parameter key: a declared parameter.
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE for another declared type.
    /// - Complexity: O(number of parameters).
    public func next<Value: UndoPluginValue>(_ key: UndoParameterKey<Value>) throws(UndoPluginError) -> Value {
        try next(key.name, as: Value.self)
    }

    /// The previous step's inverse argument `key`, of the key's type.
    /// - Parameter key: a declared inverse parameter (perform's when the inverse takes perform's).
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE for another declared type.
    /// - Complexity: O(number of parameters).
    public func previousInverse<Value: UndoPluginValue>(_ key: UndoParameterKey<Value>) throws(UndoPluginError) -> Value {
        try previousInverse(key.name, as: Value.self)
    }

    /// The next step's inverse argument `key`, of the key's type.
    /// - Parameter key: a declared inverse parameter.
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE for another declared type.
    /// - Complexity: O(number of parameters).
    public func nextInverse<Value: UndoPluginValue>(_ key: UndoParameterKey<Value>) throws(UndoPluginError) -> Value {
        try nextInverse(key.name, as: Value.self)
    }

    private static func value<Value: UndoPluginValue>(_ name: String, in values: [UndoValue], names: [String],
                                                      what: String) throws(UndoPluginError) -> Value {
        guard let index = names.firstIndex(of: name), index < values.count else {
            throw UndoPluginError(.notFound, "no \(what) \(name) (declared: \(names.joined(separator: ", ")))")
        }
        guard let value = Value(undoValue: values[index]) else {
            throw UndoPluginError(.wrongType, "\(what) \(name) is \(values[index].type), not \(Value.undoType)")
        }
        return value
    }
}

/// What a merge function decided (see UNDO_MERGE_* in undo_plugin.h).
public enum UndoMergeDecision: Int32, Sendable {
    /// Keep them as two separate steps of the history (the next one then starts a new run).
    case refused = 0
    /// The previous step now does both (after `UndoCall.setArgument` and
    /// `UndoCall.setInverseArgument`); the next one is dropped.
    case merged = 1
    /// Together they change nothing: both steps vanish.
    case annulled = 2
}

extension UndoCall {
    /// The kit's merge function (``UndoPluginInstance/mergeSteps``): copies the four argument
    /// arrays (their lengths are the action's declared counts) and returns the action's merge
    /// decision; a thrown error is reported and counts as refused.
    static func merge(_ call: UnsafeMutablePointer<undo_call>?,
                      _ previousArguments: UnsafePointer<undo_value>?,
                      _ previousInverseArguments: UnsafePointer<undo_value>?,
                      _ nextArguments: UnsafePointer<undo_value>?,
                      _ nextInverseArguments: UnsafePointer<undo_value>?) -> Int32 {
        guard let call else { return Int32(UNDO_EINVAL) }
        let wrapped = UndoCall(call)
        do {
            let action = try wrapped.action
            guard let merge = action.merge else {
                throw UndoPluginError(.notSupported, "\(action.id) has no merge function")
            }
            let names = action.parameters.map(\.name)
            let inverseNames = (action.inverseParameters ?? action.parameters).map(\.name)
            let argumentCount = names.count
            let inverseCount = inverseNames.count
            let request = UndoMergeRequest(
                previousArguments: try UndoValue.copyArray(previousArguments, count: argumentCount),
                previousInverseArguments: try UndoValue.copyArray(previousInverseArguments, count: inverseCount),
                nextArguments: try UndoValue.copyArray(nextArguments, count: argumentCount),
                nextInverseArguments: try UndoValue.copyArray(nextInverseArguments, count: inverseCount),
                parameterNames: names, inverseParameterNames: inverseNames)
            return try merge(wrapped, request).rawValue
        } catch {
            return wrapped.host.report(UndoPluginError(error))
        }
    }
}
