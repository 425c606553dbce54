/// Why the history refused or could not complete a call. The history is unchanged unless the
/// case says otherwise.
public enum UndoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A failure with `message` as its description (for actions that have no error type of
    /// their own).
    public static func actionFailed(step: String?, message: String) -> UndoError {
        .actionFailed(step: step, underlying: ActionMessage(message))
    }

    /// undo, redo, perform or another change was called from inside an action that the
    /// history is running (an action's own perform or undo).
    case reentrantCall(String)
    /// `endGroup` with no group open.
    case noOpenGroup
    /// An undo, redo, save, revert or move while a group is open: its changes are made but not
    /// yet one step, so the group must end first. The text names no operation: it serves them all.
    case groupOpen
    /// Groups nested deeper than the history allows.
    case groupTooDeep(limit: Int)
    /// A group name or a context name longer than the history accepts, in UTF-8 bytes.
    case nameTooLong(what: String, bytes: Int, limit: Int)
    /// The position asked for is outside the history.
    case positionOutOfRange(requested: Int, count: Int)
    /// No state of the history has this id (a step's serial; 0 is the start): it never
    /// existed, or a limit dropped it.
    case stateNotFound(UInt32)
    /// A time-travel distance that could not be read (`"10s"`, `"3"`, `"1f"` are).
    case invalidTravel(String)
    /// Nothing to undo (or redo) in the context asked for.
    case nothingToUndo
    case nothingToRedo
    /// The saved state can no longer be reached (its steps were trimmed or discarded).
    case savePointUnreachable(UndoContext)
    /// The document has no saved state to go back to: its save point was forgotten
    /// (``UndoStack/forgetSavePoint(_:)``) and it was not saved since.
    case noSavePoint(UndoContext)
    /// The way to the document's saved state passes `step`, a group that also changed other
    /// documents: it cannot be run for this document alone (``UndoStack/goTo(state:)`` moves
    /// every document there).
    case revertCrossesOtherDocuments(UndoContext, step: String?)
    /// A move of one document (``UndoStack/goTo(state:in:named:)``) would pass a step that
    /// also changed other documents, which cannot run for one document alone.
    case moveCrossesOtherDocuments(UndoContext, step: String?)
    /// An action failed with `underlying`, the action's own error (a plugin's
    /// `PluginActionError`, say). The history is unchanged.
    case actionFailed(step: String?, underlying: any Error)
    /// An action failed and so did putting back the steps already changed: the affected step was
    /// removed from the history so that what remains still matches the document, and the
    /// documents it changed count as edited (dirty) until their next save, since they may keep
    /// part of its change.
    case rollbackFailed(step: String?, message: String)

    public var description: String {
        switch self {
        case .reentrantCall(let what):
            return "\(what) was called from inside an action the history is running; the call was refused"
        case .noOpenGroup: return "endGroup was called with no group open"
        case .groupOpen: return "a group is open: end it first"
        case .groupTooDeep(let limit): return "groups are nested deeper than \(limit) levels"
        case .nameTooLong(let what, let bytes, let limit):
            return "the \(what) is \(bytes) bytes long; at most \(limit) are accepted"
        case .positionOutOfRange(let requested, let count):
            return "position \(requested) is outside the history (0...\(count))"
        case .stateNotFound(let id): return "no state \(id) in the history (it never existed, or a limit dropped it)"
        case .invalidTravel(let text):
            return "\"\(text)\" is not a distance in the history: use a count of states (3), a time (10s, 5m, 1h, 2d) or saves (1f)"
        case .nothingToUndo: return "there is nothing to undo"
        case .nothingToRedo: return "there is nothing to redo"
        case .savePointUnreachable(let context):
            let which = context == .global ? "" : " of \(context.name)"
            return "the saved state\(which) can no longer be reached (its steps were dropped)"
        case .noSavePoint(let context):
            let which = context == .global ? "the document" : context.name
            return "\(which) has no saved state to go back to (its save point was forgotten)"
        case .revertCrossesOtherDocuments(let context, let step):
            let which = context == .global ? "" : " of \(context.name)"
            let name = step.map { " \"\($0)\"" } ?? ""
            return "the way to the saved state\(which) passes the step\(name), which also changed other documents; "
                + "goto moves every document there"
        case .moveCrossesOtherDocuments(let context, let step):
            let which = context == .global ? "the document" : context.name
            let name = step.map { " \"\($0)\"" } ?? ""
            return "the way of \(which) to that state passes the step\(name), which also changed other documents; "
                + "goto without a document moves every document there"
        case .actionFailed(let step, let underlying):
            let message = String(describing: underlying)
            return "\(step.map { "\"\($0)\" " } ?? "")failed: \(message)"
        case .rollbackFailed(let step, let message):
            return "\(step.map { "\"\($0)\" " } ?? "")failed and could not be put back (removed from the history; its documents are marked edited): \(message)"
        }
    }
}

/// Wraps an error thrown by an action so callers see one error type with the step's name.
extension UndoError {
    @usableFromInline
    static func wrap(_ error: any Error, step: String?) -> UndoError {
        if let undoError = error as? UndoError { return undoError }
        return .actionFailed(step: step, underlying: error)
    }

    /// The failing action's own description (``actionFailed(step:underlying:)``), or the
    /// whole description for the other cases.
    public var message: String {
        if case .actionFailed(_, let underlying) = self { return String(describing: underlying) }
        return description
    }

    /// The error an action threw (``actionFailed(step:underlying:)``), if that is what happened.
    public var underlying: (any Error)? {
        if case .actionFailed(_, let underlying) = self { return underlying }
        return nil
    }

    /// Equal when they are the same case with the same values; action failures compare their
    /// step names and their errors' descriptions.
    public static func == (a: UndoError, b: UndoError) -> Bool {
        switch (a, b) {
        case (.actionFailed(let s1, let u1), .actionFailed(let s2, let u2)):
            return s1 == s2 && String(describing: u1) == String(describing: u2)
        case (.reentrantCall(let x), .reentrantCall(let y)): return x == y
        case (.noOpenGroup, .noOpenGroup), (.groupOpen, .groupOpen), (.nothingToUndo, .nothingToUndo),
             (.nothingToRedo, .nothingToRedo):
            return true
        case (.groupTooDeep(let x), .groupTooDeep(let y)): return x == y
        case (.nameTooLong(let w1, let b1, let l1), .nameTooLong(let w2, let b2, let l2)):
            return w1 == w2 && b1 == b2 && l1 == l2
        case (.positionOutOfRange(let r1, let c1), .positionOutOfRange(let r2, let c2)): return r1 == r2 && c1 == c2
        case (.savePointUnreachable(let x), .savePointUnreachable(let y)), (.noSavePoint(let x), .noSavePoint(let y)):
            return x == y
        case (.revertCrossesOtherDocuments(let x, let s1), .revertCrossesOtherDocuments(let y, let s2)),
             (.moveCrossesOtherDocuments(let x, let s1), .moveCrossesOtherDocuments(let y, let s2)):
            return x == y && s1 == s2
        case (.stateNotFound(let x), .stateNotFound(let y)): return x == y
        case (.invalidTravel(let x), .invalidTravel(let y)): return x == y
        case (.rollbackFailed(let s1, let m1), .rollbackFailed(let s2, let m2)): return s1 == s2 && m1 == m2
        default: return false
        }
    }
}

/// The error of an action failure made from a message alone.
struct ActionMessage: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
