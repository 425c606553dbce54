/// A look at another state without a move: the documents as they are at a state, while the
/// history (its position, branches, save states, coalescing run, everything a journal or the
/// tree would show) stays exactly as it was.
extension UndoStack {
    /// Runs `read` with the documents as they are at state `id` (0: the start), then puts them
    /// back and leaves the history exactly as it was: the steps run to get there and back (the
    /// documents see an ordinary move and its return), but no state, branch, position or save
    /// changes and observers hear nothing. Undotree's diff pane; Vim has none. `read` must not
    /// call the history (it is refused as from inside an action).
    /// - Returns: what `read` returned.
    /// - Throws: ``UndoError/stateNotFound(_:)``; ``UndoError/groupOpen``; an action's error
    ///   on the way there (the documents and the history as they were); `read`'s error (after
    ///   coming back); ``UndoError/rollbackFailed(step:message:)`` when a step on the way back
    ///   failed: then the history is where that left the documents (every state it names is
    ///   still true), and observers are told.
    /// - Complexity: O(steps in the history + steps moved over, twice).
    public func withDocuments<R>(atState id: UInt32, _ read: () throws -> R) throws -> R {
        try beginAction("withDocuments")
        defer { endAction() }
        let record = storage.record
        guard record.pointee.openGroups.isEmpty else { throw UndoError.groupOpen }
        guard record.pointee.containsState(id) else { throw UndoError.stateNotFound(id) }
        let start = record.pointee.currentState
        guard id != start else { return try read() }
        // The record is a value: the copy is the history to give back, whatever the moves change
        // (the current branch, the branch slots, the coalescing run, the time cursor).
        let kept = record.pointee
        do {
            _ = try record.pointee.goTo(id)
        } catch {
            // goTo went back to the start: the record's shape comes back from the copy (unless
            // even that return failed; then the record tells where the documents are).
            if record.pointee.currentState == start { record.pointee = kept } else { notifyIfObserved() }
            throw error
        }
        let result = Result { try read() }
        var scratch = UndoChanges()
        do {
            _ = try record.pointee.travel(to: start, &scratch)
        } catch {
            // The documents are on the way back; the record says where (each state it names is
            // still true), and the person is told the look moved the history.
            notifyIfObserved()
            throw UndoError.rollbackFailed(step: nil, message: "the look at state \(id) could not come back to state \(start): \(error)")
        }
        record.pointee = kept
        return try result.get()
    }
}
