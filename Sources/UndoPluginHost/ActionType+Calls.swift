import UndoCore
import UndoPluginABI

/// Calling an action type's perform, inverse and merge functions in its plugin.
///
/// The arguments are read from the step's storage and the inverse arguments perform hands
/// back are written into it (through a buffer on the stack, so a failing call changes
/// nothing); a call allocates nothing on its success path (a frame is reused, C strings of the
/// ids are made once).
extension ActionType {
    enum MergeOutcome {
        case merged(PluginStep)
        case annulled
    }

    /// Runs perform with the step's arguments (already checked) and stores the inverse
    /// arguments it hands back in the step.
    /// - Throws: the plugin's failure, or a broken contract (an inverse argument not set); the
    ///   step is unchanged then.
    func invokePerform(_ step: PluginStep, phase: CallFrame.Phase,
                       changes: inout UndoChanges) throws(PluginActionError) {
        let context = step.context
        let errorPhase: PluginActionError.Phase = phase == .redo ? .redo : .perform
        guard plugin.isLoaded else {
            let error = plugin.unloadedError(action: self, phase: errorPhase)
            FailureSink.report(error)
            throw error
        }
        let inverseCount = step.inverseCount
        if inverseCount == 0 {
            // The inverse takes perform's arguments: nothing to hand back.
            let arguments = step.arguments
            try call(phase: phase, context: context, errorPhase: errorPhase, changes: &changes) {
                performFunction.call($0, arguments)
            }
            return
        }
        let failed: PluginActionError? = withUnsafeTemporaryAllocation(of: ActionValue.self, capacity: inverseCount) { inverse in
            let frameRef = plugin.beginCall(phase, action: self, context: context)
            defer { plugin.endCall(frameRef) }
            let frame = frameRef.takeUnretainedValue()
            frame.inverseOutput = inverse.baseAddress
            let status = frame.call(performFunction, step.arguments)
            guard status == UNDO_OK else {
                frame.dropOutputs(inverseCount: inverseCount, argumentCount: 0)
                return failure(status, frame, errorPhase)
            }
            let all = UInt32(truncatingIfNeeded: (1 << inverseCount) - 1)
            guard frame.inverseSet == all else {
                let index = (~frame.inverseSet).trailingZeroBitCount
                frame.dropOutputs(inverseCount: inverseCount, argumentCount: 0)
                return missingInverse(index, errorPhase)
            }
            frame.inverseSet = 0
            step.moveInverse(from: inverse.baseAddress!)
            if !frame.changes.isEmpty { changes.append(contentsOf: frame.changes) }
            return nil
        }
        if let failed { throw failed }
    }

    /// Runs the inverse with the step's inverse arguments.
    func invokeInverse(_ step: PluginStep, changes: inout UndoChanges) throws(PluginActionError) {
        guard plugin.isLoaded else {
            let error = plugin.unloadedError(action: self, phase: .undo)
            FailureSink.report(error)
            throw error
        }
        let arguments = step.inverseArguments
        try call(phase: .inverse, context: step.context, errorPhase: .undo, changes: &changes) {
            inverseFunction.call($0, arguments)
        }
    }

    /// Runs perform for a string appended to a typing run in place
    /// (``PluginCommand/appendInPlace(_:of:in:)``), which the plugin reads where it is. Only
    /// inside a call of this host's history (its lock is the plugin's call lock).
    @inline(__always)
    func invokePerform(_ text: AppendedText, context: UndoContext) throws(PluginActionError) {
        guard plugin.isLoaded else {
            let error = plugin.unloadedError(action: self, phase: .perform)
            FailureSink.report(error)
            throw error
        }
        var changes = UndoChanges()  // dropped, as a perform's are
        // Under the history lock: the keystroke is joined inside the history's call.
        try call(phase: .perform, context: context, errorPhase: .perform, changes: &changes, historyLockHeld: true) {
            performFunction.call($0, text)
        }
    }

    /// Runs `function` (perform or the inverse) for a step stored inline in its command: one
    /// number, as its slot bits (``ActionValue/numberBits``); `phase` is perform, redo or inverse.
    @inline(__always)
    func invokeInline(_ function: FFIFunction, _ bits: UInt64, context: UndoContext, phase: CallFrame.Phase,
                      changes: inout UndoChanges) throws(PluginActionError) {
        let errorPhase: PluginActionError.Phase = switch phase {
        case .inverse: .undo
        case .redo: .redo
        default: .perform
        }
        guard plugin.isLoaded else {
            let error = plugin.unloadedError(action: self, phase: errorPhase)
            FailureSink.report(error)
            throw error
        }
        try call(phase: phase, context: context, errorPhase: errorPhase, changes: &changes) {
            function.call($0, numberBits: bits)
        }
    }

    /// Makes a call into the plugin in a frame: `body` calls a perform whose inverse takes its
    /// arguments, or an inverse, with the `undo_call` it is given. The frame is used without
    /// reference counting (see ``LoadedPlugin/beginCall(_:action:context:)``).
    @inline(__always)
    private func call(phase: CallFrame.Phase, context: UndoContext, errorPhase: PluginActionError.Phase,
                      changes: inout UndoChanges, historyLockHeld: Bool = false,
                      _ body: (UnsafeMutablePointer<undo_call>) -> Int32) throws(PluginActionError) {
        let frameRef = plugin.beginCall(phase, action: self, context: context, historyLockHeld: historyLockHeld)
        let failed: PluginActionError? = frameRef._withUnsafeGuaranteedRef { frame in
            let status = frame.withCall(body)
            if status != UNDO_OK { return failure(status, frame, errorPhase) }
            if !frame.changes.isEmpty { changes.append(contentsOf: frame.changes) }
            return nil
        }
        plugin.endCall(frameRef, historyLockHeld: historyLockHeld)
        if let failed { throw failed }
    }

    /// Offers two steps of this type in `context` to the plugin's merge function.
    /// - Returns: the outcome (a merged step is a new one), or `nil` when refused (a failing
    ///   merge is logged and refused).
    func invokeMerge(previous: PluginStep, next: PluginStep) -> MergeOutcome? {
        guard let mergeFunction, plugin.isLoaded else { return nil }
        let context = previous.context
        let argumentCount = previous.argumentCount
        let inverseCount = previous.inverseCount
        return withUnsafeTemporaryAllocation(of: ActionValue.self, capacity: argumentCount + inverseCount) { buffer in
            let arguments = buffer.baseAddress!
            let inverse = arguments + argumentCount
            let frameRef = plugin.beginCall(.merge, action: self, context: context)
            defer { plugin.endCall(frameRef) }
            let frame = frameRef.takeUnretainedValue()
            do {
                frame.argumentOutput = arguments
                frame.inverseOutput = inverse
                let status = ActionValue.withCValues(previous.arguments) { prevArgs in
                    ActionValue.withCValues(previous.inverseArguments) { prevInverse in
                        ActionValue.withCValues(next.arguments) { nextArgs in
                            ActionValue.withCValues(next.inverseArguments) { nextInverse in
                                frame.withCall { mergeFunction($0, prevArgs, prevInverse, nextArgs, nextInverse) }
                            }
                        }
                    }
                }
                switch status {
                case Int32(UNDO_MERGE_MERGED):
                    // Values not set keep the previous step's.
                    let merged = PluginStep.make(action: self, context: context, argumentCount: argumentCount) { target in
                        for index in 0..<argumentCount {
                            if frame.argumentSet & (1 << index) != 0 {
                                (target + index).moveInitialize(from: arguments + index, count: 1)
                            } else {
                                (target + index).initialize(to: previous.arguments[index])
                            }
                        }
                    }
                    frame.argumentSet = 0
                    if inverseCount > 0 {
                        let previousInverse = previous.inverseArguments
                        for index in 0..<inverseCount where frame.inverseSet & (1 << index) == 0 {
                            (inverse + index).initialize(to: previousInverse[index])
                        }
                        frame.inverseSet = 0
                        merged.moveInverse(from: inverse)
                    }
                    merged.performed = previous.performed
                    return .merged(merged)
                case Int32(UNDO_MERGE_REFUSED):
                    frame.dropOutputs(inverseCount: inverseCount, argumentCount: argumentCount)
                    return nil
                case Int32(UNDO_MERGE_ANNULLED):
                    frame.dropOutputs(inverseCount: inverseCount, argumentCount: argumentCount)
                    return .annulled
                default:
                    frame.dropOutputs(inverseCount: inverseCount, argumentCount: argumentCount)
                    let reason = frame.reportedError?.message ?? frame.refusal ?? ErrorCode.message(status)
                    plugin.writeLog(.warning, "\(shortID) merge returned \(status) (\(reason)); the steps are kept apart")
                    return nil
                }
            }
        }
    }

    /// The error for perform succeeding without setting inverse argument `index`.
    private func missingInverse(_ index: Int, _ phase: PluginActionError.Phase) -> PluginActionError {
        let parameter = inverseSignature!.parameters[index]
        let error = PluginActionError(
            pluginID: pluginID, actionID: shortID, phase: phase, code: Int32(UNDO_EPLUGIN),
            message: "perform succeeded without setting inverse argument \(index + 1) (\(parameter)); the step cannot be undone")
        plugin.writeLog(.error, error.description)
        FailureSink.report(error)
        return error
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
        FailureSink.report(error)
        return error
    }
}

extension CallFrame {
    /// Deinitializes the values set_arg and set_inverse_arg left in the output buffers of a
    /// call whose results are not used.
    func dropOutputs(inverseCount: Int, argumentCount: Int) {
        if let inverseOutput {
            for index in 0..<inverseCount where inverseSet & (1 << index) != 0 { (inverseOutput + index).deinitialize(count: 1) }
        }
        if let argumentOutput {
            for index in 0..<argumentCount where argumentSet & (1 << index) != 0 { (argumentOutput + index).deinitialize(count: 1) }
        }
        inverseSet = 0
        argumentSet = 0
    }
}

extension UndoChanges {
    mutating func append(contentsOf other: UndoChanges) {
        for change in other.all { report(change) }
    }
}
