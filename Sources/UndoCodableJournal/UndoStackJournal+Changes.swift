import FoundationEssentials
import UndoCore
import UndoJournal

extension UndoStackJournal {
    /// Makes one change to the history at a pinned time (so a step's time is the one written),
    /// then writes what `body` says was done (with `command`, a type's name and its JSON,
    /// beside it); nothing is written when the change throws.
    func journaled<R>(command: (type: String, json: String)? = nil, _ body: () throws -> (R, JournalOperation)) throws -> R {
        if let writeFailure { throw writeFailure }
        let time = JournalClock.wallClockNanoseconds()
        clock.replaying(at: time)
        let result: R
        let written: JournalOperation
        do {
            defer { clock.resume() }
            (result, written) = try body()
        } catch UndoError.rollbackFailed(let step, let message) {
            // Changes were made that no step holds and no journaled call replays.
            writeFailure = JournalError(path: path, "a change failed and could not be taken back, so the history and "
                                        + "the model no longer match the journal: reopen it to return to the last journaled state")
            throw UndoError.rollbackFailed(step: step, message: message)
        }
        try write(written, time: time, commandType: command?.type ?? "", command: command?.json ?? "")
        return result
    }

    /// Applies `operation` to the history and journals its recorded form: the one path of every
    /// call below but perform and record.
    @discardableResult
    func apply(_ operation: UndoOperation) throws -> UndoResult? {
        try journaled {
            let applied = try operation.apply(to: stack)
            // Every call is a row, even one that changed nothing: a journal counts calls.
            return (applied.result, .history(applied.recorded ?? .travelFoundNoState))
        }
    }

    /// Encodes `command` as the journal keeps it, after checking its type is registered.
    func encoded<C: UndoJournaledCommand>(_ command: C) throws -> (type: String, json: String) {
        if let writeFailure { throw writeFailure }
        guard let registered = registry[C.journalName], registered == C.self else {
            throw JournalError(path: path, "the command type \(C.self) is not registered as \"\(C.journalName)\" (add it to `commands:`)")
        }
        do {
            return (C.journalName, String(decoding: try encoder.encode(command), as: UTF8.self))
        } catch {
            throw JournalError(path: path, "a command of type \"\(C.journalName)\" cannot be encoded: \(error)")
        }
    }

    // MARK: Recording

    /// Performs `command` and records it (`UndoStack.perform(_:)`), then writes it: the
    /// command as it was before it ran, which the journal performs again when reopened.
    /// - Parameter command: a command of a registered type.
    /// - Throws: `JournalError` when the type is not registered or the command cannot be
    ///   encoded (nothing is performed then) or written; the history's errors, with nothing written.
    /// - Complexity: O(1) amortized, plus encoding the command and one write.
    public func perform<C: UndoJournaledCommand>(_ command: C) throws {
        let stored = try encoded(command)
        _ = try journaled(command: stored) { (try stack.perform(command), .perform) }
    }

    /// Records a change the app already made (`UndoStack.record(_:)`). When the journal is
    /// reopened, the command's perform makes the change on the new model.
    /// - Parameter command: a command of a registered type, as it stands after the change.
    /// - Throws: as ``perform(_:)``.
    /// - Complexity: that of the history's call, plus one write.
    public func record<C: UndoJournaledCommand>(_ command: C) throws {
        let stored = try encoded(command)
        try journaled(command: stored) { (try stack.record(command), .record) }
    }

    /// Ends the current run of coalescing changes (`UndoStack.breakCoalescing()`).
    /// - Throws: `JournalError` when it cannot be written.
    /// - Complexity: that of the history's call, plus one write.
    public func breakCoalescing() throws {
        try apply(.breakCoalescing)
    }

    /// Pauses recording (`UndoStack.pauseRecording()`): changes performed meanwhile are
    /// journaled and performed again on reopening, without becoming steps.
    /// - Throws: `JournalError` when it cannot be written.
    /// - Complexity: that of the history's call, plus one write.
    public func pauseRecording() throws {
        try apply(.pauseRecording)
    }

    /// Resumes recording (`UndoStack.resumeRecording()`).
    /// - Throws: `JournalError` when it cannot be written.
    /// - Complexity: that of the history's call, plus one write.
    public func resumeRecording() throws {
        try apply(.resumeRecording)
    }

    // MARK: Undo and redo

    /// Undoes up to `count` steps of the current context (`UndoStack.undo(count:)`).
    /// - Parameter count: how many steps; 1 by default.
    /// - Returns: what was undone, or `nil` when there was nothing.
    /// - Throws: the history's error (nothing written), or `JournalError`.
    /// - Complexity: that of the history's call, plus one write.
    @discardableResult
    public func undo(count: Int = 1) throws -> UndoResult? {
        try apply(.undo(count: count, scope: .current))
    }

    /// Undoes up to `count` steps of `scope` (`nil`: the whole history), as
    /// `UndoStack.undo(count:in:)`.
    /// - Parameters:
    ///   - count: how many steps.
    ///   - scope: the context, or `nil` for the whole history.
    /// - Returns: what was undone, or `nil` when there was nothing.
    /// - Throws: as ``undo(count:)``.
    /// - Complexity: that of the history's call, plus one write.
    @discardableResult
    public func undo(count: Int = 1, in scope: UndoContext?) throws -> UndoResult? {
        try apply(.undo(count: count, scope: .init(scope)))
    }

    /// Redoes up to `count` steps of the current context (`UndoStack.redo(count:)`).
    /// - Parameter count: how many steps; 1 by default.
    /// - Returns: what was redone, or `nil` when there was nothing.
    /// - Throws: as ``undo(count:)``.
    /// - Complexity: that of the history's call, plus one write.
    @discardableResult
    public func redo(count: Int = 1) throws -> UndoResult? {
        try apply(.redo(count: count, scope: .current))
    }

    /// Redoes up to `count` steps of `scope` (`nil`: the whole history), as
    /// `UndoStack.redo(count:in:)`.
    /// - Parameters:
    ///   - count: how many steps.
    ///   - scope: the context, or `nil` for the whole history.
    /// - Returns: what was redone, or `nil` when there was nothing.
    /// - Throws: as ``undo(count:)``.
    /// - Complexity: that of the history's call, plus one write.
    @discardableResult
    public func redo(count: Int = 1, in scope: UndoContext?) throws -> UndoResult? {
        try apply(.redo(count: count, scope: .init(scope)))
    }

    /// Jumps to `position` on the current branch (`UndoStack.move(to:)`).
    /// - Parameter position: 0 (everything undone) to `UndoStack.count`.
    /// - Returns: what moved, or `nil`.
    /// - Throws: as `UndoStack.move(to:)`, or `JournalError`.
    /// - Complexity: that of the history's call, plus one write.
    @discardableResult
    public func move(to position: Int) throws -> UndoResult? {
        try apply(.move(position: position))
    }

    // MARK: Branches and time travel

    /// Moves to the state after step `id`, on any branch (`UndoStack.goTo(state:)`).
    /// - Parameter id: the state's id (0: the start).
    /// - Returns: what moved, or `nil` when already there.
    /// - Throws: as `UndoStack.goTo(state:)`, or `JournalError`.
    /// - Complexity: as `UndoStack.goTo(state:)`, plus one write.
    @discardableResult
    public func goTo(state id: UInt32) throws -> UndoResult? {
        try apply(.goTo(state: id))
    }

    /// Travels back in the order the states were made (`UndoStack.earlier(_:)`). Journaled
    /// as the state it reached, so a travel by time or by saves replays to the same state (or,
    /// when it found none, as a change of nothing).
    /// - Parameter distance: states, a time, or saves.
    /// - Returns: what moved, or `nil`.
    /// - Throws: as ``goTo(state:)``.
    /// - Complexity: that of the history's call, plus one write.
    @discardableResult
    public func earlier(_ distance: UndoTravel) throws -> UndoResult? {
        try apply(.earlier(distance))
    }

    /// Travels forward in the order the states were made (`UndoStack.later(_:)`), journaled
    /// as the state it reached (or as a change of nothing).
    /// - Parameter distance: states, a time, or saves.
    /// - Returns: what moved, or `nil`.
    /// - Throws: as ``goTo(state:)``.
    /// - Complexity: that of the history's call, plus one write.
    @discardableResult
    public func later(_ distance: UndoTravel) throws -> UndoResult? {
        try apply(.later(distance))
    }

    // MARK: Groups

    /// Opens a group (`UndoStack.beginGroup(named:context:)`).
    /// - Parameters:
    ///   - name: the step's name, or `nil`.
    ///   - context: the group's context; by default that of its first member.
    /// - Throws: the history's error (nothing written), or `JournalError`.
    /// - Complexity: that of the history's call, plus one write.
    public func beginGroup(named name: String? = nil, context: UndoContext? = nil) throws {
        try apply(.beginGroup(name: name, context: context?.name))
    }

    /// Closes the innermost group (`UndoStack.endGroup()`).
    /// - Throws: the history's error (nothing written), or `JournalError`.
    /// - Complexity: that of the history's call, plus one write.
    public func endGroup() throws {
        try apply(.endGroup)
    }

    /// Cancels the innermost group, taking back its changes (`UndoStack.cancelGroup()`).
    /// - Returns: what was taken back, or `nil` when the group had no changes.
    /// - Throws: the history's error (nothing written), or `JournalError`.
    /// - Complexity: that of the history's call, plus one write.
    @discardableResult
    public func cancelGroup() throws -> UndoResult? {
        try apply(.cancelGroup)
    }

    // MARK: Save points

    /// Marks `context`'s present state as saved (`UndoStack.markSaved(_:)`).
    /// - Parameter context: the document; by default the current context, or the global one.
    /// - Throws: the history's error (nothing written), or `JournalError`.
    /// - Complexity: that of the history's call, plus one write.
    public func markSaved(_ context: UndoContext? = nil) throws {
        try apply(.markSaved(context: context?.name))
    }

    /// Forgets `context`'s save point (`UndoStack.forgetSavePoint(_:)`).
    /// - Parameter context: the document; by default the current context, or the global one.
    /// - Throws: the history's error (nothing written), or `JournalError`.
    /// - Complexity: that of the history's call, plus one write.
    public func forgetSavePoint(_ context: UndoContext? = nil) throws {
        try apply(.forgetSavePoint(context: context?.name))
    }

    /// Takes `context` back to its saved state as one new step (`UndoStack.revertToSaved(_:named:)`).
    /// - Parameters:
    ///   - context: the document; by default the current context, or the global one.
    ///   - name: the new step's name.
    /// - Returns: the result, or `nil` when the context is not dirty.
    /// - Throws: the history's error (nothing written), or `JournalError`.
    /// - Complexity: that of the history's call, plus one write.
    @discardableResult
    public func revertToSaved(_ context: UndoContext? = nil, named name: String = "Revert to Saved") throws -> UndoResult? {
        try apply(.revertToSaved(context: context?.name, name: name))
    }

    // MARK: Settings and removal

    /// Sets `UndoStack.countLimit` (steps over it are dropped now, and the drop is journaled).
    /// - Parameter limit: the most steps kept, or `nil` for unlimited.
    /// - Throws: `JournalError` when it cannot be written.
    /// - Complexity: that of the history's call, plus one write.
    public func setCountLimit(_ limit: Int?) throws {
        try apply(.limits(count: limit, memory: stack.memoryLimit))
    }

    /// Sets `UndoStack.memoryLimit`.
    /// - Parameter limit: the most bytes kept, or `nil` for unlimited.
    /// - Throws: `JournalError` when it cannot be written.
    /// - Complexity: that of the history's call, plus one write.
    public func setMemoryLimit(_ limit: Int?) throws {
        try apply(.limits(count: stack.countLimit, memory: limit))
    }

    /// Sets `UndoStack.coalescingWindow`: which changes join a step depends on it, so a
    /// replay needs it as it was.
    /// - Parameter window: the window, or `nil` for no time limit.
    /// - Throws: `JournalError` when it cannot be written.
    /// - Complexity: that of the history's call, plus one write.
    public func setCoalescingWindow(_ window: Duration?) throws {
        try apply(.coalescingWindow(window))
    }

    /// Sets `UndoStack.currentContext`, the default scope of undo, redo and saves.
    /// - Parameter context: the context the person is looking at, or `nil` for the whole history.
    /// - Throws: `JournalError` when it cannot be written.
    /// - Complexity: that of the history's call, plus one write.
    public func setCurrentContext(_ context: UndoContext?) throws {
        try apply(.currentContext(context?.name))
    }

    /// Removes the steps and save state of `context` (`UndoStack.removeAll(in:)`).
    /// - Parameter context: the document that closed.
    /// - Returns: how many steps were removed.
    /// - Throws: the history's error (nothing written), or `JournalError`.
    /// - Complexity: that of the history's call, plus one write.
    @discardableResult
    public func removeAll(in context: UndoContext) throws -> Int {
        try journaled { (try stack.removeAll(in: context), .history(.removeAll(context: context.name))) }
    }

    /// Removes every step and save state (`UndoStack.removeAll()`).
    /// - Throws: the history's error (nothing written), or `JournalError`.
    /// - Complexity: that of the history's call, plus one write.
    public func removeAll() throws {
        try apply(.removeAll(context: nil))
    }
}
