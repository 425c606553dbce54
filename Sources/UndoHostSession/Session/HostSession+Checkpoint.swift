import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginABI
import UndoPluginHost

/// When the session checkpoints its journal: the journal, the interval of automatic
/// checkpoints, and whether a failed one was reported.
struct CheckpointSchedule {
    /// The plugin host's journal, when one is open.
    var journal: HostJournal?
    /// An automatic checkpoint once this many changes (and as many as the steps the last one
    /// wrote) have come (``UndoHostJournal/HostJournal/checkpointIfDue(every:)``); 0: never.
    var every = HostSession.defaultCheckpointInterval
    /// How deep ``HostSession/run(_:)-(SessionCommand)`` is: an alert's pick or an
    /// expectation runs a command inside another, and the checkpoint waits for the outer one.
    var commandDepth = 0
    /// An automatic checkpoint failed and said so: later failures are not repeated.
    var warned = false
    /// Where an automatic checkpoint that failed is reported: the front end prints it.
    var warn: ((SessionError) -> Void)?
}

extension HostSession {
    /// The automatic checkpoint interval undo-host uses when `--checkpoint-every` is not given.
    public static let defaultCheckpointInterval = 1000

    /// An automatic checkpoint of the journal once this many changes, and as many as the steps
    /// the last checkpoint wrote, have come (`--checkpoint-every`), taken after the command
    /// that reached it, or when the groups open then are all closed; 0: never.
    /// - Complexity: each checkpoint is O(steps of every branch + documents' bytes); with the
    ///   second rule, O(1) amortized per change.
    public var checkpointInterval: Int {
        get { checkpoints.every }
        set { checkpoints.every = max(0, newValue) }
    }

    /// Where the session reports an automatic checkpoint that could not be written (why, with
    /// its code and hint), without failing the command before it: undo-host prints it on
    /// standard error.
    public var checkpointWarningHandler: ((SessionError) -> Void)? {
        get { checkpoints.warn }
        set { checkpoints.warn = newValue }
    }

    /// The plugin host's journal the session writes to, if one is open.
    public var hostJournal: HostJournal? { checkpoints.journal }

    /// Takes automatic checkpoints of `journal` from now on (the changes it replayed after its
    /// checkpoint count towards the first).
    func startCheckpoints(of journal: HostJournal) {
        checkpoints.journal = journal
    }

    /// Commits what waits and closes the plugin host's journal (the end of a session).
    /// - Complexity: O(1) in the journal's length (the changes waiting are written).
    /// - Returns: why the changes waiting (normal durability) could not be committed, or
    ///   `nil` when everything acknowledged is in the file.
    @discardableResult
    public func closeJournal() -> String? {
        guard let journal = checkpoints.journal else { return nil }
        defer {
            journal.close()
            checkpoints.journal = nil
        }
        do throws(JournalError) {
            try journal.commit()
            return nil
        } catch {
            return error.description
        }
    }

    /// `checkpoint`: writes one now and says what it holds.
    func checkpoint() throws(SessionError) -> CommandOutcome.Body {
        let info = try writeCheckpoint()
        let names = Set(info.documents.map(\.context.name))
        return .checkpoint(info, message: words.checkpointWritten(after: info.sequence, steps: info.steps,
                                                                  documents: names.count, bytes: info.documentBytes))
    }

    /// Writes a checkpoint of the journal.
    /// - Throws: no journal open; a group open; a plugin that cannot save
    ///   its documents (named); the journal's own failure. Nothing was written then.
    private func writeCheckpoint() throws(SessionError) -> CheckpointInfo {
        guard let journal = checkpoints.journal else {
            throw SessionError(.history, words.noJournalOpen, hint: words.journalOptionHint)
        }
        guard openGroupNames.isEmpty && withStack({ $0.groupDepth == 0 }) else { throw historyError(.groupOpen) }
        do throws(JournalError) {
            return try journal.checkpoint()
        } catch {
            throw checkpointError(error)
        }
    }

    /// A checkpoint's failure as the session words it.
    private func checkpointError(_ error: JournalError) -> SessionError {
        if error.reason == .cannotCheckpoint {
            guard let plugin = pluginThatCannotSave else {
                return SessionError(.plugin, error.description, code: UNDO_ENOTSUP, hint: words.changesStayHint)
            }
            return SessionError(.plugin, words.cannotSaveDocuments(plugin), code: UNDO_ENOTSUP, hint: words.changesStayHint)
        }
        if error.reason == .pluginFailed {
            let code = error.callCode == UNDO_ECRASHED ? UNDO_ECRASHED : UNDO_EPLUGIN
            return SessionError(.plugin, "checkpoint: \(error.description)", code: code, hint: words.checkpointNotWrittenHint)
        }
        return SessionError(.history, "checkpoint: \(error.description)", hint: words.checkpointNotWrittenHint)
    }

    /// The first plugin acting in a document of the session that has no save_document and
    /// load_document (what stops a checkpoint), in the order the documents were opened.
    /// - Complexity: O(documents × their plugins).
    private var pluginThatCannotSave: String? {
        let unable = Set(host.plugins.filter { !$0.canSaveDocuments }.map(\.id))
        for document in documents {
            if let plugin = documents.plugins(of: document.name).first(where: unable.contains) { return plugin }
        }
        return nil
    }

    /// After a command: an automatic checkpoint when one is due
    /// (``UndoHostJournal/HostJournal/checkpointIfDue(every:)``) and no group is open. A failure
    /// does not fail the command: it is reported once (``checkpointWarningHandler``), and the
    /// journal goes on keeping every change; the next try comes after as many changes again.
    func checkpointIfDue() {
        guard checkpoints.every > 0, let journal = checkpoints.journal, openGroupNames.isEmpty else { return }
        do throws(SessionError) {
            do throws(JournalError) {
                _ = try journal.checkpointIfDue(every: checkpoints.every)
            } catch {
                throw checkpointError(error)
            }
        } catch {
            guard !checkpoints.warned else { return }
            checkpoints.warned = true
            let reason = error.message.hasPrefix("checkpoint: ") ? String(error.message.dropFirst(12)) : error.message
            checkpointWarningHandler?(SessionError(error.kind, reason, code: error.code,
                                         hint: (error.hint.map { $0 + "; " } ?? "") + words.notRepeatedHint))
        }
    }
}
