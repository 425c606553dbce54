#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSQLite
import UndoJournal

/// Format 1: undo-host's journal of session lines, still read and continued by undo-host only
/// (new journals are those of `HostJournal` (module UndoHostJournal), format 2 and later, which
/// the C API and Swift open too).
///
/// A journal of a session's changes in an SQLite database (WAL mode): every change that went
/// into the history, as the command that made it, written before it is acknowledged, so that a
/// new process replays them to the same documents and the same history (branches, positions,
/// saves, times) after a restart or a crash.
///
/// A plugin step is kept as its typed call (the action's full id and its argument text, checked
/// against the action's signature again when replayed); undo, redo, groups, saves, documents
/// and moves across branches as the commands that made them (a move by time or by saves as the
/// state it reached). Replaying needs the same plugins.
///
/// Durability (`JournalDurability`): `full` syncs each change to disk before it is acknowledged;
/// `normal` writes it to the WAL file (so a crash of the process loses nothing acknowledged)
/// and syncs at checkpoints, so a power loss can lose the changes since the last checkpoint.
///
/// The database carries a format version (`PRAGMA user_version`) and an application id; each
/// entry carries a checksum, so a damaged file is refused with the entry that is damaged.
/// Opening never writes to an existing journal until the caller appends.
public final class SessionLineJournal {
    /// One journaled change.
    public struct Entry: Sendable, Equatable {
        /// 1, 2, 3, … in the order the changes were made.
        public var sequence: Int64
        /// When it was made: nanoseconds since 1970 (the wall clock, which survives restarts).
        public var time: UInt64
        /// The document (history context) current when it was made.
        public var document: String
        /// The command, as a session reads it (`org.undohost.text/insert 0 "Hi"`, `undo`, `goto 4`).
        public var command: String

        public init(sequence: Int64, time: UInt64, document: String, command: String) {
            self.sequence = sequence
            self.time = time
            self.document = document
            self.command = command
        }

        /// The row checksum over every field (no 0 byte after the command, as format 1 has it):
        /// what the file's own checks cannot see (a flipped byte inside a text) does not pass unnoticed.
        var checksum: Int64 {
            var checksum = RowChecksum()
            checksum.mix(integer: sequence)
            checksum.mix(integer: Int64(bitPattern: time))
            checksum.mix(text: document)
            checksum.mix(command.utf8)
            return checksum.value
        }
    }

    /// The format this type writes and reads: 1, undo-host's journal of session lines (kept so
    /// journals written before the journal moved below the session open; new journals are
    /// the format 2 of `HostJournal`, module UndoHostJournal).
    public static let formatVersion: Int64 = 1

    public let path: String
    public let durability: JournalDurability
    /// The entries the journal held when it was opened, oldest first.
    public let restored: [Entry]
    private let connection: SQLiteConnection
    private var nextSequence: Int64
    /// A `-wal` found at the open is kept as it is on closing until ``replayed()``.
    private var walHeld = false

    /// Opens the journal at `path`: a new file starts empty; an existing one is checked (an undo
    /// journal, of this format version, undamaged) and its entries read.
    /// - Throws: ``JournalError`` naming the file and the problem; nothing is written then.
    public init(path: String, durability: JournalDurability = .full) throws(JournalError) {
        self.path = path
        self.durability = durability
        let exists = access(path, F_OK) == 0
        connection = try SQLiteConnection(path: path, create: !exists)
        // A refused open leaves the database and its `-wal` as they were (see HostJournal.open).
        let keptWAL = exists && access(path + "-wal", F_OK) == 0
        if keptWAL { connection.keepWALOnClose(true) }
        do throws(SQLiteFailure) {
            if exists {
                restored = try Self.check(connection, path: path)
            } else {
                try connection.execute("""
                    PRAGMA journal_mode=WAL;
                    BEGIN;
                    PRAGMA application_id=\(JournalApplicationID.undoHost);
                    PRAGMA user_version=\(Self.formatVersion);
                    CREATE TABLE entries(sequence INTEGER PRIMARY KEY, time INTEGER NOT NULL,
                                         document TEXT NOT NULL, command TEXT NOT NULL, checksum INTEGER NOT NULL);
                    COMMIT;
                    """)
                restored = []
            }
            try connection.execute("PRAGMA synchronous=\(durability == .full ? "FULL" : "NORMAL");")
        } catch {
            connection.close()
            throw JournalError(path: path, error.isDamage ? "the file is damaged (\(error.message))" : error.message,
                               reason: error.isDamage ? .damaged : .other)
        }
        walHeld = keptWAL
        nextSequence = (restored.last?.sequence ?? 0) + 1
    }

    /// The session replayed the journal's entries: a `-wal` found at the open (a crash's last
    /// entries) may now be folded into the database. Until then, closing leaves the database
    /// and its `-wal` as they were, so a replay that is refused writes neither.
    public func replayed() {
        guard walHeld else { return }
        walHeld = false
        connection.keepWALOnClose(false)
    }

    /// Reads and checks an existing journal.
    private static func check(_ connection: SQLiteConnection, path: String) throws(SQLiteFailure) -> [Entry] {
        guard try connection.integer("PRAGMA application_id;") == JournalApplicationID.undoHost else {
            throw SQLiteFailure(code: SQLITE_NOTADB, message: "it is an SQLite database but not an undo journal")
        }
        let version = try connection.integer("PRAGMA user_version;")
        guard version == formatVersion else {
            throw SQLiteFailure(code: SQLITE_ERROR, message: version > formatVersion
                ? "it is of format version \(version), newer than this program's \(formatVersion): open it with a newer undo-host"
                : "it is of format version \(version), which this program does not read")
        }
        let check = try connection.texts("PRAGMA quick_check;")
        guard check == ["ok"] else {
            throw SQLiteFailure(code: SQLITE_CORRUPT, message: "integrity check: " + check.prefix(3).joined(separator: "; "))
        }
        var entries: [Entry] = []
        var damaged: Int64?
        try connection.query("SELECT sequence, time, document, command, checksum FROM entries ORDER BY sequence;") { row in
            guard row.count == 5, case .integer(let sequence) = row[0], case .integer(let time) = row[1],
                  case .text(let document) = row[2], case .text(let command) = row[3], case .integer(let checksum) = row[4] else {
                damaged = damaged ?? Int64(entries.count + 1)
                return
            }
            let entry = Entry(sequence: sequence, time: UInt64(bitPattern: time), document: document, command: command)
            if entry.checksum != checksum || sequence != Int64(entries.count + 1) { damaged = damaged ?? sequence }
            entries.append(entry)
        }
        if let damaged { throw SQLiteFailure(code: SQLITE_CORRUPT, message: "entry \(damaged) fails its checksum") }
        return entries
    }

    /// Writes a change; when it returns, the change is as durable as ``durability`` says.
    /// - Returns: the entry written.
    /// - Throws: ``JournalError`` when it could not be written (the disk is full, the file was
    ///   removed…): the change must then not be acknowledged.
    @discardableResult
    public func append(document: String, command: String, time: UInt64 = JournalClock.wallClockNanoseconds()) throws(JournalError) -> Entry {
        let entry = Entry(sequence: nextSequence, time: time, document: document, command: command)
        do throws(SQLiteFailure) {
            try connection.query("INSERT INTO entries(sequence, time, document, command, checksum) VALUES (?, ?, ?, ?, ?);",
                                 [.integer(entry.sequence), .integer(Int64(bitPattern: entry.time)), .text(document),
                                  .text(command), .integer(entry.checksum)])
        } catch {
            throw JournalError(path: path, "cannot write the change: \(error.message)")
        }
        nextSequence += 1
        return entry
    }

    /// Closes the file (also done when the journal is freed).
    public func close() { connection.close() }
}
