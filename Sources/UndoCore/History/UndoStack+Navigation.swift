extension UndoStack {
    /// Undoes the newest step of the ``currentContext`` (of the whole history when that is `nil`).
    /// - Returns: what was undone and where it changed things, or `nil` if there was nothing.
    /// - Throws: the action's error, with the history exactly as it was;
    ///   ``UndoError/groupOpen`` while a group is open; ``UndoError/reentrantCall(_:)``.
    /// - Complexity: O(1) for the whole history.
    @discardableResult
    public func undo() throws -> UndoResult? { try move(count: 1, .undo, in: .current) }

    /// Undoes the newest step of `context`; `nil` means the whole history.
    @discardableResult
    public func undo(in scope: UndoContext?) throws -> UndoResult? { try move(count: 1, .undo, in: .given(scope)) }

    /// Redoes the oldest redoable step of the ``currentContext``.
    /// - Returns: what was redone, or `nil` if there was nothing.
    /// - Throws: as ``undo()``.
    @discardableResult
    public func redo() throws -> UndoResult? { try move(count: 1, .redo, in: .current) }

    /// Redoes the oldest redoable step of `context`; `nil` means the whole history.
    @discardableResult
    public func redo(in scope: UndoContext?) throws -> UndoResult? { try move(count: 1, .redo, in: .given(scope)) }

    /// Undoes up to `count` steps in one call. If one fails, those already undone are redone,
    /// so the call is all or nothing.
    /// - Returns: the combined result (the newest step's name, every change), or `nil` if there
    ///   was nothing to undo.
    @discardableResult
    public func undo(count: Int) throws -> UndoResult? { try move(count: count, .undo, in: .current) }

    /// Undoes up to `count` steps of `context` (`nil`: the whole history), all or nothing.
    @discardableResult
    public func undo(count: Int, in scope: UndoContext?) throws -> UndoResult? { try move(count: count, .undo, in: .given(scope)) }

    /// Redoes up to `count` steps in one call, all or nothing.
    @discardableResult
    public func redo(count: Int) throws -> UndoResult? { try move(count: count, .redo, in: .current) }

    /// Redoes up to `count` steps of `context` (`nil`: the whole history), all or nothing.
    @discardableResult
    public func redo(count: Int, in scope: UndoContext?) throws -> UndoResult? { try move(count: count, .redo, in: .given(scope)) }

    /// Jumps to `position` (0: everything undone; ``count``: everything done), as a history
    /// panel does when a row is clicked. All or nothing.
    /// - Throws: ``UndoError/positionOutOfRange(requested:count:)``, or an action's error.
    @discardableResult
    public func move(to target: Int) throws -> UndoResult? {
        guard target >= 0 && target <= count else {
            throw UndoError.positionOutOfRange(requested: target, count: count)
        }
        if target < position { return try move(count: position - target, .undo, in: .given(nil)) }
        if target > position { return try move(count: target - position, .redo, in: .given(nil)) }
        return nil
    }

    /// Undoes or redoes up to `count` steps of `scope`, all or nothing, and tells the
    /// observers once.
    func move(count: Int, _ direction: UndoResult.Direction, in scope: HistoryRecord.Scope) throws -> UndoResult? {
        try beginAction(direction == .undo ? "undo" : "redo")
        // After the move, or its failure (a step that could not be put back was removed).
        defer {
            endAction()
            notifyIfObserved()
        }
        return try storage.record.pointee.move(count: count, direction, in: scope)
    }
}
