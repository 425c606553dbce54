import UndoCore

// The changes of the history made through the host (beside perform, undo and redo in
// PluginHost.swift), each recorded (HostChange) when a recorder is set. Every one runs through
// the history's lock once, the change and its record together.
extension PluginHost {
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

    /// Records `change` when `result` says something moved, and passes the result on.
    func recorded(_ result: UndoResult?, _ change: () -> HostChange) throws(PluginHostError) -> UndoResult? {
        if result != nil { try record(change()) }
        return result
    }

    /// Records a move across branches as the state it reached.
    func recordedMove(_ stack: UndoStack, _ result: UndoResult?) throws(PluginHostError) -> UndoResult? {
        if result != nil { try record(.goTo(state: stack.currentState)) }
        return result
    }

    /// Opens a group (see ``UndoCore/UndoStack/beginGroup(named:description:context:)``).
    /// - Parameters:
    ///   - name: the group's name, shown in the menu titles.
    ///   - description: the group's longer text for history lists (`nil`: none).
    ///   - context: the group's context (`nil`: the current context).
    /// - Complexity: O(1).
    public func beginGroup(named name: String? = nil, description: String? = nil, context: UndoContext? = nil)
        throws(PluginHostError)
    {
        try throughHistory("beginGroup") { stack in
            try stack.beginGroup(named: name, description: description, context: context)
            try record(.beginGroup(name: name, context: context?.name, description: description))
        }
    }

    /// Closes the innermost open group (see ``UndoCore/UndoStack/endGroup()``).
    /// - Complexity: O(1).
    public func endGroup() throws(PluginHostError) {
        try throughHistory("endGroup") { stack in
            try stack.endGroup()
            try record(.endGroup)
        }
    }

    /// The next change starts a new step instead of joining the newest one.
    /// - Complexity: O(1).
    public func breakCoalescing() throws(PluginHostError) {
        try throughHistory("breakCoalescing") { stack in
            stack.breakCoalescing()
            try record(.breakCoalescing)
        }
    }

    /// Marks the present state of `context` as saved (see ``UndoCore/UndoStack/markSaved(_:)``).
    /// - Parameter context: the document saved (`nil`: the current context).
    /// - Complexity: O(1).
    public func markSaved(_ context: UndoContext? = nil) throws(PluginHostError) {
        try throughHistory("markSaved") { stack in
            try stack.markSaved(context)
            try record(.markSaved(context: context?.name))
        }
    }

    /// Forgets the save point of `context` (see ``UndoCore/UndoStack/forgetSavePoint(_:)``).
    /// - Parameter context: the document (`nil`: the current context).
    /// - Complexity: O(1).
    public func forgetSavePoint(_ context: UndoContext? = nil) throws(PluginHostError) {
        try throughHistory("forgetSavePoint") { stack in
            try stack.forgetSavePoint(context)
            try record(.forgetSaved(context: context?.name))
        }
    }

    /// Takes `context` back to its save point as one step (see
    /// ``UndoCore/UndoStack/revertToSaved(_:named:)``).
    /// - Parameters:
    ///   - context: the document (`nil`: the current context).
    ///   - name: the name of the step it makes.
    /// - Returns: what was taken back, or `nil` when it is at its save point.
    /// - Complexity: O(*n*) in the steps it takes back.
    @discardableResult
    public func revertToSaved(_ context: UndoContext? = nil, named name: String = "Revert to Saved") throws(PluginHostError) -> UndoResult? {
        try throughHistory("revert") { stack in
            try recorded(stack.revertToSaved(context, named: name)) { .revert(context: context?.name, name: name) }
        }
    }

    /// Sets the context that calls without one act on (`nil`: the whole history).
    /// - Parameter context: the new current context.
    /// - Complexity: O(1).
    public func setCurrentContext(_ context: UndoContext?) throws(PluginHostError) {
        try throughHistory("setContext") { stack in
            stack.currentContext = context
            try record(.setContext(context?.name))
        }
    }

    /// Sets the count and memory limits (`nil`: none); steps beyond them are evicted.
    /// - Parameters:
    ///   - count: the most steps kept.
    ///   - memory: the most bytes of steps kept.
    /// - Complexity: O(*n*) in the steps evicted.
    public func setLimits(count: Int?, memory: Int?) throws(PluginHostError) {
        try throughHistory("setLimits") { stack in
            guard !stack.isRunningAction else { throw PluginHostError.reentrantCall("setLimits") }
            stack.countLimit = count
            stack.memoryLimit = memory
            try record(.setLimits(count: count, memory: memory))
        }
    }

    /// Empties the history (see ``UndoCore/UndoStack/removeAll()``).
    /// - Complexity: O(*n*) in the steps.
    public func removeAll() throws(PluginHostError) {
        try throughHistory("removeAll") { stack in
            try stack.removeAll()
            try record(.removeAll)
        }
    }

    /// Replays a recorded change through the same host call that made it, not recording it
    /// again (the caller unsets ``recorder`` while replaying).
    /// - Parameter change: a change recorded by this or an earlier host with the same plugins.
    /// - Throws: why it cannot be made again (an action of another signature, a state missing).
    /// - Complexity: that of the call it makes.
    @discardableResult
    public func replay(_ change: HostChange) throws(PluginHostError) -> UndoResult? {
        func context(_ name: String?) -> UndoContext? { name.map(UndoContext.init) }
        switch change {
        case .perform(_, _, let action, let arguments, let name, _):
            try perform(action, argumentText: arguments, in: UndoContext(name))
            return nil
        case .undo(let count, let name): return try undo(count: count, in: context(name))
        case .redo(let count, let name): return try redo(count: count, in: context(name))
        case .goTo(let state): return try goTo(state: state)
        case .beginGroup(let name, let contextName, let description):
            try beginGroup(named: name, description: description, context: context(contextName))
        case .endGroup: try endGroup()
        case .cancelGroup: return try cancelGroup()
        case .breakCoalescing: try breakCoalescing()
        case .markSaved(let name): try markSaved(context(name))
        case .forgetSaved(let name): try forgetSavePoint(context(name))
        case .revert(let contextName, let name): return try revertToSaved(context(contextName), named: name)
        case .setContext(let name): try setCurrentContext(context(name))
        case .setLimits(let count, let memory): try setLimits(count: count, memory: memory)
        case .closeContext(let name): _ = try closeContext(UndoContext(name))
        case .removeAll: try removeAll()
        case .load(let path, let id, let version):
            // Already loaded (the program loads its plugins before opening the journal): kept
            // when of the same major version.
            if let loaded = plugins.first(where: { $0.id == id }) {
                guard HostChange.sameMajor(loaded.version, version) else {
                    throw .journal("it needs plugin \(id) \(HostChange.major(version)).x (written with \(version)); loaded: \(loaded.version)")
                }
                return nil
            }
            let info: PluginInfo
            do throws(PluginLoadError) {
                info = try load(file: path)
            } catch {
                throw .journal("it needs plugin \(id) \(version), loaded from \(path): \(error)")
            }
            guard HostChange.sameMajor(info.version, version) else {
                throw .journal("it needs plugin \(id) \(HostChange.major(version)).x (written with \(version)); \(path) is \(info.version)")
            }
        case .unload(let id): try unload(id)
        }
        return nil
    }
}

extension HostChange {
    /// The major version of a version text ("1" of "1.2.0").
    /// - Parameter version: a plugin's version.
    /// - Complexity: O(*n*) in its length.
    public static func major(_ version: String) -> Substring {
        version.prefix { $0 != "." }
    }

    /// Whether two versions have the same major version (the ABI promise of a plugin).
    /// - Parameters:
    ///   - first: a version.
    ///   - second: another version.
    /// - Complexity: O(*n*) in their lengths.
    public static func sameMajor(_ first: String, _ second: String) -> Bool {
        major(first) == major(second)
    }
}

extension HostChange {
    /// A perform with the step it made (other changes unchanged).
    func with(_ step: PerformedStep?) -> HostChange {
        guard case .perform(let id, let version, let action, let arguments, let context, _) = self else { return self }
        return .perform(plugin: id, pluginVersion: version, action: action, arguments: arguments, context: context, step: step)
    }
}

extension PluginCommand {
    /// This step as the change that performs it again.
    var change: HostChange {
        .perform(plugin: action.pluginID, pluginVersion: action.plugin.version, action: action.fullID,
                 arguments: arguments.map(\.description).joined(separator: " "), context: context.name)
    }
}
