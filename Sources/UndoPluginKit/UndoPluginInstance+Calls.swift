import UndoPluginABI

/// The kit's C functions for every action: one perform and inverse function of the values
/// calling convention (ABI 1.7 `UNDO_ACTION_VALUES`, `undo_values_fn`) and one merge function
/// (`undo_merge_fn`). Each finds the action's Swift closure from the call (the instance in
/// `plugin_data`, the action by `action_id`); the host calls them through the prototypes they
/// are declared with, converted to `undo_fn` by the header's `undo_values_fn_erased` and
/// `undo_merge_fn_erased`.
extension UndoPluginInstance {
    /// perform (first time and redo) and the inverse (phase UNDO_PHASE_INVERSE) of every action.
    static let callAction: undo_values_fn = { call, values, count in
        guard let call else { return Int32(UNDO_EINVAL) }
        let wrapped = UndoCall(call)
        do {
            let action = try wrapped.action
            let isInverse = call.pointee.phase == UInt32(UNDO_PHASE_INVERSE)
            let parameters = isInverse ? action.inverseParameters ?? action.parameters : action.parameters
            let arguments = try UndoArguments(copying: values, count: Int(count), parameters: parameters,
                                              actionID: action.id)
            try (isInverse ? action.inverse : action.perform)(wrapped, arguments)
            return Int32(UNDO_OK)
        } catch {
            return wrapped.host.report(UndoPluginError(error))
        }
    }

    /// merge of every action that has one.
    static let mergeSteps: undo_merge_fn = { call, previous, previousInverse, next, nextInverse in
        UndoCall.merge(call, previous, previousInverse, next, nextInverse)
    }
}

extension UndoArguments {
    /// Copies the values of a call, checked against the declared parameters (which the host
    /// guarantees: a difference is the host's mistake, reported rather than read).
    /// - Complexity: O(bytes of the values).
    init(copying values: UnsafePointer<undo_value>?, count: Int, parameters: [UndoPluginParameter],
         actionID: String) throws(UndoPluginError) {
        guard count == parameters.count else {
            throw UndoPluginError(.wrongCount, "\(actionID) takes \(parameters.count) arguments, but the host gave \(count)")
        }
        let copied = try UndoValue.copyArray(values, count: count)
        for (value, parameter) in zip(copied, parameters) where value.type != parameter.type {
            throw UndoPluginError(.wrongType, "\(actionID)'s parameter \(parameter.name) is \(parameter.type), but the host gave \(value.type)")
        }
        self.init(values: copied, parameters: parameters, actionID: actionID)
    }
}
