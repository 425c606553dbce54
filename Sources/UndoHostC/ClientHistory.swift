import UndoCore
import UndoHostAPI
import UndoHostJournal
import UndoJournal
import UndoPluginHost

/// One `undo_history *` of a C client: a plugin host with its shared history, plus what the C
/// API keeps per handle (last-error messages, last results, observers).
final class ClientHistory: @unchecked Sendable {
    let host: PluginHost
    let messages = ThreadMessages()
    /// The history's clock: the monotonic clock until a journal opens, then the wall clock.
    let clock: JournalClock

    struct PerThreadState {
        /// The context and changes of this thread's last undo, redo or revert.
        var lastResults: [UInt: UndoResult] = [:]
        /// Threads inside one of this history's observers (how deep), whose changing calls are
        /// refused.
        var notifying: [UInt: Int] = [:]
        var observations: [UInt64: UndoObservation] = [:]
        var nextObserverID: UInt64 = 0
        /// Threads inside a call on this history (how deep): a destroy from inside one (an
        /// observer, plugin code) closes the history when the outermost call returns.
        var calling: [UInt: Int] = [:]
        /// Destroyed from inside a call: close when the last call under way returns.
        var closeWhenCallsReturn = false
        /// What a call that succeeded leaves in undo_history_last_error (a warning of
        /// undo_history_open_journal), by thread.
        var notices: [UInt: String] = [:]
    }
    private let lock = RecursiveMutex()
    private var perThread = PerThreadState()

    init(host: PluginHost, clock: JournalClock) {
        self.host = host
        self.clock = clock
    }

    /// Ends the observations (they would otherwise keep calling into the client after destroy).
    func close() {
        let observations = lockedState { state in
            defer { state.observations.removeAll() }
            return Array(state.observations.values)
        }
        host.history.withStack { _ in observations.forEach { $0.cancel() } }
        (host.recorder as? HostJournal)?.close()
    }

    // MARK: Calls

    /// Runs one C API call on this history: refuses changing calls from inside its observers,
    /// records the failure message for undo_history_last_error, and returns the code.
    func call(changing: Bool, _ body: () throws(ClientFailure) -> Int32) -> Int32 {
        let thread = ThreadMessages.currentThread
        lockedState { $0.calling[thread, default: 0] += 1 }
        defer { leaveCall(thread) }
        do throws(ClientFailure) {
            if changing && isNotifyingOnThisThread {
                throw ClientFailure(Int32(UNDO_EREENTRANT), "this call changes the history, so it cannot be made from inside an observer")
            }
            let status = try body()
            if let notice = lockedState({ $0.notices.removeValue(forKey: thread) }) {
                messages.set(notice)
            } else {
                messages.clear()
            }
            return status
        } catch {
            messages.set(error.message)
            return error.code
        }
    }

    /// Leaves `message` in undo_history_last_error when this thread's call succeeds.
    func notice(_ message: String) {
        let thread = ThreadMessages.currentThread
        lockedState { $0.notices[thread] = message }
    }

    private func leaveCall(_ thread: UInt) {
        let mustClose = lockedState { state in
            state.calling[thread, default: 1] -= 1
            if state.calling[thread] == 0 { state.calling[thread] = nil }
            guard state.calling.isEmpty && state.closeWhenCallsReturn else { return false }
            state.closeWhenCallsReturn = false
            return true
        }
        if mustClose { close() }
    }

    /// undo_history_destroy, after the handle left the registry: closes the history now, or,
    /// when this thread is inside a call on it (an observer, plugin code), when the outermost
    /// call returns: the call under way goes on with a history that is still whole.
    func destroy() {
        let thread = ThreadMessages.currentThread
        let now = lockedState { state in
            guard state.calling[thread] != nil else { return true }
            state.closeWhenCallsReturn = true
            return false
        }
        if now { close() }
    }

    /// Runs a host call, turning its errors into failures.
    func hostCall<R>(_ body: (PluginHost) throws(PluginHostError) -> R) throws(ClientFailure) -> R {
        do throws(PluginHostError) {
            return try body(host)
        } catch {
            throw ClientFailure(error)
        }
    }

    /// Runs `body` with the undo stack, turning its errors into failures.
    func withStack<R>(_ body: (UndoStack) throws -> R) throws(ClientFailure) -> R {
        do {
            return try host.history.withStack(body)
        } catch {
            throw ClientFailure(error)
        }
    }

    var currentContext: UndoContext? { host.history.withStack { $0.currentContext } }

    // MARK: Results

    func remember(_ result: UndoResult?) {
        let thread = ThreadMessages.currentThread
        lockedState { $0.lastResults[thread] = result }
    }

    var lastResult: UndoResult? {
        let thread = ThreadMessages.currentThread
        return lockedState { $0.lastResults[thread] }
    }

    // MARK: Observers

    private var isNotifyingOnThisThread: Bool {
        let thread = ThreadMessages.currentThread
        return lockedState { ($0.notifying[thread] ?? 0) > 0 }
    }

    /// Registers an observer; with `callNow`, calls it once with the present state before
    /// returning, under the same lock as the registration, so no change comes in between.
    func addObserver(_ function: undo_observer_fn, userData: UnsafeMutableRawPointer?, callNow: Bool = false) -> UInt64 {
        // Not Sendable, but the observer runs on the thread of each change, as documented.
        nonisolated(unsafe) let userData = userData
        return host.history.withStack { stack in
            let observation = stack.observe { [weak self] state, changes in
                self?.notify(function, userData, state, UInt32(changes.rawValue))
            }
            let id = lockedState { state in
                state.nextObserverID += 1
                state.observations[state.nextObserverID] = observation
                return state.nextObserverID
            }
            if callNow {
                let every = UInt32(UNDO_STATE_CAN_UNDO | UNDO_STATE_CAN_REDO | UNDO_STATE_TITLES | UNDO_STATE_DIRTY
                                   | UNDO_STATE_POSITION)
                notify(function, userData, stack.state, UInt32(UNDO_STATE_INITIAL) | every)
            }
            return id
        }
    }

    func removeObserver(_ id: UInt64) -> Bool {
        guard let observation = lockedState({ $0.observations.removeValue(forKey: id) }) else { return false }
        host.history.withStack { _ in observation.cancel() }
        return true
    }

    private func notify(_ function: undo_observer_fn, _ userData: UnsafeMutableRawPointer?,
                        _ state: UndoState, _ changed: UInt32) {
        let thread = ThreadMessages.currentThread
        lockedState { $0.notifying[thread, default: 0] += 1 }
        defer {
            lockedState {
                $0.notifying[thread, default: 1] -= 1
                if $0.notifying[thread] == 0 { $0.notifying[thread] = nil }
            }
        }
        state.undoTitle.withCString { undoTitle in
            state.redoTitle.withCString { redoTitle in
                var cState = undo_state()
                cState.struct_size = UInt32(MemoryLayout<undo_state>.size)
                cState.can_undo = state.canUndo ? 1 : 0
                cState.can_redo = state.canRedo ? 1 : 0
                cState.is_dirty = state.isDirty ? 1 : 0
                cState.undo_title = undoTitle
                cState.redo_title = redoTitle
                cState.position = UInt64(state.position)
                cState.count = UInt64(state.count)
                // UndoStateChanges uses the same bits as UNDO_STATE_*.
                function(userData, &cState, changed)
            }
        }
    }
}

extension ClientHistory {
    /// Runs `body` on the per-thread bookkeeping with its lock held.
    fileprivate func lockedState<R>(_ body: (inout PerThreadState) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&perThread)
    }
}
