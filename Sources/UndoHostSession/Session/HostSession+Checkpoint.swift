import Synchronization
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginABI
import UndoPluginHost

/// When the session checkpoints its journal: the journal, how many changes it wrote since its
/// last checkpoint (or since it was opened, counting those replayed after its checkpoint), and
/// the count that takes an automatic one.
struct CheckpointSchedule {
    /// The plugin host's journal, when one is open (not a format 1 journal of session lines).
    var journal: HostJournal?
    var counter: JournalChangeCounter?
    /// An automatic checkpoint after this many changes; 0: never.
    var every = HostSession.defaultCheckpointInterval
    /// How deep ``HostSession/run(_:)-(SessionCommand)`` is: an alert's pick or an
    /// expectation runs a command inside another, and the checkpoint waits for the outer one.
    var commandDepth = 0
    /// An automatic checkpoint failed and said so: later failures are not repeated.
    var warned = false
    /// Where an automatic checkpoint that failed is reported: the front end prints it.
    var warn: ((SessionError) -> Void)?
}

/// The host's recorder while undo-host journals: passes every change to the journal and counts
/// those it wrote, so automatic checkpoints come every N changes whatever commands made them.
final class JournalChangeCounter: PluginHostRecorder {
    let journal: HostJournal
    /// Changes are recorded under the history's lock, on whatever thread runs the call.
    private let count: Mutex<Int>

    init(_ journal: HostJournal, count: Int) {
        self.journal = journal
        self.count = Mutex(count)
    }

    /// Changes written since the last checkpoint.
    var changes: Int { count.withLock { $0 } }

    func reset() { count.withLock { $0 = 0 } }

    func record(_ change: HostChange) throws(PluginHostError) {
        try journal.record(change)
        count.withLock { $0 += 1 }
    }
}

extension HostSession {
    /// The automatic checkpoint interval undo-host uses when `--checkpoint-every` is not given.
    public static let defaultCheckpointInterval = 1000

    /// An automatic checkpoint of the journal after this many changes (`--checkpoint-every`),
    /// taken after the command that reached it, or when the groups open then are all closed;
    /// 0: never.
    /// - Complexity: each checkpoint is O(steps of every branch + documents' bytes), so over
    ///   many changes an automatic one costs that divided by the interval per change.
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

    /// Follows the changes `journal` writes, counting from those it replayed after its
    /// checkpoint, so the next automatic checkpoint comes after ``checkpointInterval`` changes
    /// in all.
    func startCheckpoints(of journal: HostJournal) {
        let counter = JournalChangeCounter(journal, count: journal.restoredCount)
        host.recorder = counter
        checkpoints.journal = journal
        checkpoints.counter = counter
    }

    /// Commits what waits and closes the plugin host's journal (the end of a session).
    /// - Complexity: O(1) in the journal's length (the changes waiting are written).
    public func closeJournal() {
        guard let journal = checkpoints.journal else { return }
        if host.recorder === checkpoints.counter { host.recorder = nil }
        journal.close()
        checkpoints.journal = nil
        checkpoints.counter = nil
    }

    /// `checkpoint`: writes one now and says what it holds.
    func checkpoint() throws(SessionError) -> CommandOutcome.Body {
        let info = try writeCheckpoint()
        let names = Set(info.documents.map(\.context.name))
        return .checkpoint(info, message: words.checkpointWritten(after: info.sequence, steps: info.steps,
                                                                  documents: names.count, bytes: info.documentBytes))
    }

    /// Writes a checkpoint of the journal (and counts the changes again from it).
    /// - Throws: no journal open, or one of format 1; a group open; a plugin that cannot save
    ///   its documents (named); the journal's own failure. Nothing was written then.
    private func writeCheckpoint() throws(SessionError) -> CheckpointInfo {
        guard let journal = checkpoints.journal else {
            if let journal = self.journal {
                throw SessionError(.history, words.formatOneHasNoCheckpoints(journal.path), code: UNDO_ENOTSUP,
                                   hint: words.formatOneCheckpointHint)
            }
            throw SessionError(.history, words.noJournalOpen, hint: words.journalOptionHint)
        }
        guard openGroupNames.isEmpty && withStack({ $0.groupDepth == 0 }) else { throw historyError(.groupOpen) }
        do throws(JournalError) {
            let info = try journal.checkpoint()
            checkpoints.counter?.reset()
            return info
        } catch {
            // Tried now: an automatic one waits for as many changes again rather than fail alike.
            checkpoints.counter?.reset()
            if error.reason == .cannotCheckpoint {
                guard let plugin = pluginThatCannotSave else {
                    throw SessionError(.plugin, error.description, code: UNDO_ENOTSUP, hint: words.changesStayHint)
                }
                throw SessionError(.plugin, words.cannotSaveDocuments(plugin), code: UNDO_ENOTSUP, hint: words.changesStayHint)
            }
            throw SessionError(.history, "checkpoint: \(error.description)", hint: words.checkpointNotWrittenHint)
        }
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

    /// After a command: an automatic checkpoint when the changes since the last reached
    /// ``checkpointInterval`` and no group is open. A failure does not fail the command: it is
    /// reported once (``checkpointWarningHandler``), and the journal goes on keeping every change; the
    /// next try comes after as many changes again.
    func checkpointIfDue() {
        guard checkpoints.every > 0, let counter = checkpoints.counter, counter.changes >= checkpoints.every,
              openGroupNames.isEmpty, withStack({ $0.groupDepth == 0 }) else { return }
        do throws(SessionError) {
            _ = try writeCheckpoint()
        } catch {
            guard !checkpoints.warned else { return }
            checkpoints.warned = true
            let reason = error.message.hasPrefix("checkpoint: ") ? String(error.message.dropFirst(12)) : error.message
            checkpointWarningHandler?(SessionError(error.kind, reason, code: error.code,
                                         hint: (error.hint.map { $0 + "; " } ?? "") + words.notRepeatedHint))
        }
    }
}
