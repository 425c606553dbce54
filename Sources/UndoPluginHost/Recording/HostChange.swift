import UndoCore

/// One change a ``PluginHost`` made to its history or its plugins, as the typed call that makes
/// it again: what a journal keeps, and what it replays through the same host calls.
///
/// Moves whose target depends on the clock or on other state when replayed (earlier, later,
/// goto, a jump to a position) are kept as the state they reached.
public enum HostChange: Sendable, Equatable {
    /// A plugin action performed into `context`: the plugin's id and version, the action's full
    /// id and its arguments as script text (each value's literal, read back against the
    /// signature), and the step perform made (`nil` in journals older than format 3).
    case perform(plugin: String, pluginVersion: String, action: String, arguments: String, context: String,
                 step: PerformedStep? = nil)
    /// Undo of `count` steps, of `context` or (`nil`) the whole history.
    case undo(count: Int, context: String?)
    /// Redo of `count` steps, of `context` or (`nil`) the whole history.
    case redo(count: Int, context: String?)
    /// A move across the branches to the state it reached (goto, earlier, later, a position).
    case goTo(state: UInt32)
    /// A group opened (`nil` context: the current one), with its longer description, if any.
    case beginGroup(name: String?, context: String?, description: String? = nil)
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

/// The step one perform of a plugin action made, as it came out of the plugin: what a journal
/// keeps beside the call, and what a replay must make again.
public struct PerformedStep: Sendable, Equatable {
    /// The action type's name (its default one, not the host locale's: a journal reopens in any
    /// language).
    public var name: String
    /// The description perform gave (`set_description`, ABI 1.7), in the locale of the host
    /// that performed it; `nil`: none.
    public var description: String?
    /// The step's coalescing key, namespaced by the plugin (its own, `set_coalescing_key`, or
    /// its action type's); `nil`: it never coalesces.
    public var coalescingKey: String?
    /// The inverse arguments perform handed back, as script text read back against the
    /// inverse signature; `nil` when the inverse takes perform's own arguments.
    public var inverseArguments: String?

    /// - Parameters:
    ///   - name: the action type's default name.
    ///   - description: the step's description, if any.
    ///   - coalescingKey: the step's coalescing key, if any.
    ///   - inverseArguments: the inverse arguments as script text, if the inverse has its own.
    public init(name: String, description: String? = nil, coalescingKey: String? = nil, inverseArguments: String? = nil) {
        self.name = name
        self.description = description
        self.coalescingKey = coalescingKey
        self.inverseArguments = inverseArguments
    }

    /// What a replay checks differs between `self` (as recorded) and `replayed`: the name, the
    /// coalescing key and the inverse arguments, each as "what: recorded → replayed". The
    /// description is not compared: it is written in the performing host's language.
    /// - Parameter replayed: the step the same call made again.
    /// - Returns: the differences, empty when the step is the same.
    /// - Complexity: O(*n*) in the sizes of the texts.
    public func differences(from replayed: PerformedStep) -> [String] {
        func shown(_ text: String?) -> String { text.map(ActionValue.quoted) ?? "none" }
        var found: [String] = []
        if name != replayed.name { found.append("name \(shown(name)) → \(shown(replayed.name))") }
        if coalescingKey != replayed.coalescingKey {
            found.append("coalescing key \(shown(coalescingKey)) → \(shown(replayed.coalescingKey))")
        }
        if inverseArguments != replayed.inverseArguments {
            found.append("inverse arguments \(shown(inverseArguments)) → \(shown(replayed.inverseArguments))")
        }
        return found
    }
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
