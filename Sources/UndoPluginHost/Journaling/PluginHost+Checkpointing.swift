import UndoCore

/// What a journal's checkpoint does with the host while it holds the history's lock
/// (``PluginHost/withHistoryLocked(checkpointing:)``): read the history as values, save each
/// document's state a block at a time as its plugin writes it, and load the saved state back
/// into a scratch document — all under the one lock, so no change comes in between.
///
/// Invariant (checked): it is used only inside the `body` it was given to; the plugins were
/// looked up before the lock was taken (the host's own lock is never taken under it).
public final class HistoryCheckpointAccess {
    private let stack: UndoStack
    private let instances: [String: LoadedPlugin]
    private let holding: [PluginDocument]
    private let host: PluginHost
    fileprivate var isOpen = true

    fileprivate init(stack: UndoStack, instances: [String: LoadedPlugin], holding: [PluginDocument], host: PluginHost) {
        self.stack = stack
        self.instances = instances
        self.holding = holding
        self.host = host
    }

    /// The documents to save: `listed` (a journal's own list, in its order), then those of
    /// ``PluginHost/documentsHoldingState()`` (read before the lock was taken) not in it.
    /// - Complexity: O(documents).
    public func documents(listed: [PluginDocument]) -> [PluginDocument] {
        precondition(isOpen, "used outside withHistoryLocked(checkpointing:)")
        let seen = Set(listed)
        return listed + holding.filter { !seen.contains($0) }
    }

    /// The history as values, every step a ``PluginStepRecord``.
    /// - Throws: ``PluginHostError/snapshot(_:)`` while a group is open or recording is
    ///   paused, and for a step that is not a plugin step.
    /// - Complexity: O(steps of every branch and their values).
    public func snapshot() throws(PluginHostError) -> UndoHistorySnapshot<PluginStepRecord> {
        precondition(isOpen, "used outside withHistoryLocked(checkpointing:)")
        do throws(UndoSnapshotError) {
            return try stack.snapshot { command in (command as? PluginCommand)?.record(resolvingCoalescing: false) }
        } catch {
            throw .snapshot(error.message)
        }
    }

    /// Whether the plugin can save its documents and load them back.
    /// - Throws: ``PluginHostError/unknownPlugin(_:)``; ``PluginHostError/cannotLoadDocuments(plugin:)``.
    public func checkCanSave(plugin pluginID: String) throws(PluginHostError) {
        precondition(isOpen, "used outside withHistoryLocked(checkpointing:)")
        guard let plugin = instances[pluginID] else { throw .unknownPlugin(pluginID) }
        guard plugin.canSaveDocuments else { throw .cannotLoadDocuments(plugin: pluginID) }
    }

    /// Saves `document`'s state and hands it to `deliver` in blocks of `chunkSize` bytes (the
    /// last one shorter), each as soon as the plugin has written it (save_document_v2, ABI
    /// 1.8): the state is never held whole here, only the block being filled. A plugin with
    /// only save_document (at most 16 MiB), or an isolated one, is saved whole, then handed on
    /// a block at a time.
    /// - Parameter deliver: takes each block; returns why it could not keep it, or `nil`
    ///   (the save then fails with ``PluginHostError/actionFailed(_:)``, phase `save`,
    ///   `UNDO_ESTATE`, naming that reason).
    /// - Returns: the state's length, and the most bytes of it held here at once.
    /// - Throws: what ``checkCanSave(plugin:)`` throws; ``PluginHostError/actionFailed(_:)``
    ///   when the plugin's save fails or passes the limit.
    /// - Complexity: what the plugin's save takes, plus O(bytes).
    public func save(_ document: PluginDocument, inChunksOf chunkSize: Int, to deliver: @escaping ([UInt8]) -> String?)
        throws(PluginHostError) -> (count: Int, mostBytesHeld: Int)
    {
        precondition(isOpen, "used outside withHistoryLocked(checkpointing:)")
        try checkCanSave(plugin: document.plugin)
        guard CallFrame.current == nil, !stack.isRunningAction else { throw .reentrantCall("save") }
        do throws(PluginActionError) {
            return try instances[document.plugin]!.saveDocument(document.context, inChunksOf: chunkSize, to: deliver)
        } catch {
            throw .actionFailed(error)
        }
    }

    /// What ``PluginHost/checkDocumentState(from:plugin:avoiding:)`` does: loads the state
    /// from `source` into a scratch document of the plugin (no context in `used`), then closes it.
    public func check(_ source: DocumentSource, plugin pluginID: String, avoiding used: Set<UndoContext>)
        throws(PluginHostError)
    {
        precondition(isOpen, "used outside withHistoryLocked(checkpointing:)")
        guard let plugin = instances[pluginID] else { throw .unknownPlugin(pluginID) }
        try host.checkDocumentState(from: source, plugin: plugin, avoiding: used)
    }
}

extension PluginHost {
    /// Runs `body` holding the history's lock, so no change is made or recorded meanwhile (a
    /// journal records under that lock), with an access that reads the history, saves the
    /// documents a block at a time and checks the saved states load back, all under the same
    /// lock: what a journal's checkpoint uses to write its rows as the plugins write their
    /// states, inside its transaction, and to load them back before it commits.
    /// - Parameter body: called once, under the lock.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (the access's saves and checks throw
    ///   ``PluginHostError/reentrantCall(_:)`` from inside a plugin call or an action).
    /// - Complexity: O(plugins + steps of the current branch) to look up the plugins and the
    ///   documents holding state before the lock is taken, plus `body`.
    public func withHistoryLocked<R, E: Error>(checkpointing body: (HistoryCheckpointAccess) throws(E) -> R) throws(E) -> R {
        let holding = documentsHoldingState()
        let instances = Dictionary(plugins.map(\.id).compactMap { id in loadedPlugin(withID: id).map { (id, $0) } },
                                   uniquingKeysWith: { first, _ in first })
        let result = history.withStack { stack -> Result<R, E> in
            let access = HistoryCheckpointAccess(stack: stack, instances: instances, holding: holding, host: self)
            defer { access.isOpen = false }
            do throws(E) {
                return .success(try body(access))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
