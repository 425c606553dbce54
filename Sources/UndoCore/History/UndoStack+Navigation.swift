extension UndoStack {
    /// Undoes the newest step of the ``currentContext`` (of the whole history when that is `nil`).
    /// - Returns: what was undone and where it changed things, or `nil` if there was nothing.
    /// - Throws: the action's error, with the history exactly as it was;
    ///   ``UndoError/groupOpen`` while a group is open; ``UndoError/reentrantCall(_:)``.
    /// - Complexity: O(1) for the whole history.
    @discardableResult
    public func undo() throws -> UndoResult? { try move(count: 1, .undo, in: currentContext) }

    /// Undoes the newest step of `context`; `nil` means the whole history.
    @discardableResult
    public func undo(in scope: UndoContext?) throws -> UndoResult? { try move(count: 1, .undo, in: scope) }

    /// Redoes the oldest redoable step of the ``currentContext``.
    /// - Returns: what was redone, or `nil` if there was nothing.
    /// - Throws: as ``undo()``.
    @discardableResult
    public func redo() throws -> UndoResult? { try move(count: 1, .redo, in: currentContext) }

    /// Redoes the oldest redoable step of `context`; `nil` means the whole history.
    @discardableResult
    public func redo(in scope: UndoContext?) throws -> UndoResult? { try move(count: 1, .redo, in: scope) }

    /// Undoes up to `count` steps in one call. If one fails, those already undone are redone,
    /// so the call is all or nothing.
    /// - Returns: the combined result (the newest step's name, every change), or `nil` if there
    ///   was nothing to undo.
    @discardableResult
    public func undo(count: Int) throws -> UndoResult? { try move(count: count, .undo, in: currentContext) }

    /// Undoes up to `count` steps of `context` (`nil`: the whole history), all or nothing.
    @discardableResult
    public func undo(count: Int, in scope: UndoContext?) throws -> UndoResult? { try move(count: count, .undo, in: scope) }

    /// Redoes up to `count` steps in one call, all or nothing.
    @discardableResult
    public func redo(count: Int) throws -> UndoResult? { try move(count: count, .redo, in: currentContext) }

    /// Redoes up to `count` steps of `context` (`nil`: the whole history), all or nothing.
    @discardableResult
    public func redo(count: Int, in scope: UndoContext?) throws -> UndoResult? { try move(count: count, .redo, in: scope) }

    /// Jumps to `position` (0: everything undone; ``count``: everything done), as a history
    /// panel does when a row is clicked. All or nothing.
    /// - Throws: ``UndoError/positionOutOfRange(requested:count:)``, or an action's error.
    @discardableResult
    public func move(to target: Int) throws -> UndoResult? {
        guard target >= 0 && target <= count else {
            throw UndoError.positionOutOfRange(requested: target, count: count)
        }
        if target < position { return try move(count: position - target, .undo, in: nil) }
        if target > position { return try move(count: target - position, .redo, in: nil) }
        return nil
    }

    /// Undoes or redoes up to `count` steps of `scope`, all or nothing, and tells the
    /// observers once.
    func move(count: Int, _ direction: UndoResult.Direction, in scope: UndoContext?) throws -> UndoResult? {
        guard count > 0, let first = try record.beginMove(direction, in: scope) else { return nil }
        let (result, observed) = try moveSteps(from: first, count: count, direction, in: scope, ending: true)
        if observed { notifyObservers() }
        return result
    }

    /// Moves over `first` (taken out by ``HistoryRecord/beginMove(_:in:)``) and up to
    /// `count - 1` more steps of `scope`, each run outside the record. All or nothing: when one
    /// fails, those already moved over are put back, newest first, the action ends, and the
    /// failure is thrown.
    /// - Parameter ending: whether the action ends with the last step (a revert goes on).
    func moveSteps(from first: HistoryRecord.Taken, count: Int, _ direction: UndoResult.Direction,
                   in scope: UndoContext?, ending: Bool) throws -> (UndoResult, observed: Bool) {
        var taken = first
        var changes = UndoChanges()
        var moved = 0
        while true {
            do {
                try Self.run(&taken.command, direction, &changes)
            } catch {
                let failure = record.fail(taken, error)
                // Put back what this call already moved over, newest first.
                let back: UndoResult.Direction = direction == .undo ? .redo : .undo
                var scratch = UndoChanges()
                while moved > 0, let index = record.find(back, in: scope) {
                    var step = record.take(at: index)
                    do {
                        try Self.run(&step.command, back, &scratch)
                        record.complete(step, back)
                    } catch {
                        _ = record.fail(step, error)
                    }
                    moved -= 1
                }
                if record.endAction() { notifyObservers() }
                throw failure
            }
            moved += 1
            switch record.advance(taken, direction, moved: moved, more: moved < count, in: scope, changes: changes,
                                  ending: ending) {
            case .next(let next): taken = next
            case .done(let result, let observed): return (result, observed)
            }
        }
    }

    /// Undoes (or redoes) one command, outside the record.
    static func run(_ command: inout any UndoCommand, _ direction: UndoResult.Direction, _ changes: inout UndoChanges) throws {
        switch direction {
        case .undo: try command.undo(&changes)
        case .redo: try command.perform(&changes)
        }
    }
}
