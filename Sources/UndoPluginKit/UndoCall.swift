import UndoPluginABI

/// The first parameter of every perform, inverse and merge function (`undo_call *`), wrapped.
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
    public func reportChange(location: Int64 = -1, length: Int64 = -1, in context: String? = nil) {
        let host = raw.pointee.host!
        if let context {
            _ = context.withCString { host.pointee.report_change(raw, $0, location, length) }
        } else {
            _ = host.pointee.report_change(raw, nil, location, length)
        }
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

    /// The body of a perform or inverse function: runs `body`, and turns a thrown error into
    /// `report_error` plus its code (an ``UndoPluginError``'s own, UNDO_EPLUGIN for any other
    /// error), so the C function is one expression:
    ///
    ///     { call, index in UndoCall.run(call) { call in try call.state(Notes.self).remove(Int(index)) } }
    ///
    /// - Returns: UNDO_OK, or the thrown error's code (UNDO_EINVAL for a NULL call).
    public static func run(_ call: UnsafeMutablePointer<undo_call>?,
                           _ body: (UndoCall) throws -> Void) -> Int32 {
        guard let call else { return Int32(UNDO_EINVAL) }
        let wrapped = UndoCall(call)
        do {
            try body(wrapped)
            return Int32(UNDO_OK)
        } catch {
            return wrapped.host.report(UndoPluginError(error))
        }
    }
}
