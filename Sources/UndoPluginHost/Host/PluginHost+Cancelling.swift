import UndoCore

extension PluginHost {
    /// Cancels the innermost open group (a transaction): its changes are taken back, newest
    /// first, and it closes leaving no step (see ``UndoCore/UndoStack/cancelGroup()``).
    /// - Returns: what was taken back, or `nil` when the group had no changes.
    /// - Throws: ``PluginHostError/actionFailed(_:)`` with the plugin's own error when an inverse
    ///   failed (the group is then as it was); ``PluginHostError/history(_:)`` otherwise.
    @discardableResult
    public func cancelGroup() throws(PluginHostError) -> UndoResult? {
        try throughHistory("cancelGroup") { stack in
            let result = try stack.cancelGroup()
            try record(.cancelGroup)
            return result
        }
    }
}
