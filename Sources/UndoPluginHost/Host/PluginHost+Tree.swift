import UndoCore

// Moves across the branches of the history (see UndoCore's UndoStack+Tree), through the
// history's lock and with plugin failures reported as the plugin's own errors.
extension PluginHost {
    /// Moves to the state `id` on any branch (see ``UndoCore/UndoStack/goTo(state:)``).
    @discardableResult
    public func goTo(state id: UInt32) throws(PluginHostError) -> UndoResult? {
        try throughHistory("goto") { try recordedMove($0, $0.goTo(state: id)) }
    }

    /// Travels back in the order states were made (see ``UndoCore/UndoStack/earlier(_:)``).
    @discardableResult
    public func earlier(_ distance: UndoTravel) throws(PluginHostError) -> UndoResult? {
        try throughHistory("earlier") { try recordedMove($0, $0.earlier(distance)) }
    }

    /// Travels forward in the order states were made (see ``UndoCore/UndoStack/later(_:)``).
    @discardableResult
    public func later(_ distance: UndoTravel) throws(PluginHostError) -> UndoResult? {
        try throughHistory("later") { try recordedMove($0, $0.later(distance)) }
    }
}
