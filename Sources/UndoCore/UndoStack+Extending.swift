extension UndoStack {
    /// Makes a change that coalesces into the newest step by changing that step in place,
    /// without making a step for the change: the fast path of a typing run, where every
    /// keystroke would otherwise be a command made, performed and merged.
    ///
    /// Applies exactly when ``perform(_:)`` would merge a command with `key` in `context` into
    /// the newest step: the run is open (no ``breakCoalescing()``, save point or undo since),
    /// within the coalescing window, no group is open, recording is not paused, and the newest
    /// step is a `C` with that key and context. Then `body` runs on the newest step as an
    /// action (a nested history call is refused): it makes the change and records it in the
    /// step, and returns by how much the step's ``UndoCommand/cost`` grew, or `nil` to decline
    /// with nothing changed.
    /// - Returns: whether the change was made here; `false` (with `body` not run, or declined)
    ///   means the caller makes it the usual way, with ``perform(_:)``.
    /// - Throws: `body`'s error as ``UndoError/actionFailed(step:underlying:)``, with the step as
    ///   it was (`body` must change nothing when it throws); ``UndoError/reentrantCall(_:)``
    ///   from inside an action.
    /// - Complexity: O(1) plus `body`.
    @inlinable
    public func extendNewest<C: UndoCommand>(_ type: C.Type, key: UndoCoalescingKey, context: UndoContext,
                                             _ body: (inout C) throws -> Int?) throws -> Bool {
        if runningAction { throw UndoError.reentrantCall("perform") }
        guard coalescingOpen && openGroups.isEmpty && _position > 0 && recordingPauses == 0 else { return false }
        let window = coalescingWindowNanoseconds
        let now = window == nil ? 0 : clock.nanoseconds()
        guard window == nil || now &- lastCoalescingTime <= window! else { return false }
        let (address, newestType) = Self.payload(of: storage.slot(at: _position &- 1))
        guard newestType == C.self else { return false }
        let newest = address.assumingMemoryBound(to: C.self)
        guard newest.pointee.coalescingKey == key, newest.pointee.belongs(to: context) else { return false }
        runningAction = true
        let grown: Int?
        do {
            grown = try body(&newest.pointee)
        } catch {
            runningAction = false
            throw UndoError.wrap(error, step: newest.pointee.name)
        }
        runningAction = false
        guard let grown else { return false }
        _totalCost &+= grown
        lastCoalescingTime = now
        if hasLimits { trimToLimits() }
        notifyIfChanged()
        return true
    }
}
