/// What an undo or redo did: which step, and the places it changed, so the app can scroll to
/// and highlight the result (the HIG's "show the results of an undo or redo").
public struct UndoResult: Sendable, Equatable {
    public enum Direction: Sendable, Equatable { case undo, redo }

    /// The stored fields, built by their memberwise initializer. A result is made on every undo
    /// and redo: built field by field in an initializer of its own, the optimizer (Swift 6.3)
    /// kept a copy of the whole result and destroyed the original, about 180 instructions per
    /// call; the memberwise initializer of a stored struct builds it in place.
    private struct Fields: Sendable, Equatable {
        var direction: Direction
        var name: String?
        var context: UndoContext
        var stepCount: Int
        var changes: [UndoChange]
        var obsoleteCount: Int
    }

    private var fields: Fields

    /// Whether the steps were undone or redone.
    public var direction: Direction {
        get { fields.direction }
        set { fields.direction = newValue }
    }
    /// The raw name of the newest step undone or redone (the first undone, or the last redone,
    /// when several were); `nil` for an unnamed step.
    public var name: String? {
        get { fields.name }
        set { fields.name = newValue }
    }
    /// The context of that step.
    public var context: UndoContext {
        get { fields.context }
        set { fields.context = newValue }
    }
    /// How many steps the call moved over (more than one for a jump).
    public var stepCount: Int {
        get { fields.stepCount }
        set { fields.stepCount = newValue }
    }
    /// The places the actions reported changing, in the order they ran.
    public var changes: [UndoChange] {
        get { fields.changes }
        set { fields.changes = newValue }
    }
    /// How many of the steps moved over left the history because their action found that they
    /// change nothing any more (``UndoChanges/markObsolete()``); they are counted in
    /// ``stepCount`` too. 0 for jumps across branches and reverts, which keep every step.
    public var obsoleteCount: Int {
        get { fields.obsoleteCount }
        set { fields.obsoleteCount = newValue }
    }

    /// - Parameters:
    ///   - direction: undone or redone.
    ///   - name: the raw name of the newest step moved over.
    ///   - context: that step's context.
    ///   - stepCount: how many steps were moved over.
    ///   - changes: the places changed, in order.
    ///   - obsoleteCount: how many of the steps left the history as obsolete.
    public init(direction: Direction, name: String?, context: UndoContext, stepCount: Int = 1,
                changes: [UndoChange] = [], obsoleteCount: Int = 0) {
        fields = Fields(direction: direction, name: name, context: context, stepCount: stepCount,
                        changes: changes, obsoleteCount: obsoleteCount)
    }
}

/// One row of a history panel: a step, its name and where it stands.
public struct UndoStepInfo: Sendable, Equatable {
    /// 0-based index in the history, oldest first.
    public var index: Int
    /// A number that identifies the step while it stays in the history.
    public var serial: UInt32
    public var name: String?
    /// The step's longer description for history lists, raw as the command gave it
    /// (``UndoCommand/historyDescription``); `nil` when it has none.
    public var historyDescription: String?
    public var context: UndoContext
    /// `true` for steps below the position (done), `false` for redo steps.
    public var isApplied: Bool
    /// `true` if this step's context was saved right after it.
    public var isSavePoint: Bool
    public var isDiscardable: Bool
    /// Members for a group (0 for a single action).
    public var memberCount: Int
}
