extension UndoStack {
    /// The name of the step ``undo()`` would take back: `nil` when there is nothing to undo,
    /// `.some(nil)` for an unnamed step. Raw, as the action gave it.
    public var undoName: String?? { undoName(in: currentContext) }
    /// The name of the step ``redo()`` would do again (see ``undoName``).
    public var redoName: String?? { redoName(in: currentContext) }

    public func undoName(in scope: UndoContext?) -> String?? {
        guard let index = newestDone(in: scope) else { return nil }
        return .some(storage.withCommand(at: index) { $0.name })
    }

    public func redoName(in scope: UndoContext?) -> String?? {
        guard let index = oldestRedoable(in: scope) else { return nil }
        return .some(storage.withCommand(at: index) { $0.name })
    }

    /// The Undo menu item's title for the current context: "Undo Typing", plain "Undo" for an
    /// unnamed step, and "Undo" (to show disabled, see ``canUndo``) when there is nothing.
    /// - Complexity: O(1) for the whole history once a name has been formatted.
    public var undoMenuTitle: String { undoMenuTitle(in: currentContext) }
    /// The Redo menu item's title for the current context ("Redo Bold").
    public var redoMenuTitle: String { redoMenuTitle(in: currentContext) }

    public func undoMenuTitle(in scope: UndoContext?) -> String {
        guard let index = newestDone(in: scope) else { return formatter.undoTitle(for: nil) }
        let name = storage.withCommand(at: index) { $0.name }
        return titleMemo.titles(for: name, formatter: formatter).undo
    }

    public func redoMenuTitle(in scope: UndoContext?) -> String {
        guard let index = oldestRedoable(in: scope) else { return formatter.redoTitle(for: nil) }
        let name = storage.withCommand(at: index) { $0.name }
        return titleMemo.titles(for: name, formatter: formatter).redo
    }

    /// What a shake-to-undo alert offers now in the current context: Undo X, Redo Y, Cancel.
    public var alert: UndoAlert { alert(in: currentContext) }

    public func alert(in scope: UndoContext?) -> UndoAlert {
        formatter.alert(undoName: undoName(in: scope), redoName: redoName(in: scope))
    }
}

/// The titles of the last few names formatted, so reading the menu after every change costs a
/// comparison of names, not title-casing them again. Names in one program are few.
struct TitleMemo {
    private var names: [String?] = []
    private var undoTitles: [String] = []
    private var redoTitles: [String] = []
    private var next = 0
    static let capacity = 16

    mutating func titles(for name: String?, formatter: UndoTitleFormatter) -> (undo: String, redo: String) {
        for index in names.indices where names[index] == name {
            return (undoTitles[index], redoTitles[index])
        }
        let undo = formatter.undoTitle(for: name)
        let redo = formatter.redoTitle(for: name)
        if names.count < Self.capacity {
            names.append(name); undoTitles.append(undo); redoTitles.append(redo)
        } else {
            names[next] = name; undoTitles[next] = undo; redoTitles[next] = redo
            next = (next + 1) % Self.capacity
        }
        return (undo, redo)
    }

    mutating func removeAll() {
        names.removeAll(); undoTitles.removeAll(); redoTitles.removeAll(); next = 0
    }
}
