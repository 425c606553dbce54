#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CUndoHostSupport
import UndoCore
import UndoPluginABI

/// What the host is doing inside a plugin on this thread: the state of one call into plugin
/// code (init, perform, inverse, merge, describe, deinit), which the host callbacks read.
///
/// Callbacks find the frame through ``current`` (a thread-local) and only accept an
/// `undo_call *` equal to the frame's own pointer, so a stale or foreign pointer is refused
/// before it is read.
///
/// Its properties skip the run-time exclusivity checks (`@exclusivity(unchecked)`): a frame is
/// used by one thread at a time (the calling thread, with the plugin's call lock held), and no
/// access to a property overlaps another.
@usableFromInline
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
    @exclusivity(unchecked) private(set) var phase: Phase
    @exclusivity(unchecked) private(set) var action: ActionType?
    @exclusivity(unchecked) private(set) var context: UndoContext
    /// The `undo_call` given to the plugin, once the call is under way.
    @exclusivity(unchecked) var callPointer: UnsafeMutablePointer<undo_call>?

    /// Where set_inverse_arg puts inverse arguments (perform, merge): `inverseCount` slots,
    /// those initialized marked in `inverseSet` (bit i for slot i). Owned by the caller.
    @exclusivity(unchecked) var inverseOutput: UnsafeMutablePointer<ActionValue>? { didSet { touched = true } }
    @exclusivity(unchecked) var inverseSet: UInt32 = 0 { didSet { touched = true } }
    /// Where set_arg puts a merged step's arguments (merge), likewise with `argumentSet`.
    @exclusivity(unchecked) var argumentOutput: UnsafeMutablePointer<ActionValue>? { didSet { touched = true } }
    @exclusivity(unchecked) var argumentSet: UInt32 = 0 { didSet { touched = true } }
    @exclusivity(unchecked) var changes = UndoChanges() { didSet { touched = true } }
    /// The plugin's explanation of a failure (report_error), if any.
    @exclusivity(unchecked) var reportedError: (code: Int32, message: String)? { didSet { touched = true } }
    /// Why a host callback refused something during the call, for the error shown when the
    /// plugin then fails without a message of its own.
    @exclusivity(unchecked) var refusal: String? { didSet { touched = true } }
    /// Whether any of the properties above was set since the last ``clear()``: most calls set
    /// none (no inverse arguments, no report), and their clear is then one test.
    @exclusivity(unchecked) private var touched = false
    /// Action types registered during init, and the first registration refused.
    @exclusivity(unchecked) var registrations: [ActionType] = []
    @exclusivity(unchecked) var registrationFailure: PluginLoadError.Reason?
    /// The context's name as a C string, kept for the next call in the same context (a frame
    /// is reused, see ``LoadedPlugin/beginCall(_:action:context:)``).
    @exclusivity(unchecked) private var cContext: UnsafeMutablePointer<CChar>?
    /// The `undo_call` handed to the plugin: made once, its fields brought up to date when the
    /// frame is reused, so a call only stores what changed.
    private let callStorage: UnsafeMutablePointer<undo_call>

    init(plugin: LoadedPlugin, phase: Phase, action: ActionType? = nil, context: UndoContext = .global) {
        self.plugin = plugin
        self.phase = phase
        self.action = action
        self.context = context
        callStorage = .allocate(capacity: 1)
        callStorage.initialize(to: undo_call())
        callStorage.pointee.struct_size = UInt32(MemoryLayout<undo_call>.size)
        callStorage.pointee.phase = phase.cPhase
        callStorage.pointee.host = UnsafePointer(plugin.hostTable)
        callStorage.pointee.action_id = UnsafePointer(action?.cLocalID ?? Self.noActionID)
        callStorage.pointee.undo__frame = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        free(cContext)
        callStorage.deallocate()
    }

    /// Makes a finished frame ready for another call (see ``LoadedPlugin/beginCall(_:action:context:)``).
    @inline(__always)
    func reuse(phase: Phase, action: ActionType?, context: UndoContext) {
        if phase != self.phase {
            self.phase = phase
            callStorage.pointee.phase = phase.cPhase
        }
        // Most calls are for the action and context of the call before (no reference counting).
        if action !== self.action {
            self.action = action
            callStorage.pointee.action_id = UnsafePointer(action?.cLocalID ?? Self.noActionID)
        }
        if !context.hasSameName(as: self.context) {
            self.context = context
            free(cContext)
            cContext = nil
        }
    }

    /// Forgets what the last call left (keeping the C context name).
    @inline(__always)
    func clear() {
        callPointer = nil
        if touched { clearTouched() }
        // The action and context stay for the next call (see reuse); the plugin forgets its
        // spare frame when it is unloaded.
    }

    private func clearTouched() {
        inverseOutput = nil
        inverseSet = 0
        argumentOutput = nil
        argumentSet = 0
        if !changes.isEmpty { changes = UndoChanges() }
        if reportedError != nil { reportedError = nil }
        if refusal != nil { refusal = nil }
        touched = false
    }

    // MARK: The thread-local current frame

    /// The frame of the plugin call under way on this thread, if any.
    static var current: CallFrame? { ThreadCalls.ofThisThreadIfAny?.pointee.frame?.takeUnretainedValue() }

    /// Runs `body` (which calls into the plugin) with this frame as the current one.
    func run<R>(_ body: () throws -> R) rethrows -> R {
        let thread = ThreadCalls.ofThisThread
        let previous = thread.pointee.frame
        thread.pointee.frame = Unmanaged.passUnretained(self)
        defer { thread.pointee.frame = previous }
        return try body()
    }

    /// Runs `body` with an `undo_call` describing this frame, this frame being the thread's
    /// current one; the pointer is valid only inside. Only between
    /// ``LoadedPlugin/beginCall(_:action:context:)`` and ``LoadedPlugin/endCall(_:)`` (the call
    /// lock held).
    @inline(__always)
    func withCall<R>(_ body: (UnsafeMutablePointer<undo_call>) -> R) -> R {
        let pointer = preparedCall()
        let thread = ThreadCalls.ofThisThread
        let previous = thread.pointee.frame
        thread.pointee.frame = Unmanaged.passUnretained(self)
        callPointer = pointer
        defer {
            callPointer = nil
            thread.pointee.frame = previous
        }
        return body(pointer)
    }

    /// Calls a perform or inverse function with `values` (see ``withCall(_:)``).
    @inline(__always)
    func call(_ function: FFIFunction, _ values: UnsafeMutableBufferPointer<ActionValue>) -> Int32 {
        withCall { function.call($0, values) }
    }

    /// The `undo_call` describing this frame, with the plugin's data and the context's C name
    /// as they are now (the C strings owned by the frame and the action).
    @inline(__always)
    private func preparedCall() -> UnsafeMutablePointer<undo_call> {
        if cContext == nil {
            cContext = strdup(context.name)
            callStorage.pointee.context = UnsafePointer(cContext)
        }
        callStorage.pointee.plugin_data = plugin.pluginData
        return callStorage
    }

    private nonisolated(unsafe) static let noActionID: UnsafeMutablePointer<CChar> = strdup("")!

    /// The frame a callback may act on: the current one, if `call` is its own pointer.
    static func accepting(_ call: UnsafeMutablePointer<undo_call>?) -> CallFrame? {
        guard let call, let frame = current, frame.callPointer == call else { return nil }
        return frame
    }
}

extension UndoContext {
    /// Whether the two contexts have the same name (`==`), compared by the strings' bits first:
    /// contexts made from one string, the usual case, match without comparing characters.
    @inline(__always)
    func hasSameName(as other: UndoContext) -> Bool {
        unsafeBitCast(name, to: (UInt64, UInt64).self) == unsafeBitCast(other.name, to: (UInt64, UInt64).self)
            || name == other.name
    }
}

/// What the host is doing on one thread: the frame of the plugin call under way (which the
/// host callbacks read), and the newest plugin failure (the failure sink).
///
/// The sink lets ``PluginHost`` throw a plugin's own code and message for a failure the history
/// reports as an `UndoError` (which keeps only its text): a host call notes ``errorCount`` when
/// it begins, and when it fails with an action failure and the count has moved, the newest
/// failure is its plugin's. Its success path reads nothing back, so it stays a few
/// instructions (and the result of an undo nobody reads can be dropped, see
/// ``PluginHost/undo(count:)``).
///
/// One block per thread, made on first use and freed when the thread exits; a host call finds
/// it through a C thread-local (`undo__thread_calls`) and costs no allocation or reference
/// counting for it. Only its own thread touches it.
@usableFromInline
struct ThreadCalls {
    /// Not retained: the frame is kept alive by the call that runs it.
    @usableFromInline var frame: Unmanaged<CallFrame>?
    /// The newest plugin failure on this thread.
    var lastError: PluginActionError?
    /// How many plugin failures there have been on this thread.
    @usableFromInline var errorCount = 0

    /// Frees a thread's block when the thread exits. The block itself is found through the C
    /// thread-local `undo__thread_calls` (a couple of instructions, where `pthread_getspecific`
    /// is a library call); the key only registers the clean-up.
    static let exitKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            undo__thread_calls_set(nil)
            let calls = raw.assumingMemoryBound(to: ThreadCalls.self)
            calls.deinitialize(count: 1)
            calls.deallocate()
        }
        precondition(status == 0, "pthread_key_create failed")
        return key
    }()

    /// This thread's block, if it has one yet.
    @inline(__always)
    static var ofThisThreadIfAny: UnsafeMutablePointer<ThreadCalls>? {
        undo__thread_calls_get()?.assumingMemoryBound(to: ThreadCalls.self)
    }

    /// This thread's block.
    @inlinable @inline(__always)
    static var ofThisThread: UnsafeMutablePointer<ThreadCalls> {
        if let raw = undo__thread_calls_get() { return raw.assumingMemoryBound(to: ThreadCalls.self) }
        return makeBlock()
    }

    @usableFromInline
    static func makeBlock() -> UnsafeMutablePointer<ThreadCalls> {
        let calls = UnsafeMutablePointer<ThreadCalls>.allocate(capacity: 1)
        calls.initialize(to: ThreadCalls())
        pthread_setspecific(exitKey, calls)
        undo__thread_calls_set(calls)
        return calls
    }
}

/// The failure sink of ``ThreadCalls``.
@usableFromInline
enum FailureSink {
    /// Keeps `error` as this thread's newest plugin failure.
    static func report(_ error: PluginActionError) {
        let thread = ThreadCalls.ofThisThread
        thread.pointee.lastError = error
        thread.pointee.errorCount &+= 1
    }

    /// Where a host call began: the failures after it are its own (or of host calls nested in it).
    @usableFromInline
    struct Mark {
        @usableFromInline let thread: UnsafeMutablePointer<ThreadCalls>
        @usableFromInline let errorCount: Int

        @inlinable
        init(thread: UnsafeMutablePointer<ThreadCalls>, errorCount: Int) {
            self.thread = thread
            self.errorCount = errorCount
        }

        /// The newest plugin failure since the mark, if any.
        var error: PluginActionError? {
            thread.pointee.errorCount != errorCount ? thread.pointee.lastError : nil
        }
    }

    /// Marks the beginning of a host call.
    /// - Returns: the mark, and whether a plugin call is under way on this thread.
    @inlinable @inline(__always)
    static func begin() -> (Mark, insideCall: Bool) {
        let thread = ThreadCalls.ofThisThread
        return (Mark(thread: thread, errorCount: thread.pointee.errorCount), thread.pointee.frame != nil)
    }
}
