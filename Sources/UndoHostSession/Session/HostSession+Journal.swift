import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost

extension HostSession {
    /// Opens the journal at `path` (formats 2 to 4, or a new file) through the plugin host: its
    /// changes are replayed by the host, and the session follows them (documents, the current
    /// one, open groups, the last changes shown), so it is the session it was; then the host
    /// writes every later change before the command that made it is acknowledged.
    /// - Returns: the journal and how many changes were replayed.
    /// - Throws: the journal's error (not a journal, damaged, a plugin missing or of another
    ///   major version, a change that cannot be replayed); the file is then unchanged.
    public func openJournal(path: String, durability: JournalDurability, clock: JournalClock?)
        throws(SessionError) -> HostJournal
    {
        do throws(JournalError) {
            let journal = try HostJournal.open(path: path, durability: durability, host: host, clock: clock,
                                               following: { self.follow($0, $1) }, restoring: { self.follow($0) })
            startCheckpoints(of: journal)
            return journal
        } catch {
            var hint = error.reason == .pluginMissing || error.reason == .pluginVersion || error.reason == .replay
                ? words.journalUnchangedHint : words.journalNotChanged
            if error.reason == .pluginMissing, let id = error.plugin, let file = Self.bundledFile(of: id, trust: host.trustPolicy) {
                hint = words.bundledPluginHint(id: id, file: file)
            }
            throw SessionError(.history, error.description, hint: hint)
        }
    }

    /// The file among the bundled plugins (the folders undo-host loads without `--plugins`)
    /// that provides plugin `id`, found by loading them into a host of their own: what
    /// `--plugins` would satisfy a journal that needs it.
    /// - Complexity: loads every bundled plugin once.
    static func bundledFile(of id: String, trust: PluginTrustPolicy) -> String? {
        let probe = PluginHost(hostName: "undo-host", trust: trust)
        probe.loadBundledPlugins()
        return probe.plugins.first { $0.id == id }?.path
    }

    /// What a checkpoint restores of the session's own state: its documents, in the order they
    /// were first used, and the current one.
    private func follow(_ checkpoint: CheckpointInfo) {
        for document in checkpoint.documents {
            if document.plugin.isEmpty {
                if !documents.contains(document.context.name) { addDocument(document.context.name, plugins: []) }
            } else {
                noteDocument(document.context.name, usedBy: document.plugin)
            }
        }
        if let current = checkpoint.currentContext {
            if !documents.contains(current) { addDocument(current, plugins: []) }
            currentDocument = current
        }
        lastChanges = nil
    }

    /// What a replayed change does to the session's own state, as the command that made it did.
    private func follow(_ change: HostChange, _ result: UndoResult?) {
        switch change {
        case .perform(let step):
            noteDocument(step.context, usedBy: step.plugin)
            lastChanges = nil
        case .history(.currentContext(let name?)):
            if !documents.contains(name) { addDocument(name, plugins: []) }
            currentDocument = name
            lastChanges = nil
        case .history(.beginGroup(let name, _, _)):
            openGroupNames.append(name)
        case .history(.endGroup):
            if !openGroupNames.isEmpty { openGroupNames.removeLast() }
            lastChanges = nil
        case .history(.cancelGroup):
            if !openGroupNames.isEmpty { openGroupNames.removeLast() }
            if let result { lastChanges = result.changes }
        case .closeContext(let name):
            _ = documents.remove(name)
            lastChanges = nil
        case .unload(let id):
            documents.forget(plugin: id)
            lastChanges = nil
        case .history:
            // A move (undo, redo, goto, revert) shows what it changed; the rest change nothing shown.
            if let result { lastChanges = result.changes }
        case .load:
            break
        }
    }
}
