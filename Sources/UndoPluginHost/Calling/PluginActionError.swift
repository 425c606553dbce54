import UndoCore
import UndoPluginABI

/// A plugin's perform, inverse, merge, describe, save or load failed, or broke the ABI contract.
public struct PluginActionError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Phase: String, Sendable {
        case perform, redo, undo, describe
        /// save_document or load_document (ABI 1.7): a document's state as bytes.
        case save, load
        /// An isolated plugin's merge function, or its close_document (issue 31: a crash in
        /// them is reported with these).
        case merge, close
    }

    /// The plugin id and the action's short id ("text.delete"), when about an action.
    public var pluginID: String
    public var actionID: String?
    public var phase: Phase
    /// The negative ABI error code (the plugin's own return value, or `UNDO_EPLUGIN` when the
    /// plugin broke the contract, `UNDO_ESTATE` when it is unloaded).
    public var code: Int32
    /// The plugin's message (from report_error), or the host's explanation.
    public var message: String
    /// The changes the plugin reported (report_change) during the failing call, in the order
    /// it reported them: a perform, redo or undo that reports a change and then fails changed
    /// its document although the history is unchanged. Empty when it reported none, for the
    /// phases that report no changes (describe, save, load, merge, close), and for a plugin run
    /// in its own process (``PluginIsolation``), whose changes do not cross back with its error.
    /// A plugin can change its document without reporting it; an empty list does not prove the
    /// document unchanged. At most 65,536 changes (the most one call may report).
    public var reportedChanges: [UndoChange] = []

    public init(pluginID: String, actionID: String?, phase: Phase, code: Int32, message: String) {
        self.pluginID = pluginID
        self.actionID = actionID
        self.phase = phase
        self.code = code
        self.message = message
    }

    public var description: String {
        "\(actionID ?? pluginID) \(phase.rawValue) failed: \(message) [\(ErrorReport.name(of: code))]"
    }
}
