import UndoCore
import UndoHostJournal

/// What one command did, in a form both the text output and `--json` are made from.
public struct CommandOutcome: Sendable {
    public enum Body: Sendable {
        /// Nothing to show (a group begun, a run broken, a document switched to).
        case none
        /// A plugin action was performed: its short and full ids (quiet in text output, like a
        /// keystroke in an editor; the prompt's "*" shows the document changed).
        case performed(action: String, fullID: String)
        /// A plugin action was performed and found that it changes nothing (the plugin marked
        /// it obsolete on its first performance): no step was added, and the state is as before.
        case performedNothing(action: String, fullID: String)
        /// A short confirmation ("Saved letter.txt").
        case message(String)
        /// An undo, redo or revert: the menu title that names it, what it changed, and the
        /// changed documents with the result highlighted.
        case moved(title: String, result: UndoResult, views: [DocumentView])
        case menu(EditMenuView)
        case history(HistoryPanelView)
        /// The whole tree, drawn (or, with `dot`, as Graphviz DOT).
        case tree(HistoryTreeView, dot: Bool)
        /// The alert; `picked` is the outcome of the choice made with it, if one was.
        case alert(AlertView, picked: PickedChoice?)
        case documents([DocumentView])
        case documentList(current: String, documents: [DocumentSummary])
        case plugins([PluginSummary])
        case help(String)
        /// `expect CODE COMMAND`: the command failed as expected, with this error.
        case expectedFailure(SessionError)
        /// `checkpoint`: what the checkpoint holds, and the sentence that says so.
        case checkpoint(CheckpointInfo, message: String)
    }

    /// What picking an alert choice did.
    public indirect enum PickedChoice: Sendable {
        case cancelled
        case moved(CommandOutcome)
    }

    /// The command as run (for `--json`'s "command").
    public var command: String
    public var body: Body
    /// Set when the command failed (and changed nothing).
    public var error: SessionError?
    /// The history as it is after the command, for `--json`.
    public var state: SessionState
    /// `quit`: the session ends.
    public var endsSession = false
    /// A move across the tree (`goto`, `earlier`, `later`): "undo", "redo" or "across" (back to
    /// a fork, then forward on another branch), which `--json` gives as the result's direction.
    public var travelDirection: String?

    public var succeeded: Bool { error == nil }
}

/// The values a title bar and the Edit menu show, after a command.
public struct SessionState: Sendable, Equatable {
    public var document: String
    public var canUndo: Bool
    public var canRedo: Bool
    public var undoTitle: String
    public var redoTitle: String
    public var isDirty: Bool
    public var position: Int
    public var count: Int
    public var openGroups: Int
}

/// One document of the session, for `doc`.
public struct DocumentSummary: Sendable, Equatable {
    public var name: String
    public var isDirty: Bool
    public var steps: Int
}

/// One loaded plugin, for `plugins`.
public struct PluginSummary: Sendable, Equatable {
    public struct Action: Sendable, Equatable {
        public var id: String
        public var fullID: String
        public var name: String
        /// "(position: i64, text: string)"
        public var signature: String
        public var parameters: [(name: String, type: String)]
        public var coalesces: Bool
        public var discardable: Bool

        public static func == (a: Action, b: Action) -> Bool {
            a.fullID == b.fullID && a.signature == b.signature && a.name == b.name
        }
    }

    public var id: String
    public var name: String
    public var version: String
    public var path: String
    public var actions: [Action]
}
