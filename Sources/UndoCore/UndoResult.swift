/// What an undo or redo did: which step, and the places it changed, so the app can scroll to
/// and highlight the result (the HIG's "show the results of an undo or redo").
public struct UndoResult: Sendable, Equatable {
    public enum Direction: Sendable, Equatable { case undo, redo }

    public var direction: Direction {
        @inlinable get { directionAndCount & 1 == 0 ? .undo : .redo }
        set { directionAndCount = directionAndCount & ~1 | (newValue == .undo ? 0 : 1) }
    }
    /// The raw name of the (last) step undone or redone; `nil` for an unnamed step.
    public var name: String?
    /// The context of that step.
    public var context: UndoContext
    /// How many steps the call moved over (more than one for a jump).
    public var stepCount: Int {
        @inlinable get { directionAndCount >> 1 }
        set { directionAndCount = newValue << 1 | directionAndCount & 1 }
    }
    /// The places the actions reported changing, in the order they ran.
    public var changes: [UndoChange] {
        get { reportedChanges ?? [] }
        set { reportedChanges = newValue }
    }
    // Optional: most steps report nothing, and then a result holds no array to retain and
    // release.
    @usableFromInline var reportedChanges: [UndoChange]?
    // The step count and the direction (bit 0) in one word: with four stored properties, the
    // optimizer takes apart a result that the caller of the inlined `undo()` drops, and with
    // it drops the reads of the name and context (see `UndoStack.resultName(at:)`).
    @usableFromInline var directionAndCount: Int

    @inlinable
    public init(direction: Direction, name: String?, context: UndoContext, stepCount: Int = 1,
                changes: [UndoChange] = []) {
        self.directionAndCount = stepCount << 1 | (direction == .undo ? 0 : 1)
        self.name = name
        self.context = context
        self.reportedChanges = changes.isEmpty ? nil : changes
    }

    @inlinable
    init(direction: Direction, name: String?, context: UndoContext, reportedChanges: [UndoChange]?) {
        self.directionAndCount = 1 << 1 | (direction == .undo ? 0 : 1)
        self.name = name
        self.context = context
        self.reportedChanges = reportedChanges
    }

    public static func == (a: UndoResult, b: UndoResult) -> Bool {
        a.direction == b.direction && a.name == b.name && a.context == b.context && a.stepCount == b.stepCount
            && a.changes == b.changes
    }
}

/// One row of a history panel: a step, its name and where it stands.
public struct UndoStepInfo: Sendable, Equatable {
    /// 0-based index in the history, oldest first.
    public var index: Int
    /// A number that identifies the step while it stays in the history.
    public var serial: UInt32
    public var name: String?
    public var context: UndoContext
    /// `true` for steps below the position (done), `false` for redo steps.
    public var isApplied: Bool
    /// `true` if this step's context was saved right after it.
    public var isSavePoint: Bool
    public var isDiscardable: Bool
    /// Members for a group (0 for a single action).
    public var memberCount: Int
}
