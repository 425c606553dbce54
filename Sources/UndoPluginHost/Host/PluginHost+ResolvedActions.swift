import UndoCore

// Performing an action type already resolved (no lookup by name), and the memo of resolved ids
// that makes the lookup by name cheap the second time.

extension PluginHost {
    /// Performs an action type of a plugin loaded in this host, already resolved (with
    /// ``actionType(_:)`` or from ``actionTypes``), so no id is looked up. The arguments are
    /// checked against its signature as by ``perform(_:_:in:)``, and nothing is performed when
    /// they are wrong.
    /// - Throws: ``PluginHostError/unknownAction(_:suggestion:)`` when `action` does not belong
    ///   to a plugin loaded in this host; ``PluginHostError/invalidArguments(action:signature:_:)``;
    ///   the plugin's failure; the history's refusal.
    /// - Complexity: O(1) plus the arguments' size (checked, and copied for the call); a
    ///   coalescing step also pays for the plugin's merge.
    /// - Returns: as ``perform(_:_:in:)-(String,_,_)``.
    @discardableResult
    public func perform(_ action: ActionType, _ arguments: [ActionValue], in context: UndoContext = .global)
        throws(PluginHostError) -> UndoPerformOutcome
    {
        try perform(try makeCommand(action, arguments: arguments, in: context))
    }

    /// Checks `arguments` against a resolved action type's signature and makes the step,
    /// without performing it (see ``perform(_:_:in:)-(ActionType,_,_)``).
    /// - Throws: as ``perform(_:_:in:)-(ActionType,_,_)``, before anything is performed.
    /// - Complexity: O(arguments' size).
    public func makeCommand(_ action: ActionType, arguments: [ActionValue], in context: UndoContext = .global)
        throws(PluginHostError) -> PluginCommand
    {
        try Self.checkContext(context)
        guard action.plugin.hostID == ObjectIdentifier(self) else {
            throw .unknownAction(action.fullID, suggestion: nil)
        }
        do throws(ActionArgumentError) {
            let checked = try ActionArguments.check(arguments, against: action.signature)
            return PluginCommand(action: action, arguments: checked, context: context)
        } catch {
            throw .invalidArguments(action: action.shortID, signature: action.shortID + action.signature.description, error)
        }
    }
}

extension PluginHost {
    /// Performs a resolved action type that takes one argument, as
    /// ``perform(_:_:in:)-(ActionType,_,_)`` with `[argument]`. The argument is checked against
    /// the signature the same way: an action type with another number of parameters gets
    /// ``ActionArgumentError/Kind/wrongCount(expected:given:)``. The step is made and performed
    /// like any other; a keystroke joins a typing run through the ordinary merge.
    /// - Throws: as ``perform(_:_:in:)-(ActionType,_,_)``, before anything is performed.
    /// - Returns: as ``perform(_:_:in:)-(String,_,_)``.
    @discardableResult
    public func perform(_ action: ActionType, argument: ActionValue, in context: UndoContext = .global)
        throws(PluginHostError) -> UndoPerformOutcome
    {
        try perform(makeCommand(action, argument: argument, in: context))
    }

    /// Checks one argument against a resolved action type's signature and makes the step,
    /// without performing it (see ``perform(_:argument:in:)``).
    public func makeCommand(_ action: ActionType, argument: ActionValue, in context: UndoContext = .global)
        throws(PluginHostError) -> PluginCommand
    {
        try Self.checkContext(context)
        // The common cases checked here, inline (a call of its own cost about 20 instructions a
        // step), for an action type of this host: an integer of the one parameter's own type
        // needs no conversion, and a short string (a keystroke) only a look for NUL bytes.
        if action.plugin.hostID == ObjectIdentifier(self), let type = action.onlyParameterType {
            if type.isInteger, argument.type == type {
                return PluginCommand(action: action, arguments: ActionValueList(one: argument), context: context)
            }
            if type == .string, case .string(let text) = argument, text.utf8.count <= 16,
               !ActionValue.containsNUL(text) {
                return PluginCommand(action: action, arguments: ActionValueList(one: argument), context: context)
            }
        }
        return PluginCommand(action: action, arguments: ActionValueList(one: try checkedArgument(action, argument)),
                      context: context)
    }

    /// `argument` converted to the one parameter of `action`, a resolved action type of this host.
    /// - Throws: ``PluginHostError/unknownAction(_:suggestion:)`` for an action type of another
    ///   host; ``PluginHostError/invalidArguments(action:signature:_:)``.
    private func checkedArgument(_ action: ActionType, _ argument: ActionValue) throws(PluginHostError) -> ActionValue {
        guard action.plugin.hostID == ObjectIdentifier(self) else {
            throw .unknownAction(action.fullID, suggestion: nil)
        }
        // The common cases checked without a call: an integer of the parameter's own type needs
        // no conversion, and a short string (a keystroke) only a look for NUL bytes.
        if let type = action.onlyParameterType {
            if type.isInteger, argument.type == type { return argument }
            if type == .string, case .string(let text) = argument, text.utf8.count <= 16,
               !ActionValue.containsNUL(text) {
                return argument
            }
        }
        do throws(ActionArgumentError) {
            guard let type = action.onlyParameterType else {
                throw ActionArgumentError(.wrongCount(expected: action.signature.parameters.count, given: 1))
            }
            do throws(ActionArgumentError.Kind) {
                return try argument.converted(to: type)
            } catch {
                throw ActionArgumentError(error, index: 0, parameter: action.signature.parameters[0].name)
            }
        } catch {
            throw .invalidArguments(action: action.shortID, signature: action.shortID + action.signature.description, error)
        }
    }
}

/// The action types already resolved by id, so that looking one up again costs a dictionary
/// lookup instead of a search through every action type.
///
/// Emptied whenever the set of plugins changes (an id can become ambiguous, or its plugin go);
/// an entry whose plugin has meanwhile been unloaded is ignored. Thread safe.
final class ResolvedActions: @unchecked Sendable {
    private let lock = RecursiveMutex()
    private var byID: [String: ActionType] = [:]
    /// Every loaded action type by local id, built on the first lookup after a load or unload.
    private var byLocalID: [String: [ActionType]]?
    /// Action types read into `byLocalID` so far (tests: once per action type per index).
    private var _indexedActionTypes = 0
    var indexedActionTypes: Int { lock.withLock { _indexedActionTypes } }
    /// Changes with every ``removeAll()``: a resolution made from an older set of plugins is
    /// not stored.
    private var _generation = 0

    var generation: Int { lock.withLock { _generation } }

    /// The action type `id` resolved to, if it was resolved and its plugin is still loaded.
    func lookup(_ id: String) -> ActionType? {
        guard let action = lock.withLock({ byID[id] }) else { return nil }
        return action.plugin.state == .unloaded ? nil : action
    }

    /// Remembers what `id` resolved to, if the plugins have not changed since `generation`.
    /// - Returns: `action`.
    func store(_ action: ActionType, for id: String, generation: Int) -> ActionType {
        lock.withLock {
            if generation == _generation && byID.count < 4096 { byID[id] = action }
        }
        return action
    }

    func removeAll() {
        lock.withLock {
            byID.removeAll()
            byLocalID = nil
            _generation += 1
        }
    }

    /// The loaded action types whose local id is `localID`.
    /// - Complexity: O(1) amortized; O(action types) to build the index after a load or unload.
    func withLocalID(_ localID: String, in host: PluginHost) -> [ActionType] {
        lock.withLock {
            if byLocalID == nil {
                var index: [String: [ActionType]] = [:]
                let all = host.actionTypes
                for action in all { index[action.localID, default: []].append(action) }
                _indexedActionTypes += all.count
                byLocalID = index
            }
            return byLocalID?[localID] ?? []
        }
    }
}
