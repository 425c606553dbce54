/// Why the history refused or could not complete a call. The history is unchanged unless the
/// case says otherwise.
public enum UndoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// undo, redo, perform or another change was called from inside an action that the
    /// history is running (an action's own perform or undo).
    case reentrantCall(String)
    /// `endGroup` with no group open.
    case noOpenGroup
    /// undo or redo while a group is open: end the group first.
    case groupOpen
    /// Groups nested deeper than the history allows.
    case groupTooDeep(limit: Int)
    /// A group name or a context name longer than the history accepts, in UTF-8 bytes.
    case nameTooLong(what: String, bytes: Int, limit: Int)
    /// The position asked for is outside the history.
    case positionOutOfRange(requested: Int, count: Int)
    /// Nothing to undo (or redo) in the context asked for.
    case nothingToUndo
    case nothingToRedo
    /// The saved state can no longer be reached (its steps were trimmed or discarded).
    case savePointUnreachable(UndoContext)
    /// An action failed; `message` is the action's own description. The history is unchanged.
    case actionFailed(step: String?, message: String)
    /// An action failed and so did putting back the steps already changed: the affected step was
    /// removed from the history so that what remains still matches the document.
    case rollbackFailed(step: String?, message: String)

    public var description: String {
        switch self {
        case .reentrantCall(let what):
            return "\(what) was called from inside an action the history is running; the call was refused"
        case .noOpenGroup: return "endGroup was called with no group open"
        case .groupOpen: return "a group is open: end it before undoing or redoing"
        case .groupTooDeep(let limit): return "groups are nested deeper than \(limit) levels"
        case .nameTooLong(let what, let bytes, let limit):
            return "the \(what) is \(bytes) bytes long; at most \(limit) are accepted"
        case .positionOutOfRange(let requested, let count):
            return "position \(requested) is outside the history (0...\(count))"
        case .nothingToUndo: return "there is nothing to undo"
        case .nothingToRedo: return "there is nothing to redo"
        case .savePointUnreachable(let context):
            let which = context == .global ? "" : " of \(context.name)"
            return "the saved state\(which) can no longer be reached (its steps were dropped)"
        case .actionFailed(let step, let message):
            return "\(step.map { "\"\($0)\" " } ?? "")failed: \(message)"
        case .rollbackFailed(let step, let message):
            return "\(step.map { "\"\($0)\" " } ?? "")failed and could not be put back (removed from the history): \(message)"
        }
    }
}

/// Wraps an error thrown by an action so callers see one error type with the step's name.
extension UndoError {
    @usableFromInline
    static func wrap(_ error: any Error, step: String?) -> UndoError {
        if let undoError = error as? UndoError { return undoError }
        return .actionFailed(step: step, message: String(describing: error))
    }
}
