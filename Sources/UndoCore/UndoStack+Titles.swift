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
    public var undoMenuTitle: String {
        // The whole history, the common case, without copying the context.
        currentContext == nil ? undoMenuTitle(in: nil) : undoMenuTitle(in: currentContext)
    }
    /// The Redo menu item's title for the current context ("Redo Bold").
    public var redoMenuTitle: String {
        currentContext == nil ? redoMenuTitle(in: nil) : redoMenuTitle(in: currentContext)
    }

    public func undoMenuTitle(in scope: UndoContext?) -> String {
        // Nothing to undo shows the same plain "Undo" as an unnamed step.
        let index = scope == nil ? (_position > 0 ? _position &- 1 : nil) : newestDone(in: scope)
        let name = index.flatMap { index in storage.withCommand(at: index) { $0.name } }
        return titleMemo.undoTitle(of: name) ?? remember(name).undo
    }

    public func redoMenuTitle(in scope: UndoContext?) -> String {
        let index = scope == nil ? (_position < storage.count ? _position : nil) : oldestRedoable(in: scope)
        let name = index.flatMap { index in storage.withCommand(at: index) { $0.name } }
        return titleMemo.redoTitle(of: name) ?? remember(name).redo
    }

    /// Formats the titles of `name` and remembers them. The formatter is only read on a miss
    /// (copying it, with every string of its locale, costs more than the lookup).
    private func remember(_ name: String?) -> (undo: String, redo: String) {
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
    /// The names' bits, compared first: a name given as a literal (or a copy of one string)
    /// matches by its bits, with no string comparison and no reference counting.
    private var keys: [NameBits] = []
    private var names: [String?] = []
    private var undoTitles: [String] = []
    private var redoTitles: [String] = []
    private var next = 0
    static let capacity = 16

    private struct NameBits: Equatable {
        var low: UInt64, high: UInt64
        /// No string has these bits: they stand for "unnamed".
        static let unnamed = NameBits(low: 0, high: 0)
        @inline(__always)
        init(low: UInt64, high: UInt64) { self.low = low; self.high = high }
        @inline(__always)
        init(_ name: String?) {
            guard let name else { self = .unnamed; return }
            (low, high) = unsafeBitCast(name, to: (UInt64, UInt64).self)
        }
    }

    /// The Undo title of `name`, if remembered.
    /// - Complexity: O(``capacity``).
    func undoTitle(of name: String?) -> String? { index(of: name).map { undoTitles[$0] } }
    /// The Redo title of `name`, if remembered.
    func redoTitle(of name: String?) -> String? { index(of: name).map { redoTitles[$0] } }

    @inline(__always)
    private func index(of name: String?) -> Int? {
        let key = NameBits(name)
        let found = keys.withUnsafeBufferPointer { keys -> Int? in
            for index in 0..<keys.count where keys[index] == key { return index }
            return nil
        }
        return found ?? names.firstIndex(of: name)
    }

    /// Remembers the titles of `name`, forgetting the oldest name when full.
    mutating func remember(_ titles: (undo: String, redo: String), for name: String?) {
        if keys.count < Self.capacity {
            keys.append(NameBits(name)); names.append(name)
            undoTitles.append(titles.undo); redoTitles.append(titles.redo)
        } else {
            keys[next] = NameBits(name); names[next] = name
            undoTitles[next] = titles.undo; redoTitles[next] = titles.redo
            next = (next + 1) % Self.capacity
        }
    }

    mutating func removeAll() {
        keys.removeAll(); names.removeAll(); undoTitles.removeAll(); redoTitles.removeAll()
        next = 0
    }
}
