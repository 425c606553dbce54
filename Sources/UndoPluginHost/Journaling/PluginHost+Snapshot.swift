import UndoCore

extension PluginHost {
    /// Rebuilds the history from `snapshot` (see ``UndoCore/UndoStack/restore(_:decoding:)``):
    /// no plugin function runs, so the plugins' documents must already be in the state the
    /// snapshot's position stands for (loaded with ``loadDocumentState(_:plugin:context:)``).
    /// - Throws: ``PluginHostError/snapshot(_:)`` when the history has steps, a step's plugin or
    ///   action type is not loaded (or of another major version), its arguments do not fit the
    ///   signature, or the snapshot does not make a history; the history is then unchanged.
    ///   ``PluginHostError/reentrantCall(_:)``.
    /// - Complexity: O(steps of every branch and their values).
    public func restoreHistory(_ snapshot: UndoHistorySnapshot<PluginStepRecord>) throws(PluginHostError) {
        guard CallFrame.current == nil, !isRunningAction else { throw .reentrantCall("restoreHistory") }
        // The action types are resolved before the history's lock is taken (the host's own lock
        // is never taken inside it): each one once.
        let versions = Dictionary(plugins.map { ($0.id, $0.version) }, uniquingKeysWith: { first, _ in first })
        var actions: [String: Result<ActionType, UndoSnapshotError>] = [:]
        func resolve(_ content: UndoHistorySnapshot<PluginStepRecord>.Content) {
            switch content {
            case .command(let record):
                guard actions[record.action] == nil else { return }
                do throws(PluginHostError) {
                    actions[record.action] = .success(try actionType(record.action))
                } catch {
                    actions[record.action] = .failure(UndoSnapshotError("\(error)"))
                }
            case .group(_, _, _, let members): members.forEach(resolve)
            case .reverted(_, _, let group): resolve(group)
            }
        }
        for step in snapshot.steps { resolve(step.content) }
        for branch in snapshot.branches { for step in branch.steps { resolve(step.content) } }
        func command(_ record: PluginStepRecord) throws -> any UndoCommand {
            guard let version = versions[record.plugin] else { throw UndoSnapshotError("plugin \(record.plugin) is not loaded") }
            guard HostChange.sameMajor(version, record.pluginVersion) else {
                throw UndoSnapshotError("plugin \(record.plugin) \(version) is loaded; the step was made with \(record.pluginVersion)")
            }
            guard let resolved = actions[record.action] else { throw UndoSnapshotError("\(record.action) was not resolved") }
            let action = try resolved.get()
            guard action.pluginID == record.plugin else {
                throw UndoSnapshotError("\(record.action) is not an action of plugin \(record.plugin)")
            }
            let arguments = try ActionArguments.parse(record.arguments, for: action.signature)
            var inverse: [ActionValue]?
            if let signature = action.inverseSignature {
                guard let text = record.inverseArguments else {
                    throw UndoSnapshotError("the step of \(record.action) has no inverse arguments")
                }
                inverse = try ActionArguments.parse(text, for: signature)
            }
            var made = PluginCommand(action: action, arguments: arguments, inverseArguments: inverse,
                                     context: UndoContext(record.context), performed: true)
            let coalescing: PluginStep.Coalescing = switch record.coalescing {
            case .actionType: .actionType
            case .never: .never
            case .key(let key): .key(UndoCoalescingKey(key))
            }
            made.restore(description: record.description, coalescing: coalescing)
            return made
        }
        let failure = history.withStack { stack -> UndoSnapshotError? in
            do throws(UndoSnapshotError) {
                try stack.restore(snapshot, decoding: command)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw .snapshot("the history cannot be restored: \(failure.message)") }
    }
}

extension PluginHost {
    /// The history as values (see ``UndoCore/UndoHistorySnapshot``; every plugin step a
    /// ``PluginStepRecord``) and the documents' states at one moment, with what `body` reads at
    /// that moment (a journal's last change): everything is read under the history's lock, so
    /// no change comes in between. What a journal's checkpoint keeps.
    /// - Parameters:
    ///   - documents: called under the lock: the documents to save, in the order they are to
    ///     be listed (a journal's own list; the host adds those of ``documentsHoldingState()``
    ///     not in it, after them). A document of plugin "" names a context only.
    ///   - body: called under the lock, after the rest is read.
    /// - Returns: the history, each document with its bytes (the plugin's own format; empty for
    ///   a context only), and `body`'s result.
    /// - Throws: ``PluginHostError/snapshot(_:)`` while a group is open or recording is paused,
    ///   and for a step that is not a plugin step (a program's own Swift command);
    ///   ``PluginHostError/reentrantCall(_:)``; ``PluginHostError/cannotLoadDocuments(plugin:)``
    ///   for a document of a plugin without save_document and load_document;
    ///   ``PluginHostError/unknownPlugin(_:)`` for one not loaded; ``PluginHostError/actionFailed(_:)``
    ///   when a plugin's save fails. Nothing is changed.
    /// - Complexity: O(steps of every branch and their values) plus the plugins' saves.
    public func captureState<R>(documents: () -> [PluginDocument], _ body: () -> R) throws(PluginHostError)
        -> (history: UndoHistorySnapshot<PluginStepRecord>, documents: [(document: PluginDocument, state: [UInt8])], value: R)
    {
        guard CallFrame.current == nil, !isRunningAction else { throw .reentrantCall("captureState") }
        let holding = documentsHoldingState()
        // Looked up before the history's lock is taken (the host's own lock is never taken inside it).
        let order = plugins.map(\.id)
        let instances = Dictionary(order.compactMap { id in loadedPlugin(withID: id).map { (id, $0) } },
                                   uniquingKeysWith: { first, _ in first })
        typealias Captured = (history: UndoHistorySnapshot<PluginStepRecord>, documents: [(document: PluginDocument, state: [UInt8])], value: R)
        let result = history.withStack { stack -> Result<Captured, PluginHostError> in
            var wanted = documents()
            let listed = Set(wanted)
            wanted += holding.filter { !listed.contains($0) }
            let snapshot: UndoHistorySnapshot<PluginStepRecord>
            do throws(UndoSnapshotError) {
                snapshot = try stack.snapshot { command in (command as? PluginCommand)?.record(resolvingCoalescing: false) }
            } catch {
                return .failure(.snapshot(error.message))
            }
            var saved: [(document: PluginDocument, state: [UInt8])] = []
            for document in wanted {
                guard !document.plugin.isEmpty else {
                    saved.append((document, []))
                    continue
                }
                guard let plugin = instances[document.plugin] else { return .failure(.unknownPlugin(document.plugin)) }
                guard plugin.canSaveDocuments else { return .failure(.cannotLoadDocuments(plugin: document.plugin)) }
                do throws(PluginActionError) {
                    saved.append((document, try plugin.saveDocument(document.context)))
                } catch {
                    return .failure(.actionFailed(error))
                }
            }
            return .success((snapshot, saved, body()))
        }
        return try result.get()
    }
}
