/// What a shake-to-undo alert offers at this moment: a title and the buttons to show, in order.
///
/// Made by ``UndoTitleFormatter/alert(undoName:redoName:)``, which keeps these rules: the Undo
/// action is present only when there is something to undo, the Redo action only when there is
/// something to redo, and Cancel is always present and always last. The title repeats the first
/// action's title ("Undo Typing"), or is the locale's "Nothing to Undo" when only Cancel is left.
public struct UndoAlert: Sendable, Hashable {
    /// One button of the alert.
    public struct Action: Sendable, Hashable {
        /// What a button does when chosen.
        public enum Kind: Sendable, Hashable {
            /// Undoes the most recent step.
            case undo
            /// Redoes the most recently undone step.
            case redo
            /// Dismisses the alert without changing anything.
            case cancel
        }

        /// What choosing this button does.
        public let kind: Kind
        /// The button's text, already localized ("Undo Typing", "Redo Bold", "Cancel").
        public let title: String

        // Internal so that only the formatter builds alerts and their ordering rules hold.
        init(kind: Kind, title: String) {
            self.kind = kind
            self.title = title
        }
    }

    /// The alert's title, already localized.
    public let title: String
    /// The buttons to show, in order; Cancel is always the last one.
    public let actions: [Action]

    init(title: String, actions: [Action]) {
        self.title = title
        self.actions = actions
    }

    /// The Undo button, or `nil` when there is nothing to undo.
    public var undoAction: Action? { actions.first { $0.kind == .undo } }

    /// The Redo button, or `nil` when there is nothing to redo.
    public var redoAction: Action? { actions.first { $0.kind == .redo } }
}
