extension UndoStack {
    /// The name of the step ``undo()`` would take back: `nil` when there is nothing to undo,
    /// `.some(nil)` for an unnamed step. Raw, as the action gave it.
    public var undoName: String?? { undoName(in: currentContext) }
    /// The name of the step ``redo()`` would do again (see ``undoName``).
    public var redoName: String?? { redoName(in: currentContext) }

    public func undoName(in scope: UndoContext?) -> String?? {
        guard let index = record.newestDone(in: scope) else { return nil }
        return .some(record.steps[index].command.name)
    }

    public func redoName(in scope: UndoContext?) -> String?? {
        guard let index = record.oldestRedoable(in: scope) else { return nil }
        return .some(record.steps[index].command.name)
    }

    /// The Undo menu item's title for the current context: "Undo Typing", plain "Undo" for an
    /// unnamed step, and "Undo" (to show disabled, see ``canUndo``) when there is nothing.
    ///
    /// The step's name is asked for on every read (a name may change while its step stays), and
    /// the titles of the last few names are remembered, so a menu read after every change
    /// formats nothing.
    /// - Complexity: O(1) for the whole history once a name has been formatted.
    public var undoMenuTitle: String { undoMenuTitle(in: currentContext) }
    /// The Redo menu item's title for the current context ("Redo Bold").
    public var redoMenuTitle: String { redoMenuTitle(in: currentContext) }

    public func undoMenuTitle(in scope: UndoContext?) -> String { record.menuTitles(in: scope).undo }

    public func redoMenuTitle(in scope: UndoContext?) -> String { record.menuTitles(in: scope).redo }

    /// What a shake-to-undo alert offers now in the current context: Undo X, Redo Y, Cancel.
    public var alert: UndoAlert { alert(in: currentContext) }

    public func alert(in scope: UndoContext?) -> UndoAlert {
        formatter.alert(undoName: undoName(in: scope), redoName: redoName(in: scope))
    }
}

extension HistoryRecord {
    /// The Undo and Redo titles in `scope`: of the step each would move over, or the plain
    /// disabled ones ("Undo", as for an unnamed step) when there is none.
    mutating func menuTitles(in scope: UndoContext?) -> (undo: String, redo: String) {
        let undoName = newestDone(in: scope).flatMap { steps[$0].command.name }
        let redoName = oldestRedoable(in: scope).flatMap { steps[$0].command.name }
        return (titles.titles(of: undoName, formatter).undo, titles.titles(of: redoName, formatter).redo)
    }
}

/// The titles of the last few names formatted, so reading the menu after every change costs a
/// comparison of names, not title-casing them again. Names in one program are few.
struct TitleCache {
    private var entries: [(name: String?, undo: String, redo: String)] = []
    private var next = 0
    static let capacity = 16

    /// The Undo and Redo titles of `name`: remembered, or formatted now and remembered (the
    /// oldest forgotten when full).
    /// - Complexity: O(``capacity``) comparisons of names.
    mutating func titles(of name: String?, _ formatter: UndoTitleFormatter) -> (undo: String, redo: String) {
        if let entry = entries.first(where: { $0.name == name }) { return (entry.undo, entry.redo) }
        let entry = (name: name, undo: formatter.undoTitle(for: name), redo: formatter.redoTitle(for: name))
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
            next = (next + 1) % Self.capacity
        }
        return (entry.undo, entry.redo)
    }

    mutating func removeAll() {
        entries.removeAll()
        next = 0
    }
}
