/// What an undo or redo did: which step, and the places it changed, so the app can scroll to
/// and highlight the result (the HIG's "show the results of an undo or redo").
public struct UndoResult: Sendable, Equatable {
    public enum Direction: Sendable, Equatable { case undo, redo }

    /// The stored fields: four words, so a result is returned in registers and a caller that
    /// drops it destroys it in a few instructions. A larger result is returned through memory,
    /// and a caller in another module then destroys its `UndoResult?` through the run time's
    /// generic `Optional` witnesses (Swift 6.3: about 120 instructions per undo or redo, most of
    /// them for a result nobody reads).
    ///
    /// The common result (the global context, no changes reported, counts that fit) lives in
    /// `name` and `packed` alone; any other keeps its context, changes and exact counts in
    /// ``Details``, allocated only then.
    ///
    /// Invariant (checked by ``checkInvariants()`` in debug builds): `details` is `nil` exactly
    /// when the context is the global one, there are no changes and the counts fit in `packed`
    /// (then `packed` holds them); with `details`, `packed` holds only the direction.
    private var storedName: String?
    /// Bit 0: the direction (1: redo); bits 2 to 31: `stepCount`; bits 32 to 63:
    /// `obsoleteCount` (both 0 when `details` holds them).
    private var packed: UInt64
    private var details: Details?

    /// What a result other than the common one carries. Immutable, so results may share one
    /// (``init(direction:name:sharing:)``).
    final class Details: Sendable {
        let context: UndoContext
        let stepCount: Int
        let changes: [UndoChange]
        let obsoleteCount: Int
        init(context: UndoContext, stepCount: Int, changes: [UndoChange], obsoleteCount: Int) {
            self.context = context
            self.stepCount = stepCount
            self.changes = changes
            self.obsoleteCount = obsoleteCount
        }
    }

    private static let stepCountLimit = 1 << 30

    /// Whether a result with these parts needs no ``Details``.
    private static func isCommon(context: UndoContext, stepCount: Int, changes: [UndoChange],
                                 obsoleteCount: Int) -> Bool {
        context.name.isEmpty && changes.isEmpty && stepCount >= 0 && stepCount < stepCountLimit
            && obsoleteCount >= 0 && obsoleteCount <= Int(UInt32.max)
    }

    /// Whether the steps were undone or redone.
    public var direction: Direction {
        get { packed & 1 == 0 ? .undo : .redo }
        set { packed = packed & ~1 | (newValue == .undo ? 0 : 1) }
    }
    /// The raw name of the newest step undone or redone (the first undone, or the last redone,
    /// when several were); `nil` for an unnamed step.
    public var name: String? {
        get { storedName }
        set { storedName = newValue }
    }
    /// The context of that step.
    public var context: UndoContext {
        get { details?.context ?? .global }
        set { store(context: newValue, stepCount: stepCount, changes: changes, obsoleteCount: obsoleteCount) }
    }
    /// How many steps the call moved over (more than one for a jump).
    public var stepCount: Int {
        get { details?.stepCount ?? Int(truncatingIfNeeded: packed >> 2 & UInt64(Self.stepCountLimit - 1)) }
        set { store(context: context, stepCount: newValue, changes: changes, obsoleteCount: obsoleteCount) }
    }
    /// The places the actions reported changing, in the order they ran.
    public var changes: [UndoChange] {
        get { details?.changes ?? [] }
        set { store(context: context, stepCount: stepCount, changes: newValue, obsoleteCount: obsoleteCount) }
    }
    /// How many of the steps moved over left the history because their action found that they
    /// change nothing any more (``UndoChanges/markObsolete()``); they are counted in
    /// ``stepCount`` too. 0 for jumps across branches and reverts, which keep every step.
    public var obsoleteCount: Int {
        get { details?.obsoleteCount ?? Int(truncatingIfNeeded: packed >> 32) }
        set { store(context: context, stepCount: stepCount, changes: changes, obsoleteCount: newValue) }
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
        storedName = name
        packed = direction == .undo ? 0 : 1
        details = nil
        store(context: context, stepCount: stepCount, changes: changes, obsoleteCount: obsoleteCount)
    }

    /// The common result of one step in the global context that reported no changes and
    /// stayed in the history: the name and the direction, nothing else to check or store.
    init(direction: Direction, oneGlobalStepNamed name: String?) {
        storedName = name
        packed = (direction == .undo ? 0 : 1) | 1 << 2
        details = nil
        checkInvariants()
    }

    /// A result of one step that stayed in the history, in a context other than the global one,
    /// that reported no changes: its parts in `details`, made by ``oneStepDetails(in:)`` and
    /// shared by every such result in that context (an allocation of its own cost about 100
    /// instructions per undo or redo in a document).
    /// - Precondition: `details` is one of ``oneStepDetails(in:)``.
    init(direction: Direction, name: String?, sharing details: Details) {
        storedName = name
        packed = direction == .undo ? 0 : 1
        self.details = details
        assert(details.stepCount == 1 && details.changes.isEmpty && details.obsoleteCount == 0,
               "shared details of another kind of result")
        checkInvariants()
    }

    /// The parts of a result of one step in `context` that stayed and reported no changes.
    /// - Precondition: `context` is not the global one (that result needs no details).
    static func oneStepDetails(in context: UndoContext) -> Details {
        precondition(!context.name.isEmpty, "the global context's result needs no details")
        return Details(context: context, stepCount: 1, changes: [], obsoleteCount: 0)
    }

    /// Stores every part but the name and the direction.
    private mutating func store(context: UndoContext, stepCount: Int, changes: [UndoChange], obsoleteCount: Int) {
        let direction = packed & 1
        if Self.isCommon(context: context, stepCount: stepCount, changes: changes, obsoleteCount: obsoleteCount) {
            details = nil
            packed = direction | UInt64(stepCount) << 2 | UInt64(obsoleteCount) << 32
        } else {
            details = Details(context: context, stepCount: stepCount, changes: changes, obsoleteCount: obsoleteCount)
            packed = direction
        }
        checkInvariants()
    }

    /// Stops a debug build unless the invariant holds (see the stored fields).
    private func checkInvariants() {
        assert(details == nil || packed & ~1 == 0, "a result with details also packed its counts")
        assert(details.map { !Self.isCommon(context: $0.context, stepCount: $0.stepCount, changes: $0.changes,
                                            obsoleteCount: $0.obsoleteCount) } ?? true,
               "a common result kept details")
    }

    public static func == (left: UndoResult, right: UndoResult) -> Bool {
        left.direction == right.direction && left.name == right.name && left.context == right.context
            && left.stepCount == right.stepCount && left.changes == right.changes
            && left.obsoleteCount == right.obsoleteCount
    }
}

/// One row of a history panel: a step, its name and where it stands.
public struct UndoStepInfo: Sendable, Equatable {
    /// 0-based index in the history, oldest first.
    public var index: Int
    /// A number that identifies the step while it stays in the history: the id of the state
    /// after it. 0 for a pending redo step (another document's redo step kept above a change
    /// made at an older state), which is no state until it is redone and then takes a number.
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
    /// Members for a group (0 for a single action). A revert that only takes steps back
    /// counts the steps it takes back.
    public var memberCount: Int
}
