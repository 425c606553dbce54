import UndoCore
import UndoPluginHost
import UndoHostTerminal

/// Every step of the shared history, like a history panel: its number, its text (the step's
/// description, or its name) and document, the current position (">"), redo steps ("undone")
/// and save points ("saved"); with `--values`, each plugin step's action type and arguments.
///
/// A step's number is given when it enters the history and stays its own until it leaves
/// (closed, unloaded, or replaced by a new change after an undo); numbers are not reused, so
/// `undo to N` means the same step in every listing. "Start" (0) is the state before any step.
public struct HistoryPanelView: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        /// The step's number (its serial in the history; 0 for a pending step, shown as `-`).
        public var number: Int
        /// The name as titles show it; empty for an unnamed step.
        public var name: String
        /// The step's longer description as it was given (Qt's text beside the action text);
        /// `nil` when it has none. The listing shows it in place of the name.
        public var description: String?
        /// What the listing shows: the description with its whitespace collapsed, else the name.
        public var text: String
        /// A plugin step's action type and typed arguments; `nil` for a group.
        public var values: PluginStepValues?
        public var document: String
        public var isApplied: Bool
        public var isSavePoint: Bool
        public var isDiscardable: Bool
        public var memberCount: Int
        /// Whether the step is pending (another document's redo step kept above a change): it
        /// has no state number until it is redone; the text shows `-`, `--json` `null`.
        public var isPending: Bool { number == 0 }
    }

    public var rows: [Row]
    /// How many steps are done: the row marked ">" (0 is Start).
    public var position: Int
    /// Whether the text lists each plugin step's action type and arguments (`history --values`).
    public var showsValues: Bool

    /// - Parameters:
    ///   - stack: the history, read under its lock.
    ///   - showsValues: whether the text lists the steps' values (`--json` always carries them).
    /// - Complexity: O(steps + their arguments).
    public init(stack: UndoStack, showsValues: Bool = false) {
        position = stack.position
        self.showsValues = showsValues
        rows = stack.steps.map { step in
            let name = step.name.flatMap(stack.formatter.displayName) ?? ""
            return Row(number: Int(step.serial), name: name, description: step.historyDescription,
                       text: (stack.formatter.historyText(name: nil, description: step.historyDescription) ?? name).escapedForOneLine,
                       values: (stack.command(at: step.index) as? PluginCommand)?.values,
                       document: step.context.name,
                       isApplied: step.isApplied, isSavePoint: step.isSavePoint,
                       isDiscardable: step.isDiscardable, memberCount: step.memberCount)
        }
    }

    public func rendered(style: TextStyle, words: SessionText = .english) -> String {
        let rows = self.rows.map { row in
            var row = row
            if row.text.isEmpty { row.text = words.unnamed }
            return row
        }
        let nameWidth = max(rows.map(\.text.terminalWidth).max() ?? 0, words.start.terminalWidth)
        let documentWidth = rows.map(\.document.terminalWidth).max() ?? 0
        let numberWidth = String(rows.map(\.number).max() ?? 0).count
        let summary = rows.isEmpty ? words.noSteps : words.done(position, of: rows.count)
        var lines = [style.bold(words.history) + " (\(summary))"]
        // The row marked ">" is the position-th (0: Start).
        func marker(_ rowIndex: Int) -> String { rowIndex == position ? "> " : "  " }
        lines.append(marker(0) + String(repeating: " ", count: numberWidth) + "  " + words.start)
        for (index, row) in rows.enumerated() {
            var notes: [String] = []
            if row.memberCount > 0 { notes.append(words.group(of: row.memberCount)) }
            if row.isDiscardable { notes.append(words.discardable) }
            if row.isSavePoint { notes.append(words.saved) }
            if !row.isApplied { notes.append(words.undone) }
            let shown = row.isPending ? "-" : String(row.number)
            let number = String(repeating: " ", count: numberWidth - shown.count) + shown
            var line = marker(index + 1) + number + "  " + row.text.padded(to: nameWidth)
            line += "  " + row.document.padded(to: documentWidth)
            if !notes.isEmpty { line += "  " + notes.joined(separator: ", ") }
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(row.isApplied ? line : style.dimmed(line))
            if showsValues, let values = row.values {
                // Under the step's text: the call that performs it again, then (when the inverse
                // takes its own) the inverse's arguments.
                let indent = String(repeating: " ", count: numberWidth + 4)
                var valueLines = [indent + values.shortID + Self.listed(values.arguments)]
                if values.inverseArguments != values.arguments {
                    valueLines.append(indent + words.inverseArguments + Self.listed(values.inverseArguments))
                }
                for valueLine in valueLines { lines.append(row.isApplied ? valueLine : style.dimmed(valueLine)) }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// " position: 0, text: "hello"" (nothing for no arguments).
    private static func listed(_ arguments: [PluginStepArgument]) -> String {
        arguments.isEmpty ? "" : " " + arguments.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
    }

    var json: JSONValue {
        .object([
            ("position", .integer(position)),
            ("steps", .array(rows.map { row in
                .object([("number", row.isPending ? .null : .integer(row.number)), ("name", .string(row.name.isEmpty ? SessionText.english.unnamed : row.name)),
                         ("description", row.description.map(JSONValue.string) ?? .null),
                         ("document", .string(row.document)), ("applied", .bool(row.isApplied)),
                         ("savePoint", .bool(row.isSavePoint)), ("discardable", .bool(row.isDiscardable)),
                         ("members", .integer(row.memberCount)),
                         ("action", row.values.map { .string($0.actionID) } ?? .null),
                         ("arguments", .array((row.values?.arguments ?? []).map(Self.json))),
                         ("inverseArguments", .array((row.values?.inverseArguments ?? []).map(Self.json)))])
            })),
        ])
    }

    /// `{"name":"position","type":"i64","value":0}`: numbers as JSON numbers (a u64 past
    /// Int64.max as its decimal text), strings as strings, bytes as their hexadecimal digits.
    private static func json(_ argument: PluginStepArgument) -> JSONValue {
        let value: JSONValue = switch argument.value {
        case .i32(let number): .int(Int64(number))
        case .u32(let number): .int(Int64(number))
        case .i64(let number): .int(number)
        case .u64(let number): Int64(exactly: number).map(JSONValue.int) ?? .string(String(number))
        case .f64(let number): .double(number)
        case .string(let text): .string(text)
        case .bytes(let bytes): .string(bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
        }
        return .object([("name", .string(argument.name)), ("type", .string(argument.type.description)), ("value", value)])
    }
}
