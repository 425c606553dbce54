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
                name: step.name.flatMap(stack.formatter.displayName) ?? "(unnamed)",
                document: step.context.name,
                isApplied: step.isApplied, isSavePoint: step.isSavePoint,
                isDiscardable: step.isDiscardable, memberCount: step.memberCount)
        }
    }

    public func rendered(style: TextStyle) -> String {
        let nameWidth = max(rows.map(\.name.terminalWidth).max() ?? 0, 5)
        let documentWidth = rows.map(\.document.terminalWidth).max() ?? 0
        let numberWidth = String(rows.map(\.number).max() ?? 0).count
        let summary = rows.isEmpty ? "no steps" : "\(position) of \(rows.count) done"
        var lines = [style.bold("History") + " (\(summary))"]
        // The row marked ">" is the position-th (0: Start).
        func marker(_ rowIndex: Int) -> String { rowIndex == position ? "> " : "  " }
        lines.append(marker(0) + String(repeating: " ", count: numberWidth) + "  Start")
        for (index, row) in rows.enumerated() {
            var notes: [String] = []
            if row.memberCount > 0 { notes.append("group of \(row.memberCount) action\(row.memberCount == 1 ? "" : "s")") }
            if row.isDiscardable { notes.append("discardable") }
            if row.isSavePoint { notes.append("saved") }
            if !row.isApplied { notes.append("undone") }
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
                .object([("number", .integer(row.number)), ("name", .string(row.name)),
                         ("document", .string(row.document)), ("applied", .bool(row.isApplied)),
                         ("savePoint", .bool(row.isSavePoint)), ("discardable", .bool(row.isDiscardable)),
                         ("members", .integer(row.memberCount))])
            })),
        ])
    }
}
