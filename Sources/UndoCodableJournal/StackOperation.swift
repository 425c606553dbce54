import UndoCore

/// One journaled call to the history, in the form that replays it. A command performed or
/// recorded goes beside it, in its own columns (its type's name and its JSON).
///
/// Moves across branches (`goTo`, `earlier`, `later`) are kept as the state they reached: a
/// move by time or by saves then replays to the same state whatever the clock says (one that
/// found no state, as ``travelFoundNoState``).
///
/// Its synthesized JSON (`{"undo":{"count":1,"scope":{"current":{}}}}`) is the file format:
/// renaming a case or a label is a new format version (the fixture test sees it).
enum StackOperation: Codable, Hashable {
    /// Which steps an undo or redo considered: the current context, the whole history, or one context.
    enum Scope: Codable, Hashable {
        case current
        case whole
        case context(String)

        init(_ scope: UndoContext?) { self = scope.map { .context($0.name) } ?? .whole }
    }

    case perform
    case record
    case undo(count: Int, scope: Scope)
    case redo(count: Int, scope: Scope)
    case move(position: Int)
    case goTo(state: UInt32)
    /// `earlier` or `later` that found no state to go to: nothing changed, and a coalescing
    /// change made next still joins the step before.
    case travelFoundNoState
    case beginGroup(name: String?, context: String?)
    case endGroup
    case cancelGroup
    case breakCoalescing
    case markSaved(context: String?)
    case forgetSavePoint(context: String?)
    case revertToSaved(context: String?, name: String)
    case countLimit(Int?)
    case memoryLimit(Int?)
    /// The window as `Duration`'s two exact components.
    case coalescingWindow(seconds: Int64?, attoseconds: Int64?)
    case currentContext(String?)
    case pauseRecording
    case resumeRecording
    /// `nil`: every step and save state.
    case removeAll(context: String?)

    /// Whether a command goes with it.
    var carriesCommand: Bool { self == .perform || self == .record }
}
