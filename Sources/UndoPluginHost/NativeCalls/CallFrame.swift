#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoPluginABI

/// What the host is doing inside a plugin on this thread: the state of one call into plugin
/// code (init, perform, inverse, merge, describe, deinit, a close handler), which the host
/// callbacks read.
///
/// Callbacks find the frame through ``current`` (this thread's frame under way) and only accept
/// an `undo_call *` equal to the frame's own pointer, so a stale or foreign pointer is refused
/// before it is read. A frame is used by one thread at a time: the calling thread, holding the
/// plugin's call lock (``LoadedPlugin/withFrame(_:action:context:_:)``).
final class CallFrame {
    enum Phase: Equatable {
        case initialize, deinitialize, perform, redo, inverse, merge, describe

        var cPhase: UInt32 {
            switch self {
            case .perform: UInt32(UNDO_PHASE_PERFORM)
            case .redo: UInt32(UNDO_PHASE_REDO)
            case .inverse: UInt32(UNDO_PHASE_INVERSE)
            case .merge: UInt32(UNDO_PHASE_MERGE)
            default: 0
            }
        }
    }

    let plugin: LoadedPlugin
    private(set) var phase: Phase
    private(set) var action: ActionType?
    private(set) var context: UndoContext
    /// The `undo_call` given to the plugin, while a call is under way (see ``run(_:)``).
    private(set) var callPointer: UnsafeMutablePointer<undo_call>?

    /// Where set_inverse_arg puts inverse arguments (perform, merge): one entry per inverse
    /// parameter, `nil` until set; `nil` itself in calls that take none.
    var inverseOutput: [ActionValue?]?
    /// Where set_arg puts a merged step's arguments (merge), likewise.
    var argumentOutput: [ActionValue?]?
    /// The coalescing key perform set with set_coalescing_key (ABI 1.3): `.some(nil)` for
    /// "never coalesces", `nil` when perform did not set one.
    var coalescingKey: String??
    var changes = UndoChanges()
    /// The plugin's explanation of a failure (report_error), if any.
    var reportedError: (code: Int32, message: String)?
    /// Why a host callback refused something during the call, for the error shown when the
    /// plugin then fails without a message of its own.
    var refusal: String?
    /// Action types registered during init, and the first registration refused.
    var registrations: [ActionType] = []
    var registrationFailure: PluginLoadError.Reason?
    /// The storage of the `undo_call` handed to the plugin and of the context's C name (see
    /// ``CallRecord``).
    private let record: CallRecord

    init(plugin: LoadedPlugin, phase: Phase, action: ActionType? = nil, context: UndoContext = .global) {
        self.plugin = plugin
        self.phase = phase
        self.action = action
        self.context = context
        record = CallRecord(host: UnsafePointer(plugin.hostTable))
        record.update(phase: phase.cPhase, actionID: action?.cLocalID, context: context.name)
    }

    /// Makes a finished frame ready for another call (see ``LoadedPlugin/withFrame(_:action:context:_:)``).
    func reuse(phase: Phase, action: ActionType?, context: UndoContext) {
        self.phase = phase
        self.action = action
        self.context = context
        record.update(phase: phase.cPhase, actionID: action?.cLocalID, context: context.name)
    }

    /// Forgets what the last call left.
    func clear() {
        inverseOutput = nil
        argumentOutput = nil
        coalescingKey = nil
        if !changes.isEmpty { changes = UndoChanges() }
        reportedError = nil
        refusal = nil
    }

    /// The frame of the plugin call under way on this thread, if any.
    static var current: CallFrame? { CurrentFrame.get() }

    /// Runs `body` (which calls into the plugin) with this frame as the thread's current one
    /// and an `undo_call` describing it, valid only inside.
    func run<R>(_ body: (UnsafeMutablePointer<undo_call>) throws -> R) rethrows -> R {
        let (pointer, previous) = begin()
        defer { end(previous) }
        return try body(pointer)
    }

    /// Calls a perform or inverse function with `arguments` in this frame, as ``run(_:)`` does.
    func call(_ function: FFIFunction, _ arguments: [ActionValue]) -> Int32 {
        let (pointer, previous) = begin()
        defer { end(previous) }
        return function.call(pointer, arguments)
    }

    /// Makes this frame the thread's current one, with its `undo_call` up to date.
    /// - Returns: the call, and the frame that was current before (for ``end(_:)``).
    private func begin() -> (UnsafeMutablePointer<undo_call>, CallFrame?) {
        let pointer = record.prepared(pluginData: plugin.pluginData)
        let previous = CurrentFrame.get()
        CurrentFrame.set(self)
        callPointer = pointer
        return (pointer, previous)
    }

    /// Ends a call begun with ``begin()``: `previous` is the thread's current frame again.
    private func end(_ previous: CallFrame?) {
        callPointer = nil
        CurrentFrame.set(previous)
    }

    /// The frame a callback may act on: the current one, if `call` is its own pointer.
    static func accepting(_ call: UnsafeMutablePointer<undo_call>?) -> CallFrame? {
        guard let call, let frame = current, frame.callPointer == call else { return nil }
        return frame
    }
}

/// The `undo_call` of a frame and the C strings it points to: the only place they are handled.
///
/// Invariants: `call` is allocated and initialized in init and freed in deinit; its `context`
/// field points to `cContext` (owned here, replaced only when the context changes) and its
/// `action_id` to a string owned by the action type (alive while a step or the frame holds the
/// action type) or to `noActionID` (owned here); the plugin reads the record only during a call.
private final class CallRecord {
    let call: UnsafeMutablePointer<undo_call>
    private var cContext: UnsafeMutablePointer<CChar>
    private var contextName: String
    /// The empty `action_id` of calls about no action (init, describe, deinit).
    private let noActionID: UnsafeMutablePointer<CChar>

    init(host: UnsafePointer<undo_host>) {
        call = .allocate(capacity: 1)
        call.initialize(to: undo_call())
        call.pointee.struct_size = UInt32(MemoryLayout<undo_call>.size)
        call.pointee.host = host
        contextName = ""
        cContext = strdup("")!
        noActionID = strdup("")!
        call.pointee.context = UnsafePointer(cContext)
        call.pointee.action_id = UnsafePointer(noActionID)
    }

    deinit {
        free(cContext)
        free(noActionID)
        call.deallocate()
    }

    func update(phase: UInt32, actionID: UnsafeMutablePointer<CChar>?, context: String) {
        call.pointee.phase = phase
        call.pointee.action_id = UnsafePointer(actionID ?? noActionID)
        if context != contextName {
            let copy = strdup(context)!
            free(cContext)
            cContext = copy
            contextName = context
            call.pointee.context = UnsafePointer(copy)
        }
    }

    /// The record with the plugin's data as it is now.
    func prepared(pluginData: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<undo_call> {
        call.pointee.plugin_data = pluginData
        assert(call.pointee.context != nil && call.pointee.action_id != nil, "an undo_call without its strings")
        return call
    }
}

/// The frame of the plugin call under way on each thread, kept with `pthread_getspecific`.
///
/// Invariants: a thread's value is set only by ``CallFrame/run(_:)``, to a frame that the
/// running call keeps alive, and put back to the previous value before `run` returns; so a
/// value read on its own thread is always a live frame (held unretained).
private enum CurrentFrame {
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed")
        return key
    }()

    static func get() -> CallFrame? {
        pthread_getspecific(key).map { Unmanaged<CallFrame>.fromOpaque($0).takeUnretainedValue() }
    }

    static func set(_ frame: CallFrame?) {
        pthread_setspecific(key, frame.map { Unmanaged.passUnretained($0).toOpaque() })
    }
}
