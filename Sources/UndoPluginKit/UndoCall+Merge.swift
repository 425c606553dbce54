import UndoPluginABI

/// The two steps a merge function is asked to combine, copied into Swift values.
public struct UndoMergeRequest: Sendable {
    public let previousArguments: [UndoValue]
    public let previousInverseArguments: [UndoValue]
    public let nextArguments: [UndoValue]
    public let nextInverseArguments: [UndoValue]
}

/// What a merge function decided (see UNDO_MERGE_* in undo_plugin.h).
public enum UndoMergeDecision: Int32, Sendable {
    /// Keep both steps (they still coalesce into one step of the history).
    case refused = 0
    /// The previous step now does both (after ``UndoCall/setArgument(_:_:)`` and
    /// ``UndoCall/setInverseArgument(_:_:)``); the next one is dropped.
    case merged = 1
    /// Together they change nothing: both steps vanish.
    case annulled = 2
}

extension UndoCall {
    /// The body of a merge function: copies the four argument arrays (the kit knows their
    /// lengths from the action's declaration) and returns `body`'s decision; a thrown error is
    /// reported and counts as refused.
    ///
    ///     let merge: UndoMergeFunction = { call, pa, pi, na, ni in
    ///         UndoCall.merge(call, pa, pi, na, ni) { call, steps in ... return .merged }
    ///     }
    public static func merge(_ call: UnsafeMutablePointer<undo_call>?,
                             _ previousArguments: UnsafePointer<undo_value>?,
                             _ previousInverseArguments: UnsafePointer<undo_value>?,
                             _ nextArguments: UnsafePointer<undo_value>?,
                             _ nextInverseArguments: UnsafePointer<undo_value>?,
                             _ body: (UndoCall, UndoMergeRequest) throws -> UndoMergeDecision) -> Int32 {
        guard let call else { return Int32(UNDO_EINVAL) }
        let wrapped = UndoCall(call)
        do {
            guard let action = try wrapped.instance.plugin.action(withID: wrapped.actionID) else {
                throw UndoPluginError(.notFound, "merge called for unknown action \(wrapped.actionID)")
            }
            let argumentCount = action.parameters.count
            let inverseCount = (action.inverseParameters ?? action.parameters).count
            let request = UndoMergeRequest(
                previousArguments: try UndoValue.copyArray(previousArguments, count: argumentCount),
                previousInverseArguments: try UndoValue.copyArray(previousInverseArguments, count: inverseCount),
                nextArguments: try UndoValue.copyArray(nextArguments, count: argumentCount),
                nextInverseArguments: try UndoValue.copyArray(nextInverseArguments, count: inverseCount))
            return try body(wrapped, request).rawValue
        } catch {
            return wrapped.host.report(UndoPluginError(error))
        }
    }
}
