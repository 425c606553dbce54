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
        // Nothing to undo shows the same plain "Undo" as an unnamed step.
        guard let index = newestDone(in: scope) else { return titles(for: nil).undo }
        return titles(for: storage.withCommand(at: index) { $0.name }).undo
    }

    public func redoMenuTitle(in scope: UndoContext?) -> String {
        guard let index = oldestRedoable(in: scope) else { return titles(for: nil).redo }
        return titles(for: storage.withCommand(at: index) { $0.name }).redo
    }

    /// The menu titles of `name`: formatted the first time, then remembered. The formatter is
    /// only read on a miss (copying it, with every string of its locale, cost more than the
    /// lookup).
    func titles(for name: String?) -> (undo: String, redo: String) {
        if let titles = titleMemo.titles(for: name) { return titles }
        let titles = (undo: formatter.undoTitle(for: name), redo: formatter.redoTitle(for: name))
        titleMemo.remember(titles, for: name)
        return titles
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

    /// The titles remembered for `name`, if any.
    func titles(for name: String?) -> (undo: String, redo: String)? {
        for index in names.indices where names[index] == name {
            return (undoTitles[index], redoTitles[index])
        }
        return nil
    }

    /// Remembers the titles of `name`, forgetting the oldest name when full.
    mutating func remember(_ titles: (undo: String, redo: String), for name: String?) {
        let (undo, redo) = titles
        if names.count < Self.capacity {
            names.append(name); undoTitles.append(undo); redoTitles.append(redo)
        } else {
            names[next] = name; undoTitles[next] = undo; redoTitles[next] = redo
            next = (next + 1) % Self.capacity
        }
    }

    mutating func removeAll() {
        names.removeAll(); undoTitles.removeAll(); redoTitles.removeAll(); next = 0
    }
}
