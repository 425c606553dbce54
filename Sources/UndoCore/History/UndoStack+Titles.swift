extension UndoStack {
    /// The name of the step ``undo()`` would take back: `nil` when there is nothing to undo,
    /// `.some(nil)` for an unnamed step. Raw, as the action gave it.
    public var undoName: String?? { undoName(in: currentContext) }
    /// The name of the step ``redo()`` would do again (see ``undoName``).
    public var redoName: String?? { redoName(in: currentContext) }

    public func undoName(in scope: UndoContext?) -> String?? {
        access { record in record.newestDone(in: scope).map { record.steps[$0].command.name } }
    }

    public func redoName(in scope: UndoContext?) -> String?? {
        access { record in record.oldestRedoable(in: scope).map { record.steps[$0].command.name } }
    }

    /// The Undo menu item's title for the current context: "Undo Typing", plain "Undo" for an
    /// unnamed step, and "Undo" (to show disabled, see ``canUndo``) when there is nothing.
    ///
    /// The step's name is asked for on every read (a name may change while its step stays), and
    /// the titles of the last few names are remembered, so a menu read after every change
    /// formats nothing.
    /// - Complexity: O(1) for the whole history once a name has been formatted.
    // One access to the record for the context and the title (a menu reads both titles after
    // every change).
    public var undoMenuTitle: String { access { $0.menuTitleInCurrentContext(undo: true) } }
    /// The Redo menu item's title for the current context ("Redo Bold").
    public var redoMenuTitle: String { access { $0.menuTitleInCurrentContext(undo: false) } }

    public func undoMenuTitle(in scope: UndoContext?) -> String { access { $0.menuTitle(in: scope, undo: true) } }

    public func redoMenuTitle(in scope: UndoContext?) -> String { access { $0.menuTitle(in: scope, undo: false) } }

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
        (menuTitle(in: scope, undo: true), menuTitle(in: scope, undo: false))
    }

    /// The Undo (or Redo) title in `scope`.
    mutating func menuTitle(in scope: UndoContext?, undo: Bool) -> String {
        menuTitle(at: undo ? newestDone(in: scope) : oldestRedoable(in: scope), undo: undo)
    }

    /// The Undo (or Redo) title in the current context. The context is read where it is kept:
    /// handed to a mutating call, it would be copied (a retain and a release of its name).
    mutating func menuTitleInCurrentContext(undo: Bool) -> String {
        menuTitle(at: undo ? newestDone(in: currentContext) : oldestRedoable(in: currentContext), undo: undo)
    }

    /// The Undo (or Redo) title of the step at `index`, or the plain one for none.
    @inline(__always)
    private mutating func menuTitle(at index: Int?, undo: Bool) -> String {
        var name: String? = nil
        if let index { name = self.name(at: index) }
        // The formatter is handed over only when the name is not remembered.
        if let title = titles.remembered(name, undo: undo) { return title }
        return titles.title(of: name, undo: undo, formatter)
    }
}

/// The titles of the last few names formatted, so reading the menu after every change costs a
/// comparison of names, not title-casing them again. Names in one program are few.
///
/// A name is looked for by its length in UTF-8 first (an integer comparison), so only a name of
/// the same length is compared as a string, and a hit copies out the one title asked for.
struct TitleCache {
    private struct Entry {
        /// The name's length in UTF-8, -1 for no name.
        var length: Int
        var name: String?
        var undo: String
        var redo: String
    }

    private var entries: [Entry] = []
    private var next = 0
    static let capacity = 16
    /// How many names have been formatted (each once, until forgotten): for tests.
    private(set) var formatted = 0

    /// The Undo (or Redo) title of `name`: remembered, or formatted now and remembered (the
    /// oldest forgotten when full).
    /// - Complexity: O(``capacity``) integer comparisons, and string comparisons only of the
    ///   remembered names as long as `name`.
    mutating func title(of name: String?, undo: Bool, _ formatter: UndoTitleFormatter) -> String {
        if let title = remembered(name, undo: undo) { return title }
        let length = name?.utf8.count ?? -1
        let entry = Entry(length: length, name: name, undo: Self.compact(formatter.undoTitle(for: name)),
                          redo: Self.compact(formatter.redoTitle(for: name)))
        formatted += 1
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
            next = (next + 1) % Self.capacity
        }
        return undo ? entry.undo : entry.redo
    }

    /// `title` rebuilt from its UTF-8, which stores a short one (up to 15 bytes, "Undo Delete")
    /// in the string value itself: the formatter's result is a heap string, and each read of
    /// it from the cache was a retain and a release, atomic, of about 25 instructions.
    private static func compact(_ title: String) -> String {
        String(decoding: title.utf8, as: UTF8.self)
    }

    /// The Undo (or Redo) title of `name` if it is remembered. Inlined into the menu's read:
    /// a call cost about a third of a hit.
    /// - Complexity: as ``title(of:undo:_:)``.
    @inline(__always)
    func remembered(_ name: String?, undo: Bool) -> String? {
        let length = name?.utf8.count ?? -1
        var index = 0
        while index < entries.count {
            if entries[index].length == length && entries[index].name == name {
                return undo ? entries[index].undo : entries[index].redo
            }
            index += 1
        }
        return nil
    }

    /// Forgets every title (the formatter changed); ``formatted`` counts on.
    mutating func removeAll() {
        entries.removeAll()
        next = 0
    }
}
