import UndoCore
import UndoPluginHost
import UndoJournal

/// A ``UndoPluginHost/HostChange`` as a row of the `changes` table (formats 3 and 4; format 2 lacks
/// the step columns): its kind and typed columns, with `present` saying which optional fields
/// are set, and a checksum over them.
///
/// A perform keeps the step it made (``UndoPluginHost/PluginStepRecord``) in `step_name`,
/// `description`, `coalescing_key` and `inverse_arguments`, and what became of the step (its
/// ``UndoPluginHost/PluginStepRecord/Merge``) in `first`; a group begin its description in
/// `description`. The checksum covers those columns only when one of their bits is set, so a
/// row of format 2 keeps its checksum in a file of a later format.
struct ChangeRow {
    struct Row {
        var sequence: Int64
        var time: UInt64
        var kind = ""
        var context = ""
        var plugin = ""
        var pluginVersion = ""
        var action = ""
        var arguments = ""
        var name = ""
        var stepName = ""
        var description = ""
        var coalescingKey = ""
        var inverseArguments = ""
        var first: Int64 = 0
        var second: Int64 = 0
        var present: Int64 = 0
        var checksum: Int64 = 0

        static let hasContext: Int64 = 1, hasName: Int64 = 2, hasFirst: Int64 = 4, hasSecond: Int64 = 8
        /// Format 3: a perform's step (`step_name`), a description, a coalescing key, inverse arguments.
        static let hasStep: Int64 = 16, hasDescription: Int64 = 32, hasCoalescingKey: Int64 = 64, hasInverse: Int64 = 128
        static let stepFields = hasStep | hasDescription | hasCoalescingKey | hasInverse

        init(sequence: Int64, time: UInt64) {
            self.sequence = sequence
            self.time = time
        }

        init(sequence: Int64, time: UInt64, change: HostChange) {
            self.init(sequence: sequence, time: time)
            kind = change.kind
            func setContext(_ name: String?) { if let name { context = name; present |= Self.hasContext } }
            func setName(_ text: String?) { if let text { name = text; present |= Self.hasName } }
            func setFirst(_ number: Int?) { if let number { first = Int64(number); present |= Self.hasFirst } }
            func setSecond(_ number: Int?) { if let number { second = Int64(number); present |= Self.hasSecond } }
            func setDescription(_ text: String?) { if let text { description = text; present |= Self.hasDescription } }
            switch change {
            case .perform(let step):
                plugin = step.plugin; pluginVersion = step.pluginVersion; action = step.action; arguments = step.arguments
                setContext(step.context)
                if step.outcomeKept {
                    stepName = step.name ?? ""; present |= Self.hasStep
                    setDescription(step.description)
                    if case .key(let key) = step.coalescing { coalescingKey = key; present |= Self.hasCoalescingKey }
                    if let inverse = step.inverseArguments { inverseArguments = inverse; present |= Self.hasInverse }
                    // What became of the step (format 4 rows written before this keep none):
                    // `first`, unused by a perform otherwise, so earlier readers ignore it.
                    setFirst(step.merge?.rawValue)
                }
            case .history(let operation):
                switch operation {
                case .undo(let count, let scope), .redo(let count, let scope):
                    setFirst(count)
                    switch scope {
                    case .whole: break
                    case .context(let name): setContext(name)
                    case .current: setSecond(1)
                    }
                case .move(let position): setFirst(position)
                case .goTo(let state): setFirst(Int(state))
                case .earlier(let distance), .later(let distance): setName(distance.description)
                case .beginGroup(let groupName, let contextName, let text):
                    setName(groupName); setContext(contextName); setDescription(text)
                case .travelFoundNoState, .endGroup, .cancelGroup, .breakCoalescing, .pauseRecording, .resumeRecording: break
                case .markSaved(let contextName), .forgetSavePoint(let contextName), .currentContext(let contextName),
                     .removeAll(let contextName):
                    setContext(contextName)
                case .revertToSaved(let contextName, let stepName): setContext(contextName); setName(stepName)
                case .goToInDocument(let state, let contextName, let stepName):
                    setFirst(Int(state)); setContext(contextName); setName(stepName)
                case .earlierInDocument(let count, let contextName, let stepName),
                     .laterInDocument(let count, let contextName, let stepName):
                    setFirst(count); setContext(contextName); setName(stepName)
                case .limits(let count, let memory): setFirst(count); setSecond(memory)
                case .coalescingWindow(let seconds, let attoseconds):
                    setFirst(seconds.flatMap { Int(exactly: $0) }); setSecond(attoseconds.flatMap { Int(exactly: $0) })
                }
            case .closeContext(let contextName): setContext(contextName)
            case .load(let path, let id, let version): setName(path); plugin = id; pluginVersion = version
            case .unload(let id): plugin = id
            }
            checksum = computedChecksum
        }

        /// Why a row's fields do not make a change a caller could have made: the value and the rule.
        struct Invalid: Error {
            var message: String
        }

        /// The change the row holds, its values checked as a caller's would be (an undo of 1 to
        /// 2^32 - 1 steps, as the C API takes; a limit not negative; names within
        /// ``UndoCore/UndoStack/maximumNameBytes``).
        /// - Throws: ``Invalid`` naming the value, when its fields do not make a change.
        func checkedChange() throws(Invalid) -> HostChange {
            // Two checks, not a loop over an array of them: every row of an open comes here.
            if context.utf8.count > UndoStack.maximumNameBytes {
                throw Invalid(message: "its context is \(context.utf8.count) bytes, over the limit of \(UndoStack.maximumNameBytes)")
            }
            if name.utf8.count > UndoStack.maximumNameBytes {
                throw Invalid(message: "its name is \(name.utf8.count) bytes, over the limit of \(UndoStack.maximumNameBytes)")
            }
            guard let change else { throw Invalid(message: "its fields do not make a change of kind \"\(kind.prefix(64))\"") }
            switch change {
            case .history(.undo(let count, _)), .history(.redo(let count, _)):
                guard count >= 1 && count <= Int(UInt32.max) else {
                    throw Invalid(message: "its count \(count) is outside 1...\(UInt32.max)")
                }
            case .history(.move(let position)):
                guard position >= 0 && position <= Int(UInt32.max) else {
                    throw Invalid(message: "its position \(position) is outside 0...\(UInt32.max)")
                }
            case .history(.limits(let count, let memory)):
                for (label, value) in [("count", count), ("memory", memory)] {
                    if let value, value < 0 { throw Invalid(message: "its \(label) limit \(value) is negative") }
                }
            case .history(.coalescingWindow(let seconds, let attoseconds)):
                if let seconds, seconds < 0 { throw Invalid(message: "its window of \(seconds) s is negative") }
                if let attoseconds, attoseconds < 0 || attoseconds >= 1_000_000_000_000_000_000 {
                    throw Invalid(message: "its window's attoseconds \(attoseconds) are outside 0..<10^18")
                }
            case .perform(let step):
                guard !step.plugin.isEmpty, !step.action.isEmpty else { throw Invalid(message: "it names no plugin or no action") }
            default:
                break
            }
            return change
        }

        /// The change the row holds, or `nil` when its fields do not make one.
        var change: HostChange? {
            let contextName = present & Self.hasContext != 0 ? context : nil
            let text = present & Self.hasName != 0 ? name : nil
            let number = present & Self.hasFirst != 0 ? Int(exactly: first) : nil
            let other = present & Self.hasSecond != 0 ? Int(exactly: second) : nil
            let longer = present & Self.hasDescription != 0 ? description : nil
            func history(_ operation: UndoOperation?) -> HostChange? { operation.map(HostChange.history) }
            let scope: UndoOperation.Scope = contextName.map { .context($0) } ?? (other == 1 ? .current : .whole)
            switch kind {
            case "perform":
                guard let contextName else { return nil }
                guard present & Self.hasStep != 0 else {
                    return .perform(.call(plugin: plugin, pluginVersion: pluginVersion, action: action, context: contextName,
                                          arguments: arguments))
                }
                var step = PluginStepRecord(
                    plugin: plugin, pluginVersion: pluginVersion, action: action, context: contextName, arguments: arguments,
                    name: stepName, inverseArguments: present & Self.hasInverse != 0 ? inverseArguments : nil,
                    description: longer, coalescing: present & Self.hasCoalescingKey != 0 ? .key(coalescingKey) : .never)
                if let number {
                    guard let merge = PluginStepRecord.Merge(rawValue: number) else { return nil }
                    step.merge = merge
                }
                return .perform(step)
            case "undo": return history(number.map { .undo(count: $0, scope: scope) })
            case "redo": return history(number.map { .redo(count: $0, scope: scope) })
            case "move": return history(number.map { .move(position: $0) })
            case "goto": return history(number.flatMap { UInt32(exactly: $0) }.map { .goTo(state: $0) })
            case "earlier": return history(text.flatMap { try? UndoTravel(parsing: $0) }.map { .earlier($0) })
            case "later": return history(text.flatMap { try? UndoTravel(parsing: $0) }.map { .later($0) })
            case "nothing": return .history(.travelFoundNoState)
            case "group-begin": return .history(.beginGroup(name: text, context: contextName, description: longer))
            case "group-end": return .history(.endGroup)
            case "group-cancel": return .history(.cancelGroup)
            case "break": return .history(.breakCoalescing)
            case "pause": return .history(.pauseRecording)
            case "resume": return .history(.resumeRecording)
            case "save": return .history(.markSaved(context: contextName))
            case "forget-save": return .history(.forgetSavePoint(context: contextName))
            case "revert": return history(text.map { .revertToSaved(context: contextName, name: $0) })
            case "doc-goto", "doc-earlier", "doc-later":
                guard let number, let contextName, let text else { return nil }
                if kind == "doc-goto" {
                    return UInt32(exactly: number).map { .history(.goToInDocument(state: $0, context: contextName, name: text)) }
                }
                return kind == "doc-earlier" ? .history(.earlierInDocument(count: number, context: contextName, name: text))
                    : .history(.laterInDocument(count: number, context: contextName, name: text))
            case "context": return .history(.currentContext(contextName))
            case "limits": return .history(.limits(count: number, memory: other))
            case "window": return .history(.coalescingWindow(seconds: number.map(Int64.init), attoseconds: other.map(Int64.init)))
            case "remove-all": return .history(.removeAll(context: contextName))
            case "close": return contextName.map { .closeContext($0) }
            case "load": return text.map { .load(path: $0, plugin: plugin, pluginVersion: pluginVersion) }
            case "unload": return .unload(plugin: plugin)
            default: return nil
            }
        }

        /// The bytes of ``values``, 8 a number and a text's UTF-8, counted without building the
        /// array: what the journal counts towards the next automatic checkpoint, and an open
        /// batches its replay by.
        var byteCount: Int {
            var texts = kind.utf8.count + context.utf8.count + plugin.utf8.count + pluginVersion.utf8.count
            texts += action.utf8.count + arguments.utf8.count + name.utf8.count + stepName.utf8.count
            texts += description.utf8.count + coalescingKey.utf8.count + inverseArguments.utf8.count
            return 6 * 8 + texts
        }

        var values: [SQLiteConnection.Value] {
            [.integer(sequence), .integer(Int64(bitPattern: time)), .text(kind), .text(context), .text(plugin),
             .text(pluginVersion), .text(action), .text(arguments), .text(name), .integer(first), .integer(second),
             .integer(present), .integer(checksum), .text(stepName), .text(description), .text(coalescingKey),
             .text(inverseArguments)]
        }

        /// FNV-1a over every field, each text ended by a 0 byte (the step columns only when one
        /// of their bits is set: format 2's rows have none).
        var computedChecksum: Int64 {
            // Field by field, in the format's order (no arrays of the fields: every row written
            // and read is checked, and two arrays a row cost more than the hashing).
            var checksum = RowChecksum()
            checksum.mix(integer: sequence)
            checksum.mix(integer: Int64(bitPattern: time))
            checksum.mix(integer: first)
            checksum.mix(integer: second)
            checksum.mix(integer: present)
            checksum.mix(text: kind)
            checksum.mix(text: context)
            checksum.mix(text: plugin)
            checksum.mix(text: pluginVersion)
            checksum.mix(text: action)
            checksum.mix(text: arguments)
            checksum.mix(text: name)
            if present & Self.stepFields != 0 {
                checksum.mix(text: stepName)
                checksum.mix(text: description)
                checksum.mix(text: coalescingKey)
                checksum.mix(text: inverseArguments)
            }
            return checksum.value
        }
    }

    static let insert = """
        INSERT INTO changes(sequence, time, kind, context, plugin, plugin_version, action, arguments, name, first, second, present, checksum,
                            step_name, description, coalescing_key, inverse_arguments)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
        """

    /// The columns format 3 added to format 2's table (empty in format 2's rows).
    static let stepColumns = """
        ALTER TABLE changes ADD COLUMN step_name TEXT NOT NULL DEFAULT '';
        ALTER TABLE changes ADD COLUMN description TEXT NOT NULL DEFAULT '';
        ALTER TABLE changes ADD COLUMN coalescing_key TEXT NOT NULL DEFAULT '';
        ALTER TABLE changes ADD COLUMN inverse_arguments TEXT NOT NULL DEFAULT '';
        """

    /// The SELECT a journal is read with; format 2 has no step columns (read as empty).
    static func select(format: Int64) -> String {
        "SELECT sequence, time, kind, context, plugin, plugin_version, action, arguments, name, first, second, present, checksum, "
            + (format >= 3 ? "step_name, description, coalescing_key, inverse_arguments" : "'', '', '', ''")
            + " FROM changes ORDER BY sequence;"
    }

    /// The SELECT of the changes from `?1` to `?2` (sequences, both included), the batches an
    /// open replays (read again from the file, so the open never holds every change at once).
    static func select(format: Int64, from: Int64, through: Int64) -> (sql: String, values: [SQLiteConnection.Value]) {
        let all = select(format: format)
        return (String(all.dropLast(" ORDER BY sequence;".count)) + " WHERE sequence BETWEEN ? AND ? ORDER BY sequence;",
                [.integer(from), .integer(through)])
    }

    var row: Row
    /// The checksum its fields make (compared with the stored one).
    var checksum: Int64

    /// Reads a row of the SELECT in HostJournal in place; `nil` when a column has the wrong type.
    /// A text equal to the same field of `known` (the row read before: a journal repeats its
    /// plugin, version, action, context and step name from row to row) is that one, its storage
    /// shared: no copy, no allocation, and the outlines an open keeps share them too.
    /// - Complexity: O(bytes of the row).
    init?(_ columns: SQLiteConnection.RowReader, after known: borrowing Row) {
        guard columns.count == 17 else { return nil }
        guard let sequence = columns.integer(0), let time = columns.integer(1),
              let kind = columns.text(2, sameAs: known.kind), let context = columns.text(3, sameAs: known.context),
              let plugin = columns.text(4, sameAs: known.plugin), let version = columns.text(5, sameAs: known.pluginVersion),
              let action = columns.text(6, sameAs: known.action), let arguments = columns.text(7, sameAs: known.arguments),
              let name = columns.text(8, sameAs: known.name), let first = columns.integer(9), let second = columns.integer(10),
              let present = columns.integer(11), let stored = columns.integer(12),
              let stepName = columns.text(13, sameAs: known.stepName), let description = columns.text(14, sameAs: known.description),
              let coalescingKey = columns.text(15, sameAs: known.coalescingKey),
              let inverseArguments = columns.text(16, sameAs: known.inverseArguments) else { return nil }
        var row = Row(sequence: sequence, time: UInt64(bitPattern: time))
        row.kind = kind; row.context = context; row.plugin = plugin; row.pluginVersion = version
        row.action = action; row.arguments = arguments; row.name = name
        row.first = first; row.second = second; row.present = present; row.checksum = stored
        row.stepName = stepName; row.description = description; row.coalescingKey = coalescingKey
        row.inverseArguments = inverseArguments
        self.row = row
        checksum = row.computedChecksum
    }
}

extension HostChange {
    /// The change's kind, as the journal's `kind` column names it.
    public var kind: String {
        switch self {
        case .perform: "perform"
        case .closeContext: "close"
        case .load: "load"
        case .unload: "unload"
        case .history(let operation): operation.kind
        }
    }
}

/// The rows of a journal as its own code writes them, with their checksums: for the journal
/// fuzz target and tests within the package that build journals row by row.
package enum JournalRows {
    /// The columns of a `changes` row holding `change` (for ``ChangeRow/insert``'s statement).
    package static func change(sequence: Int64, time: UInt64, _ change: HostChange) -> [SQLiteConnection.Value] {
        ChangeRow.Row(sequence: sequence, time: time, change: change).values
    }

    /// The statement that inserts a `changes` row.
    package static let insertChange = ChangeRow.insert

    /// The statements that make the checkpoint's tables (of a journal whose `changes` table exists).
    package static let checkpointTables = Checkpoint.tables

    /// A checkpoint table's row: `values` with their checksum appended.
    package static func sealed(_ values: [SQLiteConnection.Value]) -> [SQLiteConnection.Value] {
        Checkpoint.sealed(values)
    }
}
