#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSQLite
import UndoCore
import UndoPluginHost
import UndoJournal

/// The journal of a ``UndoPluginHost/PluginHost``: every change made through the host (plugin
/// actions with their typed arguments, undo, redo, moves across branches, groups, saves,
/// documents closed, limits, plugins loaded) kept in an SQLite database (WAL mode) as the
/// ``UndoPluginHost/HostChange`` that makes it again, written before the change is acknowledged.
///
/// ``open(path:durability:host:clock:following:restoring:)`` on a new file starts an empty
/// journal; on an existing one it checks it, checks that the plugins it needs are loaded (same
/// id, same major version), restores its checkpoint if it has one, replays the changes after it
/// through the same host calls (each at the time it was first made, when `clock` is the
/// history's clock), and then records every later change. The C API
/// (`undo_history_open_journal`) and undo-host's `--journal` open it the same way.
///
/// **Checkpoints** (``checkpoint()``): the whole state after one change, in one transaction with
/// the deletion of the changes it holds: the plugins the journal loaded, each document's state
/// as its plugin's bytes (ABI 1.7 `save_document`), and the history (every branch, position,
/// save, time and limit) with each plugin step as its typed call (``UndoPluginHost/PluginStepRecord``).
/// Reopening loads the bytes and rebuilds the history without running a step; a checkpoint is
/// refused when a document's bytes do not load back into a scratch document, and gives the
/// pages of the changes it drops back to the file system. A journal whose
/// documents include one of a plugin that cannot save them is never checkpointed: it keeps every
/// change, and is replayed from its first. So a limit that drops steps from the history never
/// drops what the journal needs to restore the documents.
///
/// **Format.** Version 5 (`PRAGMA user_version`; format 1 is undo-host's journal of session
/// lines, read by undo-host's `SessionLineJournal`): one row per change, its fields in typed columns, with a
/// checksum, and the checkpoint's tables (see CheckpointTables.swift), each row with a checksum
/// and the count of rows in the checkpoint's record (format 5 keeps a document's state over
/// 4 MiB in pieces, so a state may be larger than one value, up to 4 GiB); a damaged file is refused naming what is
/// damaged. A perform keeps the step it made (``UndoPluginHost/PluginStepRecord``: name,
/// description, coalescing key, inverse arguments, and what the history did with it: a step of
/// its own, merged, annulled), and its replay must make the same step again (name, coalescing
/// key, inverse arguments, merge; not the description, written in the performing host's
/// language), else the open is refused naming the change, the plugin and what differs. Journals of format 2 (no step columns) and 3 (no checkpoint
/// tables) and 4 (no pieces) are read, and become format 5 once replayed. A failed open never writes to the file,
/// nor to its `-wal` (a `-wal` that does not continue the database is refused); a link among the
/// journal's files in a folder others may write is refused before SQLite follows it. An open
/// after one that died replaying a change stops before that change (``stoppedReplay``), and one
/// after an automatic checkpoint that died in a plugin's save turns them off for that plugin
/// (``automaticCheckpointsOff``); see docs/reliability.md.
/// Every value read is checked as strictly as the same value from a caller (a forged row with
/// a valid checksum is refused as damaged too, naming the change or table and the value). An
/// empty file (0 bytes, or an SQLite database with nothing in it) never held a journal and is
/// opened as a new one; a new journal whose creation fails is removed.
///
/// **Durability** (``UndoJournal/JournalDurability``): `full` commits and syncs each change before it
/// is acknowledged; `normal` commits changes in groups, at most ``groupCommitWindow`` after the
/// first of a group, without syncing (see docs/reliability.md for what each can lose).
///
/// **Threads.** Its methods may be called from any thread; records come under the history's
/// lock, in the order of the changes.
public final class HostJournal: PluginHostRecorder, @unchecked Sendable {
    /// The format this version writes.
    public static let formatVersion: Int64 = 5
    /// The oldest format this version opens (and brings to ``formatVersion`` once replayed).
    public static let oldestFormatVersion: Int64 = 2
    /// The last sequence number a change may have (2^62): a checkpoint or change past it is
    /// damage, so counting on from it never overflows.
    public static let maximumSequence: Int64 = 1 << 62
    /// In `normal` durability, how long an acknowledged change may wait before its commit: the
    /// most a process crash can lose.
    public static let groupCommitWindow: Duration = .milliseconds(100)

    public let path: String
    public let durability: JournalDurability
    /// How many changes were replayed when it was opened (those after its checkpoint, if it
    /// has one).
    public let restoredCount: Int
    /// The checkpoint it was restored from when it was opened, `nil` when it had none.
    public let restoredCheckpoint: CheckpointInfo?
    /// Set when the last open died replaying a change (a plugin crashed on it) and this one, with
    /// the same plugins, stopped before that change: what happened and what to do. The changes
    /// from that one on stay in the file; the journal then takes no changes (``record(_:)`` and
    /// ``checkpoint()`` throw this message) until it is opened with another version of a plugin,
    /// or its `-replay` file is removed. See docs/reliability.md.
    public let stoppedReplay: String?
    /// What the open found and the program must tell the person: ``stoppedReplay``, and
    /// automatic checkpoints turned off after one died in a plugin's save.
    public let openWarnings: [String]
    /// The plugins whose documents an automatic checkpoint was saving when its process died
    /// (found at the open, with the same plugins loaded): ``checkpointIfDue(every:)`` takes no
    /// checkpoint while a document of one of them is in the journal.
    public let automaticCheckpointsOff: Set<String>

    /// What the open held while it replayed (the tests count it): set once, before the journal
    /// is handed out.
    package private(set) var replayStatistics = ReplayStatistics()

    /// The journal's one connection, opened ``UndoJournal/SQLiteConnection/Threading/guardedByOwner``
    /// (SQLite takes no mutex of its own). Invariant: no two threads use it at once. The open
    /// uses it alone, on the thread that opens, before the journal is handed out (no other
    /// thread has it yet: the commit thread commits only a group begun by a change); from
    /// then on every use is under `state`'s lock: ``record(_:)``, ``commit()``, the commit
    /// thread's commit, ``close()``, a failure's rollback, and the checkpoint (under the
    /// history's lock and then `state`'s; a document source it hands a plugin is read inside
    /// that call, on that thread, as a callback from another thread finds no call frame).
    /// Tests reach it through ``withConnection(_:)``, which takes the lock too.
    private let connection: SQLiteConnection
    /// The insert of a change, prepared once.
    private let insert: SQLiteConnection.Statement
    private let state: Locked<WriteState>
    private weak var host: PluginHost?
    /// The history's clock, whose last reading is the time of the change being recorded.
    private var clock: JournalClock?
    /// Commits a group of changes after the window (normal durability only).
    private var commitThread: GroupCommitThread?
    /// What the last checkpoint's check held and read (written under the state's lock).
    private(set) var lastStatistics: CheckpointStatistics?

    struct WriteState {
        var nextSequence: Int64
        /// The time of the last change written: a later one is given at least it (the wall
        /// clock may step back), so a journal's times never go backwards.
        var lastTime: UInt64 = 0
        /// A transaction is open (normal durability): changes since `groupStarted` wait in it.
        var inTransaction = false
        var groupStarted: UInt64 = 0
        var isClosed = false
        /// Why a change could not be written: from then on every change is refused (see
        /// ``HostJournal/checkWritable()``).
        var failure: String?
        /// Whether a call has said `failure` (a failed group commit waits for the next call).
        var failureSaid = false
        /// What a checkpoint must save beside the history (see ``Tracked``).
        var tracked = Tracked()
        /// Changes written since the last checkpoint (or the open), and the steps that
        /// checkpoint wrote: what ``checkpointIfDue(every:)`` weighs.
        var changesSinceCheckpoint = 0
        var checkpointSteps = 0
        /// The bytes of the changes written since the last checkpoint (or the open), and of the
        /// documents' states that checkpoint wrote: what ``checkpointIfDue(every:)`` weighs too.
        var bytesSinceCheckpoint = 0
        var checkpointDocumentBytes = 0
    }

    /// What the journal follows of the changes it writes, for its checkpoints: the documents
    /// that may hold state (plugin "" for a context only named) and the plugins it loaded.
    struct Tracked {
        /// In the order they were first used (a program lists its documents in that order).
        private(set) var documents: [PluginDocument] = []
        private var known: Set<PluginDocument> = []
        var loads: [Checkpoint.Load] = []

        /// The document noted last: a journal's changes mostly go to the same document as the
        /// one before, which then costs a comparison instead of hashing it into `known`.
        private var last: PluginDocument?

        mutating func note(_ document: PluginDocument) {
            if document == last { return }
            if known.insert(document).inserted { documents.append(document) }
            last = document
        }

        /// - Complexity: O(1) for most changes; O(documents) to close a document or unload a plugin.
        mutating func follow(_ change: HostChange) {
            switch change {
            case .perform(let step):
                note(PluginDocument(plugin: step.plugin, context: UndoContext(step.context)))
            case .history(.currentContext(let name?)):
                note(PluginDocument(plugin: "", context: UndoContext(name)))
            case .closeContext(let name):
                documents.removeAll { $0.context.name == name }
                known = Set(documents)
                last = nil
            case .load(let path, let plugin, let version):
                if !loads.contains(where: { $0.plugin == plugin }) { loads.append(.init(path: path, plugin: plugin, version: version)) }
            case .unload(let plugin):
                documents.removeAll { $0.plugin == plugin }
                known = Set(documents)
                last = nil
                loads.removeAll { $0.plugin == plugin }
            default:
                break
            }
        }
    }

    private init(path: String, durability: JournalDurability, connection: SQLiteConnection,
                 insert: SQLiteConnection.Statement, nextSequence: Int64, restoredCount: Int,
                 restoredCheckpoint: CheckpointInfo?, tracked: Tracked, lastTime: UInt64, stoppedReplay: String?,
                 automaticCheckpointsOff: Set<String>, openWarnings: [String]) {
        self.stoppedReplay = stoppedReplay
        self.automaticCheckpointsOff = automaticCheckpointsOff
        self.openWarnings = openWarnings
        self.insert = insert
        self.path = path
        self.durability = durability
        self.connection = connection
        self.restoredCount = restoredCount
        self.restoredCheckpoint = restoredCheckpoint
        var state = WriteState(nextSequence: nextSequence)
        state.tracked = tracked
        state.lastTime = lastTime
        state.changesSinceCheckpoint = restoredCount
        state.checkpointSteps = restoredCheckpoint?.steps ?? 0
        state.checkpointDocumentBytes = restoredCheckpoint?.documentBytes ?? 0
        self.state = Locked(state)
    }

    deinit { close() }

    /// Runs `body` with the journal's connection under its lock (for the tests that make writes
    /// fail, a page limit, or read the file as the journal holds it).
    package func withConnection<Result>(_ body: (SQLiteConnection) throws(SQLiteFailure) -> Result) throws(SQLiteFailure) -> Result {
        try state.withLock { (_: inout WriteState) throws(SQLiteFailure) -> Result in try body(connection) }
    }

    /// Opens the journal at `path` for `host`: a new file starts empty; an existing one is
    /// checked and replayed into the host. From then on, every change made through the host's
    /// methods is written before the method returns.
    /// - Parameters:
    ///   - path: the database file.
    ///   - durability: what a crash can lose (see ``UndoJournal/JournalDurability``).
    ///   - host: the host to restore and journal; its history must have no steps yet, and it
    ///     must have every plugin the journal names loaded already (those the journal recorded
    ///     loading too: a journal never makes the host load a file; the refusal names the path
    ///     a plugin was loaded from when it was journaled, as a hint).
    ///   - clock: the history's clock when it is a ``JournalClock``: replayed steps then get the
    ///     times they were first made.
    ///   - following: called after each replayed change with what it undid or redid (for a
    ///     program that keeps state of its own beside the history, as undo-host's session does).
    ///   - restoring: called once the journal's checkpoint, if it has one, is restored (before
    ///     the changes after it are replayed), with what it held: the documents in the order
    ///     they were first used and the current context.
    /// - Returns: the open journal (the host's ``UndoPluginHost/PluginHost/recorder``).
    /// - Throws: ``JournalError`` naming the file and the problem (already open, in this process
    ///   or another: a journal has one writer; not a journal, damaged, of another format, a
    ///   plugin missing or of another major version, a checkpoint or a change that cannot be
    ///   restored); the file is then unchanged.
    /// - Complexity: O(*n*) in the changes of the journal, plus replaying them.
    public static func open(path: String, durability: JournalDurability = .full, host: PluginHost,
                            clock: JournalClock? = nil,
                            following: ((HostChange, UndoResult?) -> Void)? = nil,
                            restoring: ((CheckpointInfo) -> Void)? = nil) throws(JournalError) -> HostJournal {
        guard host.recorder == nil else { throw JournalError(path: path, "the history already has a journal open") }
        guard host.history.withStack({ $0.treeCount == 0 && $0.groupDepth == 0 }) else {
            throw JournalError(path: path, "the history already has changes: open the journal before making any")
        }
        let exists = access(path, F_OK) == 0
        // Used by one thread at a time (see `connection`): SQLite's own mutex would be taken in every call.
        let connection = try SQLiteConnection(path: path, create: !exists, threading: .guardedByOwner)
        // A `-wal` left by a crash is folded into the database only once the open succeeded:
        // a refused open leaves the database and its `-wal` as they were.
        let keptWAL = exists && access(path + "-wal", F_OK) == 0
        if keptWAL { connection.keepWALOnClose(true) }
        // The file the connection opened, to see that it is still the one at `path` once locked.
        let openedFile = fileIdentity(path)
        // Each change in outline (no arguments, unless they are small), the bytes of its row, and
        // whether its arguments were dropped: the replay reads those changes whole again, a
        // batch at a time.
        var changes: [(sequence: Int64, time: UInt64, change: HostChange)] = []
        var sizes: [Int] = []
        var dropped: [Bool] = []
        var checkpoint: Checkpoint?
        var format = formatVersion
        // The journal's own identity (its table journal_identity), which its `-wal` must match.
        var identity: String?
        // Set once this opening holds the file and found no journal in it (missing or 0 bytes):
        // it is then this opening's to create, and to remove if the creation fails.
        var creating = false
        do throws(SQLiteFailure) {
            // One writer: the connection takes the file for itself before reading it and keeps
            // it until it closes, so a second opening, in this process or another, is refused
            // as busy instead of interleaving its changes, or both creating the same new journal.
            try connection.execute("PRAGMA locking_mode=EXCLUSIVE;")
            try connection.execute("BEGIN EXCLUSIVE; COMMIT;")
            guard openedFile != nil, fileIdentity(path) == openedFile else {
                throw SQLiteFailure(code: SQLITE_BUSY, message: "the file was removed or replaced while it was being opened")
            }
            // Taking the lock gives an empty file its first page: a file with no tables, no
            // application id and no version never held a journal (new, or left empty by a
            // creation that failed or crashed) and starts afresh.
            let tables = try connection.integer("SELECT count(*) FROM sqlite_master;")
            let application = try connection.integer("PRAGMA application_id;")
            let version = try connection.integer("PRAGMA user_version;")
            let holdsNothing = tables == 0 && application == 0 && version == 0
            if !holdsNothing {
                (format, checkpoint, changes, sizes, dropped) = try check(connection, path: path)
                identity = try readIdentity(connection)
            } else {
                identity = newIdentity()
                creating = true
                // Taking the lock gave the file its first page: the vacuum mode is set by a VACUUM
                // of the empty database (freed pages are given back, see checkpoint()).
                try connection.execute("PRAGMA auto_vacuum=INCREMENTAL; VACUUM;")
                try connection.execute("""
                    PRAGMA journal_mode=WAL;
                    BEGIN;
                    PRAGMA application_id=\(JournalApplicationID.undoHost);
                    PRAGMA user_version=\(formatVersion);
                    CREATE TABLE changes(sequence INTEGER PRIMARY KEY, time INTEGER NOT NULL, kind TEXT NOT NULL,
                                         context TEXT NOT NULL, plugin TEXT NOT NULL, plugin_version TEXT NOT NULL,
                                         action TEXT NOT NULL, arguments TEXT NOT NULL, name TEXT NOT NULL,
                                         first INTEGER NOT NULL, second INTEGER NOT NULL, present INTEGER NOT NULL,
                                         checksum INTEGER NOT NULL, step_name TEXT NOT NULL DEFAULT '',
                                         description TEXT NOT NULL DEFAULT '', coalescing_key TEXT NOT NULL DEFAULT '',
                                         inverse_arguments TEXT NOT NULL DEFAULT '');
                    \(Checkpoint.tables)
                    \(identityTable(identity!))
                    COMMIT;
                    """)
                creating = false
            }
            try connection.execute("PRAGMA synchronous=\(durability == .full ? "FULL" : "NORMAL");")
        } catch {
            // A file this opening made (it was missing) that is still empty when the lock
            // cannot be taken for a reason other than another opening holding it (an I/O error).
            let madeHereEmpty = !exists && error.code & 0xff != SQLITE_BUSY && fileIdentity(path) == openedFile
                && fileSize(path) == 0
            if creating || madeHereEmpty {
                // The creation failed: the file never held a journal, so it goes (removed while
                // this connection still holds it, so no other opening has it in between).
                try? connection.execute("ROLLBACK;")
                for file in [path, path + "-wal", path + "-journal"] { unlink(file) }
            }
            connection.close()
            if error.code & 0xff == SQLITE_BUSY {
                // Who holds it, when the system says (/proc/locks): the process to close.
                let holders = JournalLock.holders(of: path)
                let holder = holders.first { $0 != getpid() }
                let place = holder.map { "in process \($0)" }
                    ?? (holders.contains(getpid()) ? "by another journal in this process" : "in another process, or by another journal in this one")
                throw JournalError(path: path, "it is already open (\(place)): "
                                   + "a journal has one writer at a time, so close the other first"
                                   + (error.message.hasPrefix("the file was") ? " (\(error.message))" : ""))
            }
            throw JournalError(path: path, error.isDamage ? "the file is damaged (\(error.message))" : error.message,
                               reason: error.isDamage ? .damaged : .other)
        }
        if keptWAL {
            do throws(JournalError) {
                try checkWAL(path: path, identity: identity, format: format, checkpoint: checkpoint, changes: changes)
            } catch {
                connection.close()
                throw error
            }
        }
        var tracked = Tracked()
        var replayStatistics = ReplayStatistics()
        // The way out of a crash loop (CrashMarker): where the last open died, if it did, with
        // the plugins loaded now.
        let plugins = CrashMarker.plugins(of: host)
        let died = CrashMarker.read(path + "-replay").flatMap { $0.plugins == plugins ? $0.words : nil }
        let savesDied = CrashMarker.read(path + "-save").flatMap { $0.plugins == plugins ? $0.words.dropFirst() : nil }
        var marker = CrashMarker(path: path + "-replay")
        var stopBefore: Int64?
        // The history's settings and the plugins before the restore, put back when the open is refused.
        var before: (count: Int?, memory: Int?, context: UndoContext?)?
        var pluginsBefore: [PluginInfo] = []
        do throws(JournalError) {
            try checkPlugins(checkpoint, changes, of: host, path: path)
            if let checkpoint, died == ["checkpoint"] {
                throw JournalError(path: path, "the last open of this journal died restoring its checkpoint (after change "
                                   + "\(checkpoint.sequence)), with the plugins loaded now: a plugin crashed loading a document "
                                   + "(load_document), or the program was killed; it is not tried again with the same plugins: "
                                   + "update the plugin, or remove \(path)-replay to try again; the journal was not changed",
                                   reason: .replay)
            }
            if let died, died.count == 2, died[0] == "change", let sequence = Int64(died[1]),
               changes.contains(where: { $0.sequence == sequence }) {
                stopBefore = sequence
            }
            clock?.useWallClock()
            before = host.history.withStack { ($0.countLimit, $0.memoryLimit, $0.currentContext) }
            pluginsBefore = host.plugins
            if checkpoint != nil {
                marker.mark("checkpoint", plugins: plugins)
                try restore(&checkpoint!, into: host, from: connection, path: path)
                for load in checkpoint!.loads { tracked.follow(.load(path: load.path, plugin: load.plugin, pluginVersion: load.version)) }
                for item in checkpoint!.documents { tracked.note(item.document) }
                restoring?(checkpoint!.info)
            }
            let replayedCount = stopBefore.map { stop in changes.count(where: { $0.sequence < stop }) } ?? changes.count
            try replay(from: connection, format: format, changes: changes[..<replayedCount], sizes: sizes, dropped: dropped, into: host,
                       clock: clock, path: path, marker: &marker, plugins: plugins, following: following,
                       statistics: &replayStatistics)
            for change in changes[..<replayedCount] { tracked.follow(change.change) }
        } catch {
            marker.remove()
            connection.close()
            if let before { takeOut(checkpoint: checkpoint, changes: changes, from: host, restoring: before, plugins: pluginsBefore) }
            throw error
        }
        var warnings: [String] = []
        var stopped: String?
        if let stopBefore, let killer = changes.first(where: { $0.sequence == stopBefore }) {
            // Kept, so the next open with these plugins stops here too.
            marker.mark(change: stopBefore, plugins: plugins)
            marker.keep()
            let last = changes.last?.sequence ?? stopBefore
            let what: String
            if case .perform(let step) = killer.change { what = "perform \(step.action) of plugin \(step.plugin) \(step.pluginVersion)" } else { what = killer.change.kind }
            let kept = last == stopBefore ? "change \(stopBefore) stays" : "changes \(stopBefore) to \(last) stay"
            stopped = "the last open died replaying change \(stopBefore) (\(what)), with the plugins loaded now: this open "
                + "stopped before it; " + kept + " in the "
                + "file, for when the plugin is fixed; until then the journal is read-only (it takes no changes): open it with "
                + "another version of the plugin, or remove \(path)-replay to replay change \(stopBefore) again"
            warnings.append(stopped!)
        } else {
            marker.remove()
            if died != nil || access(path + "-replay", F_OK) == 0 { unlink(path + "-replay") }
        }
        let checkpointsOff = Set(savesDied ?? [])
        if !checkpointsOff.isEmpty {
            warnings.append("the last automatic checkpoint died while plugin\(checkpointsOff.count == 1 ? "" : "s") "
                            + checkpointsOff.sorted().joined(separator: ", ") + " saved its documents (save_document), with "
                            + "the plugins loaded now: automatic checkpoints are off while a document of "
                            + (checkpointsOff.count == 1 ? "it" : "one of them") + " is in the journal (every change is kept "
                            + "and replayed from the last checkpoint); update the plugin, or remove \(path)-save to try again")
        } else if access(path + "-save", F_OK) == 0 {
            unlink(path + "-save")
        }
        if format < formatVersion {
            // Replayed: the journal is good for this version, and takes its later changes' steps
            // and checkpoints.
            do throws(SQLiteFailure) {
                try connection.execute("BEGIN;\n" + (format < 3 ? ChangeRow.stepColumns : "")
                                       + (format < 4 ? Checkpoint.tables : Checkpoint.pieceTable)
                                       + "PRAGMA user_version=\(formatVersion);\nCOMMIT;")
            } catch {
                try? connection.execute("ROLLBACK;")
                connection.close()
                throw JournalError(path: path, "cannot bring format \(format) to \(formatVersion): \(error.message)")
            }
        }
        if identity == nil {
            // A journal of an earlier version gets its identity once it opened (a table of its
            // own, which earlier versions do not read: the format is the same).
            do throws(SQLiteFailure) {
                try connection.execute("BEGIN;\n" + identityTable(newIdentity()) + "\nCOMMIT;")
            } catch {
                try? connection.execute("ROLLBACK;")
                connection.close()
                throw JournalError(path: path, "cannot write its identity: \(error.message)")
            }
        }
        if keptWAL { connection.keepWALOnClose(false) }
        let insert: SQLiteConnection.Statement
        do throws(SQLiteFailure) {
            insert = try connection.prepare(ChangeRow.insert)
        } catch {
            connection.close()
            throw JournalError(path: path, error.message)
        }
        let journal = HostJournal(path: path, durability: durability, connection: connection, insert: insert,
                                  nextSequence: (changes.last?.sequence ?? checkpoint?.sequence ?? 0) + 1,
                                  restoredCount: stopBefore.map { stop in changes.count(where: { $0.sequence < stop }) } ?? changes.count,
                                  restoredCheckpoint: checkpoint?.info, tracked: tracked,
                                  lastTime: changes.last(where: { stopBefore == nil || $0.sequence < stopBefore! })?.time ?? 0,
                                  stoppedReplay: stopped, automaticCheckpointsOff: checkpointsOff, openWarnings: warnings)
        journal.host = host
        journal.replayStatistics = replayStatistics
        if durability == .normal {
            journal.commitThread = GroupCommitThread(windowNanoseconds: windowNanoseconds) { [weak journal] in
                journal?.commitPending()
            }
            guard journal.commitThread != nil else {
                connection.close()
                throw JournalError(path: path, "cannot start the thread that commits groups of changes")
            }
        }
        journal.clock = clock
        // The changes replayed count towards the next automatic checkpoint's bytes too.
        let restoredBytes = sizes.reduce(0, +)
        journal.state.withLock { $0.bytesSinceCheckpoint = restoredBytes }
        host.recorder = journal
        return journal
    }

    /// The size of the file at `path` in bytes, `nil` when there is none.
    private static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// The device and inode of the file at `path`, `nil` when there is none.
    private static func fileIdentity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// Whether `path` is to be opened as a journal of this kind (formats 2 to 5): `false` only for an
    /// undo-host journal of format 1 (session lines, read by undo-host's `SessionLineJournal`); `true` for a
    /// missing file (new journals are of format 5) and for anything else (refused by ``open(path:durability:host:clock:following:restoring:)``).
    /// - Parameter path: the database file.
    /// - Complexity: O(1): reads the header only.
    public static func isHostJournal(_ path: String) -> Bool {
        guard access(path, F_OK) == 0 else { return true }
        guard let connection = try? SQLiteConnection(path: path, create: false) else { return true }
        // A look, not an open: a `-wal` stays as it is, and no `-shm` is made (the exclusive
        // mode keeps SQLite's index of the `-wal` in memory).
        if access(path + "-wal", F_OK) == 0 { connection.keepWALOnClose(true) }
        defer { connection.close() }
        guard (try? connection.execute("PRAGMA locking_mode=EXCLUSIVE;")) != nil else { return true }
        return (try? connection.integer("PRAGMA user_version;")) != 1
    }

    /// Every plugin the journal names (those its actions and documents use, and those it
    /// loaded) must be loaded already, by the program, of the major version they were written
    /// with: a journal never makes the host load a file (docs/trust-model.md). Checked before
    /// anything is replayed, with each perform's action, which must be one of the plugin it names.
    private static func checkPlugins(_ checkpoint: Checkpoint?, _ changes: [(sequence: Int64, time: UInt64, change: HostChange)],
                                     of host: PluginHost, path: String) throws(JournalError) {
        var needed: [(id: String, version: String, path: String?)] = []
        var index: [String: Int] = [:]
        func need(_ id: String, _ version: String, loadedFrom file: String?) {
            if let at = index[id] {
                if needed[at].path == nil, let file { needed[at].path = file }
                return
            }
            index[id] = needed.count
            needed.append((id, version, file))
        }
        if let checkpoint {
            for load in checkpoint.loads { need(load.plugin, load.version, loadedFrom: load.path) }
            for (id, version) in checkpoint.pluginsUsed { need(id, version, loadedFrom: nil) }
        }
        // A run of performs of one plugin and version is noted once (no lookup per change).
        var last: (plugin: String, version: String)?
        for (_, _, change) in changes {
            switch change {
            case .load(let file, let id, let version): need(id, version, loadedFrom: file)
            case .perform(let step):
                if let last, last.plugin == step.plugin, last.version == step.pluginVersion { continue }
                need(step.plugin, step.pluginVersion, loadedFrom: nil)
                last = (step.plugin, step.pluginVersion)
            default: break
            }
        }
        let loaded = Dictionary(host.plugins.map { ($0.id, $0.version) }, uniquingKeysWith: { first, _ in first })
        for (id, version, file) in needed {
            let wanted = "it needs plugin \(id) \(HostChange.major(version)).x (written with \(version))"
            guard let have = loaded[id] else {
                let hint = file.map { " (it was loaded from \($0) when it was journaled: load it before opening the journal, "
                    + "e.g. undo-host --plugins \($0); a journal never loads a plugin itself)" } ?? ""
                throw JournalError(path: path, wanted + "; it is not loaded" + hint, reason: .pluginMissing, plugin: id)
            }
            guard HostChange.sameMajor(have, version) else {
                throw JournalError(path: path, wanted + "; loaded: \(have)", reason: .pluginVersion, plugin: id)
            }
        }
        // A run of performs of one action is checked once: a journal repeats its last pair often.
        var checked: (plugin: String, action: String)?
        for (sequence, _, change) in changes {
            guard case .perform(let step) = change else { continue }
            if let checked, checked.action == step.action, checked.plugin == step.plugin { continue }
            checked = (step.plugin, step.action)
            guard let action = try? host.actionType(step.action), action.pluginID != step.plugin else { continue }
            throw JournalError(path: path, "the file is damaged (change \(sequence) (perform): action \(step.action.prefix(200)) "
                               + "is plugin \(action.pluginID)'s, not \(step.plugin)'s)", reason: .damaged)
        }
    }

    /// The most changes' bytes (their rows', as ``checkpointIfDue(every:)`` counts them) a
    /// batch of the replay holds: more only when one change is larger alone.
    package static let replayBatchBytes = 4 << 20
    /// The most changes a batch of the replay holds.
    package static let replayBatchRows = 256

    /// The most UTF-8 bytes of a perform's arguments, and of its inverse arguments, that the
    /// check of an open keeps in the change's outline (``HostChange/outline(keepingArgumentsUpTo:)``):
    /// a text this short is held inside its `String` value (15 bytes on 64-bit systems), so
    /// keeping it costs no memory beyond the outline's own field, and the replay need not read
    /// the change from the file again (typing, a counter's steps: most changes of a journal).
    package static let keptArgumentBytes = 15

    /// What an open held while it replayed: the batches read again from the file, the most
    /// changes and bytes one held, and the changes replayed as the check read them (their
    /// arguments kept in the outline) and read again.
    package struct ReplayStatistics: Sendable, Equatable {
        package var batches = 0
        package var mostRows = 0
        package var mostBytes = 0
        package var changesKept = 0
        package var changesReadAgain = 0
        /// The action types the replay resolved from their ids: once per run of performs of
        /// one action, and again after a plugin is loaded or unloaded.
        package var actionsResolved = 0
        package init() {}
    }

    /// Replays `changes` (outlines from ``check(_:path:)``, `sizes` their rows' bytes and
    /// `dropped` whether their arguments were dropped, by index from the first change after the
    /// checkpoint) in batches of at most ``replayBatchRows`` changes and ``replayBatchBytes``
    /// bytes (or one larger change). A batch whose changes all kept their arguments (at most
    /// ``keptArgumentBytes`` each) is replayed as the check read it; any other is read whole
    /// again from `connection`, and dropped once replayed: the open holds one batch beside the
    /// outlines, never every change's large arguments (a journal of large insertions replays
    /// in about the memory the session that wrote it used).
    /// The file is the one ``check(_:path:)`` read, under the same exclusive lock; each row read
    /// again is still checked again (its checksum and its number and time against the outline).
    /// - Complexity: O(changes + their bytes), plus replaying them; O(batch) memory beyond the outlines.
    private static func replay(from connection: SQLiteConnection, format: Int64,
                               changes: ArraySlice<(sequence: Int64, time: UInt64, change: HostChange)>, sizes: [Int],
                               dropped: [Bool],
                               into host: PluginHost, clock: JournalClock?, path: String, marker: inout CrashMarker,
                               plugins: [String], following: ((HostChange, UndoResult?) -> Void)?,
                               statistics: inout ReplayStatistics) throws(JournalError) {
        // The action type the last perform named, kept across batches (see `Resolved`).
        var resolved: Resolved?
        var start = changes.startIndex
        while start < changes.endIndex {
            var end = start
            var bytes = 0
            while end < changes.endIndex, end - start < replayBatchRows,
                  end == start || bytes + sizes[end] <= replayBatchBytes {
                bytes += sizes[end]
                end += 1
            }
            let outlines = changes[start..<end]
            guard dropped[start..<end].contains(true) else {
                // Every change here is whole already, checked by `check` under this lock.
                statistics.changesKept += outlines.count
                try replay(outlines, into: host, clock: clock, path: path, marker: &marker, plugins: plugins, following: following,
                           resolved: &resolved, statistics: &statistics)
                start = end
                continue
            }
            let (sql, values) = ChangeRow.select(format: format, from: outlines.first!.sequence, through: outlines.last!.sequence)
            var batch: [(sequence: Int64, time: UInt64, change: HostChange)] = []
            batch.reserveCapacity(outlines.count)
            var damaged: String?
            do throws(SQLiteFailure) {
                var previous = ChangeRow.Row(sequence: 0, time: 0)
                try connection.query(sql, values) { (row: SQLiteConnection.RowReader) in
                    guard damaged == nil else { return }
                    guard batch.count < outlines.count else {
                        damaged = "a change after change \(outlines.last!.sequence) appeared while the journal was opened"
                        return
                    }
                    let expected = outlines[outlines.startIndex + batch.count]
                    guard let record = ChangeRow(row, after: previous) else {
                        damaged = "change \(expected.sequence) changed while the journal was opened"
                        return
                    }
                    previous = record.row
                    guard record.row.sequence == expected.sequence,
                          record.row.time == expected.time, record.row.checksum == record.checksum,
                          let change = try? record.row.checkedChange() else {
                        damaged = "change \(expected.sequence) changed while the journal was opened"
                        return
                    }
                    batch.append((record.row.sequence, record.row.time, change))
                }
            } catch {
                throw JournalError(path: path, "cannot read changes \(outlines.first!.sequence) to \(outlines.last!.sequence): \(error.message)",
                                   reason: error.isDamage ? .damaged : .other)
            }
            if damaged == nil, batch.count != outlines.count { damaged = "changes are missing after change \(batch.last?.sequence ?? outlines.first!.sequence - 1)" }
            if let damaged { throw JournalError(path: path, "the file is damaged (\(damaged))", reason: .damaged) }
            statistics.batches += 1
            statistics.changesReadAgain += batch.count
            statistics.mostRows = max(statistics.mostRows, batch.count)
            statistics.mostBytes = max(statistics.mostBytes, bytes)
            try replay(batch[...], into: host, clock: clock, path: path, marker: &marker, plugins: plugins, following: following,
                       resolved: &resolved, statistics: &statistics)
            start = end
        }
    }

    /// The action type the last replayed perform named, and its id: consecutive performs of
    /// one action (their rows share the id's text) resolve it once, not once each (a lookup in
    /// the host's table under its lock). Forgotten at a load or an unload, which change what an
    /// id names; any other change leaves the loaded plugins as they are.
    private typealias Resolved = (id: String, action: ActionType)

    private static func replay(_ changes: ArraySlice<(sequence: Int64, time: UInt64, change: HostChange)>, into host: PluginHost,
                               clock: JournalClock?, path: String, marker: inout CrashMarker, plugins: [String],
                               following: ((HostChange, UndoResult?) -> Void)?, resolved: inout Resolved?,
                               statistics: inout ReplayStatistics) throws(JournalError) {
        defer { clock?.resume() }
        // The plugins the program loaded, and their files: the only files a replay loads.
        let programPaths = Dictionary(host.plugins.map { ($0.id, $0.path) }, uniquingKeysWith: { first, _ in first })
        // One change, borrowed from the batch (not copied out of it).
        func replay(_ change: HostChange, sequence: Int64, time: UInt64) throws(JournalError) {
            marker.mark(change: sequence, plugins: plugins)
            clock?.replaying(at: time)
            switch change {
            case .load, .unload: resolved = nil
            default: break
            }
            var differences: [String] = []
            do throws(PluginHostError) {
                if case .perform(let recorded) = change, recorded.outcomeKept {
                    // The same call must make the same step: else the history restored is not
                    // the one written (a plugin not deterministic, or changed within its major version).
                    let action: ActionType
                    if let resolved, resolved.id == recorded.action {
                        action = resolved.action
                    } else {
                        action = try host.actionType(recorded.action)
                        resolved = (recorded.action, action)
                        statistics.actionsResolved += 1
                    }
                    let made = try host.performReturningStep(action, argumentText: recorded.arguments,
                                                             in: UndoContext(recorded.context))
                    differences = made.map { recorded.differences(from: $0) } ?? ["it made no step"]
                    following?(change, nil)
                } else if case .load(let journaled, let id, let version) = change, !host.plugins.contains(where: { $0.id == id }) {
                    // Loaded again after a journaled unload: from the file the program loaded
                    // it from (checkPlugins found it loaded), never from the path the journal names.
                    guard let file = programPaths[id] else {
                        throw PluginHostError.journal("it needs plugin \(id) \(version), loaded from \(journaled) when it was journaled; "
                                                      + "it is not loaded")
                    }
                    do throws(PluginLoadError) {
                        _ = try host.load(file: file)
                    } catch {
                        throw PluginHostError.journal("plugin \(id) cannot be loaded again from \(file): \(error)")
                    }
                    _ = try host.replay(change)
                    following?(change, nil)
                } else {
                    let result = try host.replay(change)
                    following?(change, result)
                }
            } catch {
                throw JournalError(path: path, "change \(sequence) (\(change.kind)) cannot be replayed: \(error)",
                                   reason: .replay)
            }
            if !differences.isEmpty, case .perform(let recorded) = change {
                let (id, version) = (recorded.plugin, recorded.pluginVersion)
                let loaded = host.plugins.first { $0.id == id }?.version ?? version
                throw JournalError(path: path, "change \(sequence) (perform \(recorded.action)): plugin \(id) \(loaded) (written with \(version)) "
                                   + "now makes another step: " + differences.joined(separator: "; ")
                                   + "; the plugin is not deterministic, or changed behaviour within its major version",
                                   reason: .replay)
            }
        }
        for index in changes.indices {
            try replay(changes[index].change, sequence: changes[index].sequence, time: changes[index].time)
        }
    }

    /// The table holding a journal's identity: a random id written when it is created (or
    /// first opened by this version), never changed, read to tell its `-wal` from another's.
    private static func identityTable(_ id: String) -> String {
        "CREATE TABLE journal_identity(id TEXT NOT NULL);\nINSERT INTO journal_identity VALUES('\(id)');"
    }

    /// 128 random bits, in hexadecimal.
    private static func newIdentity() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (value: UInt64) in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// The journal's identity, `nil` for one written before identities were kept.
    private static func readIdentity(_ connection: SQLiteConnection) throws(SQLiteFailure) -> String? {
        guard try connection.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'journal_identity';") > 0 else {
            return nil
        }
        return try connection.texts("SELECT id FROM journal_identity;").first
    }

    /// Whether the `-wal` found beside the database continues it, judged before SQLite folds it
    /// in: the database file read alone (without the `-wal`) must be an earlier state of the
    /// same journal as the database read with it: the same identity, no later checkpoint, no
    /// later change, and each change it holds after the checkpoint the same (number and time).
    /// A database file that holds nothing yet, or that is not whole alone (SQLite's copy of its
    /// `-wal` into it cut short by a crash), cannot be judged, and is taken as it is.
    private static func checkWAL(path: String, identity: String?, format: Int64, checkpoint: Checkpoint?,
                                 changes: [(sequence: Int64, time: UInt64, change: HostChange)]) throws(JournalError) {
        guard let alone = try? SQLiteConnection(readingDatabaseFileAlone: path) else { return }
        defer { alone.close() }
        let earlier: (format: Int64, checkpoint: Checkpoint?, changes: [(sequence: Int64, time: UInt64, change: HostChange)], sizes: [Int],
                      dropped: [Bool])
        let earlierIdentity: String?
        do throws(SQLiteFailure) {
            guard try alone.integer("SELECT count(*) FROM sqlite_master;") > 0 else { return }
            earlier = try check(alone, path: path)
            earlierIdentity = try readIdentity(alone)
        } catch {
            return
        }
        let base = checkpoint?.sequence ?? 0
        let earlierBase = earlier.checkpoint?.sequence ?? 0
        let last = changes.last?.sequence ?? base
        let earlierLast = earlier.changes.last?.sequence ?? earlierBase
        var problem: String?
        if let earlierIdentity, earlierIdentity != identity {
            problem = "the database is journal \(earlierIdentity), and with its -wal " + (identity.map { "journal \($0)" } ?? "a journal without an identity")
        } else if earlier.format > format {
            problem = "the database is of format \(earlier.format), and with its -wal of format \(format)"
        } else if earlierBase > base {
            problem = "the database holds a checkpoint after change \(earlierBase), and with its -wal one after change \(base) only"
        } else if earlierLast > last {
            problem = "the database holds changes up to \(earlierLast), and with its -wal up to \(last) only"
        } else if let differing = earlier.changes.first(where: { row in
            row.sequence > base && changes[Int(row.sequence - base - 1)].time != row.time
        }) {
            problem = "change \(differing.sequence) is not the same in the database and with its -wal"
        }
        if let problem {
            throw JournalError(path: path, "its -wal (\(path)-wal) does not continue it: \(problem); the -wal was left by "
                               + "another journal (a file copied, moved or renamed without its -wal, or over another's); "
                               + "refused: put the journal's own -wal back, or move this one away to open the journal as its "
                               + "database holds it; neither file was changed", reason: .damaged)
        }
    }

    /// Reads and checks an existing journal of formats 2 to 5: its format, its checkpoint and its
    /// changes, each without its arguments (``HostChange/outline``: what checking the plugins,
    /// following the documents and taking out a refused open need), with the bytes of its row.
    /// Every row is read and checked here, one at a time; the replay reads them again in
    /// batches (``replay(from:format:changes:sizes:into:clock:path:marker:plugins:following:statistics:)``),
    /// so an open holds one batch of changes whole, never all of them.
    /// - Parameter whole: keeps each change whole, arguments too (`undo-host journal --changes`),
    ///   instead of its outline.
    static func check(_ connection: SQLiteConnection, path: String, whole: Bool = false) throws(SQLiteFailure)
        -> (format: Int64, checkpoint: Checkpoint?, changes: [(sequence: Int64, time: UInt64, change: HostChange)], sizes: [Int],
            dropped: [Bool])
    {
        guard try connection.integer("PRAGMA application_id;") == JournalApplicationID.undoHost else {
            throw SQLiteFailure(code: SQLITE_NOTADB, message: "it is an SQLite database but not an undo journal")
        }
        let version = try connection.integer("PRAGMA user_version;")
        guard version >= oldestFormatVersion && version <= formatVersion else {
            throw SQLiteFailure(code: SQLITE_ERROR, message: version > formatVersion
                ? "it is of format version \(version), newer than this program's \(formatVersion): open it with a newer version"
                : "it is of format version \(version), which is an undo-host session journal: open it with undo-host --journal")
        }
        let check = try connection.texts("PRAGMA quick_check;")
        guard check == ["ok"] else {
            throw SQLiteFailure(code: SQLITE_CORRUPT, message: "integrity check: " + check.prefix(3).joined(separator: "; "))
        }
        let checkpoint = version >= 4 ? try Checkpoint.read(from: connection, format: version) : nil
        let base = checkpoint?.sequence ?? 0
        var changes: [(sequence: Int64, time: UInt64, change: HostChange)] = []
        var sizes: [Int] = []
        var dropped: [Bool] = []
        var damaged: String?
        var lastTime: UInt64 = 0
        // The row before, whose texts the next shares where they are the same.
        var previous = ChangeRow.Row(sequence: 0, time: 0)
        try connection.query(ChangeRow.select(format: version)) { (row: SQLiteConnection.RowReader) in
            guard damaged == nil else { return }
            let expected = base + Int64(changes.count + 1)
            guard let record = ChangeRow(row, after: previous) else {
                damaged = "change \(expected) fails its checksum"
                return
            }
            previous = record.row
            guard record.row.sequence == expected, record.row.checksum == record.checksum else {
                damaged = "change \(expected) fails its checksum"
                return
            }
            guard expected <= maximumSequence else {
                damaged = "change \(expected) is past the last sequence a journal may reach, \(maximumSequence)"
                return
            }
            let change: HostChange
            do throws(ChangeRow.Row.Invalid) {
                change = try record.row.checkedChange()
            } catch {
                damaged = "change \(expected) (\(record.row.kind.prefix(64))): \(error.message)"
                return
            }
            // Times never go backwards: the writer keeps each change's time at least its previous one's.
            guard record.row.time >= lastTime else {
                damaged = "change \(expected) (\(record.row.kind.prefix(64))): its time \(record.row.time) is before the previous one, \(lastTime)"
                return
            }
            lastTime = record.row.time
            sizes.append(record.row.byteCount)
            let kept = whole ? (change: change, droppedArguments: false) : change.outline(keepingArgumentsUpTo: keptArgumentBytes)
            dropped.append(kept.droppedArguments)
            changes.append((record.row.sequence, record.row.time, kept.change))
        }
        if let damaged { throw SQLiteFailure(code: SQLITE_CORRUPT, message: damaged) }
        return (version, checkpoint, changes, sizes, dropped)
    }

    // MARK: Writing

    /// Writes `change` (``UndoPluginHost/PluginHostRecorder``): in `full` durability committed
    /// and synced when it returns; in `normal`, committed within ``groupCommitWindow``.
    /// - Parameter change: the change the host just made.
    /// - Throws: ``UndoPluginHost/PluginHostError/journal(_:)`` when it cannot be written (the
    ///   change must then not be acknowledged).
    /// - Complexity: O(1) in the journal's length.
    public func record(_ change: HostChange) throws(PluginHostError) {
        let now = JournalClock.wallClockNanoseconds()
        // The time the history gave the change (its step's time), so a replay gives it the same.
        let time = clock.map { $0.lastTime != 0 ? $0.lastTime : now } ?? now
        if let stoppedReplay { throw .journal("journal \(path): read-only: \(stoppedReplay)") }
        let refused: String? = state.withLock { (state: inout WriteState) -> String? in
            if let failure = state.failure {
                state.failureSaid = true
                return failure
            }
            guard !state.isClosed else { return "the journal is closed" }
            do throws(SQLiteFailure) {
                if durability == .normal && !state.inTransaction {
                    try connection.execute("BEGIN;")
                    state.inTransaction = true
                    state.groupStarted = now
                    commitThread?.groupBegan()
                }
                state.lastTime = max(state.lastTime, time)
                let row = ChangeRow.Row(sequence: state.nextSequence, time: state.lastTime, change: change)
                try connection.run(insert, row.values)
                state.nextSequence += 1
                state.changesSinceCheckpoint += 1
                state.bytesSinceCheckpoint += row.byteCount
                state.tracked.follow(change)
                if state.inTransaction && now &- state.groupStarted >= Self.windowNanoseconds {
                    try commitLocked(&state)
                }
                return nil
            } catch {
                let failure = fail(&state, "change \(state.nextSequence) was made but could not be written (\(error.message))")
                state.failureSaid = true
                return failure
            }
        }
        if let refused { throw .journal("journal \(path): \(refused)") }
    }

    /// Refuses every change once one could not be written (``PluginHostRecorder/checkWritable()``).
    /// - Throws: ``UndoPluginHost/PluginHostError/journal(_:)``: which change could not be written, and how to go on.
    /// - Complexity: O(1).
    public func checkWritable() throws(PluginHostError) {
        if let stoppedReplay { throw .journal("journal \(path): read-only: \(stoppedReplay)") }
        let failure = state.withLock { (state: inout WriteState) -> String? in
            if state.failure != nil { state.failureSaid = true }
            return state.failure
        }
        if let failure {
            throw .journal("journal \(path): the change was refused, not made: \(failure)")
        }
    }

    /// Why the journal refuses every change, or `nil` while it writes them.
    public var writeFailure: String? { state.withLock { $0.failure } }

    /// A write or a commit failed: the group waiting (normal durability) is rolled back, so the
    /// file holds the changes committed before it and nothing after, and every later change is
    /// refused — the history holds what the file lacks. Called under the state's lock.
    private func fail(_ state: inout WriteState, _ what: String) -> String {
        if state.inTransaction {
            state.inTransaction = false
            try? connection.execute("ROLLBACK;")
        }
        let message = "\(what); the history now holds changes the journal lacks, so every later change is "
            + "refused: reopen the journal to go on from the last change it holds"
        if state.failure == nil { state.failure = message }
        return state.failure ?? message
    }

    // MARK: Checkpoints

    /// Writes a checkpoint and drops the changes it holds: the history (every branch, as
    /// ``UndoPluginHost/PluginStepRecord``s), every document's state as its plugin's bytes
    /// (ABI 1.7 `save_document`) and the plugins the journal loaded, all in one transaction with
    /// the deletion of the changes, so a crash leaves either the old journal or the new one.
    /// Reopening then loads the documents' bytes and rebuilds the history without running a
    /// step, and replays only the changes after it. Nothing reachable is lost: every state the
    /// history still has (on any branch) is in the checkpoint, and undo, redo and moves across
    /// branches behave as before.
    ///
    /// Call it when the program is idle, or after many changes (undo-host takes one every
    /// 1,000 changes); a journal never checkpointed replays every change from its first.
    /// - Returns: what was written and dropped.
    /// - Throws: ``JournalError`` (nothing is written; the journal goes on as before) while a
    ///   group is open or an action runs; when a document's plugin cannot save its documents
    ///   (``JournalError/Reason/cannotCheckpoint``: its changes stay and are replayed from the
    ///   start), or its save fails, or its load refuses the bytes its save wrote (each
    ///   document's bytes are loaded into a scratch document of its plugin, a context no
    ///   document uses, and closed again, before any change is dropped; ``JournalError/Reason/pluginFailed``,
    ///   naming the plugin and the document); for a step that is not a plugin step; when the
    ///   file cannot be written.
    /// - Complexity: O(steps of every branch + documents' bytes), plus the plugins' saves and
    ///   loads; the changes dropped cost what SQLite takes to delete them, and their pages go
    ///   back to the file system (`PRAGMA incremental_vacuum`).
    @discardableResult
    public func checkpoint() throws(JournalError) -> CheckpointInfo {
        try checkpoint(automatic: false)
    }

    private func checkpoint(automatic: Bool) throws(JournalError) -> CheckpointInfo {
        guard let host else { throw JournalError(path: path, "the journal is closed") }
        if let stoppedReplay { throw JournalError(path: path, "read-only: \(stoppedReplay)") }
        // An automatic checkpoint that dies in a plugin's save is not taken again at every
        // session (CrashMarker): the next open finds this marker.
        var saving = CrashMarker(path: path + "-save")
        if automatic {
            let used = Set(state.withLock { $0.tracked.documents.map(\.plugin) }).subtracting([""]).sorted()
            saving.mark((["saving"] + used).joined(separator: " "), plugins: CrashMarker.plugins(of: host))
        }
        defer { saving.remove() }
        // Everything under the history's lock, then the state's (the order a change is
        // recorded in), so no change comes in between; a plugin's save or load cannot record
        // one (a call made inside a plugin call is refused), so it never needs the journal's
        // lock. Inside one transaction: each document's state is written as rows as the
        // plugin's save hands it on, a piece of 4 MiB at a time (StateWriter), never gathered;
        // then each is loaded back from the rows (Checkpoint.source, piece by piece for a
        // plugin with load_document_v2) into a scratch document, before a change is dropped:
        // a plugin whose load refuses what its save wrote would leave a journal that can never
        // reopen. Any failure rolls the transaction back, keeping every change.
        let versions = Dictionary(host.plugins.map { ($0.id, $0.version) }, uniquingKeysWith: { first, _ in first })
        let made: Result<CheckpointInfo, JournalError> = host.withHistoryLocked { (access) -> Result<CheckpointInfo, JournalError> in
            state.withLock { (state: inout WriteState) -> Result<CheckpointInfo, JournalError> in
                do throws(JournalError) {
                    return .success(try write(access, &state, versions: versions))
                } catch {
                    return .failure(error)
                }
            }
        }
        return try made.get()
    }

    /// The checkpoint itself (see ``checkpoint()``), under the history's lock and the state's.
    private func write(_ access: HistoryCheckpointAccess, _ state: inout WriteState, versions: [String: String])
        throws(JournalError) -> CheckpointInfo
    {
        func cannotWrite(_ error: SQLiteFailure) -> JournalError {
            JournalError(path: path, "cannot write the checkpoint: \(error.message)")
        }
        func cannotCapture(_ error: PluginHostError) -> JournalError {
            if case .cannotLoadDocuments(let plugin) = error {
                return JournalError(path: path, "cannot checkpoint: plugin \(plugin) cannot save its documents as bytes "
                                    + "(save_document and load_document, plugin ABI 1.7); its changes stay in the journal "
                                    + "and are replayed from the start", reason: .cannotCheckpoint)
            }
            if case .actionFailed = error {
                var failure = JournalError(path: path, "cannot checkpoint: \(error)", reason: .pluginFailed)
                failure.callCode = ErrorReport(error).code
                return failure
            }
            return JournalError(path: path, "cannot checkpoint: \(error)")
        }
        guard !state.isClosed else { throw JournalError(path: path, "the journal is closed") }
        let wanted = access.documents(listed: state.tracked.documents)
        var checkpoint: Checkpoint
        do throws(PluginHostError) {
            // The snapshot goes straight into the checkpoint, its one holder (see the check below).
            checkpoint = Checkpoint(sequence: state.nextSequence - 1, time: JournalClock.wallClockNanoseconds(),
                                    loads: state.tracked.loads, documents: [], history: try access.snapshot())
            // Refused before anything is saved or written.
            for document in wanted where !document.plugin.isEmpty { try access.checkCanSave(plugin: document.plugin) }
        } catch {
            throw cannotCapture(error)
        }
        do throws(SQLiteFailure) {
            // The changes waiting (normal durability) are committed first: a checkpoint that
            // fails rolls back only itself, never acknowledged changes.
            try commitLocked(&state)
            try connection.execute("BEGIN;")
        } catch {
            throw cannotWrite(error)
        }
        var written = false
        defer {
            if !written {
                try? connection.execute("ROLLBACK;")
                state.inTransaction = false
            }
        }
        var statistics = CheckpointStatistics()
        var refused: PluginHostError?
        do throws(SQLiteFailure) {
            try connection.execute(Checkpoint.clear)
            var pieceOrdinal: Int64 = 0
            for (index, document) in wanted.enumerated() {
                let version = document.plugin.isEmpty ? "" : versions[document.plugin] ?? ""
                let writer = try Checkpoint.StateWriter(connection: connection, document: document,
                                                        ordinal: Int64(index + 1), after: pieceOrdinal)
                if !document.plugin.isEmpty {
                    do throws(PluginHostError) {
                        let saved = try access.save(document, inChunksOf: Checkpoint.pieceSize) { block in
                            let failure = writer.take(block)
                            statistics.mostBytesHeldSaving = max(statistics.mostBytesHeldSaving, writer.bytesHeld + block.count)
                            return failure
                        }
                        statistics.mostBytesHeldSaving = max(statistics.mostBytesHeldSaving, writer.bytesHeld + saved.mostBytesHeld)
                    } catch {
                        // A row that could not be written is the journal's failure, not the plugin's.
                        if let failure = writer.failure { throw failure }
                        refused = error
                        break
                    }
                }
                checkpoint.documents.append(try writer.finish(version: version))
                statistics.rowsSealedAgain += writer.rowsSealedAgain
                pieceOrdinal = writer.lastOrdinal
            }
            if refused == nil { try checkpoint.writeHistory(to: connection) }
        } catch {
            throw cannotWrite(error)
        }
        if let refused { throw cannotCapture(refused) }
        // The history's records are in their rows now: dropped before the states are loaded
        // back, so the check holds the scratch documents beside the session, not also a copy
        // of every step's arguments (as large as the text the history keeps).
        let info = checkpoint.info
        checkpoint.dropHistory()
        statistics.historyBytesHeld = checkpoint.recordBytes
        statistics.bytesHeld = checkpoint.documents.reduce(0) { $0 + $1.state.count }
        let used = Set(checkpoint.documents.map(\.document.context))
        for item in checkpoint.documents where !item.document.plugin.isEmpty {
            let source = Checkpoint.source(of: item, in: connection)
            do throws(PluginHostError) {
                try access.check(source, plugin: item.document.plugin, avoiding: used)
            } catch {
                let reason: String
                if case .actionFailed(let failure) = error { reason = failure.message } else { reason = "\(error)" }
                var failure = JournalError(path: path, "cannot checkpoint: plugin \(item.document.plugin) cannot load the bytes it saved "
                                           + "for document \"\(item.document.context.name)\" (\(reason)); nothing was "
                                           + "written: every change stays in the journal", reason: .pluginFailed)
                failure.callCode = ErrorReport(error).code
                throw failure
            }
            statistics.blocksRead += source.blocksTaken
            statistics.bytesRead += source.bytesCopied
        }
        do throws(SQLiteFailure) {
            try connection.query("DELETE FROM changes WHERE sequence <= ?;", [.integer(checkpoint.sequence)])
            // The pages the changes and the checkpoint before held go back to the file
            // system (a journal made before auto_vacuum was set is switched below).
            try connection.execute("PRAGMA incremental_vacuum;")
            try connection.execute("COMMIT;")
        } catch {
            throw cannotWrite(error)
        }
        written = true
        state.inTransaction = false
        lastStatistics = statistics
        // Changes recorded after the capture (another thread's) stay counted.
        state.changesSinceCheckpoint = Int(state.nextSequence - 1 - checkpoint.sequence)
        state.checkpointSteps = info.steps
        state.bytesSinceCheckpoint = 0
        state.checkpointDocumentBytes = info.documentBytes
        // A journal made without auto_vacuum (before version 4's checkpoints gave
        // pages back) is switched once: VACUUM rewrites it, then its pages go back
        // at every checkpoint. It holds the checkpoint and few changes now, so this
        // rewrite costs about what the checkpoint wrote; if it fails, the file keeps
        // its size and nothing is lost.
        if ((try? connection.integer("PRAGMA auto_vacuum;")) ?? 2) != 2 {
            try? connection.execute("PRAGMA auto_vacuum=INCREMENTAL; VACUUM;")
        }
        return info
    }

    /// What the last checkpoint held and read (for tests that count): the most bytes of a
    /// state held at once while the plugins saved them (the first piece kept for the
    /// document's row and the block being written), the bytes of states still held while the
    /// plugins loaded them back (first pieces only), the blocks and bytes read back from its
    /// rows, and the rows of further pieces read back to be sealed with their count; the bytes
    /// of the history's records (arguments, inverse arguments, descriptions) still held while
    /// the plugins loaded the states back.
    struct CheckpointStatistics: Equatable {
        var mostBytesHeldSaving = 0
        var bytesHeld = 0
        var historyBytesHeld = 0
        var blocksRead = 0
        var bytesRead = 0
        var rowsSealedAgain = 0
    }

    /// Takes a checkpoint when one is due: at least `interval` changes were written since the
    /// last one (or the open), at least as many as the steps the last one wrote, and at least
    /// as many bytes of changes as the bytes of documents it wrote, less
    /// ``checkpointByteAllowance`` (64 KiB). The second and third rules keep checkpoints at O(1)
    /// amortized per change and per byte written however long the history and however large
    /// the documents grow (a checkpoint writes every step of every branch and every document's
    /// bytes): all checkpoints write at most about the bytes of the changes again. undo-host
    /// calls it after each command, with its `--checkpoint-every` (1,000 by default).
    /// - Parameter interval: the fewest changes between checkpoints; 0 or less: never.
    /// - Returns: what the checkpoint wrote, or `nil` when none was due or a group is open (it
    ///   is then taken at the first call after the group closes).
    /// - Throws: what ``checkpoint()`` throws; the next try then comes after `interval` more
    ///   changes (a plugin that cannot save its documents is not asked again at every call).
    /// - Complexity: O(1) when none is due; else that of ``checkpoint()``.
    @discardableResult
    public func checkpointIfDue(every interval: Int) throws(JournalError) -> CheckpointInfo? {
        guard interval > 0, stoppedReplay == nil, let host else { return nil }
        let due = state.withLock {
            !$0.isClosed && $0.changesSinceCheckpoint >= max(interval, $0.checkpointSteps)
                && $0.bytesSinceCheckpoint + Self.checkpointByteAllowance >= $0.checkpointDocumentBytes
        }
        guard due, host.history.withStack({ $0.groupDepth == 0 }) else { return nil }
        if !automaticCheckpointsOff.isEmpty,
           state.withLock({ $0.tracked.documents.contains { automaticCheckpointsOff.contains($0.plugin) } }) {
            return nil
        }
        do throws(JournalError) {
            return try checkpoint(automatic: true)
        } catch {
            state.withLock { $0.changesSinceCheckpoint = 0 }
            throw error
        }
    }

    /// A refused open takes out what its restore and replay put in, so the host is as it was
    /// before the open: every document the checkpoint or the changes name is closed (its
    /// plugin forgets it), the history emptied, its limits and current context put back, and a
    /// plugin the replay unloaded loaded again from the file the program had loaded it from.
    /// - Complexity: O(documents + steps + plugins).
    private static func takeOut(checkpoint: Checkpoint?, changes: [(sequence: Int64, time: UInt64, change: HostChange)],
                                from host: PluginHost, restoring before: (count: Int?, memory: Int?, context: UndoContext?),
                                plugins: [PluginInfo]) {
        var named: [String] = []
        var seen: Set<String> = []
        func note(_ name: String) { if seen.insert(name).inserted { named.append(name) } }
        for item in checkpoint?.documents ?? [] { note(item.document.context.name) }
        for (_, _, change) in changes {
            switch change {
            case .perform(let step): note(step.context)
            case .history(.currentContext(let name?)): note(name)
            default: break
            }
        }
        for name in named { _ = try? host.closeContext(UndoContext(name)) }
        host.history.withStack { stack in
            try? stack.removeAll()
            stack.countLimit = before.count
            stack.memoryLimit = before.memory
            stack.currentContext = before.context
        }
        let loaded = Set(host.plugins.map(\.id))
        for plugin in plugins where !loaded.contains(plugin.id) { _ = try? host.load(file: plugin.path) }
    }

    /// The documents' bytes a checkpoint may write beyond the bytes of the changes since the
    /// last one (see ``checkpointIfDue(every:)``): documents smaller than this never hold one back.
    public static let checkpointByteAllowance = 64 * 1024


    /// Puts a checkpoint back into `host` (its plugins already loaded, see `checkPlugins`): the
    /// documents' states, then the history.
    /// When it fails, what it put in is taken out again (the documents closed), so the host is
    /// as it was before the open.
    /// Each document's bytes are dropped once its plugin has loaded them (the checkpoint keeps
    /// their count, ``Checkpoint/Document/stateCount``), so the open never holds a document
    /// twice over beside its plugin's copy, through the replay that follows either. A state in
    /// pieces is handed on a row at a time (``Checkpoint/source(of:in:)``): a plugin with
    /// load_document_v2 (ABI 1.8) reads it without the rows ever being joined.
    private static func restore(_ checkpoint: inout Checkpoint, into host: PluginHost, from connection: SQLiteConnection,
                                path: String) throws(JournalError) {
        var loadedDocuments: [UndoContext] = []
        do throws(PluginHostError) {
            // Its plugins are loaded already (checkPlugins): a journal never loads one.
            for index in checkpoint.documents.indices where !checkpoint.documents[index].document.plugin.isEmpty {
                let item = checkpoint.documents[index].document
                loadedDocuments.append(item.context)
                try host.loadDocumentState(from: Checkpoint.source(of: checkpoint.documents[index], in: connection),
                                           plugin: item.plugin, context: item.context)
                checkpoint.documents[index].dropState()
            }
            try host.restoreHistory(checkpoint.history)
        } catch {
            for context in Set(loadedDocuments) { _ = try? host.closeContext(context) }
            throw JournalError(path: path, "the checkpoint (after change \(checkpoint.sequence)) cannot be restored: \(error)",
                               reason: .replay)
        }
    }

    private static let windowNanoseconds = UInt64(groupCommitWindow.components.seconds) * 1_000_000_000
        + UInt64(groupCommitWindow.components.attoseconds / 1_000_000_000)

    private func commitLocked(_ state: inout WriteState) throws(SQLiteFailure) {
        guard state.inTransaction else { return }
        state.inTransaction = false
        try connection.execute("COMMIT;")
    }

    /// Commits the changes waiting in `normal` durability now (also done by ``close()``).
    /// - Throws: ``JournalError`` when the commit fails.
    /// - Complexity: O(1) in the journal's length (the changes waiting are written).
    public func commit() throws(JournalError) {
        let failure: String? = state.withLock { (state: inout WriteState) -> String? in
            if let failure = state.failure {
                // Said once: by the call that failed, or (a group the commit thread could not
                // commit) by the next one.
                defer { state.failureSaid = true }
                return state.failureSaid ? nil : failure
            }
            do throws(SQLiteFailure) {
                try commitLocked(&state)
                return nil
            } catch {
                state.failureSaid = true
                return fail(&state, Self.lostGroup(error))
            }
        }
        if let failure { throw JournalError(path: path, failure) }
    }

    /// The commit thread's commit: a failure is kept, and said by the next call (a change,
    /// refused; or ``commit()``, which ``close()``'s callers use).
    private func commitPending() {
        state.withLock { (state: inout WriteState) in
            guard state.failure == nil else { return }
            do throws(SQLiteFailure) {
                try commitLocked(&state)
            } catch {
                _ = fail(&state, Self.lostGroup(error))
            }
        }
    }

    private static func lostGroup(_ error: SQLiteFailure) -> String {
        "the changes waiting to be committed could not be (\(error.message)): they are lost"
    }

    /// Commits what waits, stops recording the host's changes and closes the file (also done
    /// when the journal is freed). Idempotent.
    /// - Complexity: O(1) in the journal's length.
    public func close() {
        if let host, host.recorder === self { host.recorder = nil }
        commitThread?.stop()
        state.withLock { state in
            guard !state.isClosed else { return }
            try? commitLocked(&state)
            state.isClosed = true
            connection.close()
        }
    }
}

extension HostChange {
    /// The change without its arguments (a perform's arguments and inverse arguments emptied):
    /// what an open keeps of each change while it replays them in batches (the plugins, actions
    /// and documents it names, nothing the size of a document).
    var outline: HostChange { outline(keepingArgumentsUpTo: -1).change }

    /// The change as an open keeps it: whole when a perform's arguments and inverse arguments
    /// are each at most `limit` UTF-8 bytes (or it is not a perform), else its ``outline``.
    /// - Returns: the change kept, and whether its arguments were dropped.
    /// - Complexity: O(1) (the UTF-8 count of a native string is stored).
    func outline(keepingArgumentsUpTo limit: Int) -> (change: HostChange, droppedArguments: Bool) {
        // Asked before the step is copied out: most changes keep theirs, and are handed on as they are.
        guard case .perform(let kept) = self,
              kept.arguments.utf8.count > limit || (kept.inverseArguments?.utf8.count ?? 0) > limit else { return (self, false) }
        var step = kept
        step.arguments = ""
        if step.inverseArguments != nil { step.inverseArguments = "" }
        return (.perform(step), true)
    }
}
