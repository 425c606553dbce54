import CSQLite
import UndoCore
import UndoJournal
import UndoPluginHost

/// A journal's checkpoint (format 4; format 5 keeps a state over ``pieceSize`` in pieces): the whole state after one change, so the changes up to it
/// can be dropped: the plugins the journal loaded, every document's state as the plugin's own
/// bytes (``UndoPluginHost/PluginHost/saveDocumentState(plugin:context:)``), and the history as
/// a ``UndoCore/UndoHistorySnapshot`` of ``UndoPluginHost/PluginStepRecord``s.
///
/// Kept in five tables, one row per plugin, document (and piece of a document's state after
/// its first), step (a group's members follow it, each
/// naming it as `parent`) and save mark, each with a checksum; the `checkpoint` row holds the
/// history's record and how many rows each table must have, so a row lost is damage too.
struct Checkpoint {
    /// The last change it holds: the journal's changes start after it.
    var sequence: Int64
    /// When it was taken (the wall clock, nanoseconds).
    var time: UInt64
    /// The plugins loaded through the journal, in load order.
    var loads: [Load]
    /// Every document's state; a document with plugin "" is a context the history named (the
    /// current one, say) without a plugin's state.
    var documents: [Document]
    var history: UndoHistorySnapshot<PluginStepRecord>

    struct Document {
        var document: PluginDocument
        /// The plugin's version when it saved the state ("" for a context only named).
        var version: String
        var state: [UInt8] { didSet { stateCount = state.count } }
        /// The bytes of the state, kept when the state itself is dropped (``dropState()``).
        private(set) var stateCount: Int

        /// The ordinals in `checkpoint_pieces` of the state's further pieces, when it has some
        /// and was read from a journal: ``state`` then holds only its first piece, and the rest
        /// stay in the file until ``Checkpoint/source(of:in:)`` hands them to the plugin.
        private(set) var pieces: ClosedRange<Int64>?

        init(document: PluginDocument, version: String, state: [UInt8]) {
            self.document = document
            self.version = version
            self.state = state
            stateCount = state.count
        }

        /// A document read from a journal: its first piece, and the whole state's `count`.
        init(document: PluginDocument, version: String, first: [UInt8], count: Int) {
            self.document = document
            self.version = version
            state = first
            stateCount = count
        }

        mutating func setPieces(_ ordinals: ClosedRange<Int64>) { pieces = ordinals }

        /// Frees the bytes once the plugin holds them (a restored checkpoint), keeping their count.
        mutating func dropState() {
            let count = stateCount
            state = []
            stateCount = count
        }
    }

    struct Load: Equatable {
        var path: String
        var plugin: String
        var version: String
    }

    static let tables = """
        CREATE TABLE checkpoint(sequence INTEGER NOT NULL, time INTEGER NOT NULL, position INTEGER NOT NULL,
                                next_serial INTEGER NOT NULL, count_limit INTEGER NOT NULL, memory_limit INTEGER NOT NULL,
                                current_context TEXT NOT NULL, has_current_context INTEGER NOT NULL,
                                coalescing_open INTEGER NOT NULL, last_coalescing_time INTEGER NOT NULL,
                                plugins INTEGER NOT NULL, documents INTEGER NOT NULL, steps INTEGER NOT NULL,
                                marks INTEGER NOT NULL, checksum INTEGER NOT NULL);
        CREATE TABLE checkpoint_plugins(ordinal INTEGER PRIMARY KEY, path TEXT NOT NULL, plugin TEXT NOT NULL,
                                        plugin_version TEXT NOT NULL, checksum INTEGER NOT NULL);
        CREATE TABLE checkpoint_documents(ordinal INTEGER PRIMARY KEY, plugin TEXT NOT NULL, plugin_version TEXT NOT NULL,
                                          context TEXT NOT NULL, state BLOB NOT NULL, checksum INTEGER NOT NULL);
        CREATE TABLE checkpoint_steps(ordinal INTEGER PRIMARY KEY, branch INTEGER NOT NULL, fork INTEGER NOT NULL,
                                      parent INTEGER NOT NULL, serial INTEGER NOT NULL, time INTEGER NOT NULL,
                                      cost INTEGER NOT NULL, kind TEXT NOT NULL, present INTEGER NOT NULL,
                                      name TEXT NOT NULL, description TEXT NOT NULL, context TEXT NOT NULL,
                                      plugin TEXT NOT NULL, plugin_version TEXT NOT NULL, action TEXT NOT NULL,
                                      arguments TEXT NOT NULL, inverse_arguments TEXT NOT NULL,
                                      coalescing TEXT NOT NULL, checksum INTEGER NOT NULL);
        CREATE TABLE checkpoint_marks(ordinal INTEGER PRIMARY KEY, kind TEXT NOT NULL, context TEXT NOT NULL,
                                      serial INTEGER NOT NULL, checksum INTEGER NOT NULL);

        """ + pieceTable

    /// Format 5: the pieces of a document's state after its first (`checkpoint_documents.state`).
    static let pieceTable = """
        CREATE TABLE checkpoint_pieces(ordinal INTEGER PRIMARY KEY, document INTEGER NOT NULL, piece INTEGER NOT NULL,
                                       pieces INTEGER NOT NULL, bytes BLOB NOT NULL, checksum INTEGER NOT NULL);

        """

    /// The most bytes of a document's state one row holds (format 5): a larger state is kept
    /// as its first piece in `checkpoint_documents.state` and the rest in `checkpoint_pieces`,
    /// so no row, and no copy SQLite makes of a bound value, is larger than this.
    static let pieceSize = 4 << 20

    /// The pieces after the first of a state of `count` bytes.
    static func furtherPieces(_ count: Int) -> Int { count <= pieceSize ? 0 : (count - 1) / pieceSize }

    static let clear = """
        DELETE FROM checkpoint; DELETE FROM checkpoint_plugins; DELETE FROM checkpoint_documents;
        DELETE FROM checkpoint_steps; DELETE FROM checkpoint_marks; DELETE FROM checkpoint_pieces;
        """

    // MARK: Writing

    /// Writes its plugins, steps, save marks and record in place of the one before (inside the
    /// caller's transaction), its documents' rows being written already, as each state was
    /// saved (``StateWriter``, after ``clear``).
    /// - Complexity: O(steps + save marks + plugins).
    func writeHistory(to connection: SQLiteConnection) throws(SQLiteFailure) {
        var statements: [SQLiteConnection.Statement] = []
        defer { for statement in statements { connection.finalize(statement) } }
        func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteConnection.Statement {
            let statement = try connection.prepare(sql)
            statements.append(statement)
            return statement
        }
        let plugin = try prepare("INSERT INTO checkpoint_plugins VALUES (?, ?, ?, ?, ?);")
        for (index, load) in loads.enumerated() {
            try connection.run(plugin, Self.sealed([.integer(Int64(index + 1)), .text(load.path), .text(load.plugin), .text(load.version)]))
        }
        let step = try prepare("INSERT INTO checkpoint_steps VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);")
        var ordinal: Int64 = 0
        func add(_ content: UndoHistorySnapshot<PluginStepRecord>.Content, branch: Int64, fork: UInt32, parent: Int64,
                 top: UndoHistorySnapshot<PluginStepRecord>.Step?) throws(SQLiteFailure) {
            ordinal += 1
            let own = ordinal
            var row = StepRow(ordinal: own, branch: branch, fork: Int64(fork), parent: parent)
            if let top { row.serial = Int64(top.serial); row.time = Int64(bitPattern: top.time); row.cost = Int64(top.cost) }
            switch content {
            case .command(let record):
                row.kind = "command"
                row.context = record.context
                row.plugin = record.plugin; row.pluginVersion = record.pluginVersion; row.action = record.action
                row.arguments = record.arguments
                if let inverse = record.inverseArguments { row.inverseArguments = inverse; row.present |= StepRow.hasInverse }
                if let text = record.description { row.description = text; row.present |= StepRow.hasDescription }
                switch record.coalescing {
                case .actionType: row.coalescing = ""
                case .never: row.present |= StepRow.neverCoalesces
                case .key(let key): row.coalescing = key; row.present |= StepRow.hasKey
                }
                try connection.run(step, row.values)
            case .group(let name, let description, let context, let members):
                row.kind = "group"
                row.context = context.name
                if let name { row.name = name; row.present |= StepRow.hasName }
                if let description { row.description = description; row.present |= StepRow.hasDescription }
                try connection.run(step, row.values)
                for member in members { try add(member, branch: branch, fork: fork, parent: own, top: nil) }
            case .reverted(let name, let context, let group):
                row.kind = "reverted"
                row.context = context.name
                if let name { row.name = name; row.present |= StepRow.hasName }
                try connection.run(step, row.values)
                try add(group, branch: branch, fork: fork, parent: own, top: nil)
            }
        }
        for item in history.steps { try add(item.content, branch: 0, fork: 0, parent: 0, top: item) }
        for (index, branch) in history.branches.enumerated() {
            for item in branch.steps { try add(item.content, branch: Int64(index + 1), fork: branch.fork, parent: 0, top: item) }
        }
        let mark = try prepare("INSERT INTO checkpoint_marks VALUES (?, ?, ?, ?, ?);")
        var marks: Int64 = 0
        func addMark(_ kind: String, _ context: String, _ serial: UInt32) throws(SQLiteFailure) {
            marks += 1
            try connection.run(mark, Self.sealed([.integer(marks), .text(kind), .text(context), .integer(Int64(serial))]))
        }
        for state in history.saveLog { try addMark("log", "", state) }
        for item in history.saveMarks {
            try addMark("baseline", item.context.name, item.baseline)
            for state in item.saved { try addMark("saved", item.context.name, state) }
        }
        // A copy and a document move's step, each a row naming the state and one naming the
        // state it stands for (a journal with them is refused by a library that does not know them).
        for link in history.copies {
            try addMark("copy", "", link.state)
            try addMark("copy-of", "", link.target)
        }
        for link in history.documentMoves {
            try addMark("moved", "", link.state)
            try addMark("moved-to", "", link.target)
        }
        // The state each pending step (serial 0, the end of the current branch) copies, in
        // their order (a journal with them is refused by a library that does not know them).
        for origin in history.pendingOrigins { try addMark("pending-of", "", origin) }
        let record: [SQLiteConnection.Value] = [
            .integer(sequence), .integer(Int64(bitPattern: time)), .integer(Int64(history.position)),
            .integer(Int64(history.nextSerial)), .integer(Int64(history.countLimit ?? 0)), .integer(Int64(history.memoryLimit ?? 0)),
            .text(history.currentContext?.name ?? ""), .integer(history.currentContext == nil ? 0 : 1),
            .integer(history.coalescingOpen ? 1 : 0), .integer(Int64(bitPattern: history.lastCoalescingTime)),
            .integer(Int64(loads.count)), .integer(Int64(documents.count)), .integer(ordinal), .integer(marks),
        ]
        try connection.query("INSERT INTO checkpoint VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);", Self.sealed(record))
    }

    /// Writes one document's state into `checkpoint_documents` and `checkpoint_pieces` as it
    /// comes, a block of ``Checkpoint/pieceSize`` at a time (what the plugin's save hands on,
    /// ``UndoPluginHost/HistoryCheckpointAccess/save(_:inChunksOf:to:)``), inside the caller's
    /// transaction: the state is never gathered, only its first piece is held (the
    /// document's row, written once the count of further pieces is known).
    ///
    /// Each further piece's row is written at once, numbered and sealed with its own number as
    /// the count of pieces; ``finish(version:)`` seals it again with the count, read back a row
    /// at a time (of the same length, so SQLite writes again only the pages that change).
    ///
    /// Invariants (checked in debug builds): every block but the last is ``Checkpoint/pieceSize``
    /// long; `count` is the bytes taken; the further rows are `firstOrdinal...lastOrdinal`.
    final class StateWriter {
        private let connection: SQLiteConnection
        private let document: PluginDocument
        private let ordinal: Int64
        private let insert: SQLiteConnection.Statement
        private var first: [UInt8] = []
        private var firstOrdinal: Int64
        private(set) var lastOrdinal: Int64
        private(set) var count = 0
        private var ended = false
        /// Rows read back and sealed again with the count (what the tests count).
        private(set) var rowsSealedAgain = 0
        /// Why the last block could not be written: the save fails with it.
        private(set) var failure: SQLiteFailure?

        /// A writer of document number `ordinal`, whose further pieces take the rows after
        /// `pieceOrdinal` (the last one written for the documents before it).
        init(connection: SQLiteConnection, document: PluginDocument, ordinal: Int64, after pieceOrdinal: Int64)
            throws(SQLiteFailure)
        {
            self.connection = connection
            self.document = document
            self.ordinal = ordinal
            firstOrdinal = pieceOrdinal + 1
            lastOrdinal = pieceOrdinal
            insert = try connection.prepare("INSERT INTO checkpoint_pieces VALUES (?, ?, ?, ?, ?, ?);")
        }

        deinit { connection.finalize(insert) }

        /// The bytes held: the first piece (the block being written is the caller's).
        var bytesHeld: Int { first.count }

        /// Takes the next block: the first is kept for the document's row, each other written
        /// as a row of `checkpoint_pieces` at once.
        /// - Returns: why it could not be written, or `nil`.
        /// - Complexity: O(block).
        func take(_ block: [UInt8]) -> String? {
            assert(!ended && !block.isEmpty && block.count <= Checkpoint.pieceSize, "a block of at most a piece, before the end")
            assert(count % Checkpoint.pieceSize == 0, "every block but the last is a whole piece")
            guard failure == nil else { return failure!.message }
            count += block.count
            if count == block.count {
                first = block
                return nil
            }
            let number = lastOrdinal - firstOrdinal + 2
            do throws(SQLiteFailure) {
                try connection.run(insert, Checkpoint.sealed([.integer(lastOrdinal + 1), .integer(ordinal), .integer(number),
                                                              .integer(number), .blob(block)]))
            } catch {
                failure = error
                return error.message
            }
            lastOrdinal += 1
            return nil
        }

        /// Writes the document's row (its first piece, sealed with the count of further
        /// pieces) and seals each further row again with that count.
        /// - Returns: the document as ``Checkpoint/read(from:format:)`` gives it: its first
        ///   piece, its length and its further rows.
        /// - Complexity: O(bytes of the further pieces), read back one row at a time.
        func finish(version: String) throws(SQLiteFailure) -> Document {
            if let failure { throw failure }
            ended = true
            let further = Int(lastOrdinal - firstOrdinal + 1)
            assert(further == Checkpoint.furtherPieces(count), "a row per further piece")
            let values: [SQLiteConnection.Value] = [.integer(ordinal), .text(document.plugin), .text(version),
                                                    .text(document.context.name), .blob(first)]
            try connection.query("INSERT INTO checkpoint_documents VALUES (?, ?, ?, ?, ?, ?);",
                                 values + [.integer(Checkpoint.documentChecksum(values, furtherPieces: further))])
            if further > 0 {
                for row in firstOrdinal...lastOrdinal {
                    var bytes: [UInt8]?
                    try connection.query("SELECT bytes FROM checkpoint_pieces WHERE ordinal = ?;", [.integer(row)]) { found in
                        if case .blob(let stored) = found.first { bytes = stored }
                    }
                    guard let bytes else {
                        throw SQLiteFailure(code: SQLITE_CORRUPT, message: "piece \(row) of checkpoint_pieces was not written")
                    }
                    let checksum = Checkpoint.checksum([.integer(row), .integer(ordinal), .integer(row - firstOrdinal + 1),
                                                        .integer(Int64(further)), .blob(bytes)])
                    try connection.query("UPDATE checkpoint_pieces SET pieces = ?, checksum = ? WHERE ordinal = ?;",
                                         [.integer(Int64(further)), .integer(checksum), .integer(row)])
                    rowsSealedAgain += 1
                }
            }
            var made = Document(document: document, version: version, first: first, count: count)
            if further > 0 { made.setPieces(firstOrdinal...lastOrdinal) }
            return made
        }
    }

    // MARK: Reading

    /// The checkpoint of a journal of format 4 or 5, `nil` when it has none.
    /// - Throws: ``SQLiteFailure`` with `SQLITE_CORRUPT` naming what is damaged: a row failing its
    ///   checksum, rows missing or left over, a step that does not fit its group.
    /// - Complexity: O(rows).
    static func read(from connection: SQLiteConnection, format: Int64) throws(SQLiteFailure) -> Checkpoint? {
        var records: [[SQLiteConnection.Value]] = []
        try connection.query("SELECT * FROM checkpoint;") { records.append($0) }
        guard let record = records.first else { return nil }
        func damaged(_ what: String) -> SQLiteFailure { SQLiteFailure(code: SQLITE_CORRUPT, message: "the checkpoint is damaged: " + what) }
        guard records.count == 1, unsealed(record) else { throw damaged("its record fails its checksum") }
        func integer(_ row: [SQLiteConnection.Value], _ index: Int) throws(SQLiteFailure) -> Int64 {
            guard index < row.count, case .integer(let value) = row[index] else { throw damaged("a number is missing") }
            return value
        }
        func text(_ row: [SQLiteConnection.Value], _ index: Int) throws(SQLiteFailure) -> String {
            guard index < row.count, case .text(let value) = row[index] else { throw damaged("a text is missing") }
            return value
        }
        func serial(_ value: Int64) throws(SQLiteFailure) -> UInt32 {
            guard let serial = UInt32(exactly: value) else { throw damaged("a state id \(value) is out of range") }
            return serial
        }
        // A context reaches plugins as a C string of at most UndoStack.maximumNameBytes.
        func contextName(_ row: [SQLiteConnection.Value], _ index: Int, _ what: String) throws(SQLiteFailure) -> String {
            let name = try text(row, index)
            guard name.utf8.count <= UndoStack.maximumNameBytes else {
                throw damaged("\(what) has a context of \(name.utf8.count) bytes, over the limit of \(UndoStack.maximumNameBytes)")
            }
            return name
        }
        func flag(_ row: [SQLiteConnection.Value], _ index: Int, _ what: String) throws(SQLiteFailure) -> Bool {
            let value = try integer(row, index)
            guard value == 0 || value == 1 else { throw damaged("its \(what) \(value) is neither 0 nor 1") }
            return value == 1
        }
        let sequence = try integer(record, 0)
        guard sequence >= 0 && sequence <= HostJournal.maximumSequence else {
            throw damaged("its sequence \(sequence) is outside 0...\(HostJournal.maximumSequence)")
        }
        var history = UndoHistorySnapshot<PluginStepRecord>()
        history.position = Int(try integer(record, 2))
        history.nextSerial = try serial(try integer(record, 3))
        let countLimit = try integer(record, 4), memoryLimit = try integer(record, 5)
        guard countLimit >= 0 else { throw damaged("its count_limit \(countLimit) is negative") }
        guard memoryLimit >= 0 else { throw damaged("its memory_limit \(memoryLimit) is negative") }
        history.countLimit = countLimit > 0 ? Int(countLimit) : nil
        history.memoryLimit = memoryLimit > 0 ? Int(memoryLimit) : nil
        history.currentContext = try flag(record, 7, "has_current_context")
            ? UndoContext(try contextName(record, 6, "its record")) : nil
        history.coalescingOpen = try flag(record, 8, "coalescing_open")
        history.lastCoalescingTime = UInt64(bitPattern: try integer(record, 9))
        let expected = (plugins: try integer(record, 10), documents: try integer(record, 11),
                        steps: try integer(record, 12), marks: try integer(record, 13))

        func rows(_ table: String) throws(SQLiteFailure) -> [[SQLiteConnection.Value]] {
            var found: [[SQLiteConnection.Value]] = []
            var bad = false
            try connection.query("SELECT * FROM \(table) ORDER BY ordinal;") { row in
                if !unsealed(row) || (try? integer(row, 0)) != Int64(found.count + 1) { bad = true }
                found.append(row)
            }
            if bad { throw damaged("a row of \(table) fails its checksum") }
            return found
        }
        var loads: [Load] = []
        for row in try rows("checkpoint_plugins") {
            loads.append(Load(path: try text(row, 1), plugin: try text(row, 2), version: try text(row, 3)))
        }
        // Format 5: the pieces after each document's first, counted per document first so each
        // state is made once at its full size (no array grown by doubling).
        // `claimed`: the count of pieces the rows themselves say their document has (the
        // largest), so missing rows are named as missing rather than as a bad checksum.
        var pieceCounts: [Int64: (pieces: Int64, bytes: Int64, claimed: Int64)] = [:]
        if format >= 5 {
            try connection.query("SELECT document, count(*), sum(length(bytes)), max(pieces) FROM checkpoint_pieces GROUP BY document;") { row in
                if row.count > 3, case .integer(let document) = row[0], case .integer(let count) = row[1],
                   case .integer(let bytes) = row[2], case .integer(let claimed) = row[3] {
                    pieceCounts[document] = (count, bytes, claimed)
                }
            }
        }
        var documents: [Document] = []
        var documentRows: [[SQLiteConnection.Value]] = []
        try connection.query("SELECT * FROM checkpoint_documents ORDER BY ordinal;") { documentRows.append($0) }
        for (index, row) in documentRows.enumerated() {
            let ordinal = Int64(index + 1)
            let further = pieceCounts[ordinal] ?? (0, 0, 0)
            if further.pieces > 0 && further.claimed != further.pieces {
                throw damaged(further.claimed > further.pieces
                    ? "document \(ordinal) has \(further.pieces) of its \(further.claimed) further pieces in checkpoint_pieces: pieces are missing"
                    : "document \(ordinal) has \(further.pieces) further pieces in checkpoint_pieces, where its rows say \(further.claimed): pieces are left over")
            }
            guard row.count == 6, (try? integer(row, 0)) == ordinal, case .integer(let stored) = row[5] else {
                throw damaged("a row of checkpoint_documents fails its checksum")
            }
            let values = Array(row.prefix(5))
            guard Self.documentChecksum(values, furtherPieces: Int(further.pieces)) == stored else {
                // A first piece of full size sealed with a count of further pieces that are
                // all gone: name what is missing (the count is found among the few a state can have).
                if further.pieces == 0, case .blob(let first) = row[4], first.count == pieceSize,
                   let lost = Self.lostPieces(values, stored: stored) {
                    throw damaged("document \(ordinal)'s \(lost) further piece\(lost == 1 ? " is" : "s are") missing from checkpoint_pieces")
                }
                throw damaged("a row of checkpoint_documents fails its checksum")
            }
            guard case .blob(let state) = row[4] else { throw damaged("a document's state is missing") }
            if further.pieces > 0 {
                guard state.count == pieceSize, further.bytes > 0,
                      further.bytes <= Int64(further.pieces) * Int64(pieceSize),
                      Int64(state.count) + further.bytes <= Int64(PluginHost.maximumDocumentSize) else {
                    throw damaged("document \(ordinal)'s pieces do not fit its first")
                }
            }
            let context = try contextName(row, 3, "document \(ordinal)")
            // Only the first piece is kept: the rest are checked below and read again, one row
            // at a time, as the plugin loads the state (``source(of:in:)``).
            documents.append(Document(document: PluginDocument(plugin: try text(row, 1), context: UndoContext(context)),
                                      version: try text(row, 2), first: state, count: state.count + Int(further.bytes)))
        }
        documentRows = []
        if format >= 5 {
            var expected = (document: Int64(1), piece: Int64(1)), ordinal: Int64 = 0, bad: String?, first: Int64 = 0
            try connection.query("SELECT * FROM checkpoint_pieces ORDER BY ordinal;") { row in
                guard bad == nil else { return }
                ordinal += 1
                guard unsealed(row), row.count == 6, case .integer(let number) = row[0], number == ordinal,
                      case .integer(let document) = row[1], case .integer(let piece) = row[2],
                      case .integer(let pieces) = row[3], case .blob(let bytes) = row[4] else {
                    bad = "a row of checkpoint_pieces fails its checksum"
                    return
                }
                // Pieces come in order: each document's 1...pieces, documents in order, every
                // piece but a document's last full.
                if piece == 1 && document > expected.document { expected = (document, 1) }
                guard document >= 1, document <= Int64(documents.count) else {
                    bad = "piece \(ordinal) of checkpoint_pieces names document \(document), which the checkpoint does not hold"
                    return
                }
                guard document == expected.document, piece == expected.piece, document >= 1,
                      document <= Int64(documents.count), pieces == pieceCounts[document]?.pieces,
                      !bytes.isEmpty, bytes.count <= pieceSize, piece == pieces || bytes.count == pieceSize else {
                    bad = "piece \(ordinal) of checkpoint_pieces is out of order"
                    return
                }
                if piece == 1 { first = ordinal }
                if piece == pieces { documents[Int(document) - 1].setPieces(first...ordinal) }
                expected.piece += 1
            }
            if let bad { throw damaged(bad) }
        }
        let stepRows = try rows("checkpoint_steps")
        var stepIndex = 0
        // A step and, for a group, the rows of its members after it.
        // Groups nest at most UndoStack.maximumGroupDepth deep, each perhaps inside a revert:
        // a deeper chain (which would exhaust the stack here and in every walk of the history)
        // is damage.
        let maximumDepth = 2 * UndoStack.maximumGroupDepth + 1
        func content(parent: Int64, depth: Int = 0) throws(SQLiteFailure) -> UndoHistorySnapshot<PluginStepRecord>.Content {
            let row = stepRows[stepIndex]
            let ordinal = Int64(stepIndex + 1)
            guard depth <= maximumDepth else {
                throw damaged("step \(ordinal) is nested \(depth) deep, over the limit of \(maximumDepth)")
            }
            stepIndex += 1
            let present = try integer(row, 8)
            let name = present & StepRow.hasName != 0 ? try text(row, 9) : nil
            let description = present & StepRow.hasDescription != 0 ? try text(row, 10) : nil
            let context = try contextName(row, 11, "step \(ordinal)")
            switch try text(row, 7) {
            case "command":
                let coalescing: PluginStepRecord.Coalescing = present & StepRow.hasKey != 0 ? .key(try text(row, 17))
                    : present & StepRow.neverCoalesces != 0 ? .never : .actionType
                return .command(PluginStepRecord(
                    plugin: try text(row, 12), pluginVersion: try text(row, 13), action: try text(row, 14), context: context,
                    arguments: try text(row, 15), inverseArguments: present & StepRow.hasInverse != 0 ? try text(row, 16) : nil,
                    description: description, coalescing: coalescing))
            case "group":
                var members: [UndoHistorySnapshot<PluginStepRecord>.Content] = []
                while stepIndex < stepRows.count, try integer(stepRows[stepIndex], 3) == ordinal {
                    members.append(try content(parent: ordinal, depth: depth + 1))
                }
                guard !members.isEmpty else { throw damaged("group \(ordinal) has no members") }
                return .group(name: name, description: description, context: UndoContext(context), members: members)
            case "reverted":
                guard stepIndex < stepRows.count, try integer(stepRows[stepIndex], 3) == ordinal,
                      try text(stepRows[stepIndex], 7) == "group" else { throw damaged("revert \(ordinal) holds no group") }
                return .reverted(name: name, context: UndoContext(context), group: try content(parent: ordinal, depth: depth + 1))
            case let kind:
                throw damaged("step \(ordinal) is of an unknown kind \"\(kind)\"")
            }
        }
        while stepIndex < stepRows.count {
            let row = stepRows[stepIndex]
            guard try integer(row, 3) == 0 else { throw damaged("step \(stepIndex + 1) is in no group") }
            let branch = try integer(row, 1)
            let cost = try integer(row, 6)
            guard let checkedCost = Int32(exactly: cost), checkedCost >= 0 else {
                throw damaged("step \(stepIndex + 1) has a cost of \(cost) bytes, outside 0...\(Int32.max)")
            }
            let step = UndoHistorySnapshot<PluginStepRecord>.Step(
                serial: try serial(try integer(row, 4)), time: UInt64(bitPattern: try integer(row, 5)),
                cost: checkedCost, content: try content(parent: 0))
            if branch == 0 {
                guard history.branches.isEmpty else { throw damaged("a step of the current branch follows the other branches") }
                history.steps.append(step)
            } else if branch == Int64(history.branches.count) {
                history.branches[history.branches.count - 1].steps.append(step)
            } else if branch == Int64(history.branches.count + 1) {
                history.branches.append(.init(fork: try serial(try integer(row, 2)), steps: [step]))
            } else {
                throw damaged("branch \(branch) is out of order")
            }
        }
        var linked: (kind: String, state: UInt32)?
        for row in try rows("checkpoint_marks") {
            let context = try contextName(row, 2, "a save mark")
            let state = try serial(try integer(row, 3))
            let kind = try text(row, 1)
            if let pending = linked {
                let target = pending.kind == "copy" ? "copy-of" : "moved-to"
                guard kind == target else { throw damaged("a \(pending.kind) mark is not followed by its \(target) mark") }
                let link = UndoHistorySnapshot<PluginStepRecord>.StateLink(state: pending.state, target: state)
                if pending.kind == "copy" { history.copies.append(link) } else { history.documentMoves.append(link) }
                linked = nil
                continue
            }
            switch kind {
            case "copy", "moved": linked = (kind, state)
            case "copy-of", "moved-to": throw damaged("a \(kind) mark has no state before it")
            case "log": history.saveLog.append(state)
            case "pending-of": history.pendingOrigins.append(state)
            case "baseline": history.saveMarks.append(.init(context: UndoContext(context), saved: [], baseline: state))
            case "saved":
                guard let last = history.saveMarks.indices.last, history.saveMarks[last].context.name == context else {
                    throw damaged("a save mark of \"\(context)\" has no baseline before it")
                }
                history.saveMarks[last].saved.append(state)
            case let kind: throw damaged("a save mark is of an unknown kind \"\(kind)\"")
            }
        }
        guard Int64(loads.count) == expected.plugins, Int64(documents.count) == expected.documents,
              Int64(stepRows.count) == expected.steps,
              linked == nil,
              Int64(history.saveLog.count + history.saveMarks.reduce(0) { $0 + 1 + $1.saved.count }
                    + 2 * (history.copies.count + history.documentMoves.count) + history.pendingOrigins.count) == expected.marks
        else { throw damaged("rows are missing or left over") }
        // The history's own rules (serials, position, branches, save marks, limits), before
        // anything is restored.
        do throws(UndoSnapshotError) {
            try history.validate()
        } catch {
            throw damaged("its history: \(error.message)")
        }
        return Checkpoint(sequence: sequence, time: UInt64(bitPattern: try integer(record, 1)),
                          loads: loads, documents: documents, history: history)
    }

    // MARK: Checksums

    /// The checksum of a `checkpoint_documents` row (its values without the checksum) whose
    /// state has `furtherPieces` pieces in `checkpoint_pieces`: with none, the format-4 one.
    /// The state of `document` (read by ``read(from:format:)``) as the plugin loads it: its
    /// first piece, then each further row of `checkpoint_pieces`, read and checked again one at
    /// a time, so the whole state is never held in one block (only one row of 4 MiB at a time).
    /// A row changed since the open's check fails the load (`the checkpoint is damaged`).
    /// - Complexity: O(bytes), one indexed lookup per row.
    static func source(of document: Document, in connection: SQLiteConnection) -> DocumentSource {
        var first: [UInt8]? = document.state
        var next = document.pieces?.lowerBound ?? 1
        let last = document.pieces?.upperBound ?? 0
        return DocumentSource(count: document.stateCount) { () throws -> [UInt8]? in
            if let block = first {
                first = nil
                return block
            }
            guard next <= last else { return nil }
            var found: [UInt8]?
            try connection.query("SELECT * FROM checkpoint_pieces WHERE ordinal = ?;", [.integer(next)]) { row in
                if unsealed(row), row.count == 6, case .blob(let bytes) = row[4] { found = bytes }
            }
            guard let found else {
                throw SQLiteFailure(code: SQLITE_CORRUPT, message: "the checkpoint is damaged: piece \(next) of checkpoint_pieces changed")
            }
            next += 1
            return found
        }
    }

    static func documentChecksum(_ values: [SQLiteConnection.Value], furtherPieces: Int) -> Int64 {
        furtherPieces == 0 ? checksum(values) : checksum(values + [.integer(Int64(furtherPieces))])
    }

    /// The count of further pieces the `checkpoint_documents` row `values` was sealed with when
    /// none is left in `checkpoint_pieces`, `nil` when no count gives `stored`.
    /// - Complexity: O(bytes of the row + the most pieces a state can have): the row is mixed once.
    static func lostPieces(_ values: [SQLiteConnection.Value], stored: Int64) -> Int? {
        var row = RowChecksum()
        mix(values, into: &row)
        return (1...furtherPieces(PluginHost.maximumDocumentSize)).first { count in
            var sealed = row
            sealed.mix(integer: Int64(count))
            return sealed.value == stored
        }
    }

    /// `values` with their checksum appended.
    static func sealed(_ values: [SQLiteConnection.Value]) -> [SQLiteConnection.Value] {
        values + [.integer(checksum(values))]
    }

    /// Whether the row's last column is the checksum of the others.
    static func unsealed(_ row: [SQLiteConnection.Value]) -> Bool {
        guard let last = row.last, case .integer(let stored) = last else { return false }
        return checksum(row.dropLast()) == stored
    }

    /// FNV-1a over the values: integers as 8 bytes, texts ended by a 0 byte, bytes after their length.
    static func checksum(_ values: some Collection<SQLiteConnection.Value>) -> Int64 {
        var checksum = RowChecksum()
        mix(values, into: &checksum)
        return checksum.value
    }

    private static func mix(_ values: some Collection<SQLiteConnection.Value>, into checksum: inout RowChecksum) {
        for value in values {
            switch value {
            case .integer(let number): checksum.mix(integer: number)
            case .text(let text): checksum.mix(text: text)
            case .blob(let bytes): checksum.mix(integer: Int64(bytes.count)); checksum.mix(bytes)
            }
        }
    }
}

/// One row of `checkpoint_steps`.
private struct StepRow {
    static let hasName: Int64 = 1, hasDescription: Int64 = 2, hasInverse: Int64 = 4, hasKey: Int64 = 8, neverCoalesces: Int64 = 16

    var ordinal: Int64
    var branch: Int64
    var fork: Int64
    var parent: Int64
    var serial: Int64 = 0
    var time: Int64 = 0
    var cost: Int64 = 0
    var kind = ""
    var present: Int64 = 0
    var name = ""
    var description = ""
    var context = ""
    var plugin = ""
    var pluginVersion = ""
    var action = ""
    var arguments = ""
    var inverseArguments = ""
    var coalescing = ""

    init(ordinal: Int64, branch: Int64, fork: Int64, parent: Int64) {
        self.ordinal = ordinal
        self.branch = branch
        self.fork = fork
        self.parent = parent
    }

    /// The row's columns, sealed with their checksum.
    var values: [SQLiteConnection.Value] {
        Checkpoint.sealed([.integer(ordinal), .integer(branch), .integer(fork), .integer(parent), .integer(serial),
                           .integer(time), .integer(cost), .text(kind), .integer(present), .text(name), .text(description),
                           .text(context), .text(plugin), .text(pluginVersion), .text(action), .text(arguments),
                           .text(inverseArguments), .text(coalescing)])
    }
}

/// What a journal's checkpoint holds (``HostJournal/checkpoint()``, ``HostJournal/restoredCheckpoint``).
public struct CheckpointInfo: Sendable, Equatable {
    /// The last change it holds; the journal keeps only the changes after it.
    public var sequence: Int64
    /// When it was taken (the wall clock, nanoseconds since 1970).
    public var time: UInt64
    /// The steps of every branch it holds.
    public var steps: Int
    /// The documents whose state it holds (a context only named counts too), in the order
    /// they were first used.
    public var documents: [PluginDocument]
    /// The bytes of the documents' states.
    public var documentBytes: Int
    /// The rows the documents' states take (format 5): one per document, and one per further
    /// piece of 4 MiB of a state larger than that.
    public var documentRows: Int
    /// The context later calls without one act on, as the checkpoint left it.
    public var currentContext: String?
}

extension Checkpoint {
    var info: CheckpointInfo {
        CheckpointInfo(sequence: sequence, time: time, steps: history.stepCount, documents: documents.map(\.document),
                       documentBytes: documents.reduce(0) { $0 + $1.stateCount },
                       documentRows: documents.reduce(0) { $0 + 1 + Self.furtherPieces($1.stateCount) },
                       currentContext: history.currentContext?.name)
    }

    /// Frees the history's steps (every branch's) once their rows are written: a checkpoint
    /// being taken does not hold them while the plugins load its states back. ``info`` reports
    /// no steps afterwards.
    /// - Complexity: O(steps), to free them.
    mutating func dropHistory() {
        history.steps = []
        history.branches = []
    }

    /// The bytes of text its steps hold (arguments, inverse arguments and descriptions, of
    /// every branch and group member): what ``dropHistory()`` frees (for tests that count).
    /// - Complexity: O(steps).
    var recordBytes: Int {
        var total = 0
        func visit(_ content: UndoHistorySnapshot<PluginStepRecord>.Content) {
            switch content {
            case .command(let record):
                total += record.arguments.utf8.count + (record.inverseArguments?.utf8.count ?? 0)
                    + (record.description?.utf8.count ?? 0)
            case .group(_, _, _, let members): members.forEach(visit)
            case .reverted(_, _, let group): visit(group)
            }
        }
        for step in history.steps { visit(step.content) }
        for branch in history.branches { for step in branch.steps { visit(step.content) } }
        return total
    }

    /// Every plugin its steps and documents use, with the version written, in first use order.
    var pluginsUsed: [(id: String, version: String)] {
        var found: [(id: String, version: String)] = []
        var seen: Set<String> = []
        func visit(_ content: UndoHistorySnapshot<PluginStepRecord>.Content) {
            switch content {
            case .command(let record):
                if seen.insert(record.plugin).inserted { found.append((record.plugin, record.pluginVersion)) }
            case .group(_, _, _, let members): members.forEach(visit)
            case .reverted(_, _, let group): visit(group)
            }
        }
        for step in history.steps { visit(step.content) }
        for branch in history.branches { for step in branch.steps { visit(step.content) } }
        for item in documents where !item.document.plugin.isEmpty && seen.insert(item.document.plugin).inserted {
            found.append((item.document.plugin, item.version))
        }
        return found
    }
}
