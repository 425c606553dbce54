#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSQLite
import UndoJournal

/// Format 1: undo-host's journal of session lines, read by undo-host only, to upgrade it to a
/// journal of the current format (`HostJournal`, module UndoHostJournal, which the C API and
/// Swift open too; see `HostSession.upgradeFormatOneJournal`). Nothing writes this format any more.
///
/// An SQLite database (WAL mode) of a session's changes: every change that went into the
/// history, as the command that made it (a plugin step as its action's full id and its argument
/// text; undo, redo, groups, saves, documents and moves across branches as the commands that
/// made them, a move by time or by saves as the state it reached), with the time it was made.
/// Replaying the commands in order, each at its time, gives the same documents and history.
///
/// The database carries a format version (`PRAGMA user_version`) and an application id; each
/// entry carries a checksum, so a damaged file is refused with the entry that is damaged.
/// Reading never changes the file's contents.
public struct SessionLineJournal: Sendable {
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
        package var checksum: Int64 {
            var checksum = RowChecksum()
            checksum.mix(integer: sequence)
            checksum.mix(integer: Int64(bitPattern: time))
            checksum.mix(text: document)
            checksum.mix(command.utf8)
            return checksum.value
        }
    }

    /// The format this type reads: 1, undo-host's journal of session lines.
    public static let formatVersion: Int64 = 1

    public let path: String
    /// Every entry of the journal, oldest first.
    public let entries: [Entry]
    /// Whether a `-wal` (a crash's last entries, read with the rest) was beside the file.
    public let hasWAL: Bool

    /// Reads the journal at `path`, an existing file: checks it (an undo journal, of this format
    /// version, undamaged) and reads its entries, then closes it.
    /// - Throws: ``JournalError`` naming the file and the problem (missing, not a journal,
    ///   another format, damaged).
    public init(path: String) throws(JournalError) {
        self.path = path
        let connection = try SQLiteConnection(path: path, create: false)
        defer { connection.close() }
        // Reading writes nothing: a `-wal` left by a crash (the last entries) is read, and left
        // as it is on closing (see HostJournal.open); the upgrade folds it in once it succeeded.
        hasWAL = access(path + "-wal", F_OK) == 0
        if hasWAL { connection.keepWALOnClose(true) }
        do throws(SQLiteFailure) {
            entries = try Self.check(connection, path: path)
        } catch {
            throw JournalError(path: path, error.isDamage ? "the file is damaged (\(error.message))" : error.message,
                               reason: error.isDamage ? .damaged : .other)
        }
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
}
