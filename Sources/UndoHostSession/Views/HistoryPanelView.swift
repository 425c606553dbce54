import UndoCore

/// Every step of the shared history, like a history panel: its number, name and document,
/// the current position (">"), redo steps ("undone") and save points ("saved").
///
/// A step's number is given when it enters the history and stays its own until it leaves
/// (closed, unloaded, or replaced by a new change after an undo); numbers are not reused, so
/// `undo to N` means the same step in every listing. "Start" (0) is the state before any step.
public struct HistoryPanelView: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        /// The step's number (its serial in the history).
        public var number: Int
        /// The name as titles show it; empty for an unnamed step.
        public var name: String
        public var document: String
        public var isApplied: Bool
        public var isSavePoint: Bool
        public var isDiscardable: Bool
        public var memberCount: Int
    }

    public var rows: [Row]
    /// How many steps are done: the row marked ">" (0 is Start).
    public var position: Int

    public init(stack: UndoStack) {
        position = stack.position
        rows = stack.steps.map { step in
            Row(number: Int(step.serial),
                name: step.name.flatMap(stack.formatter.displayName) ?? "",
                document: step.context.name,
                isApplied: step.isApplied, isSavePoint: step.isSavePoint,
                isDiscardable: step.isDiscardable, memberCount: step.memberCount)
        }
    }

    public func rendered(style: TextStyle, words: SessionText = .english) -> String {
        let rows = self.rows.map { row in
            var row = row
            if row.name.isEmpty { row.name = words.unnamed }
            return row
        }
        let nameWidth = max(rows.map(\.name.terminalWidth).max() ?? 0, words.start.terminalWidth)
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
            let number = String(repeating: " ", count: numberWidth - String(row.number).count) + String(row.number)
            var line = marker(index + 1) + number + "  " + row.name.padded(to: nameWidth)
            line += "  " + row.document.padded(to: documentWidth)
            if !notes.isEmpty { line += "  " + notes.joined(separator: ", ") }
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(row.isApplied ? line : style.dimmed(line))
        }
        return lines.joined(separator: "\n")
    }

    var json: JSONValue {
        .object([
            ("position", .integer(position)),
            ("steps", .array(rows.map { row in
                .object([("number", .integer(row.number)), ("name", .string(row.name.isEmpty ? SessionText.english.unnamed : row.name)),
                         ("document", .string(row.document)), ("applied", .bool(row.isApplied)),
                         ("savePoint", .bool(row.isSavePoint)), ("discardable", .bool(row.isDiscardable)),
                         ("members", .integer(row.memberCount))])
            })),
        ])
    }
}
