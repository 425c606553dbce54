extension UndoStack {
    /// Cancels the innermost open group: takes back every change made in it, newest first,
    /// and closes it leaving no step and nothing to redo (the redo steps from before it stay,
    /// as after a group that changed nothing). A group so used is a transaction, as the `undo`
    /// crate's checkpoints: ``beginGroup(named:description:context:)`` begins it, its changes take effect
    /// as they are made, ``endGroup()`` commits them as one step and this cancels them. The
    /// everyday case: a drag or a live preview abandoned with Escape. Inside an outer group,
    /// only the inner group's changes are taken back; the outer one stays open.
    ///
    /// A change that fails to be taken back follows the rules of a failing undo: the changes
    /// already taken back are made again and the group stays open, as it was; if even that
    /// fails (``UndoError/rollbackFailed(step:message:)``), the group is closed without a step
    /// and the documents it changed count as edited until their next save.
    /// - Returns: what was taken back (direction ``UndoResult/Direction/undo``, the group's name
    ///   and context, the places changed), or `nil` when the group had no changes.
    /// - Throws: ``UndoError/noOpenGroup`` when no group is open; the failing action's error;
    ///   ``UndoError/reentrantCall(_:)`` from inside an action.
    /// - Complexity: O(changes in the group).
    @discardableResult
    public func cancelGroup() throws -> UndoResult? {
        try beginAction("cancelGroup")
        defer {
            endAction()
            notifyIfObserved()
        }
        let record = storage.record
        guard let group = record.pointee.openGroups.last else { throw UndoError.noOpenGroup }
        record.pointee.coalescingOpen = false
        guard group.memberCount > 0 else {
            record.pointee.openGroups.removeLast()
            return nil
        }
        var changes = UndoChanges()
        do {
            try group.undo(&changes)
        } catch {
            let failure = UndoError.wrap(error, step: group.name)
            if case .rollbackFailed = failure {
                // Part of the group's changes are in the documents and in no step: none of
                // their states is the saved one any more (as after a failing undo).
                record.pointee.openGroups.removeLast()
                for context in HistoryRecord.contexts(of: group) {
                    record.pointee.saveStates[context, default: SaveState()].saved = []
                }
            }
            throw failure
        }
        record.pointee.openGroups.removeLast()
        return UndoResult(direction: .undo, name: group.name, context: group.context, changes: changes.all)
    }
}
