import UndoCore

// The history's operations through the host: one path (apply), which takes the history's lock
// once, makes the change and gives its recorded form to the recorder (a journal), if there is
// one. The named calls below are that path with their operation.
extension PluginHost {
    /// Makes `operation` on the history, with plugin failures as ``PluginHostError/actionFailed(_:)``,
    /// and records it (see ``recorder``) in its recorded form
    /// (``UndoCore/UndoOperation/Applied/recorded``).
    /// - Parameter operation: the change.
    /// - Returns: what was undone or redone, or `nil` when no step moved.
    /// - Throws: ``PluginHostError/reentrantCall(_:)`` from inside a plugin call or an action;
    ///   the history's or the plugin's error, with nothing recorded; the recorder's error, with
    ///   the change made.
    /// - Complexity: that of the history's call, plus one record.
    @discardableResult
    public func apply(_ operation: UndoOperation) throws(PluginHostError) -> UndoResult? {
        try throughHistory(operation.kind) { stack in
            // No journal open (the common case): the change needs no recorded form.
            guard isRecording else { return try Self.applyUnrecorded(operation, to: stack) }
            try checkRecorder()
            var applied = try operation.apply(to: stack)
            if isRecording, let recorded = applied.recorded { try record(.history(recorded)) }
            // Moved out, not copied (the rest of `applied` is then destroyed alone).
            return applied.result.take()
        }
    }

    /// Makes `operation` on `stack` as ``UndoCore/UndoOperation/apply(to:)`` does, without
    /// building its recorded form: an undo or redo of the current context calls the history
    /// directly (what `apply(to:)` calls for them), every other operation goes through
    /// `apply(to:)`.
    private static func applyUnrecorded(_ operation: UndoOperation, to stack: UndoStack) throws -> UndoResult? {
        switch operation {
        case .undo(let count, .current): return try stack.undo(count: count)
        case .redo(let count, .current): return try stack.redo(count: count)
        default:
            var applied = try operation.apply(to: stack)
            return applied.result.take()
        }
    }

    /// Whether this thread is inside a call a host made into a plugin (perform, an inverse,
    /// save_document, …), where a call that changes a host or its journal is refused.
    public static var isInsidePluginCall: Bool { CallFrame.current != nil }

    /// Refuses a change before it is made when the recorder can keep no more (see
    /// ``PluginHostRecorder/checkWritable()``).
    func checkRecorder() throws(PluginHostError) {
        try recorder?.checkWritable()
    }

    /// A step a plugin made on its own (`undo_host.record`): into the history and, as every
    /// change, to the recorder — as its perform call, which a replay performs again.
    /// - Throws: the recorder's refusal (nothing recorded), the history's error, or the
    ///   recorder's error (the step is in the history, not in the journal).
    /// - Parameter recorded: called once the step is recorded, still under the history's lock.
    func recordPluginStep(_ command: PluginCommand, then recorded: () -> Void = {}) throws {
        try history.withStack { stack in
            try checkRecorder()
            let call = recorder == nil ? nil : command.call
            try stack.record(command)
            recorded()
            if let call { try record(.perform(call)) }
        }
    }

    /// Gives `change` to the recorder, if there is one; called under the history's lock.
    func record(_ change: @autoclosure () -> HostChange) throws(PluginHostError) {
        guard let recorder else { return }
        try recorder.record(change())
    }

    /// Records `change` under the history's lock (for changes made outside it: loads, unloads,
    /// closed documents), so records keep the order of the changes.
    func recordUnderLock(_ change: HostChange) throws(PluginHostError) {
        guard recorder != nil else { return }
        do {
            try history.withStack { _ in try record(change) }
        } catch let error as PluginHostError {
            throw error
        } catch {
            throw .journal(String(describing: error))
        }
    }

    // MARK: The operations by name

    /// Undoes the newest step of the current context (see ``UndoCore/UndoStack/undo()``).
    @discardableResult
    public func undo() throws(PluginHostError) -> UndoResult? { try apply(.undo(count: 1, scope: .current)) }
    /// Undoes up to `count` steps of the current context, all or nothing.
    @discardableResult
    public func undo(count: Int) throws(PluginHostError) -> UndoResult? { try apply(.undo(count: count, scope: .current)) }
    /// Undoes up to `count` steps of `context` (`nil`: the whole history), all or nothing.
    @discardableResult
    public func undo(count: Int, in context: UndoContext?) throws(PluginHostError) -> UndoResult? {
        try apply(.undo(count: count, scope: .init(context)))
    }
    /// Redoes, like ``undo()``.
    @discardableResult
    public func redo() throws(PluginHostError) -> UndoResult? { try apply(.redo(count: 1, scope: .current)) }
    /// Redoes up to `count` steps of the current context, like ``undo(count:)``.
    @discardableResult
    public func redo(count: Int) throws(PluginHostError) -> UndoResult? { try apply(.redo(count: count, scope: .current)) }
    /// Redoes up to `count` steps of `context`, like ``undo(count:in:)``.
    @discardableResult
    public func redo(count: Int, in context: UndoContext?) throws(PluginHostError) -> UndoResult? {
        try apply(.redo(count: count, scope: .init(context)))
    }
    /// Jumps to `position` of the current branch (see ``UndoCore/UndoStack/move(to:)``).
    @discardableResult
    public func move(to position: Int) throws(PluginHostError) -> UndoResult? { try apply(.move(position: position)) }
    /// Moves to the state `id` on any branch (see ``UndoCore/UndoStack/goTo(state:)``).
    @discardableResult
    public func goTo(state id: UInt32) throws(PluginHostError) -> UndoResult? { try apply(.goTo(state: id)) }
    /// Travels back in the order states were made (see ``UndoCore/UndoStack/earlier(_:)``).
    @discardableResult
    public func earlier(_ distance: UndoTravel) throws(PluginHostError) -> UndoResult? { try apply(.earlier(distance)) }
    /// Travels forward in the order states were made (see ``UndoCore/UndoStack/later(_:)``).
    @discardableResult
    public func later(_ distance: UndoTravel) throws(PluginHostError) -> UndoResult? { try apply(.later(distance)) }
    /// Takes one document alone to its content at state `id`, as one new step named `name`; the
    /// other documents stay (see ``UndoCore/UndoStack/goTo(state:in:named:)``).
    @discardableResult
    public func goTo(state id: UInt32, in context: UndoContext, named name: String = "Go to State") throws(PluginHostError) -> UndoResult? {
        try apply(.goToInDocument(state: id, context: context.name, name: name))
    }
    /// Takes one document alone `count` of its own states back (see
    /// ``UndoCore/UndoStack/earlier(_:in:named:)``).
    @discardableResult
    public func earlier(_ count: Int, in context: UndoContext, named name: String = "Go to State") throws(PluginHostError) -> UndoResult? {
        try apply(.earlierInDocument(count: count, context: context.name, name: name))
    }
    /// Takes one document alone `count` of its own states forward (see
    /// ``UndoCore/UndoStack/later(_:in:named:)``).
    @discardableResult
    public func later(_ count: Int, in context: UndoContext, named name: String = "Go to State") throws(PluginHostError) -> UndoResult? {
        try apply(.laterInDocument(count: count, context: context.name, name: name))
    }

    /// Opens a group (see ``UndoCore/UndoStack/beginGroup(named:description:context:)``).
    public func beginGroup(named name: String? = nil, description: String? = nil, context: UndoContext? = nil)
        throws(PluginHostError)
    {
        try apply(.beginGroup(name: name, context: context?.name, description: description))
    }
    /// Closes the innermost open group (see ``UndoCore/UndoStack/endGroup()``).
    public func endGroup() throws(PluginHostError) { try apply(.endGroup) }
    /// Cancels the innermost open group: its changes are taken back, newest first, and it
    /// closes leaving no step (see ``UndoCore/UndoStack/cancelGroup()``).
    /// - Returns: what was taken back, or `nil` when the group had no changes.
    @discardableResult
    public func cancelGroup() throws(PluginHostError) -> UndoResult? { try apply(.cancelGroup) }
    /// The next change starts a new step instead of joining the newest one.
    public func breakCoalescing() throws(PluginHostError) { try apply(.breakCoalescing) }

    /// Marks the present state of `context` (`nil`: the current one) as saved.
    public func markSaved(_ context: UndoContext? = nil) throws(PluginHostError) {
        try apply(.markSaved(context: context?.name))
    }
    /// Forgets the save point of `context` (`nil`: the current one).
    public func forgetSavePoint(_ context: UndoContext? = nil) throws(PluginHostError) {
        try apply(.forgetSavePoint(context: context?.name))
    }
    /// Takes `context` back to its save point as one step named `name`.
    /// - Returns: what was taken back, or `nil` when it is at its save point.
    @discardableResult
    public func revertToSaved(_ context: UndoContext? = nil, named name: String = "Revert to Saved") throws(PluginHostError) -> UndoResult? {
        try apply(.revertToSaved(context: context?.name, name: name))
    }
    /// Sets the context that calls without one act on (`nil`: the whole history).
    public func setCurrentContext(_ context: UndoContext?) throws(PluginHostError) {
        try apply(.currentContext(context?.name))
    }
    /// Sets the count and memory limits (`nil`: none); steps beyond them are evicted.
    public func setLimits(count: Int?, memory: Int?) throws(PluginHostError) {
        try apply(.limits(count: count, memory: memory))
    }
    /// Empties the history (see ``UndoCore/UndoStack/removeAll()``).
    public func removeAll() throws(PluginHostError) { try apply(.removeAll(context: nil)) }

    // MARK: Replay

    /// Replays a recorded change through the same host call that made it, not recording it
    /// again (the caller unsets ``recorder`` while replaying).
    /// - Parameter change: a change recorded by this or an earlier host with the same plugins.
    /// - Throws: why it cannot be made again (an action of another signature, a state missing).
    /// - Complexity: that of the call it makes.
    @discardableResult
    public func replay(_ change: HostChange) throws(PluginHostError) -> UndoResult? {
        switch change {
        case .history(let operation):
            return try apply(operation)
        case .perform(let step):
            try perform(step.action, argumentText: step.arguments, in: UndoContext(step.context))
        case .closeContext(let name):
            _ = try closeContext(UndoContext(name))
        case .load(let path, let id, let version):
            try replayLoad(path: path, id: id, version: version)
        case .unload(let id):
            try unload(id)
        }
        return nil
    }

    /// A journaled load: the plugin must be loaded already, by the program (the program loads
    /// its plugins before opening the journal), of the same major version. A journal never
    /// makes the host load a file: `path`, where it was loaded from when it was journaled, is
    /// named only as a hint.
    private func replayLoad(path: String, id: String, version: String) throws(PluginHostError) {
        guard let loaded = plugins.first(where: { $0.id == id }) else {
            throw .journal("it needs plugin \(id) \(HostChange.major(version)).x (written with \(version)); it is not loaded "
                           + "(it was loaded from \(path) when it was journaled: load it first, e.g. undo-host --plugins \(path))")
        }
        guard HostChange.sameMajor(loaded.version, version) else {
            throw .journal("it needs plugin \(id) \(HostChange.major(version)).x (written with \(version)); loaded: \(loaded.version)")
        }
    }
}
