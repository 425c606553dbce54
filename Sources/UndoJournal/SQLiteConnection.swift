#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSQLite

/// One connection to an SQLite database file: the one place the journal calls SQLite.
///
/// Invariants: `handle` is an open connection from `open` until `close()` (it is never used
/// after); statements are finalized before the call that prepared them returns, except those of
/// ``prepare(_:)``, which `close()` finalizes before closing; text read from a row is copied
/// into a `String` before the next step. Checked in debug builds by `isOpen`.
package final class SQLiteConnection {
    private var handle: OpaquePointer?
    package private(set) var isOpen = false
    private var prepared: [Statement] = []

    /// A statement prepared once and run many times (the journal's insert of each change):
    /// preparing it costs more than running it. Finalized by the connection's `close()`.
    package final class Statement {
        fileprivate var handle: OpaquePointer?
        /// The bytes of the values bound at the last run (see ``SQLiteConnection/run(_:_:)``),
        /// kept with their capacity for the next when it is at most `keptBufferBytes`: one
        /// allocation for the statement's life, not one per row.
        fileprivate var buffer: [UInt8] = []
        fileprivate init(_ handle: OpaquePointer?) { self.handle = handle }
    }

    /// Prepares one statement to be run with ``run(_:_:)`` until the connection closes.
    package func prepare(_ sql: String) throws(SQLiteFailure) -> Statement {
        assert(isOpen, "a closed connection was used")
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK else { throw SQLiteFailure(code: status, message: lastMessage) }
        let prepared = Statement(statement)
        self.prepared.append(prepared)
        return prepared
    }

    /// Finalizes a statement of ``prepare(_:)`` before the connection closes (one prepared for
    /// one batch of rows).
    package func finalize(_ statement: Statement) {
        guard let index = prepared.firstIndex(where: { $0 === statement }) else { return }
        sqlite3_finalize(statement.handle)
        statement.handle = nil
        prepared.remove(at: index)
    }

    /// Runs a statement of ``prepare(_:)`` that returns no rows, with `values` bound in order.
    ///
    /// Texts and bytes are bound in place (`SQLITE_STATIC`, with their lengths) from one buffer
    /// that holds them all, alive until the statement has run and its bindings are cleared:
    /// one copy of a row's bytes, where a transient binding copies each value again and a
    /// `String` handed to C is first copied into a C string (a journaled change binds eleven
    /// texts). The buffer is the statement's, emptied and filled again at each run (its
    /// capacity kept). Invariant: no binding of the statement outlives the buffer's bytes
    /// (the bindings are cleared before the run returns, and the buffer is changed only by the
    /// next run); the buffer is never empty, so an empty text binds "" and never NULL.
    /// The largest buffer a statement keeps between runs.
    static let keptBufferBytes = 64 << 10

    package func run(_ statement: Statement, _ values: [Value]) throws(SQLiteFailure) {
        assert(isOpen && statement.handle != nil, "a closed connection or statement was used")
        var size = 1
        for value in values {
            switch value {
            case .integer: break
            case .text(let text): size += text.utf8.count
            case .blob(let bytes): size += bytes.count
            }
        }
        var buffer = statement.buffer
        statement.buffer = []
        // A large row's buffer is not kept (a change of 100 MB would hold 100 MB for good).
        defer { if buffer.capacity <= Self.keptBufferBytes { statement.buffer = buffer } }
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(size)
        for value in values {
            switch value {
            case .integer: break
            case .text(let text):
                // In place where contiguous (a native string always is): one copy of its bytes.
                let copied: Void? = text.utf8.withContiguousStorageIfAvailable { buffer.append(contentsOf: $0) }
                if copied == nil { buffer.append(contentsOf: text.utf8) }
            case .blob(let bytes): buffer.append(contentsOf: bytes)
            }
        }
        buffer.append(0)
        assert(buffer.count == size, "a row's bytes were miscounted")
        let handle = statement.handle
        let (status, message) = buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters -> (Int32, String?) in
                defer {
                    sqlite3_reset(handle)
                    sqlite3_clear_bindings(handle)
                }
                let base = characters.baseAddress!
                var offset = 0
                for (index, value) in values.enumerated() {
                    let status: Int32
                    switch value {
                    case .integer(let number):
                        status = sqlite3_bind_int64(handle, Int32(index + 1), number)
                    case .text(let text):
                        let count = text.utf8.count
                        status = sqlite3_bind_text64(handle, Int32(index + 1), base + offset, UInt64(count), nil, UInt8(SQLITE_UTF8))
                        offset += count
                    case .blob(let blob):
                        // No bytes bind an empty BLOB, not NULL.
                        status = blob.isEmpty ? sqlite3_bind_zeroblob(handle, Int32(index + 1), 0)
                            : sqlite3_bind_blob64(handle, Int32(index + 1), UnsafeRawPointer(base + offset), UInt64(blob.count), nil)
                        offset += blob.count
                    }
                    // The message is read before the reset (deferred) can change it.
                    guard status == SQLITE_OK else { return (status, lastMessage) }
                }
                let stepped = sqlite3_step(handle)
                return stepped == SQLITE_DONE ? (SQLITE_OK, nil) : (stepped, lastMessage)
            }
        }
        guard status == SQLITE_OK else { throw SQLiteFailure(code: status, message: message ?? lastMessage) }
    }

    /// How a connection is kept from being used by two threads at once.
    package enum Threading {
        /// SQLite takes the connection's mutex in every call (`SQLITE_OPEN_FULLMUTEX`): any
        /// thread may use it at any time.
        case serialized
        /// SQLite takes no mutex of the connection's (`SQLITE_OPEN_NOMUTEX`; the library is
        /// still built thread-safe, so other connections are unaffected): its owner guarantees
        /// that no two threads ever use it at once, every use being under one lock of the
        /// owner's (a pthread lock, which ThreadSanitizer sees) or by one thread before the
        /// connection is shared. Each call into SQLite, every column read, then costs no lock
        /// and unlock (about 13% of a journal's writing and reading was SQLite's mutex).
        case guardedByOwner
    }

    /// Opens `path`; `create`: make the file when it is missing. The journal's files are checked
    /// first (``JournalPathCheck``: no link another user may have placed).
    /// - Parameter threading: `.serialized` unless the caller keeps every use under its own
    ///   lock (see ``Threading/guardedByOwner``).
    package init(path: String, create: Bool, threading: Threading = .serialized) throws(JournalError) {
        try JournalPathCheck.check(path)
        let mutex = threading == .serialized ? SQLITE_OPEN_FULLMUTEX : SQLITE_OPEN_NOMUTEX
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | mutex
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            handle = nil
            throw JournalError(path: path, "cannot open it: " + (Self.reason(opening: path, create: create) ?? message))
        }
        isOpen = true
        sqlite3_extended_result_codes(handle, 1)
    }

    /// Why `path` cannot be opened for reading and writing (or made), as the system says it,
    /// where SQLite says only "unable to open database file".
    private static func reason(opening path: String, create: Bool) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { return "it is a folder" }
            if access(path, R_OK | W_OK) != 0 { return "it cannot be read and written by this user (\(String(cString: strerror(errno))))" }
        } else if errno != ENOENT {
            return String(cString: strerror(errno))
        }
        let folder = JournalPathCheck.folderPath(of: path)
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0 else {
            return "its folder \(folder) cannot be reached (\(String(cString: strerror(errno))))"
        }
        guard folderInfo.st_mode & S_IFMT == S_IFDIR else { return "\(folder) is not a folder" }
        // The journal's -wal and -shm are made beside it, so its folder must take new files.
        if access(folder, W_OK | X_OK) != 0 {
            return "its folder \(folder) does not let this user make files (\(String(cString: strerror(errno)))): "
                + "the journal needs its -wal and -shm beside it"
        }
        return nil
    }

    /// Opens the database file at `path` alone, read-only, as it is on disk without its `-wal`
    /// (SQLite's `immutable` URI parameter: no lock taken, no `-wal` or `-shm` read or made).
    /// To judge whether a `-wal` continues its database before SQLite folds it in.
    package init(readingDatabaseFileAlone path: String) throws(JournalError) {
        // In a URI, "%", "?" and "#" must be escaped; the rest of a path stands as it is.
        var escaped: [UInt8] = []
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                escaped += Array("%\(String(byte, radix: 16, uppercase: true))".utf8)
            } else {
                escaped.append(byte)
            }
        }
        let uri = "file:" + (path.hasPrefix("/") ? "" : "./") + String(decoding: escaped, as: UTF8.self) + "?immutable=1"
        let status = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            handle = nil
            throw JournalError(path: path, "cannot read it: \(message)")
        }
        isOpen = true
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { close() }

    /// Whether closing leaves a `-wal` file as it is instead of folding it into the database
    /// and removing it (SQLite's default): on for an open that may be refused, which must not
    /// write to the file, nor make permanent a `-wal` it has not judged.
    package func keepWALOnClose(_ keep: Bool) {
        assert(isOpen, "a closed connection was used")
        undo__sqlite_no_checkpoint_on_close(handle, keep ? 1 : 0)
    }

    package func close() {
        guard isOpen else { return }
        for statement in prepared {
            sqlite3_finalize(statement.handle)
            statement.handle = nil
        }
        prepared.removeAll()
        sqlite3_close_v2(handle)
        handle = nil
        isOpen = false
    }

    /// The last error of the connection, as SQLite words it.
    package var lastMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }

    /// Runs SQL that returns no rows (several statements allowed).
    package func execute(_ sql: String) throws(SQLiteFailure) {
        assert(isOpen, "a closed connection was used")
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw SQLiteFailure(code: status, message: lastMessage) }
    }

    /// A value bound to a statement's parameter.
    package enum Value {
        case integer(Int64)
        case text(String)
        /// Bytes (a BLOB column), read back as they were.
        case blob([UInt8])
    }

    /// Binds bytes (copied by SQLite before it returns); no bytes bind an empty BLOB, not NULL.
    private static func bind(_ bytes: [UInt8], to statement: OpaquePointer?, at index: Int32) -> Int32 {
        guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
        return bytes.withUnsafeBytes { buffer in
            sqlite3_bind_blob64(statement, index, buffer.baseAddress, UInt64(buffer.count), undo__sqlite_transient())
        }
    }

    /// `sql` prepared once, with `values` bound in order; the caller finalizes it.
    private func prepared(_ sql: String, _ values: [Value]) throws(SQLiteFailure) -> OpaquePointer? {
        assert(isOpen, "a closed connection was used")
        var statement: OpaquePointer?
        var status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK else { throw SQLiteFailure(code: status, message: lastMessage) }
        for (index, value) in values.enumerated() {
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(statement, Int32(index + 1), number)
            case .text(let text): status = sqlite3_bind_text(statement, Int32(index + 1), text, -1, undo__sqlite_transient())
            case .blob(let bytes): status = Self.bind(bytes, to: statement, at: Int32(index + 1))
            }
            guard status == SQLITE_OK else {
                let failure = SQLiteFailure(code: status, message: lastMessage)
                sqlite3_finalize(statement)
                throw failure
            }
        }
        return statement
    }

    /// Runs one statement with `values` bound in order, and gives each row's columns as text or
    /// integers to `row` (column index → value).
    package func query(_ sql: String, _ values: [Value] = [], row: ([Value]) -> Void = { _ in }) throws(SQLiteFailure) {
        let statement = try prepared(sql, values)
        defer { sqlite3_finalize(statement) }
        var status: Int32
        while true {
            status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw SQLiteFailure(code: status, message: lastMessage) }
            let count = sqlite3_column_count(statement)
            var columns: [Value] = []
            columns.reserveCapacity(Int(count))
            for column in 0..<count {
                let type = sqlite3_column_type(statement, column)
                if type == SQLITE_INTEGER {
                    columns.append(.integer(sqlite3_column_int64(statement, column)))
                } else if type == SQLITE_BLOB {
                    // The pointer is read before the length, as SQLite asks; copied at once.
                    let start = sqlite3_column_blob(statement, column)
                    let count = Int(sqlite3_column_bytes(statement, column))
                    columns.append(.blob(start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []))
                } else if let text = sqlite3_column_text(statement, column) {
                    // Its length, not a search for a 0 byte: faster, and a text holding one is whole.
                    let length = Int(sqlite3_column_bytes(statement, column))
                    columns.append(.text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)))
                } else {
                    columns.append(.text(""))
                }
            }
            row(columns)
        }
    }

    /// The row a statement stands on, read column by column in place: no array of its values,
    /// and a text equal to one the caller already holds is handed back as that one (no copy).
    /// What ``query(_:_:reading:)`` hands its callback, for the journal's rows, read by the
    /// hundred thousand at an open.
    ///
    /// Invariant: used only inside the callback it was handed to (the statement steps on
    /// after it returns, and is finalized after the last row); checked in debug builds.
    package struct RowReader {
        fileprivate let statement: OpaquePointer?
        fileprivate let cursor: Cursor
        fileprivate let number: Int

        /// The number of the row the statement stands on, 0 once it is done (debug checks;
        /// one per query).
        fileprivate final class Cursor {
            var row = 0
        }

        private var isCurrent: Bool { cursor.row == number }

        /// The count of columns.
        package var count: Int {
            assert(isCurrent, "a row was read after its callback returned")
            return Int(sqlite3_column_count(statement))
        }

        /// Column `column` as an integer, `nil` when it holds another type.
        package func integer(_ column: Int) -> Int64? {
            assert(isCurrent, "a row was read after its callback returned")
            guard sqlite3_column_type(statement, Int32(column)) == SQLITE_INTEGER else { return nil }
            return sqlite3_column_int64(statement, Int32(column))
        }

        /// Column `column` as text (NULL as ""), as ``query(_:_:row:)`` reads it; `nil` when it
        /// is an integer or bytes. When its bytes are those of `known`'s UTF-8, `known` itself
        /// (its storage shared, nothing copied or checked again).
        /// - Complexity: O(length of the text).
        package func text(_ column: Int, sameAs known: String = "") -> String? {
            assert(isCurrent, "a row was read after its callback returned")
            let type = sqlite3_column_type(statement, Int32(column))
            guard type != SQLITE_INTEGER && type != SQLITE_BLOB else { return nil }
            // The pointer is read before the length, as SQLite asks.
            guard let start = sqlite3_column_text(statement, Int32(column)) else { return "" }
            let bytes = UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, Int32(column))))
            var known = known
            let same = known.utf8.count == bytes.count && known.withUTF8 { knownBytes in
                knownBytes.isEmpty || memcmp(knownBytes.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
            // Equal bytes are valid UTF-8 (`known`'s), so decoding them would give `known` again.
            return same ? known : String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Runs one statement with `values` bound in order, and hands each row to `row` to be read
    /// in place (``RowReader``).
    package func query(_ sql: String, _ values: [Value] = [], reading row: (RowReader) -> Void) throws(SQLiteFailure) {
        let statement = try prepared(sql, values)
        defer { sqlite3_finalize(statement) }
        var status: Int32
        let cursor = RowReader.Cursor()
        defer { cursor.row = 0 }
        while true {
            status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw SQLiteFailure(code: status, message: lastMessage) }
            cursor.row += 1
            row(RowReader(statement: statement, cursor: cursor, number: cursor.row))
        }
    }

    /// The first column of the first row, as an integer (0 when there is none).
    package func integer(_ sql: String) throws(SQLiteFailure) -> Int64 {
        var result: Int64 = 0
        try query(sql) { columns in
            if case .integer(let value)? = columns.first { result = value }
        }
        return result
    }

    /// The first column of every row, as text.
    package func texts(_ sql: String) throws(SQLiteFailure) -> [String] {
        var result: [String] = []
        try query(sql) { columns in
            switch columns.first {
            case .text(let text)?: result.append(text)
            case .integer(let number)?: result.append(String(number))
            case .blob, nil: break
            }
        }
        return result
    }
}

/// An SQLite call that failed: its result code and message.
package struct SQLiteFailure: Error {
    package var code: Int32
    package var message: String
    /// The damage codes: not a database, or a corrupt one.
    package var isDamage: Bool { code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB }

    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }
}
