import UndoCore

// Undo and redo in one context, and jumps to a position: the history panel's moves, with
// plugin failures as PluginHostError like undo(count:).
extension PluginHost {
    /// Undoes up to `count` steps of `context` (`nil`: the whole history), all or nothing (see
    /// ``UndoCore/UndoStack/undo(count:in:)``).
    @discardableResult
    public func undo(count: Int, in context: UndoContext?) throws(PluginHostError) -> UndoResult? {
        try throughHistory("undo") { try recorded($0.undo(count: count, in: context)) { .undo(count: count, context: context?.name) } }
    }

    /// Redoes up to `count` steps of `context`, like ``undo(count:in:)``.
    @discardableResult
    public func redo(count: Int, in context: UndoContext?) throws(PluginHostError) -> UndoResult? {
        try throughHistory("redo") { try recorded($0.redo(count: count, in: context)) { .redo(count: count, context: context?.name) } }
    }

    /// Jumps to `position` of the whole history (see ``UndoCore/UndoStack/move(to:)``).
    /// - Returns: what was undone or redone, or `nil` when the history was already there.
    @discardableResult
    public func move(to position: Int) throws(PluginHostError) -> UndoResult? {
        try throughHistory("move") { try recordedMove($0, $0.move(to: position)) }
    }
}
