import UndoCore

/// One change a ``PluginHost`` made to its history or its plugins, as the typed call that makes
/// it again: what a journal keeps, and what it replays through the same host calls.
///
/// Moves whose target depends on the clock or on other state when replayed (earlier, later,
/// goto, a jump to a position) are kept as the state they reached.
public enum HostChange: Sendable, Equatable {
    /// A plugin action performed into `context`: the plugin's id and version, the action's full
    /// id and its arguments as script text (each value's literal, read back against the signature).
    case perform(plugin: String, pluginVersion: String, action: String, arguments: String, context: String)
    /// Undo of `count` steps, of `context` or (`nil`) the whole history.
    case undo(count: Int, context: String?)
    /// Redo of `count` steps, of `context` or (`nil`) the whole history.
    case redo(count: Int, context: String?)
    /// A move across the branches to the state it reached (goto, earlier, later, a position).
    case goTo(state: UInt32)
    /// A group opened (`nil` context: the current one).
    case beginGroup(name: String?, context: String?)
    /// The innermost group closed.
    case endGroup
    /// The innermost group cancelled (its changes taken back).
    case cancelGroup
    /// The next change starts a step of its own.
    case breakCoalescing
    /// A document's present state marked saved (`nil`: the current context).
    case markSaved(context: String?)
    /// A document's save point forgotten (`nil`: the current context).
    case forgetSaved(context: String?)
    /// A document taken back to its save point, as a step named `name`.
    case revert(context: String?, name: String)
    /// The context later calls without one act on.
    case setContext(String?)
    /// The count and memory limits set (`nil`: none).
    case setLimits(count: Int?, memory: Int?)
    /// A document closed: its steps left the history and its plugins forgot it.
    case closeContext(String)
    /// Every step removed.
    case removeAll
    /// A plugin loaded from `path` (absolute), with the id and version it had.
    case load(path: String, plugin: String, pluginVersion: String)
    /// A plugin unloaded (its steps left the history).
    case unload(plugin: String)
}

/// Where a host's changes go as they are made (a journal). ``record(_:)`` runs under the
/// history's lock, right after the change succeeded, so records come in the order the
/// changes were made; when it throws, the change was made but is reported as failed.
public protocol PluginHostRecorder: AnyObject, Sendable {
    /// Keeps `change`; when it returns, the change may be acknowledged.
    /// - Parameter change: the change just made.
    /// - Throws: a description of why it could not be kept (the disk is full, …).
    func record(_ change: HostChange) throws(PluginHostError)
}
