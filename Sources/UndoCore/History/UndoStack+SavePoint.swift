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
            // The step it may be a copy of too: the content is the same at both.
            record.saveStates[context, default: SaveState()].saved = [marker, record.origin(of: marker)]
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

    /// Whether ``revertToSaved(_:named:)`` would take `context` (default: the current one, or
    /// ``UndoContext/global``) to its saved state: it differs from it, and the saved state is
    /// known, still in the history (on any branch) and reached without running a step that also
    /// changed other documents.
    /// - Complexity: O(steps of every branch).
    public func canRevertToSaved(_ context: UndoContext? = nil) -> Bool {
        return access { record in
            let context = context ?? record.currentContext ?? .global
            guard record.openGroups.isEmpty && record.isDirty(context) else { return false }
            if case .success(let plan) = record.revertPlan(for: context) { return plan.stepCount > 0 }
            return false
        }
    }

    /// Takes `context` to its saved state in one call, recorded as one new step named `name`
    /// ("Revert to Saved") on top of the present state, whose undo restores exactly the state
    /// before it. All or nothing; observers are told once, with the final state.
    ///
    /// The saved state may be behind (the steps since the save are undone), ahead (in the redo
    /// steps) or on another branch (undone back to where the branches part, then done along
    /// the saved one), as Vim's `:e!` reads the saved file whatever branch it was written from.
    /// The revert runs copies of those steps; the steps themselves stay where they were, so
    /// every state keeps its number and its documents, undoing the revert and then each step
    /// goes back one level at a time, and the document's redo steps hang as a branch at the
    /// state before the revert. Other documents do not change.
    /// - Parameters:
    ///   - context: the document to revert; by default the current context, or
    ///     ``UndoContext/global``.
    ///   - name: the new step's name, in the language of the titles.
    /// - Returns: the result of the revert, or `nil` when the context is not dirty.
    /// - Throws: ``UndoError/noSavePoint(_:)`` when its save point was forgotten;
    ///   ``UndoError/savePointUnreachable(_:)`` when a limit dropped the saved state's steps;
    ///   ``UndoError/revertCrossesOtherDocuments(_:step:)`` when the way passes a group that
    ///   also changed other documents; ``UndoError/groupOpen``; an action's error, with the
    ///   history as it was.
    /// - Complexity: O(steps of every branch + steps run).
    @discardableResult
    public func revertToSaved(_ context: UndoContext? = nil, named name: String = "Revert to Saved") throws -> UndoResult? {
        try beginAction("revertToSaved")
        defer {
            endAction()
            notifyIfObserved()
        }
        let record = storage.record
        guard record.pointee.openGroups.isEmpty else { throw UndoError.groupOpen }
        let context = context ?? record.pointee.currentContext ?? .global
        guard record.pointee.isDirty(context) else { return nil }
        let plan = try record.pointee.revertPlan(for: context).get()
        guard plan.stepCount > 0 else { return nil }
        var ran = try plan.run(named: name, context: context) {
            record.pointee.saveStates[context, default: SaveState()].saved = []
        }
        record.pointee.appendFinished(ran.command)
        let marker = record.pointee.savedMarker(in: context)
        record.pointee.saveStates[context, default: SaveState()].saved.formUnion([marker, record.pointee.origin(of: marker)])
        return UndoResult(direction: plan.redone.isEmpty ? .undo : .redo, name: name, context: context,
                          stepCount: plan.stepCount, changes: ran.changes.takeAll())
    }
}
