import UndoJournal

/// One row of a history journal: a call to the history, with its command when it carries one.
struct StoredChange: Equatable {
    /// 1, 2, 3, … in the order the changes were made.
    var sequence: Int64
    /// When it was made: nanoseconds since 1970.
    var time: UInt64
    /// The ``JournalOperation``, as JSON.
    var operation: String
    /// The command's ``UndoJournaledCommand/journalName``, or empty.
    var commandType: String
    /// The command, as JSON, or empty.
    var command: String

    /// FNV-1a (64 bits) over the fields, each text ended by a zero byte: a byte changed inside a
    /// text, which SQLite's own checks do not see, is caught.
    var checksum: Int64 {
        var checksum = RowChecksum()
        // This format mixes the two integers' bytes in turn, least significant first.
        for shift in stride(from: 0, to: 64, by: 8) {
            checksum.mix([UInt8(truncatingIfNeeded: UInt64(bitPattern: sequence) >> UInt64(shift)),
                          UInt8(truncatingIfNeeded: time >> UInt64(shift))])
        }
        for text in [operation, commandType, command] {
            checksum.mix(text: text)
        }
        return checksum.value
    }
}

extension UndoStackJournal {
    /// Checks an existing journal and reads its changes, oldest first. Reads only.
    /// - Throws: `JournalError`: not a history journal, another version, damaged.
    static func read(_ connection: SQLiteConnection, path: String) throws(JournalError) -> [StoredChange] {
        func damaged(_ message: String) -> JournalError { JournalError(path: path, "the file is damaged (\(message))") }
        var application: Int64 = 0
        var version: Int64 = 0
        var check: [String] = []
        try run(path) { () throws(SQLiteFailure) in
            application = try connection.integer("PRAGMA application_id;")
            version = try connection.integer("PRAGMA user_version;")
        }
        guard application == applicationID else {
            throw JournalError(path: path, application == JournalApplicationID.undoHost
                ? "it is an undo-host journal (of the plugin host or of session lines), not a history journal"
                : "it is not a history journal (an SQLite database of another application id)")
        }
        guard (1...formatVersion).contains(version) else {
            throw JournalError(path: path, version > formatVersion
                ? "it is of format version \(version), newer than this program's \(formatVersion): open it with a newer version"
                : "it is of format version \(version), which this program does not read")
        }
        try run(path) { () throws(SQLiteFailure) in check = try connection.texts("PRAGMA quick_check;") }
        guard check == ["ok"] else { throw damaged("integrity check: " + check.prefix(3).joined(separator: "; ")) }
        var changes: [StoredChange] = []
        var firstDamaged: Int64?
        try run(path) { () throws(SQLiteFailure) in
            try connection.query("SELECT sequence, time, operation, command_type, command, checksum FROM changes ORDER BY sequence;") { row in
                let expected = Int64(changes.count + 1)
                guard row.count == 6, case .integer(let sequence) = row[0], case .integer(let time) = row[1],
                      case .text(let operation) = row[2], case .text(let commandType) = row[3],
                      case .text(let command) = row[4], case .integer(let checksum) = row[5] else {
                    firstDamaged = firstDamaged ?? expected
                    return
                }
                let change = StoredChange(sequence: sequence, time: UInt64(bitPattern: time), operation: operation,
                                          commandType: commandType, command: command)
                if change.checksum != checksum || sequence != expected { firstDamaged = firstDamaged ?? expected }
                changes.append(change)
            }
        }
        if let firstDamaged { throw damaged("change \(firstDamaged) fails its checksum") }
        return changes
    }

    /// Writes a change; when it returns, the change is as durable as ``durability`` says.
    /// A failure refuses every later call (``writeFailure``).
    func write(_ operation: JournalOperation, time: UInt64, commandType: String = "", command: String = "") throws(JournalError) {
        let text: String
        if let known = encodedOperations[operation] {
            text = known
        } else {
            do {
                text = String(decoding: try encoder.encode(operation), as: UTF8.self)
            } catch {
                throw JournalError(path: path, "cannot encode the change: \(error)")
            }
            // The few operations made over and over ("perform", "undo 1") are encoded once.
            if encodedOperations.count < 64 { encodedOperations[operation] = text }
        }
        let change = StoredChange(sequence: nextSequence, time: time, operation: text, commandType: commandType, command: command)
        do throws(SQLiteFailure) {
            try connection.query("""
                INSERT INTO changes(sequence, time, operation, command_type, command, checksum) VALUES (?, ?, ?, ?, ?, ?);
                """, [.integer(change.sequence), .integer(Int64(bitPattern: time)), .text(text), .text(commandType),
                      .text(command), .integer(change.checksum)])
        } catch {
            let failure = JournalError(path: path, "change \(change.sequence) was made but could not be written (\(error.message)); "
                                       + "it is lost if the program stops now: reopen the journal")
            writeFailure = failure
            throw failure
        }
        nextSequence += 1
    }
}
