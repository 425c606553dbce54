/// The undo history: steps, a position between the done and the redoable ones, save points,
/// limits, groups, coalescing, contexts and observers.
///
/// A small record in the spirit of Qt's `QUndoStack` and the Rust crate `undo`: the steps
/// (oldest first), the position (how many are done), a save state per context and the limits,
/// kept in one value (``HistoryRecord``). A change enters the record in one place
/// (``HistoryRecord/add(_:)``: merge, coalesce, append, evict), and the position moves in one
/// place (``HistoryRecord/complete(_:_:)``); observers hear of a change only when a value they
/// can see changed, once per call.
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
/// **Re-entry.** A command's perform and undo run while the history is between two changes of
/// its record, so a call they make back into the history is refused with
/// ``UndoError/reentrantCall(_:)``. A command's other members (its name, context, cost, key and
/// merge) are read while the record is being changed, and must not touch the history at all:
/// Swift's exclusivity checks stop the program if they do.
///
/// **Cost.** A step costs one ``Step`` (48 bytes: the command, inline when it is at most three
/// words, its serial and its cost) in a `Deque`; push, undo and redo are O(1) amortized,
/// trimming to a limit included.
public final class UndoStack {
    /// Everything the history keeps: the one stored property, so that a call pays for one
    /// run-time exclusivity check, not one per field.
    var record: HistoryRecord

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
        record = HistoryRecord(countLimit: countLimit, memoryLimit: memoryLimit, coalescingWindow: coalescingWindow,
                               clock: clock, formatter: formatter)
    }

    // MARK: Configuration

    /// The most steps kept; the oldest go first (never the step just done). `nil`: unlimited.
    public var countLimit: Int? {
        get { record.countLimit }
        set { record.countLimit = newValue; limitsChanged() }
    }
    /// The most bytes (the sum of the steps' ``UndoCommand/cost``) kept. `nil`: unlimited.
    public var memoryLimit: Int? {
        get { record.memoryLimit }
        set { record.memoryLimit = newValue; limitsChanged() }
    }
    /// How long after the previous change a change with the same coalescing key still joins
    /// its step. `nil`: no time limit (runs end only on a break). Default 500 ms.
    public var coalescingWindow: Duration? {
        get { record.coalescingWindow }
        set { record.coalescingWindow = newValue }
    }
    /// Formats names into menu titles; changing it (say, the locale) updates the titles.
    public var formatter: UndoTitleFormatter {
        get { record.formatter }
        set {
            record.formatter = newValue
            notifyIfObserved()
        }
    }
    /// The context the person is looking at: the default of ``undo(in:)``, ``canUndo``, the
    /// titles, ``isDirty(_:)`` and what observers see. `nil`: the whole history.
    public var currentContext: UndoContext? {
        get { record.currentContext }
        set {
            record.currentContext = newValue
            notifyIfObserved()
        }
    }
    /// The deepest nesting of groups accepted.
    public static let maximumGroupDepth = 64

    // MARK: Counts

    /// All steps, done and redoable.
    public var count: Int { record.steps.count }
    /// How many steps are done.
    public var position: Int { record.position }
    /// The sum of the steps' costs (each measured when it went in or last merged).
    public var totalCost: Int { record.totalCost }
    /// Steps that can be undone (in the whole history).
    public var undoCount: Int { record.position }
    /// Steps that can be redone (in the whole history).
    public var redoCount: Int { record.steps.count - record.position }
    /// How deep groups are open now (0 when none is).
    public var groupDepth: Int { record.openGroups.count }
    /// The groups being recorded, outermost first.
    var openGroups: [UndoGroup] { record.openGroups }
    /// Whether changes are performed without being recorded.
    public var isRecordingPaused: Bool { record.recordingPauses > 0 }
    /// Whether an action is running (its perform or undo is on the stack of the calling
    /// thread, when read through ``SharedUndoHistory``): code that the action calls can refuse
    /// what must not happen meanwhile, as the plugin host refuses loading and unloading.
    public var isRunningAction: Bool { record.runningAction }

    /// Whether there is something to undo in the current context (never while a group is open).
    public var canUndo: Bool { canUndo(in: currentContext) }
    /// Whether there is something to redo in the current context (never while a group is open).
    public var canRedo: Bool { canRedo(in: currentContext) }

    /// Whether there is something to undo in `context` (`nil`: in the whole history).
    /// - Complexity: O(1) for the whole history; O(steps since that context's newest) otherwise.
    public func canUndo(in context: UndoContext?) -> Bool { record.newestDone(in: context) != nil }
    /// Whether there is something to redo in `context` (`nil`: in the whole history).
    public func canRedo(in context: UndoContext?) -> Bool { record.oldestRedoable(in: context) != nil }

    // MARK: Recording

    /// Performs `command` and records it as a step (or joins it to the newest step, when it
    /// coalesces). Redo steps of the command's context are discarded. While recording is
    /// paused, the command is performed and not recorded.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside an action; the command's own
    ///   error (as ``UndoError/actionFailed(step:underlying:)``) if it fails, with nothing recorded.
    /// - Complexity: O(1) amortized (plus the redo steps discarded).
    public func perform<C: UndoCommand>(_ command: C) throws {
        try record.beginAction("perform")
        var command = command
        var changes = UndoChanges()
        do {
            try command.perform(&changes)
        } catch {
            record.endAction()
            throw UndoError.wrap(error, step: command.name)
        }
        add(command)
    }

    /// Records a change that was already made (the UndoManager style, or a plugin with its own
    /// user interface): the history will undo it, and redo it with ``UndoCommand/perform(_:)``.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside an action.
    public func record<C: UndoCommand>(_ command: C) throws {
        try record.beginAction("record")
        add(command)
    }

    /// Adds a change made under ``HistoryRecord/beginAction(_:)``, merging it outside the
    /// record when it joins the newest step, and ends the action.
    private func add<C: UndoCommand>(_ command: C) {
        var notify: Bool
        switch record.add(command) {
        case .added(let observed):
            notify = observed
        case .offered(var newest, let key):
            let outcome = HistoryRecord.merge(command, key: key, into: &newest)
            notify = record.completeMerge(newest, outcome, command)
        }
        if notify { notifyObservers() }
    }

    /// Ends the current run of coalescing changes: the next change starts a new step.
    public func breakCoalescing() { record.coalescingOpen = false }

    /// Pauses recording: changes are performed but not recorded until ``resumeRecording()`` is
    /// called as often as this was.
    public func pauseRecording() { record.recordingPauses += 1 }
    /// Resumes recording paused with ``pauseRecording()``.
    public func resumeRecording() { if record.recordingPauses > 0 { record.recordingPauses -= 1 } }

    func refuseReentry(_ call: String) throws(UndoError) {
        if record.runningAction { throw UndoError.reentrantCall(call) }
    }

    /// A limit changed: trims to it now or, from inside an action (whose step must stay where
    /// it is while it runs), at the next change.
    func limitsChanged() {
        guard !record.runningAction else { return }
        record.trimToLimits()
        notifyIfObserved()
    }
}
