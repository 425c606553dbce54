import UndoCore
import UndoPluginABI

/// Why the plugin host refused or could not complete a call. Nothing was performed or changed
/// unless the case says so.
public enum PluginHostError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No loaded action has this id; `suggestion` is the closest id, if one is close.
    case unknownAction(String, suggestion: String?)
    /// The id matches actions of several plugins: use one of `candidates` (full ids).
    case ambiguousAction(String, candidates: [String])
    /// No loaded plugin has this id.
    case unknownPlugin(String)
    /// The arguments do not fit the action's signature (`signature` is the expected one, like
    /// `text.insert(position: i64, text: string)`).
    case invalidArguments(action: String, signature: String, ActionArgumentError)
    /// The plugin's perform, inverse or describe failed (with its message).
    case actionFailed(PluginActionError)
    /// The history refused the call (a group is open, nothing to undo, ...).
    case history(UndoError)
    /// Called from inside a plugin call or an action the history is running.
    case reentrantCall(String)
    /// The plugin has no describe function.
    case cannotDescribe(plugin: String)
    /// The plugin cannot load a document's state: it has no save_document and load_document
    /// (ABI 1.7).
    case cannotLoadDocuments(plugin: String)
    /// A document's state can only be loaded into an empty document: this one has steps in
    /// the history, or the plugin already keeps something for it.
    case documentNotEmpty(plugin: String, context: UndoContext)
    /// The bytes to load are longer than `limit` (`UNDO_MAX_VALUE_SIZE`).
    case documentStateTooLarge(plugin: String, bytes: Int, limit: Int)
    /// The journal could not keep a change, which is then lost if the program stops, or
    /// refused one before it was made because an earlier one could not be kept (the message says
    /// which, and how to go on); or a journal cannot be replayed.
    case journal(String)
    /// The history cannot be taken as values, or rebuilt from them (``PluginHost/captureState(documents:_:)``,
    /// ``PluginHost/restoreHistory(_:)``): the message says why (a group open, a step that is
    /// not a plugin's, a snapshot that does not fit the plugins loaded). Nothing was changed.
    case snapshot(String)

    /// The ABI error code for this error (for C clients and undo-host: see ``ErrorReport``).
    public var code: Int32 {
        switch self {
        case .unknownAction, .unknownPlugin: Int32(UNDO_ENOTFOUND)
        case .ambiguousAction: Int32(UNDO_EINVAL)
        case .invalidArguments(_, _, let error): error.code
        case .actionFailed(let error): error.code
        case .history(let error): ErrorReport.code(of: error)
        case .reentrantCall: Int32(UNDO_EREENTRANT)
        case .cannotDescribe: Int32(UNDO_ENOTSUP)
        case .cannotLoadDocuments: Int32(UNDO_ENOTSUP)
        case .documentNotEmpty: Int32(UNDO_ESTATE)
        case .documentStateTooLarge: Int32(UNDO_ELIMIT)
        case .journal: Int32(UNDO_ESTATE)
        case .snapshot: Int32(UNDO_ESTATE)
        }
    }

    public var description: String {
        switch self {
        case .unknownAction(let id, let suggestion):
            "unknown action \(id)" + (suggestion.map { " (did you mean \($0)?)" } ?? "")
        case .ambiguousAction(let id, let candidates):
            "action \(id) is ambiguous: " + candidates.joined(separator: ", ")
        case .unknownPlugin(let id): "no plugin \(id) is loaded"
        case .invalidArguments(let action, let signature, let error):
            "\(action): \(error) (expected \(signature))"
        case .actionFailed(let error): error.description
        case .history(let error): error.description
        case .reentrantCall(let what): "\(what) was called from inside a plugin call or an action; refused"
        case .cannotDescribe(let plugin): "plugin \(plugin) cannot show its documents"
        case .cannotLoadDocuments(let plugin): "plugin \(plugin) cannot save or load its documents"
        case .documentNotEmpty(let plugin, let context):
            "document \(ActionValue.quoted(context.name)) of plugin \(plugin) is not empty (it has steps or content): "
                + "load its state into a new or closed document"
        case .documentStateTooLarge(let plugin, let bytes, let limit):
            "the state to load into plugin \(plugin) is \(bytes) bytes, over the limit of \(limit)"
        case .journal(let message): message
        case .snapshot(let message): message
        }
    }
}
