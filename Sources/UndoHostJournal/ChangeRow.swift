import UndoPluginHost
import UndoJournal

/// A ``UndoPluginHost/HostChange`` as a row of the `changes` table (formats 3 and 4; format 2 lacks
/// the step columns): its kind and typed columns, with `present` saying which optional fields
/// are set, and a checksum over them.
///
/// A perform keeps the step it made (``UndoPluginHost/PerformedStep``) in `step_name`,
/// `description`, `coalescing_key` and `inverse_arguments`; a group begin its description in
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
            case .perform(let id, let version, let actionID, let text, let contextName, let step):
                plugin = id; pluginVersion = version; action = actionID; arguments = text; setContext(contextName)
                if let step {
                    stepName = step.name; present |= Self.hasStep
                    setDescription(step.description)
                    if let key = step.coalescingKey { coalescingKey = key; present |= Self.hasCoalescingKey }
                    if let inverse = step.inverseArguments { inverseArguments = inverse; present |= Self.hasInverse }
                }
            case .undo(let count, let contextName), .redo(let count, let contextName):
                setFirst(count); setContext(contextName)
            case .goTo(let state): setFirst(Int(state))
            case .beginGroup(let groupName, let contextName, let text):
                setName(groupName); setContext(contextName); setDescription(text)
            case .endGroup, .cancelGroup, .breakCoalescing, .removeAll: break
            case .markSaved(let contextName), .forgetSaved(let contextName), .setContext(let contextName):
                setContext(contextName)
            case .revert(let contextName, let stepName): setContext(contextName); setName(stepName)
            case .setLimits(let count, let memory): setFirst(count); setSecond(memory)
            case .closeContext(let contextName): setContext(contextName)
            case .load(let path, let id, let version): setName(path); plugin = id; pluginVersion = version
            case .unload(let id): plugin = id
            }
            checksum = computedChecksum
        }

        /// The change the row holds, or `nil` when its fields do not make one.
        var change: HostChange? {
            let contextName = present & Self.hasContext != 0 ? context : nil
            let text = present & Self.hasName != 0 ? name : nil
            let number = present & Self.hasFirst != 0 ? Int(exactly: first) : nil
            let other = present & Self.hasSecond != 0 ? Int(exactly: second) : nil
            let longer = present & Self.hasDescription != 0 ? description : nil
            switch kind {
            case "perform":
                guard let contextName else { return nil }
                let step = present & Self.hasStep == 0 ? nil : PerformedStep(
                    name: stepName, description: longer,
                    coalescingKey: present & Self.hasCoalescingKey != 0 ? coalescingKey : nil,
                    inverseArguments: present & Self.hasInverse != 0 ? inverseArguments : nil)
                return .perform(plugin: plugin, pluginVersion: pluginVersion, action: action, arguments: arguments,
                                context: contextName, step: step)
            case "undo": return number.map { .undo(count: $0, context: contextName) }
            case "redo": return number.map { .redo(count: $0, context: contextName) }
            case "goto": return number.flatMap { UInt32(exactly: $0) }.map { .goTo(state: $0) }
            case "group-begin": return .beginGroup(name: text, context: contextName, description: longer)
            case "group-end": return .endGroup
            case "group-cancel": return .cancelGroup
            case "break": return .breakCoalescing
            case "save": return .markSaved(context: contextName)
            case "forget-save": return .forgetSaved(context: contextName)
            case "revert": return text.map { .revert(context: contextName, name: $0) }
            case "context": return .setContext(contextName)
            case "limits": return .setLimits(count: number, memory: other)
            case "close": return contextName.map { .closeContext($0) }
            case "remove-all": return .removeAll
            case "load": return text.map { .load(path: $0, plugin: plugin, pluginVersion: pluginVersion) }
            case "unload": return .unload(plugin: plugin)
            default: return nil
            }
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
            var checksum = RowChecksum()
            for number in [sequence, Int64(bitPattern: time), first, second, present] {
                checksum.mix(integer: number)
            }
            var texts = [kind, context, plugin, pluginVersion, action, arguments, name]
            if present & Self.stepFields != 0 { texts += [stepName, description, coalescingKey, inverseArguments] }
            for text in texts {
                checksum.mix(text: text)
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

    var row: Row
    /// The checksum its fields make (compared with the stored one).
    var checksum: Int64

    /// Reads a row of the SELECT in HostJournal; `nil` when a column has the wrong type.
    init?(_ columns: [SQLiteConnection.Value]) {
        guard columns.count == 17 else { return nil }
        func integer(_ index: Int) -> Int64? { if case .integer(let value) = columns[index] { value } else { nil } }
        func text(_ index: Int) -> String? { if case .text(let value) = columns[index] { value } else { nil } }
        guard let sequence = integer(0), let time = integer(1), let kind = text(2), let context = text(3),
              let plugin = text(4), let version = text(5), let action = text(6), let arguments = text(7),
              let name = text(8), let first = integer(9), let second = integer(10), let present = integer(11),
              let stored = integer(12), let stepName = text(13), let description = text(14),
              let coalescingKey = text(15), let inverseArguments = text(16) else { return nil }
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
        case .undo: "undo"
        case .redo: "redo"
        case .goTo: "goto"
        case .beginGroup: "group-begin"
        case .endGroup: "group-end"
        case .cancelGroup: "group-cancel"
        case .breakCoalescing: "break"
        case .markSaved: "save"
        case .forgetSaved: "forget-save"
        case .revert: "revert"
        case .setContext: "context"
        case .setLimits: "limits"
        case .closeContext: "close"
        case .removeAll: "remove-all"
        case .load: "load"
        case .unload: "unload"
        }
    }
}
