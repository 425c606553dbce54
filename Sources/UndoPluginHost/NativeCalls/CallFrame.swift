#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoPluginABI

/// What the host is doing inside a plugin on this thread: the state of one call into plugin
/// code (init, perform, inverse, merge, describe, deinit), which the host callbacks read.
///
/// Callbacks find the frame through ``current`` (a thread-local) and only accept an
/// `undo_call *` equal to the frame's own pointer, so a stale or foreign pointer is refused
/// before it is read.
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
    /// The `undo_call` given to the plugin, once the call is under way.
    var callPointer: UnsafeMutablePointer<undo_call>?

    /// Where set_inverse_arg puts inverse arguments (perform, merge): `inverseCount` slots,
    /// those initialized marked in `inverseSet` (bit i for slot i). Owned by the caller.
    var inverseOutput: UnsafeMutablePointer<ActionValue>?
    var inverseSet: UInt32 = 0
    /// Where set_arg puts a merged step's arguments (merge), likewise with `argumentSet`.
    var argumentOutput: UnsafeMutablePointer<ActionValue>?
    var argumentSet: UInt32 = 0
    var changes = UndoChanges()
    /// The plugin's explanation of a failure (report_error), if any.
    var reportedError: (code: Int32, message: String)?
    /// Why a host callback refused something during the call, for the error shown when the
    /// plugin then fails without a message of its own.
    var refusal: String?
    /// Action types registered during init, and the first registration refused.
    var registrations: [ActionType] = []
    var registrationFailure: PluginLoadError.Reason?
    /// The context's name as a C string, kept for the next call in the same context (a frame
    /// is reused, see ``LoadedPlugin/withFrame(_:action:context:_:)``).
    private var cContext: UnsafeMutablePointer<CChar>?
    private var cContextName = ""

    init(plugin: LoadedPlugin, phase: Phase, action: ActionType? = nil, context: UndoContext = .global) {
        self.plugin = plugin
        self.phase = phase
        self.action = action
        self.context = context
    }

    deinit { free(cContext) }

    /// Makes a finished frame ready for another call (see ``LoadedPlugin/withFrame(_:action:context:_:)``).
    func reuse(phase: Phase, action: ActionType?, context: UndoContext) {
        self.phase = phase
        self.action = action
        self.context = context
    }

    /// Forgets what the last call left (keeping the C context name).
    func clear() {
        callPointer = nil
        inverseOutput = nil
        inverseSet = 0
        argumentOutput = nil
        argumentSet = 0
        if !changes.all.isEmpty { changes = UndoChanges() }
        reportedError = nil
        refusal = nil
        action = nil
    }

    // MARK: The thread-local current frame

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed")
        return key
    }()

    /// The frame of the plugin call under way on this thread, if any.
    static var current: CallFrame? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<CallFrame>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` (which calls into the plugin) with this frame as the current one.
    func run<R>(_ body: () throws -> R) rethrows -> R {
        let previous = pthread_getspecific(Self.key)
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.key, previous) }
        return try body()
    }

    /// Runs `body` with an `undo_call` describing this frame; the pointer is valid only inside.
    func withCall<R>(_ body: (UnsafeMutablePointer<undo_call>) -> R) -> R {
        if cContext == nil || context.name != cContextName {
            free(cContext)
            cContext = strdup(context.name)
            cContextName = context.name
        }
        var call = undo_call()
        call.struct_size = UInt32(MemoryLayout<undo_call>.size)
        call.phase = phase.cPhase
        call.host = UnsafePointer(plugin.hostTable)
        call.plugin_data = plugin.pluginData
        call.context = UnsafePointer(cContext)
        call.action_id = UnsafePointer(action?.cLocalID ?? Self.noActionID)
        call.undo__frame = Unmanaged.passUnretained(self).toOpaque()
        return withUnsafeMutablePointer(to: &call) { pointer in
            callPointer = pointer
            defer { callPointer = nil }
            return run { body(pointer) }
        }
    }

    nonisolated(unsafe) private static let noActionID: UnsafeMutablePointer<CChar> = strdup("")!

    /// The frame a callback may act on: the current one, if `call` is its own pointer.
    static func accepting(_ call: UnsafeMutablePointer<undo_call>?) -> CallFrame? {
        guard let call, let frame = current, frame.callPointer == call else { return nil }
        return frame
    }
}

/// Catches the plugin error behind a failure the history reports as an `UndoError` (which
/// keeps only its text), so ``PluginHost`` can throw the plugin's code and message.
///
/// One sink per thread, made on first use and reused by every host call on that thread (a
/// host call costs no allocation for it); nested collections keep and restore the outer one's
/// state.
final class FailureSink {
    var error: PluginActionError?
    /// Whether a ``collect(_:)`` is under way on this thread.
    private var collecting = false

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // The thread's sink is released when the thread exits.
        let status = pthread_key_create(&key) { raw in
            if let raw { Unmanaged<FailureSink>.fromOpaque(raw).release() }
        }
        precondition(status == 0, "pthread_key_create failed")
        return key
    }()

    /// The sink of the host call under way on this thread, if any.
    static var current: FailureSink? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let sink = Unmanaged<FailureSink>.fromOpaque(raw).takeUnretainedValue()
        return sink.collecting ? sink : nil
    }

    /// This thread's sink.
    private static var ofThisThread: FailureSink {
        if let raw = pthread_getspecific(key) { return Unmanaged<FailureSink>.fromOpaque(raw).takeUnretainedValue() }
        let sink = FailureSink()
        pthread_setspecific(key, Unmanaged.passRetained(sink).toOpaque())
        return sink
    }

    /// Runs `body` collecting the first plugin failure in a fresh sink.
    static func collect<R>(_ body: () throws -> R) -> (Result<R, any Error>, PluginActionError?) {
        let sink = ofThisThread
        let (outerError, outerCollecting) = (sink.error, sink.collecting)
        sink.error = nil
        sink.collecting = true
        defer { (sink.error, sink.collecting) = (outerError, outerCollecting) }
        let result = Result { try body() }
        return (result, sink.error)
    }
}
