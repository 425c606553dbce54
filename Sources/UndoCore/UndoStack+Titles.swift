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
        let name = newestDone(in: scope).flatMap { index in storage.withCommand(at: index) { $0.name } }
        let index = memoIndex(for: name)  // first: it may add to the memo
        return titleMemo.undoTitle(at: index)
    }

    public func redoMenuTitle(in scope: UndoContext?) -> String {
        let name = oldestRedoable(in: scope).flatMap { index in storage.withCommand(at: index) { $0.name } }
        let index = memoIndex(for: name)
        return titleMemo.redoTitle(at: index)
    }

    /// Where the memo keeps the titles of `name`, formatting them the first time. The formatter
    /// is only read on a miss (copying it, with every string of its locale, costs more than the
    /// lookup).
    func memoIndex(for name: String?) -> Int {
        if let index = titleMemo.index(of: name) { return index }
        return titleMemo.remember(undo: formatter.undoTitle(for: name), redo: formatter.redoTitle(for: name),
                                  for: name)
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
    /// The names' bits, compared first: a name given as a literal (or a copy of one string)
    /// matches by its bits, with no string comparison and no reference counting.
    private var bits: [NameBits] = []
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

    /// Where the titles of `name` are, if remembered.
    /// - Complexity: O(``capacity``).
    func index(of name: String?) -> Int? {
        let key = NameBits(name)
        for index in bits.indices where bits[index] == key { return index }
        return names.firstIndex(of: name)
    }

    func undoTitle(at index: Int) -> String { undoTitles[index] }
    func redoTitle(at index: Int) -> String { redoTitles[index] }

    /// Remembers the titles of `name`, forgetting the oldest name when full.
    /// - Returns: where they are.
    mutating func remember(undo: String, redo: String, for name: String?) -> Int {
        if names.count < Self.capacity {
            names.append(name); bits.append(NameBits(name)); undoTitles.append(undo); redoTitles.append(redo)
            return names.count - 1
        }
        let index = next
        names[index] = name; bits[index] = NameBits(name); undoTitles[index] = undo; redoTitles[index] = redo
        next = (next + 1) % Self.capacity
        return index
    }

    mutating func removeAll() {
        names.removeAll(); bits.removeAll(); undoTitles.removeAll(); redoTitles.removeAll(); next = 0
    }
}
