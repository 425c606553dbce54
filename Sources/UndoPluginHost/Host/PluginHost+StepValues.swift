import UndoCore

/// One argument of a plugin step, read back: the parameter it is for and its typed value.
public struct PluginStepArgument: Sendable, Hashable {
    /// The parameter's name, as the action type registered it (`undo_param.name`): "position".
    public var name: String
    /// The parameter's type.
    public var type: ActionValueType
    /// The value, of that type.
    public var value: ActionValue

    /// Makes an argument.
    /// - Parameters:
    ///   - name: the parameter's name.
    ///   - type: the parameter's type.
    ///   - value: the value (of `type`).
    public init(name: String, type: ActionValueType, value: ActionValue) {
        self.name = name
        self.type = type
        self.value = value
    }
}

/// What a plugin step holds, read back for a history list (the Rust crate `undo`'s entries):
/// its action type, its arguments and its inverse arguments, typed and named.
public struct PluginStepValues: Sendable, Hashable {
    /// The action type's full id: the plugin's id, "/", the action's id
    /// ("org.undohost.text/insert").
    public var actionID: String
    /// The id scripts use ("text.insert").
    public var shortID: String
    /// The perform arguments, in the signature's order.
    public var arguments: [PluginStepArgument]
    /// The inverse's arguments: those perform handed back (named after the inverse's
    /// parameters), or the perform arguments again when the inverse takes those.
    public var inverseArguments: [PluginStepArgument]
    /// The longer description perform or merge gave (`set_description`); `nil` for none.
    public var description: String?
}

extension PluginCommand {
    /// This step's action type and typed arguments (see ``PluginStepValues``).
    /// - Complexity: O(arguments), their values copied.
    public var values: PluginStepValues {
        let action = self.action
        func named(_ values: [ActionValue], _ signature: ActionSignature) -> [PluginStepArgument] {
            zip(signature.parameters, values).map { PluginStepArgument(name: $0.name, type: $0.type, value: $1) }
        }
        return PluginStepValues(actionID: action.fullID, shortID: action.shortID,
                                arguments: named(arguments, action.signature),
                                inverseArguments: named(inverseArguments, action.effectiveInverseSignature),
                                description: historyDescription)
    }
}

extension PluginHost {
    /// The action type and typed arguments of the step at `index` of the history (0 is the
    /// oldest, as ``UndoStack/steps`` lists them), for a history list that shows them.
    /// - Parameter index: the step's index.
    /// - Returns: `nil` when there is no such step or it is not a plugin step (a group, or a
    ///   Swift command: read its ``UndoCommand/historyValues`` instead).
    /// - Complexity: O(arguments), under the history's lock.
    public func stepValues(at index: Int) -> PluginStepValues? {
        history.withStack { stack in
            guard index >= 0, index < stack.count else { return nil }
            return (stack.command(at: index) as? PluginCommand)?.values
        }
    }
}
