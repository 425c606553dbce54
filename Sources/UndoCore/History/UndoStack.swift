import DequeModule

/// The undo history: steps, a position between the done and the redoable ones, save points,
/// limits, groups, coalescing, contexts and observers.
///
/// A small record in the spirit of Qt's `QUndoStack` and the Rust crate `undo`: the steps
/// (oldest first), the position (how many are done), a save state per context and the limits.
/// A change enters the record in one place (``add(_:)``: merge, coalesce, append, evict), and
/// the position moves in one place (``apply(_:at:_:)``); observers hear of a change only when a
/// value they can see changed, once per call.
///
/// **Contexts.** Every step belongs to a context (a document). Plain `undo()` takes back the
/// newest step of any context; `undo(in:)` the newest step of one context, even if steps of
/// other documents came after it — that step then becomes the first redo step. Doing something
/// new discards only the redo steps of its own context, so each document keeps its own redo.
///
/// **Groups.** While a group is open (``beginGroup(named:context:)``), nothing can be undone or
/// redone: ``canUndo`` and ``canRedo`` are `false`, the titles are the plain disabled ones, and
/// ``undo()`` throws ``UndoError/groupOpen`` — as in Qt, where a macro being recorded offers no
/// undo. End the group first.
///
/// **Threads.** `UndoStack` is not synchronized: use it from one thread at a time (for example
/// the main thread), or share it through ``SharedUndoHistory``. Actions and observers run on
/// the calling thread, synchronously.
///
/// **Cost.** A step costs one ``Step`` (48 bytes: the command, inline when it is at most three
/// words, its serial and its cost) in a `Deque`; push, undo and redo are O(1) amortized,
/// trimming to a limit included.
public final class UndoStack {
    // MARK: Configuration

    /// The most steps kept; the oldest go first (never the step just done). `nil`: unlimited.
    public var countLimit: Int? { didSet { limitsChanged() } }
    /// The most bytes (the sum of the steps' ``UndoCommand/cost``) kept. `nil`: unlimited.
    public var memoryLimit: Int? { didSet { limitsChanged() } }
    /// How long after the previous change a change with the same coalescing key still joins
    /// its step. `nil`: no time limit (runs end only on a break). Default 500 ms.
    public var coalescingWindow: Duration? {
        didSet { coalescingWindowNanoseconds = coalescingWindow.map(Self.nanoseconds) }
    }
    /// Formats names into menu titles; changing it (say, the locale) updates the titles.
    public var formatter: UndoTitleFormatter { didSet { titles.removeAll(); notifyIfChanged() } }
    /// The context the person is looking at: the default of ``undo(in:)``, ``canUndo``, the
    /// titles, ``isDirty(_:)`` and what observers see. `nil`: the whole history.
    public var currentContext: UndoContext? { didSet { notifyIfChanged() } }
    /// The deepest nesting of groups accepted.
    public static let maximumGroupDepth = 64

    let clock: any UndoClock
    var coalescingWindowNanoseconds: UInt64?

    // MARK: The record

    /// Every step, oldest first: `record[0..<position]` are done, the rest can be redone.
    var record = Deque<Step>()
    /// How many steps are done.
    public internal(set) var position = 0
    /// The sum of the steps' costs (as measured when each went in or last merged).
    public internal(set) var totalCost = 0
    var nextSerial: UInt32 = 1
    /// The save state of every context that was saved or lost steps to a limit.
    var saveStates: [UndoContext: SaveState] = [:]
    /// The groups being recorded, outermost first.
    var openGroups: [UndoGroup] = []
    /// Set while an action runs, to refuse calls from inside it.
    var runningAction = false
    var recordingPauses = 0
    /// Whether the next change with the same key may join the newest step, and when the last
    /// change of the run was made.
    var coalescingOpen = false
    var lastCoalescingTime: UInt64 = 0
    var titles = TitleCache()
    var observers: [Observer] = []
    var nextObserverID = 0
    var lastState: UndoState?

    /// Creates an empty history.
    /// - Parameters:
    ///   - countLimit: the most steps kept, or `nil` for unlimited.
    ///   - memoryLimit: the most bytes kept, or `nil` for unlimited.
    ///   - coalescingWindow: see ``coalescingWindow``.
    ///   - clock: the time source of the coalescing window (inject ``ManualUndoClock`` in tests).
    ///   - formatter: formats the menu titles.
    public init(countLimit: Int? = nil, memoryLimit: Int? = nil,
                coalescingWindow: Duration? = .milliseconds(500),
                clock: any UndoClock = SystemUndoClock(),
                formatter: UndoTitleFormatter = UndoTitleFormatter()) {
        self.countLimit = countLimit
        self.memoryLimit = memoryLimit
        self.coalescingWindow = coalescingWindow
        self.coalescingWindowNanoseconds = coalescingWindow.map(Self.nanoseconds)
        self.clock = clock
        self.formatter = formatter
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) &* 1_000_000_000 &+ UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    // MARK: Counts

    /// All steps, done and redoable.
    public var count: Int { record.count }
    /// Steps that can be undone (in the whole history).
    public var undoCount: Int { position }
    /// Steps that can be redone (in the whole history).
    public var redoCount: Int { record.count - position }
    /// How deep groups are open now (0 when none is).
    public var groupDepth: Int { openGroups.count }
    /// Whether changes are performed without being recorded.
    public var isRecordingPaused: Bool { recordingPauses > 0 }
    /// Whether an action is running (its perform or undo is on the stack of the calling
    /// thread, when read through ``SharedUndoHistory``): code that the action calls can refuse
    /// what must not happen meanwhile, as the plugin host refuses loading and unloading.
    public var isRunningAction: Bool { runningAction }

    /// Whether there is something to undo in the current context (never while a group is open).
    public var canUndo: Bool { canUndo(in: currentContext) }
    /// Whether there is something to redo in the current context (never while a group is open).
    public var canRedo: Bool { canRedo(in: currentContext) }

    /// Whether there is something to undo in `context` (`nil`: in the whole history).
    /// - Complexity: O(1) for the whole history; O(steps since that context's newest) otherwise.
    public func canUndo(in context: UndoContext?) -> Bool { newestDone(in: context) != nil }
    /// Whether there is something to redo in `context` (`nil`: in the whole history).
    public func canRedo(in context: UndoContext?) -> Bool { oldestRedoable(in: context) != nil }

    // MARK: Recording

    /// Performs `command` and records it as a step (or joins it to the newest step, when it
    /// coalesces). Redo steps of the command's context are discarded. While recording is
    /// paused, the command is performed and not recorded.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside an action; the command's own
    ///   error (as ``UndoError/actionFailed(step:underlying:)``) if it fails, with nothing recorded.
    /// - Complexity: O(1) amortized (plus the redo steps discarded).
    public func perform<C: UndoCommand>(_ command: C) throws {
        try refuseReentry("perform")
        var command = command
        var changes = UndoChanges()
        runningAction = true
        defer { runningAction = false }
        do {
            try command.perform(&changes)
        } catch {
            throw UndoError.wrap(error, step: command.name)
        }
        runningAction = false
        add(command)
        notifyIfChanged()
    }

    /// Records a change that was already made (the UndoManager style, or a plugin with its own
    /// user interface): the history will undo it, and redo it with ``UndoCommand/perform(_:)``.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside an action.
    public func record<C: UndoCommand>(_ command: C) throws {
        try refuseReentry("record")
        add(command)
        notifyIfChanged()
    }

    /// Ends the current run of coalescing changes: the next change starts a new step.
    public func breakCoalescing() { coalescingOpen = false }

    /// Pauses recording: changes are performed but not recorded until ``resumeRecording()`` is
    /// called as often as this was.
    public func pauseRecording() { recordingPauses += 1 }
    /// Resumes recording paused with ``pauseRecording()``.
    public func resumeRecording() { if recordingPauses > 0 { recordingPauses -= 1 } }

    func refuseReentry(_ call: String) throws(UndoError) {
        if runningAction { throw UndoError.reentrantCall(call) }
    }
}

/// One step of the record: the command, the serial that names it while it stays, and its cost
/// as measured when it went in (or last merged), so the running total never drifts when a
/// command's own estimate would change later.
struct Step {
    var command: any UndoCommand
    let serial: UInt32
    /// Bytes, at most `Int32.max` (a larger estimate counts as that much).
    var cost: Int32

    init(_ command: any UndoCommand, serial: UInt32) {
        self.command = command
        self.serial = serial
        self.cost = Step.measure(command)
    }

    static func measure(_ command: any UndoCommand) -> Int32 { Int32(clamping: max(0, command.cost)) }
}

/// The save state of one context: the markers (serials of its newest done, non-discardable
/// step) at which its content is the saved one, and what stands for "none of its steps done"
/// (0, or the newest step trimmed away). A revert adds its own step's serial: the state after
/// it is the saved content too.
struct SaveState {
    var saved: Set<UInt32> = [0]
    var baseline: UInt32 = 0
}
