#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSQLite
import UndoCore
import UndoPluginHost
import UndoJournal

/// What a host journal holds, read without opening its history and without writing to it:
/// its format, the plugins and versions it names, its documents, its changes and its
/// checkpoint, and the size of its files (`undo-host journal FILE`).
///
/// ``read(path:)`` never writes to the journal's files: it copies the database and its `-wal`
/// (the changes not yet folded into the database) into a private folder of its own, reads the
/// copy, and removes it. So a journal open in another process is read as its files hold it at
/// that moment, and its writer is not disturbed; ``openBy`` names that process.
public struct JournalContents: Sendable {
    /// A plugin the journal names, with the versions its changes were written with.
    public struct Plugin: Sendable, Equatable {
        public var id: String
        /// In the order first written.
        public var versions: [String]
        /// The file it was loaded from, when the journal loaded it (a `load` change or its checkpoint).
        public var path: String?
        /// Its performs among the changes (not counting the steps its checkpoint holds).
        public var performs: Int
    }

    /// A document the journal names, in the order first used.
    public struct Document: Sendable, Equatable {
        public var name: String
        /// The plugins that acted in it, in the order they first did.
        public var plugins: [String]
        /// Its performs among the changes.
        public var performs: Int
        /// Whether the checkpoint holds its state.
        public var inCheckpoint: Bool
    }

    /// One change, as its row holds it.
    public struct Change: Sendable {
        public var sequence: Int64
        /// Nanoseconds since 1970 (UTC).
        public var time: UInt64
        public var change: HostChange
    }

    public var path: String
    /// The format (`PRAGMA user_version`: 2 to 5).
    public var format: Int64
    /// The journal's identity (random, written once), `nil` for one written before identities.
    public var identity: String?
    /// The bytes of the database file and of its `-wal` (0 when there is none).
    public var fileBytes: Int64
    public var walBytes: Int64
    /// The process that has it open (a journal has one writer), when another holds it.
    public var openBy: Int32?
    public var plugins: [Plugin]
    public var documents: [Document]
    /// The changes after the checkpoint (all of them when it has none), oldest first.
    public var changes: [Change]
    /// The checkpoint (a journal holds at most one: the state after change ``CheckpointInfo/sequence``).
    public var checkpoint: CheckpointInfo?
    /// The rows its checkpoint tables hold (plugins, documents, their further pieces, steps,
    /// marks), each checked.
    public var checkpointRows: Int
    /// Of those, the rows of `checkpoint_pieces` (format 5): the pieces of 4 MiB after the
    /// first of each document's state over 4 MiB, each checked (checksum, order, count).
    public var checkpointPieces: Int

    /// How many changes of each kind ("perform", "undo", …), in the order kinds first appear.
    public var kinds: [(kind: String, count: Int)] {
        var result: [(kind: String, count: Int)] = []
        var index: [String: Int] = [:]
        for change in changes {
            let kind = change.change.kind
            if let at = index[kind] { result[at].count += 1 } else {
                index[kind] = result.count
                result.append((kind, 1))
            }
        }
        return result
    }

    /// Reads the journal at `path`, checking every change's row and every checkpoint row as an
    /// open does (checksums, values, order), and SQLite's integrity check (`thorough`: the full
    /// `PRAGMA integrity_check`, else `quick_check`). Nothing is replayed, no plugin is needed.
    /// - Throws: ``UndoJournal/JournalError`` saying why it cannot be read: no such file, a
    ///   folder, no permission (the system's reason), empty, not a journal, damaged (naming the
    ///   change or table), of another format.
    /// - Complexity: O(*n*) in the size of the journal's files.
    public static func read(path: String, thorough: Bool = false) throws(JournalError) -> JournalContents {
        var info = stat()
        guard stat(path, &info) == 0 else { throw JournalError(path: path, "cannot read it: " + systemReason(errno)) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw JournalError(path: path, "it is a folder, not a journal") }
        guard access(path, R_OK) == 0 else { throw JournalError(path: path, "cannot read it: " + systemReason(errno)) }
        guard info.st_size > 0 else { throw JournalError(path: path, "it is empty: it never held a journal") }
        var walInfo = stat()
        let walBytes = stat(path + "-wal", &walInfo) == 0 ? Int64(walInfo.st_size) : 0
        // Copying opens the file, and closing a descriptor of it drops this process's locks.
        guard !JournalLock.heldHere(path) else {
            throw JournalError(path: path, "it is open in this process: read it through the open journal, or close that first")
        }
        let holder = JournalLock.holder(of: path)

        // A private copy: reading a WAL database may write (its -shm, a recovery of its -wal).
        var template = Array((temporaryFolder() + "/undo-journal-XXXXXX").utf8CString)
        guard let folderPointer = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw JournalError(path: path, "cannot make a private folder to read a copy in: " + systemReason(errno))
        }
        let folder = String(cString: folderPointer)
        let copy = folder + "/journal"
        defer {
            for file in [copy, copy + "-wal", copy + "-shm", copy + "-journal"] { unlink(file) }
            rmdir(folder)
        }
        try copyFile(path, to: copy, journal: path)
        if walBytes > 0 { try copyFile(path + "-wal", to: copy + "-wal", journal: path) }

        let connection = try SQLiteConnection(path: copy, create: false)
        defer { connection.close() }
        do throws(SQLiteFailure) {
            let (format, checkpointRecord, rows, _, _) = try HostJournal.check(connection, path: path, whole: true)
            if thorough {
                let result = try connection.texts("PRAGMA integrity_check;")
                guard result == ["ok"] else {
                    throw SQLiteFailure(code: SQLITE_CORRUPT, message: "integrity check: " + result.prefix(3).joined(separator: "; "))
                }
            }
            var checkpointRows = 0, checkpointPieces = 0
            if checkpointRecord != nil {
                for table in ["checkpoint", "checkpoint_plugins", "checkpoint_documents", "checkpoint_steps", "checkpoint_marks"] {
                    checkpointRows += Int(try connection.integer("SELECT count(*) FROM \(table);"))
                }
                // Format 5 (check() read and checked every piece with the documents).
                if format >= 5 { checkpointPieces = Int(try connection.integer("SELECT count(*) FROM checkpoint_pieces;")) }
                checkpointRows += checkpointPieces
            }
            var contents = JournalContents(
                path: path, format: format, identity: try? identity(connection), fileBytes: Int64(info.st_size),
                walBytes: walBytes, openBy: holder, plugins: [], documents: [],
                changes: rows.map { Change(sequence: $0.sequence, time: $0.time, change: $0.change) },
                checkpoint: checkpointRecord?.info, checkpointRows: checkpointRows,
                checkpointPieces: checkpointPieces)
            contents.gather(checkpointRecord)
            return contents
        } catch {
            throw JournalError(path: path, error.isDamage ? "the file is damaged (\(error.message))" : error.message,
                               reason: error.isDamage ? .damaged : .other)
        }
    }

    /// The plugins and documents, from the checkpoint and the changes, in first-use order.
    private mutating func gather(_ checkpoint: Checkpoint?) {
        var pluginIndex: [String: Int] = [:]
        var documentIndex: [String: Int] = [:]
        func plugin(_ id: String, _ version: String, path: String? = nil) -> Int {
            let at = pluginIndex[id] ?? {
                pluginIndex[id] = plugins.count
                plugins.append(Plugin(id: id, versions: [], path: nil, performs: 0))
                return plugins.count - 1
            }()
            if !version.isEmpty, !plugins[at].versions.contains(version) { plugins[at].versions.append(version) }
            if let path, plugins[at].path == nil { plugins[at].path = path }
            return at
        }
        func document(_ name: String, plugin: String) -> Int {
            let at = documentIndex[name] ?? {
                documentIndex[name] = documents.count
                documents.append(Document(name: name, plugins: [], performs: 0, inCheckpoint: false))
                return documents.count - 1
            }()
            if !plugin.isEmpty, !documents[at].plugins.contains(plugin) { documents[at].plugins.append(plugin) }
            return at
        }
        if let checkpoint {
            for load in checkpoint.loads { _ = plugin(load.plugin, load.version, path: load.path) }
            for (id, version) in checkpoint.pluginsUsed { _ = plugin(id, version) }
            for item in checkpoint.documents {
                documents[document(item.document.context.name, plugin: item.document.plugin)].inCheckpoint = true
            }
        }
        for change in changes {
            switch change.change {
            case .perform(let step):
                plugins[plugin(step.plugin, step.pluginVersion)].performs += 1
                documents[document(step.context, plugin: step.plugin)].performs += 1
            case .load(let path, let id, let version):
                _ = plugin(id, version, path: path)
            case .closeContext(let name):
                _ = document(name, plugin: "")
            default:
                break
            }
        }
    }

    private static func identity(_ connection: SQLiteConnection) throws(SQLiteFailure) -> String? {
        guard try connection.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'journal_identity';") > 0 else {
            return nil
        }
        return try connection.texts("SELECT id FROM journal_identity;").first
    }

    private static func temporaryFolder() -> String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    static func systemReason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a folder on its path is a file"
        default: String(cString: strerror(code))
        }
    }

    /// Copies `source` to a new file `target` (only this user may read it).
    /// - Complexity: O(*n*) in the file's size.
    private static func copyFile(_ source: String, to target: String, journal: String) throws(JournalError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw JournalError(path: journal, "cannot read \(source): " + systemReason(errno)) }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw JournalError(path: journal, "cannot copy it to read it: " + systemReason(errno)) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw JournalError(path: journal, "cannot read \(source): " + systemReason(errno))
            }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0 {
                    if errno == EINTR { continue }
                    throw JournalError(path: journal, "cannot copy it to read it: " + systemReason(errno))
                }
                written += step
            }
        }
    }
}

/// Who holds a journal: SQLite locks the database file with POSIX record locks, which Linux
/// lists in /proc/locks with the holding process's id and the file's device and inode. Read
/// there rather than asked with fcntl(F_GETLK), which needs a descriptor of the file: closing
/// any descriptor of a file drops every POSIX lock this process holds on it, so a journal open
/// in this process would lose its lock.
enum JournalLock {
    /// The ids of the processes holding a lock on the file at `path` (this process's among them),
    /// in the order /proc/locks lists them.
    /// - Complexity: O(locks in the system).
    static func holders(of path: String) -> [Int32] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        let wanted = String(major, radix: 16) + ":" + String(minor, radix: 16) + ":" + String(info.st_ino)
        guard let text = readAll("/proc/locks") else { return [] }
        var found: [Int32] = []
        for line in text.split(separator: "\n") {
            // "1: POSIX  ADVISORY  WRITE 4242 08:01:131090 1073741824 1073741825" ("->" marks a waiter).
            let fields = line.split(separator: " ")
            guard fields.count >= 6, !fields.contains("->"), fields[1] == "POSIX" || fields[1] == "OFDLCK" else { continue }
            // The device's numbers may be written with leading zeros ("08:01:…").
            let file = fields[5].split(separator: ":")
            guard file.count == 3, let fileMajor = UInt64(file[0], radix: 16), let fileMinor = UInt64(file[1], radix: 16),
                  String(fileMajor, radix: 16) + ":" + String(fileMinor, radix: 16) + ":" + file[2] == wanted,
                  let pid = Int32(fields[4]), pid > 0, !found.contains(pid) else { continue }
            found.append(pid)
        }
        return found
    }

    /// Another process holding the journal, if one does.
    static func holder(of path: String) -> Int32? {
        holders(of: path).first { $0 != getpid() }
    }

    /// Whether this process holds a lock on the file (a journal open here).
    static func heldHere(_ path: String) -> Bool {
        holders(of: path).contains(getpid())
    }

    private static func readAll(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
