import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost

extension HostSession {
    /// Opens the journal at `path` (format 2, or a new file) through the plugin host: its
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
            throw SessionError(.history, error.description, hint: "open it with the plugins it was made with; the journal was not changed")
        }
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

    /// Replays the changes of `journal` (each at the time it was first made, when `clock` is
    /// the history's clock), then writes every later change to it before acknowledging it.
    /// - Returns: how many changes were replayed.
    /// - Throws: the first change that cannot be replayed (a plugin missing, an action of
    ///   another signature), naming it; the journal is not written.
    public func restore(from journal: SessionLineJournal, clock: JournalClock?) throws(SessionError) -> Int {
        defer { clock?.resume() }
        for entry in journal.restored {
            if entry.document != currentDocument { _ = run(.document(entry.document)) }
            clock?.replaying(at: entry.time)
            guard let outcome = run(entry.command) else { continue }
            if let error = outcome.error {
                throw SessionError(.history, "journal \(journal.path): change \(entry.sequence) (\(entry.command)) cannot be replayed: \(error.message)",
                                   hint: "open it with the plugins it was made with; the journal was not changed")
            }
        }
        journal.replayed()
        self.journal = journal
        return journal.restored.count
    }

    /// Writes a command that changed the history (or what later commands act on) to the
    /// journal, as the line that replays it.
    func journal(_ command: SessionCommand, _ body: CommandOutcome.Body, document: String) throws(SessionError) {
        guard let journal, let line = journalLine(command, body, document: document) else { return }
        do throws(JournalError) {
            try journal.append(document: document, command: line)
        } catch {
            throw SessionError(.history, "the change was made but could not be journaled: \(error)",
                               hint: "it is lost if the program stops now; check the disk")
        }
    }

    /// The line that replays `command`, or `nil` for a command that changes nothing.
    private func journalLine(_ command: SessionCommand, _ body: CommandOutcome.Body, document: String) -> String? {
        func quoted(_ text: String) -> String {
            "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }
        switch command {
        case .perform(_, let arguments, _):
            guard case .performed(_, let fullID) = body else { return nil }
            return arguments.isEmpty ? fullID : fullID + " " + arguments
        case .undo(.steps(let count)): return "undo \(count)"
        case .undo(.to(let step)): return "undo to \(step)"
        case .redo(.steps(let count)): return "redo \(count)"
        case .redo(.to(let step)): return "redo to \(step)"
        case .groupBegin(let name, let description):
            return (name.map { "group begin " + quoted($0) } ?? "group begin")
                + (description.map { " --description " + quoted($0) } ?? "")
        case .groupEnd: return "group end"
        case .groupCancel: return "group cancel"
        case .breakCoalescing: return "break"
        case .save: return "save"
        case .forgetSave: return "save --forget"
        case .revert: return "revert"
        case .limit(let count?): return "limit \(count)"
        case .document(let name?): return "doc " + quoted(name)
        case .close(let name): return "close " + quoted(name ?? document)
        case .load(let path, let allowWritable): return "load " + (allowWritable ? "--allow-writable-plugins " : "") + quoted(path)
        case .unload(let id): return "unload " + quoted(id)
        case .tree(.goTo), .tree(.earlier), .tree(.later):
            // A move by time or by saves depends on the clock and the saves: kept as where it went.
            return "goto \(withStack { $0.currentState })"
        case .limit(nil), .document(nil), .menu, .history, .alert, .show, .plugins, .help, .quit, .expect, .tree(.tree), .checkpoint:
            // An alert's pick and an expectation run their commands through run(_:), which
            // journals them.
            return nil
        }
    }
}
