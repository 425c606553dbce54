#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CUndoHostSupport
import UndoCore
import UndoPluginABI

/// What the host is doing inside a plugin on this thread: the state of one call into plugin
/// code (init, perform, inverse, merge, describe, save, load, deinit, a close handler), which the host
/// callbacks read.
///
/// Callbacks find the frame through ``current`` (this thread's frame under way) and only accept
/// an `undo_call *` equal to the frame's own pointer while its call is under way, so a stale or
/// foreign pointer is refused before it is read. A frame is used by one thread at a time: the
/// calling thread, holding the plugin's call lock (``LoadedPlugin/withFrame(_:action:context:_:)``).
///
/// Each plugin keeps one frame for its perform, inverse and merge calls (taken with
/// ``take(phase:action:context:)`` and given back with ``release()``), so a call allocates
/// nothing for its frame; a nested call finds it taken and makes its own.
///
/// The frame refers to its plugin by the plugin's `undo_host` table (one per plugin instance,
/// never freed), not by a reference, so the plugin can own its frame without a cycle.
final class CallFrame {
    enum Phase: Equatable {
        case initialize, deinitialize, perform, redo, inverse, merge, describe, closeDocument
        case saveDocument, loadDocument

        var cPhase: UInt32 {
            switch self {
            case .perform: UInt32(UNDO_PHASE_PERFORM)
            case .redo: UInt32(UNDO_PHASE_REDO)
            case .inverse: UInt32(UNDO_PHASE_INVERSE)
            case .merge: UInt32(UNDO_PHASE_MERGE)
            case .describe: UInt32(UNDO_PHASE_DESCRIBE)
            case .closeDocument: UInt32(UNDO_PHASE_CLOSE)
            case .saveDocument: UInt32(UNDO_PHASE_SAVE)
            case .loadDocument: UInt32(UNDO_PHASE_LOAD)
            default: 0
            }
        }
    }

    /// The table of the plugin this frame calls: which plugin it belongs to.
    let hostTable: UnsafeMutablePointer<undo_host>
    /// Every mutable field of the frame and its `undo_call` (see ``CallFrameStorage``).
    private let storage: CallFrameStorage
    /// Action types registered during init, and the first registration refused (init frames only).
    var registrations: [ActionType] = []
    /// Their positions in `registrations` by local id, so a duplicate (or the action a name is
    /// registered for) is found in O(1), not by reading every earlier one.
    var registeredIDs: [String: Int] = [:]
    /// Lookups and inserts in `registeredIDs` so far: tests check they stay a few per action.
    var registrationLookups = 0
    /// Registrations that shared an action type checked before (``CheckedActionType``).
    var reusedRegistrations = 0
    var registrationFailure: PluginLoadError.Reason?
    /// Where write_document puts the pieces of a save_document_v2 call (ABI 1.8); `nil` in
    /// every other call.
    var documentPieces: DocumentPieces?
    /// Where read_document takes the pieces of a load_document_v2 call (ABI 1.8); `nil` in
    /// every other call.
    var documentSource: DocumentSource?

    /// A frame for one call of the plugin with table `hostTable` and data `pluginData`;
    /// `documents`: the plugin's document slots, for calls about a document (nil: no slot).
    init(hostTable: UnsafeMutablePointer<undo_host>, pluginData: UnsafeMutableRawPointer?, phase: Phase,
         action: ActionType? = nil, context: UndoContext = .global, documents: DocumentSlots? = nil) {
        self.hostTable = hostTable
        storage = CallFrameStorage(host: UnsafePointer(hostTable), phase: phase)
        storage.access { state in
            state.pluginData = pluginData
            storage.call.pointee.plugin_data = pluginData
            state.documents = documents
            state.prepare(phase: phase, action: action, context: context, call: storage.call)
        }
    }

    deinit { storage.deallocate() }

    /// Whether the frame calls the plugin with table `table`.
    func belongs(to table: UnsafePointer<undo_host>) -> Bool { UnsafePointer(hostTable) == table }

    // MARK: Taking a kept frame

    /// Takes this (kept) frame for a call: `false`, and nothing changed, when it is taken already.
    func take(phase: Phase, action: ActionType, context: UndoContext) -> Bool {
        storage.access { state in
            if state.taken { return false }
            state.taken = true
            state.prepare(phase: phase, action: action, context: context, call: storage.call)
            return true
        }
    }

    /// Gives back a frame taken with ``take(phase:action:context:)``, forgetting what the call left.
    func release() {
        storage.access { state in
            state.taken = false
            if state.hasOutputs { state.outputs = CallOutputs() }
            state.hasOutputs = false
        }
    }

    /// Whether a call has taken this (kept) frame and not given it back yet.
    var isTaken: Bool { storage.access { $0.taken } }

    /// The plugin's data, handed to its calls in `undo_call.plugin_data`.
    func setPluginData(_ data: UnsafeMutableRawPointer?) {
        storage.access { state in
            state.pluginData = data
            storage.call.pointee.plugin_data = data
        }
    }

    /// Gives the frame the plugin's document slots, looked up from the next call on.
    func setDocuments(_ documents: DocumentSlots) {
        storage.access { state in
            state.documents = documents
            state.forgetDocument(call: storage.call)
        }
    }

    /// Forgets the document slot of the last call (before the slot is freed): the next call
    /// looks it up again.
    func forgetDocument() { storage.access { $0.forgetDocument(call: storage.call) } }

    /// Forgets the action type of the last call (done on unload: the frame keeps no action type
    /// of a plugin that is gone, even unretained).
    func forgetAction() {
        storage.access { state in
            state.action = nil
            storage.call.pointee.action_id = UnsafePointer(state.noActionID)
        }
    }

    // MARK: The call's fields

    var phase: Phase { storage.access { $0.phase } }
    /// The action type of the call under way. Read only during the call, from its own thread
    /// (a callback): the caller holds the action type meanwhile, and the frame does not.
    var action: ActionType? {
        assert(CurrentFrame.get() === self, "a frame's action type was read outside its call")
        return storage.access { $0.action?.takeUnretainedValue() }
    }
    var context: UndoContext { storage.access { $0.context } }

    /// The plugin's explanation of a failure (report_error), if any.
    var reportedError: (code: Int32, message: String)? { storage.access { $0.outputs.reportedError } }
    /// Why a host callback refused something during the call, for the error shown when the
    /// plugin then fails without a message of its own.
    var refusal: String? { storage.access { $0.outputs.refusal } }

    func setReportedError(_ code: Int32, _ message: String) {
        storage.access { $0.setOutputs { $0.reportedError = (code, message) } }
    }

    func setRefusal(_ reason: String) { storage.access { $0.setOutputs { $0.refusal = reason } } }

    /// Makes room for the inverse arguments perform or merge hands back (`count` of them, unset),
    /// and for a merged step's arguments when `arguments` is given.
    func expectOutputs(inverse: Int?, arguments: Int? = nil) {
        guard inverse != nil || arguments != nil else { return }
        storage.access { state in
            state.setOutputs { outputs in
                if let inverse { outputs.inverse = Array(repeating: nil, count: inverse) }
                if let arguments { outputs.arguments = Array(repeating: nil, count: arguments) }
            }
        }
    }

    /// Stores an inverse argument (set_inverse_arg) or a merged step's argument (set_arg).
    /// - Returns: `false` when the call expects none.
    func setOutput(_ value: ActionValue, at index: Int, inverse: Bool) -> Bool {
        storage.access { state in
            if inverse {
                guard state.outputs.inverse != nil else { return false }
                state.outputs.inverse![index] = value
            } else {
                guard state.outputs.arguments != nil else { return false }
                state.outputs.arguments![index] = value
            }
            return true
        }
    }

    /// The coalescing key perform set with set_coalescing_key (ABI 1.3); `nil` for none.
    func setCoalescingKey(_ key: String?) { storage.access { $0.setOutputs { $0.coalescingKey = .some(key) } } }

    /// The description perform or merge set with set_description (ABI 1.7); `nil` to remove it.
    func setDescription(_ text: String?) { storage.access { $0.setOutputs { $0.description = .some(text) } } }

    /// The step of this call changes nothing any more (set_obsolete, ABI 1.7).
    func markObsolete() { storage.access { $0.setOutputs { $0.isObsolete = true } } }

    /// The most changed places one call may report (report_change): they are kept until the
    /// call ends, so a plugin reporting without end would hold the process's memory.
    static let maximumChangesPerCall = 65_536

    /// A changed place reported with report_change.
    /// - Returns: false, recording nothing, past ``maximumChangesPerCall`` (the call then fails).
    func reportChange(context: UndoContext, location: Int64?, length: Int64?) -> Bool {
        storage.access { state in
            guard state.outputs.changes.all.count < Self.maximumChangesPerCall else {
                state.setOutputs {
                    $0.changesOverLimit = true
                    $0.refusal = "report_change: more than \(Self.maximumChangesPerCall) changes reported in one call"
                }
                return false
            }
            state.setOutputs { $0.changes.report(context: context, location: location, length: length) }
            return true
        }
    }

    /// Whether the call under way or just ended handed anything back (see ``takeOutputs()``).
    var hasOutputs: Bool { storage.access { $0.hasOutputs } }

    /// Takes what the call handed back (inverse and merged arguments, key, changes, errors):
    /// `nil` when it handed back nothing (the common case, which copies nothing).
    func takeOutputs() -> CallOutputs? {
        storage.access { state in
            guard state.hasOutputs else { return nil }
            state.hasOutputs = false
            var taken = CallOutputs()
            swap(&taken, &state.outputs)
            return taken
        }
    }

    // MARK: Calling

    /// The frame of the plugin call under way on this thread, if any.
    static var current: CallFrame? { CurrentFrame.get() }

    /// Runs `body` (which calls into the plugin) with this frame as the thread's current one
    /// and an `undo_call` describing it, valid only inside.
    func run<R>(_ body: (UnsafeMutablePointer<undo_call>) throws -> R) rethrows -> R {
        let previous = begin()
        defer { CurrentFrame.restore(previous) }
        return try body(storage.call)
    }

    /// Calls a perform or inverse function with `arguments` in this frame, as ``run(_:)`` does.
    func call<Values: ActionValueCollection>(_ function: FFIFunction, _ arguments: Values) -> Int32
    {
        let previous = begin()
        defer { CurrentFrame.restore(previous) }
        return function.call(storage.call, arguments)
    }

    /// Makes this frame the thread's current one, its `undo_call` valid for callbacks: a frame
    /// is the thread's current one exactly while its call is under way (a nested call's frame
    /// is current during the nested call, then this one again).
    /// - Returns: the frame that was current before, as ``CurrentFrame`` keeps it (for
    ///   ``CurrentFrame/restore(_:)``, which ends the call): neither is retained, so a call
    ///   costs no reference counting for them.
    private func begin() -> UnsafeMutableRawPointer? {
        let previous = CurrentFrame.replace(with: self)
        precondition(previous != Unmanaged.passUnretained(self).toOpaque(), "a frame's call began inside its own call")
        return previous
    }

    /// The frame a callback may act on: this thread's current one (whose call is under way), if
    /// `call` is its own pointer.
    static func accepting(_ call: UnsafeMutablePointer<undo_call>?) -> CallFrame? {
        guard let call, let frame = current, frame.storage.call == call else { return nil }
        return frame
    }
}

/// What a plugin call hands back through the callbacks.
struct CallOutputs {
    /// Where set_inverse_arg puts inverse arguments (perform, merge): one entry per inverse
    /// parameter, `nil` until set; `nil` itself in calls that take none.
    var inverse: [ActionValue?]?
    /// Where set_arg puts a merged step's arguments (merge), likewise.
    var arguments: [ActionValue?]?
    /// The coalescing key perform set with set_coalescing_key (ABI 1.3): `.some(nil)` for
    /// "never coalesces", `nil` when perform did not set one.
    var coalescingKey: String??
    /// The description perform or merge set with set_description (ABI 1.7): `.some(nil)` when
    /// it removed the description, `nil` when the call did not set one.
    var description: String??
    /// perform or the inverse found that the step changes nothing any more (set_obsolete).
    var isObsolete = false
    var changes = UndoChanges()
    /// report_change was called more than ``CallFrame/maximumChangesPerCall`` times.
    var changesOverLimit = false
    /// The plugin's explanation of a failure (report_error), if any.
    var reportedError: (code: Int32, message: String)?
    /// Why a host callback refused something during the call.
    var refusal: String?
}

/// The mutable fields of a ``CallFrame``.
struct CallState {
    var phase: CallFrame.Phase
    /// The action type of the call, unretained (see ``CallFrameStorage``): a retain and a
    /// release each time the type changed cost two atomic operations per call where steps of
    /// several types alternate.
    var action: Unmanaged<ActionType>?
    var context: UndoContext
    var pluginData: UnsafeMutableRawPointer?
    /// The plugin's document slots (nil: calls get no slot); `call.document_data` is the cell of
    /// `context` while `hasDocumentCell`.
    var documents: DocumentSlots?
    var hasDocumentCell = false
    /// Whether a call has taken the frame (see ``CallFrame/take(phase:action:context:)``).
    var taken = false
    /// Whether anything was stored in `outputs` since they were last emptied.
    var hasOutputs = false
    var outputs = CallOutputs()
    /// The context's name as the `undo_call` points to it (owned here).
    var cContext: UnsafeMutablePointer<CChar>
    /// The empty `action_id` of calls about no action (init, describe, deinit), owned here.
    let noActionID: UnsafeMutablePointer<CChar>

    /// Describes a call of `phase` in the state and in `call`.
    mutating func prepare(phase: CallFrame.Phase, action: ActionType?, context: UndoContext,
                          call: UnsafeMutablePointer<undo_call>) {
        self.phase = phase
        // Stored on every call, so no earlier call's action type is ever compared with this one.
        self.action = action.map(Unmanaged.passUnretained)
        call.pointee.action_id = UnsafePointer(action?.cLocalID ?? noActionID)
        call.pointee.phase = phase.cPhase
        // Stored only when it changes (the same context, call after call, copies nothing).
        if self.context != context {
            self.context = context
            let copy = strdup(context.name)!
            free(cContext)
            cContext = copy
            call.pointee.context = UnsafePointer(copy)
            hasDocumentCell = false
        }
        // Looked up only when the document changes (or its slot was closed).
        if !hasDocumentCell, let documents {
            call.pointee.document_data = documents.cell(for: context)
            hasDocumentCell = true
        }
    }

    /// See ``CallFrame/forgetDocument()``.
    mutating func forgetDocument(call: UnsafeMutablePointer<undo_call>) {
        hasDocumentCell = false
        call.pointee.document_data = nil
    }

    /// Changes the outputs, remembering that there are some.
    mutating func setOutputs(_ change: (inout CallOutputs) -> Void) {
        hasOutputs = true
        change(&outputs)
    }
}

/// Where a ``CallFrame`` keeps its mutable fields (``CallState``) and the `undo_call` handed to
/// the plugin: the only place they are handled through pointers.
///
/// **Invariants** (checked on every access, in every build):
/// - one access at a time: ``access(_:)`` stops the program when called from inside another
///   access to the same frame (the frame's fields are never seen half changed). No access is
///   held while plugin code runs, so the callbacks a plugin makes during a call can use them.
/// - `call` is allocated and initialized in init and freed only by ``free()`` (the frame's
///   deinit); its `context` points to the state's `cContext` and its `action_id` to a string
///   owned by the state's action type or to the state's `noActionID`; its `document_data` is
///   NULL or a live cell of the state's `documents` (see ``DocumentSlots``); the plugin reads it
///   only during a call.
/// - the state's action type (and so `action_id`) is set by every call that takes or makes the
///   frame, and is held unretained: it is read only during that call (``CallFrame/action``
///   checks, in debug builds, that the frame is the thread's current one), while the caller of
///   the call holds the action type. Between calls it may name one that is gone; nothing reads
///   it then.
struct CallFrameStorage {
    let call: UnsafeMutablePointer<undo_call>
    private let state: UnsafeMutablePointer<CallState>
    private let busy: UnsafeMutablePointer<Bool>

    init(host: UnsafePointer<undo_host>, phase: CallFrame.Phase) {
        call = .allocate(capacity: 1)
        call.initialize(to: undo_call())
        call.pointee.struct_size = UInt32(MemoryLayout<undo_call>.size)
        call.pointee.host = host
        let context = strdup("")!
        let noActionID = strdup("")!
        call.pointee.context = UnsafePointer(context)
        call.pointee.action_id = UnsafePointer(noActionID)
        state = .allocate(capacity: 1)
        state.initialize(to: CallState(phase: phase, context: .global, cContext: context, noActionID: noActionID))
        busy = .allocate(capacity: 1)
        busy.initialize(to: false)
    }

    /// Frees everything. Only from the frame's deinit.
    func deallocate() {
        precondition(!busy.pointee, "a call frame was freed while it was being accessed")
        free(state.pointee.cContext)
        free(state.pointee.noActionID)
        state.deinitialize(count: 1)
        state.deallocate()
        busy.deallocate()
        call.deinitialize(count: 1)
        call.deallocate()
    }

    /// Runs `body` with the state, which no other access uses meanwhile.
    /// - Precondition: no other access to this frame's state is under way.
    func access<R>(_ body: (inout CallState) throws -> R) rethrows -> R {
        precondition(!busy.pointee, "a call frame's state was used from inside another use of it")
        busy.pointee = true
        defer { busy.pointee = false }
        return try body(&state.pointee)
    }
}

/// The frame of the plugin call under way on each thread, kept in a C thread-local variable
/// (`undo__current_frame`, CUndoHostSupport).
///
/// Invariants: a thread's value is set only by ``CallFrame/run(_:)`` and ``CallFrame/call(_:_:)``
/// (through ``replace(with:)``), to a frame that the running call keeps alive, and put back to
/// the previous value (``restore(_:)``) before they return; so a value read on its own thread is
/// always a live frame (held unretained), and the previous value put back is one again.
private enum CurrentFrame {
    static func get() -> CallFrame? {
        undo__current_frame().map { Unmanaged<CallFrame>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Makes `frame` the current one. - Returns: the value before, to give to ``restore(_:)``.
    static func replace(with frame: CallFrame) -> UnsafeMutableRawPointer? {
        let previous = undo__current_frame()
        undo__set_current_frame(Unmanaged.passUnretained(frame).toOpaque())
        return previous
    }

    /// Puts back the value ``replace(with:)`` returned.
    static func restore(_ previous: UnsafeMutableRawPointer?) { undo__set_current_frame(previous) }
}
