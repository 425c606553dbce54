import UndoPluginABI

/// What a perform, inverse or merge function is called about (the ABI's `undo_call *`), wrapped.
///
/// Valid only until the function returns: never keep it.
public struct UndoCall {
    public let raw: UnsafeMutablePointer<undo_call>

    public init(_ raw: UnsafeMutablePointer<undo_call>) { self.raw = raw }

    public enum Phase: Sendable, Hashable {
        /// perform, the first time; perform on redo; the inverse on undo; merge.
        case perform, redo, inverse, merge
        /// A phase added by a newer host.
        case other(UInt32)
    }

    public var phase: Phase {
        switch Int32(raw.pointee.phase) {
        case Int32(UNDO_PHASE_PERFORM): .perform
        case Int32(UNDO_PHASE_REDO): .redo
        case Int32(UNDO_PHASE_INVERSE): .inverse
        case Int32(UNDO_PHASE_MERGE): .merge
        default: .other(raw.pointee.phase)
        }
    }

    /// The step's context (document) name, "" for none.
    public var context: String { String(undoArgument: raw.pointee.context) }
    /// The local id of the action being called ("insert").
    public var actionID: String { String(undoArgument: raw.pointee.action_id) }
    public var host: UndoHostCallbacks { UndoHostCallbacks(raw.pointee.host) }

    /// The instance this call is for (made by the kit's init from `undo_call.plugin_data`).
    var instance: UndoPluginInstance {
        get throws(UndoPluginError) {
            guard let instance = UndoPluginInstance.from(raw.pointee.plugin_data) else {
                throw UndoPluginError(.wrongState, "the call has no plugin data: the plugin was not initialized by UndoPluginKit")
            }
            return instance
        }
    }

    /// The action this call is for, by `undo_call.action_id`.
    var action: UndoPluginAction {
        get throws(UndoPluginError) {
            guard let action = try instance.plugin.action(withID: actionID) else {
                throw UndoPluginError(.notFound, "no action \(actionID) in this plugin")
            }
            return action
        }
    }

    /// The state `makeState` made for this plugin instance.
    /// - Parameter type: the type `makeState` returns.
    /// - Throws: UNDO_ESTATE when the state is of another type (a mistake in the plugin, which
    ///   fails this one call rather than the host's process).
    public func state<State: AnyObject>(_ type: State.Type = State.self) throws(UndoPluginError) -> State {
        let state = try instance.state
        guard let typed = state as? State else {
            throw UndoPluginError(.wrongState, "the plugin state is \(Swift.type(of: state)), not \(State.self)")
        }
        return typed
    }

    /// Reports a place this call changed. `location`: an offset or object id, -1 for the whole
    /// context; `length`: -1 for a point or an object; `context`: nil for the call's own.
    @available(*, deprecated, message: "use reportChange(_:in:) with .object(id), .range(location:length:) or .whole")
    public func reportChange(location: Int64 = -1, length: Int64 = -1, in context: String? = nil) {
        _ = reportChange(cLocation: location, length: length, in: context)
    }

    /// Reports a place this call changed, for the host to show after undo and redo.
    /// - Parameters:
    ///   - change: an object by its id, a range, or the whole document.
    ///   - context: the document, nil for the call's own.
    /// - Throws: UNDO_ERANGE for a negative id, location or length (nothing is reported), or
    ///   the host's refusal (UNDO_ESTATE outside perform and inverse; a context name that is
    ///   not UTF-8 or too long). For the call's own context from perform or inverse, with no
    ///   negative number, it does not fail, so it may come after the change.
    public func reportChange(_ change: UndoChangeReport, in context: String? = nil) throws(UndoPluginError) {
        guard let (location, length) = change.cArguments else {
            throw UndoPluginError(.outOfRange, "a reported change has no negative numbers: \(change)")
        }
        let status = reportChange(cLocation: location, length: length, in: context)
        if let error = UndoPluginError(status: status, "report_change(\(change))") { throw error }
    }

    private func reportChange(cLocation location: Int64, length: Int64, in context: String?) -> Int32 {
        let host = raw.pointee.host!
        if let context {
            return context.withCString { host.pointee.report_change(raw, $0, location, length) }
        }
        return host.pointee.report_change(raw, nil, location, length)
    }

    /// From perform (the first time) or merge: gives the step a longer description for history
    /// lists, beside its brief name (`Typing "hello"` for "Typing"), in the language of
    /// ``UndoHostCallbacks/locale``; `nil` removes it. A merge that does not set one keeps the
    /// older step's; on redo the host accepts it and keeps the step's first description
    /// (`undo_host.set_description`, ABI 1.7).
    /// - Parameter description: at most `UNDO_MAX_DESCRIPTION_LENGTH` bytes of UTF-8, or `nil`.
    /// - Throws: UNDO_ENOTSUP from a host older than 1.7 (the step then shows its name), or the
    ///   host's refusal (UNDO_ESTATE outside perform and merge, UNDO_ELIMIT for a text too long).
    /// - Complexity: O(*n*) in the length of the text, which the host copies.
    public func setDescription(_ description: String?) throws(UndoPluginError) {
        let host = raw.pointee.host!
        guard UndoHostCallbacks(host).hasABI17, let setDescription = host.pointee.set_description else {
            throw UndoPluginError(.notSupported, "the host (ABI \(host.pointee.abi_major).\(host.pointee.abi_minor)) has no set_description")
        }
        let status: Int32
        if let description {
            status = description.withCString { setDescription(raw, $0) }
        } else {
            status = setDescription(raw, nil)
        }
        if let error = UndoPluginError(status: status, "set_description") { throw error }
    }

    /// From perform (the first time or on redo) or the inverse: says that this step changes
    /// nothing any more (the object it acts on is gone, the value is already the one it
    /// sets), so the host takes it out of the history once the call returns, as Qt's
    /// `QUndoCommand::setObsolete` does. Performed the first time, the step is not added;
    /// undone or redone, it leaves the history and the position and titles stay right. Return
    /// normally afterwards (no inverse arguments are needed); a thrown error fails the call
    /// as usual.
    ///
    ///     if shape.color == color { try call.markObsolete(); return }
    ///
    /// - Throws: UNDO_ENOTSUP from a host older than ABI 1.7 (the step then stays: make it
    ///   change nothing harmful), UNDO_ESTATE outside perform and the inverse.
    public func markObsolete() throws(UndoPluginError) {
        let host = raw.pointee.host!
        let end = MemoryLayout<undo_host>.offset(of: \.set_obsolete)! + MemoryLayout<UnsafeRawPointer>.size
        guard Int(host.pointee.struct_size) >= end, let setObsolete = host.pointee.set_obsolete else {
            throw UndoPluginError(.notSupported, "set_obsolete needs a host of ABI 1.7 or later")
        }
        if let error = UndoPluginError(status: setObsolete(raw), "set_obsolete") { throw error }
    }

    /// The index of the parameter `name`, checked against `Value`'s type.
    private func parameterIndex<Value: UndoPluginValue>(_ name: String, of value: Value.Type,
                                                         inverse: Bool) throws(UndoPluginError) -> Int {
        let action = try self.action
        let parameters = inverse ? action.inverseParameters ?? action.parameters : action.parameters
        guard let index = parameters.firstIndex(where: { $0.name == name }) else {
            throw UndoPluginError(.notFound, "\(actionID) has no \(inverse ? "inverse " : "")parameter \(name)")
        }
        guard parameters[index].type == Value.undoType else {
            throw UndoPluginError(.wrongType, "\(actionID)'s \(inverse ? "inverse " : "")parameter \(name) is \(parameters[index].type), not \(Value.undoType)")
        }
        return index
    }

    /// From perform: hands back the inverse argument `name` for undo. From merge: sets the
    /// merged step's inverse argument. The host copies it at once.
    /// - Parameters:
    ///   - name: an inverse parameter's declared name (perform's when the inverse takes
    ///     perform's arguments).
    ///   - value: its value, of the declared type.
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE for another type, or the
    ///   host's refusal.
    @available(*, deprecated, message: "a value given by name is checked only when the call runs (an integer literal becomes a Double): pass an UndoParameterKey<Type>, whose type the value takes")
    public func setInverseArgument<Value: UndoPluginValue>(_ name: String, _ value: Value) throws(UndoPluginError) {
        try setInverseArgument(try parameterIndex(name, of: Value.self, inverse: true), value.undoValue)
    }

    /// From merge only: sets the argument `name` of the merged step (used again on redo).
    /// - Parameters:
    ///   - name: a declared parameter's name.
    ///   - value: its value, of the declared type.
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE for another type, or the
    ///   host's refusal.
    @available(*, deprecated, message: "a value given by name is checked only when the call runs (an integer literal becomes a Double): pass an UndoParameterKey<Type>, whose type the value takes")
    public func setArgument<Value: UndoPluginValue>(_ name: String, _ value: Value) throws(UndoPluginError) {
        try setArgument(try parameterIndex(name, of: Value.self, inverse: false), value.undoValue)
    }

    /// From perform: hands back the inverse argument `key` for undo; from merge: sets the merged
    /// step's. The value has the key's type, so another type does not compile
    /// (`setInverseArgument(position, 0)` gives an `Int64` to an `UndoParameterKey<Int64>`).
    /// - Parameters:
    ///   - key: a declared inverse parameter (perform's when the inverse takes perform's).
    ///   - value: its value.
    /// - Throws: UNDO_ENOTFOUND for an undeclared name, UNDO_ETYPE when the action declares the
    ///   name with another type than the key's, or the host's refusal.
    public func setInverseArgument<Value: UndoPluginValue>(_ key: UndoParameterKey<Value>, _ value: Value) throws(UndoPluginError) {
        try setInverseArgument(try parameterIndex(key.name, of: Value.self, inverse: true), value.undoValue)
    }

    /// From merge only: sets the merged step's argument `key` (used again on redo), of the
    /// key's type.
    /// - Parameters:
    ///   - key: a declared parameter.
    ///   - value: its value.
    /// - Throws: as `setInverseArgument(_:_:)` with a key.
    public func setArgument<Value: UndoPluginValue>(_ key: UndoParameterKey<Value>, _ value: Value) throws(UndoPluginError) {
        try setArgument(try parameterIndex(key.name, of: Value.self, inverse: false), value.undoValue)
    }

    /// From perform only: gives this step a coalescing key of its own in place of its action's
    /// (`rename/2`: renaming task 2 twice is one step, renaming task 2 then task 3 is two);
    /// `nil`: this step never coalesces. A later call in the same perform replaces the key; on
    /// redo the step keeps the key it got first (the call is accepted and ignored)
    /// (`undo_host.set_coalescing_key`, ABI 1.3).
    /// - Parameter key: at most `UNDO_MAX_NAME_LENGTH` bytes of UTF-8, not empty; or `nil`.
    /// - Throws: UNDO_ENOTSUP from a host older than 1.3, UNDO_ESTATE outside perform, UNDO_EINVAL
    ///   for an empty key, UNDO_ELIMIT for one too long.
    /// - Complexity: O(*n*) in the key's length, which the host copies.
    public func setCoalescingKey(_ key: String?) throws(UndoPluginError) {
        let host = raw.pointee.host!
        let end = MemoryLayout<undo_host>.offset(of: \.set_coalescing_key)! + MemoryLayout<UnsafeRawPointer>.size
        guard Int(host.pointee.struct_size) >= end, let setKey = host.pointee.set_coalescing_key else {
            throw UndoPluginError(.notSupported, "set_coalescing_key needs a host of ABI 1.3 or later")
        }
        let status: Int32
        if let key {
            status = key.withCString { setKey(raw, $0) }
        } else {
            status = setKey(raw, nil)
        }
        if let error = UndoPluginError(status: status, "set_coalescing_key") { throw error }
    }

    /// From perform: hands back inverse argument `index` (of the inverse parameters) for undo.
    /// From merge: sets the merged step's inverse argument. The host copies it at once.
    public func setInverseArgument(_ index: Int, _ value: UndoValue) throws(UndoPluginError) {
        let host = raw.pointee.host!
        let status = value.withCValue { host.pointee.set_inverse_arg(raw, UInt32(index), $0) }
        if let error = UndoPluginError(status: status, "set_inverse_arg(\(index))") { throw error }
    }

    /// From merge only: sets argument `index` of the merged step (used again on redo).
    public func setArgument(_ index: Int, _ value: UndoValue) throws(UndoPluginError) {
        let host = raw.pointee.host!
        let status = value.withCValue { host.pointee.set_arg(raw, UInt32(index), $0) }
        if let error = UndoPluginError(status: status, "set_arg(\(index))") { throw error }
    }
}
