import UndoCore
import UndoHostTerminal

/// The Edit menu as a person sees it for the current document: "Undo Typing  Ctrl+Z",
/// "Redo Bold  Ctrl+Y", with disabled items marked.
public struct EditMenuView: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public var title: String
        public var shortcut: String
        public var isEnabled: Bool
    }

    /// The document the menu applies to.
    public var document: String
    public var items: [Item]

    /// The keys that undo and redo at undo-host's empty prompt. Redo is shown as Ctrl+Y, which
    /// every terminal sends; Shift+Ctrl+Z (the GNOME and KDE key) also redoes, but most terminals
    /// send it as plain Ctrl+Z, so it is not advertised.
    public static let undoShortcut = "Ctrl+Z"
    public static let redoShortcut = "Ctrl+Y"

    public init(stack: UndoStack, document: String) {
        self.document = document
        items = [
            Item(title: stack.undoMenuTitle, shortcut: Self.undoShortcut, isEnabled: stack.canUndo),
            Item(title: stack.redoMenuTitle, shortcut: Self.redoShortcut, isEnabled: stack.canRedo),
        ]
    }

    /// Titles on the left, shortcuts right-aligned after at least four spaces.
    public func rendered(style: TextStyle, words: SessionText = .english) -> String {
        let titleWidth = items.map(\.title.terminalWidth).max() ?? 0
        let shortcutWidth = items.map(\.shortcut.count).max() ?? 0
        var lines = [style.bold(words.editMenu) + " (\(document))"]
        for item in items {
            let shortcut = String(repeating: " ", count: shortcutWidth - item.shortcut.count) + item.shortcut
            var line = item.title.padded(to: titleWidth) + "    " + shortcut
            if !item.isEnabled { line = style.dimmed(line) + "  " + words.disabled }
            lines.append("  " + line)
        }
        return lines.joined(separator: "\n")
    }

    var json: JSONValue {
        .object([
            ("document", .string(document)),
            ("items", .array(items.map { item in
                .object([("title", .string(item.title)), ("shortcut", .string(item.shortcut)),
                         ("enabled", .bool(item.isEnabled))])
            })),
        ])
    }
}
