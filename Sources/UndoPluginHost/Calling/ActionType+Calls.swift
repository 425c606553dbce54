import UndoCore
import UndoPluginABI

/// Calling an action type's perform, inverse and merge functions in its plugin.
///
/// Every call runs in a frame of the plugin (``LoadedPlugin/withFrame(_:action:context:_:)``)
/// with the plugin's call lock held: the history lock, which the history already holds when it
/// performs, undoes or merges. A failure is thrown as the plugin's own ``PluginActionError``, and
/// a failing call changes nothing in the step.
extension ActionType {
    enum MergeOutcome {
        case merged(PluginStep)
        case annulled
    }

    /// Runs perform (a redo when the step was performed before) with the step's arguments
    /// (already checked), and stores in the step the inverse arguments and the coalescing key
    /// perform hands back.
    /// - Throws: the plugin's failure, or a broken contract (an inverse argument not set); the
    ///   step is unchanged then.
    func invokePerform(_ step: inout PluginStep.State, changes: inout UndoChanges)
        throws(PluginActionError)
    {
        let redo = step.performed
        let errorPhase: PluginActionError.Phase = redo ? .redo : .perform
        guard plugin.isLoaded else { throw plugin.unloadedError(action: self, phase: errorPhase) }
        if let remote = plugin.remote {
            try performRemotely(remote, &step, changes: &changes)
            return
        }
        let inverseCount = inverseSignature?.parameters.count
        // The step's context is read where it is, for the frame's comparison: a copy handed in
        // by the command cost a retain and a release of its name per perform (about 30
        // instructions).
        let finished = try plugin.withFrame(redo ? .redo : .perform, action: self, context: step.context) {
            (frame) throws(PluginActionError) -> Bool in
            frame.expectOutputs(inverse: inverseCount)
            let status = frame.call(performFunction!, step.arguments)
            // The common case: success with nothing handed back (no inverse arguments, key,
            // description or changes), so no outputs are taken or copied.
            if status == UNDO_OK && !frame.hasOutputs { return true }
            return try takePerformOutputs(frame.takeOutputs(), status: status, errorPhase: errorPhase, redo: redo,
                                          into: &step, changes: &changes)
        }
        if finished { step.performed = true }
    }

    /// An isolated plugin's perform, out of line: the in-process call, every step's, stays short
    /// (its spills and stack frame with it).
    @inline(never)
    private func performRemotely(_ remote: IsolatedPluginProcess, _ step: inout PluginStep.State,
                                 changes: inout UndoChanges) throws(PluginActionError)
    {
        let context = step.context
        try plugin.serialized { () throws(PluginActionError) in
            try remote.perform(self, &step, context: context, changes: &changes)
        }
    }

    /// An isolated plugin's inverse, out of line (see ``performRemotely(_:_:context:changes:)``).
    @inline(never)
    private func inverseRemotely(_ remote: IsolatedPluginProcess, _ values: [ActionValue], context: UndoContext,
                                 changes: inout UndoChanges) throws(PluginActionError)
    {
        try plugin.serialized { () throws(PluginActionError) in
            try remote.inverse(self, values, context: context, changes: &changes)
        }
    }

    /// Checks what perform handed back and stores it in the step and `changes`.
    /// - Returns: `false` when the step is obsolete (it is then left as it was).
    private func takePerformOutputs(_ outputs: consuming CallOutputs?, status: Int32, errorPhase: PluginActionError.Phase,
                                    redo: Bool, into step: inout PluginStep.State,
                                    changes: inout UndoChanges) throws(PluginActionError) -> Bool
    {
        guard status == UNDO_OK else { throw failure(status, outputs, errorPhase) }
        guard let outputs else { return true }
        if outputs.changesOverLimit { throw tooManyChanges(errorPhase, reported: outputs.changes) }
        if outputs.isObsolete {
            // Nothing of the step changes: the history drops it (UndoChanges.markObsolete). An
            // obsolete step leaves (or never enters) the history: it needs no inverse.
            changes.append(contentsOf: outputs.changes)
            changes.markObsolete()
            return false
        }
        if let missing = outputs.inverse?.firstIndex(where: { $0 == nil }) {
            throw missingInverse(missing, errorPhase, reported: outputs.changes)
        }
        if let inverse = outputs.inverse { step.inverseArguments = inverse.map { $0! } }
        if !redo, let key = outputs.coalescingKey {
            step.coalescing = key.map { .key(UndoCoalescingKey(pluginID + "/" + $0)) } ?? .never
        }
        // A redo's description is accepted and ignored: the step keeps its first one.
        if !redo, let description = outputs.description { step.description = description }
        if !outputs.changes.isEmpty { changes.append(contentsOf: outputs.changes) }
        return true
    }

    /// Runs the inverse with a step's inverse arguments, borrowed: the caller's values are read
    /// in place.
    func invokeInverse<Values: ActionValueCollection>(_ arguments: Values, context: UndoContext,
                                                       changes: inout UndoChanges) throws(PluginActionError)
    {
        guard plugin.isLoaded else { throw plugin.unloadedError(action: self, phase: .undo) }
        if let remote = plugin.remote {
            try inverseRemotely(remote, Array(arguments), context: context, changes: &changes)
            return
        }
        try plugin.withFrame(.inverse, action: self, context: context) { (frame) throws(PluginActionError) in
            let status = frame.call(inverseFunction!, arguments)
            // The common case: success with nothing handed back.
            if status == UNDO_OK && !frame.hasOutputs { return }
            let outputs = frame.takeOutputs()
            guard status == UNDO_OK else { throw failure(status, outputs, .undo) }
            guard let outputs else { return }
            if outputs.changesOverLimit { throw tooManyChanges(.undo, reported: outputs.changes) }
            if !outputs.changes.isEmpty { changes.append(contentsOf: outputs.changes) }
            if outputs.isObsolete { changes.markObsolete() }
        }
    }

    /// The error for undoing a step whose inverse takes arguments perform hands back, when
    /// perform never ran (an unloaded plugin's error first, as for every call).
    func neverPerformed() -> PluginActionError {
        guard plugin.isLoaded else { return plugin.unloadedError(action: self, phase: .undo) }
        return PluginActionError(pluginID: pluginID, actionID: shortID, phase: .undo, code: Int32(UNDO_ESTATE),
                                 message: "the step was never performed, so it has no inverse arguments")
    }

    /// Offers two steps of this type in one context to the plugin's merge function.
    /// - Returns: the outcome (a merged step is a new one, with the previous step's coalescing
    ///   key, measured), or `nil` when refused (a failing
    ///   merge is logged and refused): the steps stay two separate steps.
    func invokeMerge(previous: PluginStep, next: PluginStep) -> MergeOutcome? {
        if let remote = plugin.remote {
            guard mergesInItsProcess, plugin.isLoaded else { return nil }
            return plugin.serialized { remote.merge(self, previous: previous, next: next) }
        }
        guard let mergeFunction, plugin.isLoaded else { return nil }
        // Each list made once (a step's arguments are an array made when read) and captured
        // alone: closures that read the steps copied both into each (about 1,500 instructions
        // a merge).
        let previousArguments = previous.arguments
        let nextArguments = next.arguments
        let previousInverse = inverseSignature == nil ? previousArguments : previous.inverseArguments
        let nextInverse = inverseSignature == nil ? nextArguments : next.inverseArguments
        guard let previousInverse, let nextInverse else { return nil }
        return plugin.withFrame(.merge, action: self, context: previous.context) { frame -> MergeOutcome? in
            frame.expectOutputs(inverse: inverseSignature?.parameters.count, arguments: signature.parameters.count)
            let status = ActionValue.withCValues(previousArguments) { cPreviousArguments in
                ActionValue.withCValues(previousInverse) { cPreviousInverse in
                    ActionValue.withCValues(nextArguments) { cNextArguments in
                        ActionValue.withCValues(nextInverse) { cNextInverse in
                            frame.run { mergeFunction($0, cPreviousArguments, cPreviousInverse, cNextArguments, cNextInverse) }
                        }
                    }
                }
            }
            let outputs = frame.takeOutputs() ?? CallOutputs()
            switch status {
            case Int32(UNDO_MERGE_MERGED):
                // Values not set keep the previous step's.
                let arguments = zip(outputs.arguments!, previousArguments).map { $0 ?? $1 }
                var inverse: [ActionValue]?
                if let output = outputs.inverse { inverse = zip(output, previousInverse).map { $0 ?? $1 } }
                var merged = PluginStep(context: previous.context, arguments: arguments, inverseArguments: inverse,
                                        performed: previous.performed)
                merged.coalescing = previous.coalescing
                // A merge that set no description keeps the previous step's.
                merged.description = outputs.description ?? previous.description
                merged.measuredCost = merged.currentCost
                return .merged(merged)
            case Int32(UNDO_MERGE_REFUSED):
                return nil
            case Int32(UNDO_MERGE_ANNULLED):
                return .annulled
            default:
                let reason = outputs.reportedError?.message ?? outputs.refusal ?? ErrorReport.message(of: status)
                plugin.writeLog(.warning, "\(shortID) merge returned \(status) (\(reason)); the steps are kept apart")
                return nil
            }
        }
    }

    /// The error for perform succeeding without setting inverse argument `index`.
    /// A call that reported more changes than the limit fails even when the plugin ignored
    /// report_change's UNDO_ELIMIT: its changes were not all recorded.
    private func tooManyChanges(_ phase: PluginActionError.Phase, reported: UndoChanges) -> PluginActionError {
        var error = PluginActionError(
            pluginID: pluginID, actionID: shortID, phase: phase, code: Int32(UNDO_ELIMIT),
            message: "reported more than \(CallFrame.maximumChangesPerCall) changes in one call")
        error.reportedChanges = reported.all
        // Not logged as well: the caller reports the error it gets (once).
        return error
    }

    private func missingInverse(_ index: Int, _ phase: PluginActionError.Phase, reported: UndoChanges) -> PluginActionError {
        let parameter = inverseSignature!.parameters[index]
        var error = PluginActionError(
            pluginID: pluginID, actionID: shortID, phase: phase, code: Int32(UNDO_EPLUGIN),
            message: "perform succeeded without setting inverse argument \(index + 1) (\(parameter)); the step cannot be undone")
        error.reportedChanges = reported.all
        // Not logged as well: the caller reports the error it gets (once).
        return error
    }

    /// The error for a failed call: the plugin's own message, or why a callback refused, or the
    /// code's meaning.
    private func failure(_ status: Int32, _ outputs: CallOutputs?, _ phase: PluginActionError.Phase) -> PluginActionError {
        var message = outputs?.reportedError?.message ?? outputs?.refusal ?? ErrorReport.message(of: status)
        var code = status
        if !ErrorReport.isFailure(status) {
            // A code outside the table means nothing to the caller: it gets UNDO_EPLUGIN, and
            // the message keeps what the plugin returned.
            message = "returned \(status), which is not an error code" + (message.isEmpty ? "" : ": \(message)")
            code = Int32(UNDO_EPLUGIN)
        }
        var error = PluginActionError(pluginID: pluginID, actionID: shortID, phase: phase, code: code, message: message)
        // What it changed before failing: the history stays unchanged, the document may not.
        error.reportedChanges = outputs?.changes.all ?? []
        return error
    }
}

extension UndoChanges {
    /// Reports every place `other` holds, after these: taken as a whole (the collector of an
    /// action that reported nothing yet takes `other`'s array itself), not one by one.
    mutating func append(contentsOf other: UndoChanges) {
        report(contentsOf: other)
    }
}
