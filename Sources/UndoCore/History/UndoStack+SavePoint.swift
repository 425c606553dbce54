extension UndoStack {
    /// Marks `context`'s present state as saved (default: the current context, or
    /// ``UndoContext/global`` when there is none). Ends the coalescing run: a later change never
    /// joins a step from before the save.
    /// - Throws: ``UndoError/groupOpen`` while a group is open (its changes are made but not yet
    ///   a step, so the state before the group is not what would be saved);
    ///   ``UndoError/reentrantCall(_:)`` from inside an action.
    public func markSaved(_ context: UndoContext? = nil) throws {
        try refuseReentry("markSaved")
        try access { record in
            guard record.openGroups.isEmpty else { throw UndoError.groupOpen }
            let context = context ?? record.currentContext ?? .global
            let marker = record.savedMarker(in: context)
            record.saveStates[context, default: SaveState()].saved = [marker]
            record.logSave()
            record.coalescingOpen = false
        }
        notifyIfObserved()
    }

    /// Forgets the save point of `context` (default: the current context, or
    /// ``UndoContext/global``): no state of it is the saved one any more (the file was deleted,
    /// or saved under another name), so every state, the present one included, is dirty until
    /// the next ``markSaved(_:)``, and ``revertToSaved(_:named:)`` has nothing to go back to.
    /// The steps stay; the log of past saves (what `earlier 1f` travels by) stays too. Like
    /// Qt's `QUndoStack::resetClean` and the `undo` crate's `clear_saved`.
    /// - Parameter context: the document whose save point is forgotten.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside an action.
    /// - Complexity: O(1).
    public func forgetSavePoint(_ context: UndoContext? = nil) throws {
        try refuseReentry("forgetSavePoint")
        access { record in
            let context = context ?? record.currentContext ?? .global
            record.saveStates[context, default: SaveState()].saved = []
        }
        notifyIfObserved()
    }

    /// Whether `context` (default: the current one, or ``UndoContext/global``) differs from its
    /// saved state. Discardable steps do not count.
    /// - Complexity: O(steps since that context's newest non-discardable step).
    public func isDirty(_ context: UndoContext? = nil) -> Bool {
        access { $0.isDirty(context ?? $0.currentContext ?? .global) }
    }

    /// Whether the saved state of `context` can still be reached by undoing or redoing.
    public func canRevertToSaved(_ context: UndoContext? = nil) -> Bool {
        return access { record in
            let context = context ?? record.currentContext ?? .global
            return record.openGroups.isEmpty && record.isDirty(context) && record.pathToSaved(in: context) != nil
        }
    }

    /// Takes `context` back (or forward) to its saved state in one call, recorded as one new
    /// step named `name` ("Revert to Saved") whose undo restores exactly the state before it. All or
    /// nothing; observers are told once, with the final state.
    ///
    /// Backwards, the steps since the save stay in the history, each a step of its own, below
    /// the revert: undoing the revert does them again, and undoing further takes them back one
    /// at a time. Forwards (the saved state is in the redo steps), the revert does those redo
    /// steps, which it then holds.
    /// - Parameters:
    ///   - context: the document to revert; by default the current context, or
    ///     ``UndoContext/global``.
    ///   - name: the new step's name, in the language of the titles.
    /// - Returns: the result of the revert, or `nil` when the context is not dirty.
    /// - Throws: ``UndoError/savePointUnreachable(_:)`` when the saved state's steps are gone
    ///   or the way back passes a group that also changed other documents;
    ///   ``UndoError/groupOpen``; an action's error, with the history as it was.
    @discardableResult
    public func revertToSaved(_ context: UndoContext? = nil, named name: String = "Revert to Saved") throws -> UndoResult? {
        try beginAction("revertToSaved")
        defer {
            endAction()
            notifyIfObserved()
        }
        let record = storage.record
        guard record.pointee.openGroups.isEmpty else { throw UndoError.groupOpen }
        // A refused revert changes nothing, not even the coalescing run its moves end.
        let wasOpen = record.pointee.coalescingOpen
        do {
            return try revert(context ?? record.pointee.currentContext ?? .global, named: name)
        } catch {
            record.pointee.coalescingOpen = wasOpen
            throw error
        }
    }

    private func revert(_ context: UndoContext, named name: String) throws -> UndoResult? {
        let record = storage.record
        guard record.pointee.isDirty(context) else { return nil }
        guard let path = record.pointee.pathToSaved(in: context) else { throw UndoError.savePointUnreachable(context) }
        let direction: UndoResult.Direction = path < 0 ? .undo : .redo
        // Obsolete steps stay: the revert's own step takes them back and does them again.
        guard var result = try record.pointee.move(count: abs(path), direction, in: .given(context),
                                                    removingObsolete: false) else {
            throw UndoError.savePointUnreachable(context)
        }
        guard result.stepCount == abs(path) else {
            // A step on the way could not be moved over (another document's change is in the
            // way): back to where it was.
            _ = try? record.pointee.move(count: result.stepCount, direction == .undo ? .redo : .undo, in: .given(context),
                                         removingObsolete: false)
            throw UndoError.savePointUnreachable(context)
        }
        result.name = name
        record.pointee.recordRevert(context, moved: abs(path), direction, name: name)
        return result
    }
}
