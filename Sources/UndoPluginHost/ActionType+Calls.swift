import UndoCore
import UndoPluginABI

/// Calling an action type's perform, inverse and merge functions in its plugin.
extension ActionType {
    enum MergeOutcome {
        case merged(arguments: [ActionValue], inverseArguments: [ActionValue])
        case annulled
    }

    /// Runs perform with `arguments` (already checked).
    /// - Returns: the inverse arguments and the changes it reported.
    /// - Throws: the plugin's failure, or a broken contract (an inverse argument not set).
    func invokePerform(_ arguments: [ActionValue], context: UndoContext, phase: CallFrame.Phase)
        throws(PluginActionError) -> (inverse: [ActionValue], changes: UndoChanges)
    {
        let errorPhase: PluginActionError.Phase = phase == .redo ? .redo : .perform
        guard plugin.state == .loaded else {
            let error = plugin.unloadedError(action: self, phase: errorPhase)
            FailureSink.current?.error = error
            throw error
        }
        let frame = CallFrame(plugin: plugin, phase: phase, action: self, context: context)
        frame.inverseArguments = Array(repeating: nil, count: inverseSignature?.parameters.count ?? 0)
        let status = plugin.serialized { frame.withCall { performFunction.call($0, arguments) } }
        guard status == UNDO_OK else { throw failure(status, frame, errorPhase) }
        guard let inverseSignature else { return (arguments, frame.changes) }
        var inverse: [ActionValue] = []
        for (index, value) in frame.inverseArguments.enumerated() {
            guard let value else {
                let parameter = inverseSignature.parameters[index]
                let error = PluginActionError(
                    pluginID: pluginID, actionID: shortID, phase: errorPhase, code: Int32(UNDO_EPLUGIN),
                    message: "perform succeeded without setting inverse argument \(index + 1) (\(parameter)); the step cannot be undone")
                plugin.writeLog(.error, error.description)
                FailureSink.current?.error = error
                throw error
            }
            inverse.append(value)
        }
        return (inverse, frame.changes)
    }

    /// Runs the inverse with `inverseArguments`.
    func invokeInverse(_ inverseArguments: [ActionValue], context: UndoContext) throws(PluginActionError) -> UndoChanges {
        guard plugin.state == .loaded else {
            let error = plugin.unloadedError(action: self, phase: .undo)
            FailureSink.current?.error = error
            throw error
        }
        let frame = CallFrame(plugin: plugin, phase: .inverse, action: self, context: context)
        let status = plugin.serialized { frame.withCall { inverseFunction.call($0, inverseArguments) } }
        guard status == UNDO_OK else { throw failure(status, frame, .undo) }
        return frame.changes
    }

    /// Offers two steps of this type to the plugin's merge function.
    /// - Returns: the outcome, or `nil` when refused (a failing merge is logged and refused).
    func invokeMerge(previous: PluginCommand, next: PluginCommand) -> MergeOutcome? {
        guard let mergeFunction, plugin.state == .loaded else { return nil }
        let frame = CallFrame(plugin: plugin, phase: .merge, action: self, context: previous.context)
        frame.mergedArguments = Array(repeating: nil, count: signature.parameters.count)
        frame.inverseArguments = Array(repeating: nil, count: inverseSignature?.parameters.count ?? 0)
        let status = plugin.serialized {
            ActionValue.withCValues(previous.arguments) { prevArgs in
                ActionValue.withCValues(previous.inverseArguments) { prevInverse in
                    ActionValue.withCValues(next.arguments) { nextArgs in
                        ActionValue.withCValues(next.inverseArguments) { nextInverse in
                            frame.withCall { mergeFunction($0, prevArgs, prevInverse, nextArgs, nextInverse) }
                        }
                    }
                }
            }
        }
        switch status {
        case Int32(UNDO_MERGE_REFUSED):
            return nil
        case Int32(UNDO_MERGE_ANNULLED):
            return .annulled
        case Int32(UNDO_MERGE_MERGED):
            let arguments = zip(previous.arguments, frame.mergedArguments).map { $1 ?? $0 }
            let inverse = inverseSignature == nil
                ? arguments
                : zip(previous.inverseArguments, frame.inverseArguments).map { $1 ?? $0 }
            return .merged(arguments: arguments, inverseArguments: inverse)
        default:
            let reason = frame.reportedError?.message ?? frame.refusal ?? ErrorCode.message(status)
            plugin.writeLog(.warning, "\(shortID) merge returned \(status) (\(reason)); the steps are kept apart")
            return nil
        }
    }

    /// The error for a failed call: the plugin's own message, or why a callback refused, or the
    /// code's meaning.
    private func failure(_ status: Int32, _ frame: CallFrame, _ phase: PluginActionError.Phase) -> PluginActionError {
        var message = frame.reportedError?.message ?? frame.refusal ?? ErrorCode.message(status)
        var code = status
        if status > 0 {
            message = "returned \(status), which is not an error code" + (message.isEmpty ? "" : ": \(message)")
            code = Int32(UNDO_EPLUGIN)
        }
        let error = PluginActionError(pluginID: pluginID, actionID: shortID, phase: phase, code: code, message: message)
        FailureSink.current?.error = error
        return error
    }
}
