#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSQLite
import FoundationEssentials
import UndoCore
import UndoJournal

/// A journal of an app's own history (an `UndoStack` of Swift commands) in an SQLite
/// database (WAL mode): every change made through it is written before the call returns, so a
/// new process that opens the same file gets back the same history — branches, position, save
/// points, times, contexts — and, by performing the journaled commands again, the same model.
///
/// A new file starts empty. An existing one is checked (a history journal, of this format
/// version, undamaged: ``formatVersion``, an integrity check, a checksum per change) and its
/// changes are replayed into a new stack, against the model the app hands in, each at the time
/// it was first made. Then every later change made through the journal is written before it
/// is acknowledged, as durable as ``durability`` says (`full`: synced before it returns;
/// `normal`: in the WAL, so a process crash loses nothing, a power loss the changes since the
/// last checkpoint).
///
/// Commands are ``UndoJournaledCommand``s (`Codable`, under a stable name) of the types
/// registered when the journal is opened. Make every change through the journal; read the
/// history (titles, `UndoStack.tree`, `UndoStack.isDirty(_:)`) from ``stack``. A change made
/// on ``stack`` directly is not journaled, and a reopened journal would not have it.
///
/// One writer: from its opening to ``close()`` (or the end of the process, a crash included)
/// the journal holds the file in SQLite's exclusive locking mode, so a second opening of it, in
/// another process or in this one, is refused and nothing else reads it meanwhile.
///
/// Every call is refused once a change could not be written (the disk is full, the file was
/// removed), or failed and could not be taken back (`UndoError.rollbackFailed`): the history
/// and the model then hold a change the journal lacks; reopen the journal.
public final class UndoStackJournal {
    /// How much a crash or a power loss can take: the modes every journal of the package shares
    /// (`JournalDurability`, module UndoJournal).
    public typealias Durability = JournalDurability

    /// The format this version writes. Format 1 (before the operations became `UndoOperation`)
    /// is read too, and becomes format 2 once opened: its changes replay, later ones are written
    /// in format 2, which format-1 readers refuse as newer instead of failing on a change.
    public static let formatVersion: Int64 = 2
    /// SQLite's application id of a history journal: "UNDS" (undo-host's and the plugin host's
    /// journals are "UNDO").
    static let applicationID = JournalApplicationID.history

    /// The database file.
    public let path: String
    /// How durable each change is when the call that made it returns.
    public let durability: Durability
    /// The history: read it freely; change it only through the journal.
    public let stack: UndoStack
    /// The history's clock: the wall clock, set to each change's original time while it replays.
    public let clock: JournalClock
    /// How many changes the file held when it was opened (and were replayed).
    public let restoredCount: Int

    let connection: SQLiteConnection
    let registry: [String: any UndoJournaledCommand.Type]
    let encoder = JSONEncoder()
    /// The JSON of operations already written (at most 64 of them).
    var encodedOperations: [JournalOperation: String] = [:]
    var nextSequence: Int64
    /// The write that failed, after which every call is refused.
    var writeFailure: JournalError?

    /// Opens the journal at `path`: a new file starts empty; an existing one is checked and
    /// replayed into a new stack and `model`.
    /// - Parameters:
    ///   - path: the database file; created when missing.
    ///   - durability: see ``Durability``; `full` by default.
    ///   - commands: every command type the journal holds or will hold, each under its
    ///     ``UndoJournaledCommand/journalName``.
    ///   - model: what the commands change, fresh (as at the start of the history): the journaled
    ///     commands are performed on it again. Decoded commands find it with
    ///     ``Swift/Decoder/journalModel(_:)``.
    ///   - makeStack: makes the empty history, with the clock it is given (so that each step
    ///     gets the time it was first made) and the app's settings, the same on every opening.
    /// - Throws: `JournalError` naming the file and the problem: not a history journal,
    ///   another format version, damaged, a change of a type not registered or that cannot be
    ///   decoded or performed again (naming the change and the type), two types under one name,
    ///   the file already open (by another process, or another journal in this one).
    ///   The file is not changed then, and `model` should be discarded.
    /// - Complexity: O(changes in the file), each replayed as the call that made it.
    public init(path: String, durability: Durability = .full, commands: [any UndoJournaledCommand.Type], model: Any,
                makeStack: (JournalClock) -> UndoStack = { UndoStack(clock: $0) }) throws(JournalError) {
        self.path = path
        self.durability = durability
        var registry: [String: any UndoJournaledCommand.Type] = [:]
        for type in commands {
            if let other = registry.updateValue(type, forKey: type.journalName), other != type {
                throw JournalError(path: path, "two command types are registered as \"\(type.journalName)\": \(other) and \(type)")
            }
        }
        self.registry = registry
        encoder.outputFormatting = [.sortedKeys]
        clock = JournalClock()
        stack = makeStack(clock)
        guard stack.treeCount == 0 && stack.groupDepth == 0 else {
            throw JournalError(path: path, "the stack to restore into is not empty: make a new one in makeStack")
        }
        let exists = access(path, F_OK) == 0
        let connection = try SQLiteConnection(path: path, create: !exists)
        self.connection = connection
        // A `-wal` left by a crash is folded into the database only once the open succeeded: a
        // refused open leaves the database and its `-wal` as they were.
        let keptWAL = exists && access(path + "-wal", F_OK) == 0
        if keptWAL { connection.keepWALOnClose(true) }
        do throws(JournalError) {
            // One writer: the connection takes the file for itself at its first read and keeps
            // it until it closes (in WAL mode without shared memory), so a second opening, in this
            // process or another, is refused as busy instead of interleaving its changes.
            try Self.run(path) { () throws(SQLiteFailure) in try connection.execute("PRAGMA locking_mode=EXCLUSIVE;") }
            if exists {
                let changes = try Self.read(connection, path: path)
                try Self.replay(changes, into: stack, clock: clock, registry: registry, model: model, path: path)
                restoredCount = changes.count
                try Self.run(path) { () throws(SQLiteFailure) in
                    try connection.execute("PRAGMA user_version=\(Self.formatVersion);")
                }
            } else {
                try Self.run(path) { () throws(SQLiteFailure) in try Self.create(connection) }
                restoredCount = 0
            }
            let synchronous = durability == .full ? "FULL" : "NORMAL"
            try Self.run(path) { () throws(SQLiteFailure) in try connection.execute("PRAGMA synchronous=\(synchronous);") }
            if keptWAL { connection.keepWALOnClose(false) }
        } catch {
            connection.close()
            throw error
        }
        nextSequence = Int64(restoredCount) + 1
    }

    /// Makes the tables of a new journal.
    static func create(_ connection: SQLiteConnection) throws(SQLiteFailure) {
        try connection.execute("""
            PRAGMA journal_mode=WAL;
            BEGIN;
            PRAGMA application_id=\(applicationID);
            PRAGMA user_version=\(formatVersion);
            CREATE TABLE changes(sequence INTEGER PRIMARY KEY, time INTEGER NOT NULL, operation TEXT NOT NULL,
                                 command_type TEXT NOT NULL, command TEXT NOT NULL, checksum INTEGER NOT NULL);
            COMMIT;
            """)
    }

    /// Runs SQLite calls, turning their failure into the journal's error.
    static func run(_ path: String, _ body: () throws(SQLiteFailure) -> Void) throws(JournalError) {
        do throws(SQLiteFailure) {
            try body()
        } catch {
            if error.code & 0xff == SQLITE_BUSY {
                throw JournalError(path: path, "it is already open (in another process, or by another journal in this one): "
                                   + "a history journal has one writer at a time, so close the other first")
            }
            throw JournalError(path: path, error.isDamage ? "the file is damaged (\(error.message))" : error.message)
        }
    }

    /// Closes the file (also done when the journal is freed); later changes are refused.
    public func close() {
        connection.close()
        if writeFailure == nil { writeFailure = JournalError(path: path, "the journal is closed") }
    }
}
