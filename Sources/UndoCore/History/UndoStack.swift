/// The undo history: steps, a position between the done and the redoable ones, save points,
/// limits, groups, coalescing, contexts and observers.
///
/// A small record in the spirit of Qt's `QUndoStack` and the Rust crate `undo`: the steps
/// (oldest first), the position (how many are done), a save state per context and the limits,
/// kept in one value (`HistoryRecord`). A change enters the record in one place
/// (`HistoryRecord/add(_:)`: merge, coalesce, append, evict), and the position moves in one
/// place (`HistoryRecord/place(_:from:)`); observers hear of a change only when a value they
/// can see changed, once per call.
///
/// **Contexts.** Every step belongs to a context (a document). Plain `undo()` takes back the
/// newest step of any context; `undo(in:)` the newest step of one context, even if steps of
/// other documents came after it — that step then becomes the first redo step. Doing something
/// new sets aside only the redo steps of its own context, so each document keeps its own redo.
///
/// **Operations.** Every change other than performing or recording a command is also an
/// ``UndoOperation``, which ``UndoOperation/apply(to:)`` makes through the calls below: the one
/// vocabulary hosts and journals record and replay.
///
/// **Branches.** Redo steps set aside by a new change are kept as a branch of the history,
/// hanging at the state where they were set aside; nothing done is lost. ``goTo(state:)``,
/// ``earlier(_:)`` and ``later(_:)`` move across branches (Vim's `:undo N`, `:earlier`,
/// `:later`), ``tree`` lists them. Undo and redo move along the current branch; the branch
/// moved to last becomes the current one, so redo after returning to a fork takes it.
///
/// **Groups.** While a group is open (``beginGroup(named:description:context:)``), nothing can be undone or
/// redone: ``canUndo`` and ``canRedo`` are `false`, the titles are the plain disabled ones, and
/// ``undo()`` throws ``UndoError/groupOpen`` — as in Qt, where a macro being recorded offers no
/// undo. End the group first.
///
/// **Threads.** `UndoStack` is not synchronized: use it from one thread at a time (for example
/// the main thread), or share it through ``SharedUndoHistory``. Actions and observers run on
/// the calling thread, synchronously.
///
/// **Re-entry.** A command runs while the history is changing its record: a call it makes back
/// into the history to change it (perform, undo, a group, a save, …) is refused with
/// ``UndoError/reentrantCall(_:)``. A command must not read its history either (its name,
/// context, cost, key and merge included): Swift's exclusivity checks stop the program if it
/// does. Observers are told after the change, and may use the history freely.
///
/// **Cost.** A step costs one slot in chunks of slots (`StepList`): 40 bytes for a command of at
/// most three words, 80 for one of up to 64 bytes, held in place in either (a larger one is boxed);
/// its serial, cost and time sit beside it in runs, which steps pushed
/// one after another share (a stored branch keeps them in a 56-byte `Step`). A group's members
/// are held the same way, in one block of slots of the group's; push, undo and redo are
/// O(1) amortized, trimming to a limit included (O(branches) per dropped step while other
/// branches are kept).
public final class UndoStack {
    /// Everything the history keeps, and whether a call is using it (see ``RecordStorage``).
    @usableFromInline let storage: RecordStorage

    /// Creates an empty history.
    /// - Parameters:
    ///   - countLimit: the most steps kept, or `nil` (or 0 or less, as in Qt) for unlimited.
    ///   - memoryLimit: the most bytes kept, or `nil` (or 0 or less) for unlimited.
    ///   - coalescingWindow: see ``coalescingWindow``.
    ///   - clock: the time source of the coalescing window (inject ``ManualUndoClock`` in tests).
    ///   - formatter: formats the menu titles.
    public init(countLimit: Int? = nil, memoryLimit: Int? = nil,
                coalescingWindow: Duration? = .milliseconds(500),
                clock: any UndoClock = SystemUndoClock(),
                formatter: UndoTitleFormatter = UndoTitleFormatter()) {
        storage = RecordStorage(HistoryRecord(countLimit: Self.limit(countLimit), memoryLimit: Self.limit(memoryLimit),
                                              coalescingWindow: coalescingWindow, clock: clock, formatter: formatter))
    }

    deinit { storage.free() }

    /// Runs `body` with the record (see ``RecordStorage/access(_:)``).
    @inlinable
    func access<R>(_ body: (inout HistoryRecord) throws -> R) rethrows -> R { try storage.access(body) }

    // MARK: Configuration

    /// The most steps kept, in all branches; the oldest go first (never the step just done).
    /// `nil`: unlimited; 0 or less is unlimited too, as in Qt's `setUndoLimit` (and as in the C
    /// API's options), and reads back as `nil`.
    ///
    /// A limit is a bound the history always keeps, never raised on its own: lowered below
    /// the steps kept, it drops the oldest done steps first, then, with one step left to undo,
    /// the farthest redo steps (Rust's `undo` raises its limit to keep them instead; Qt
    /// refuses a new limit unless the history is empty). The step just done always stays.
    /// Pending redo steps (no states yet, see ``treeCount``) count as steps; those stored with
    /// other branches go first.
    /// - Complexity: setting it, O(steps dropped) (O(branches) each while branches are kept).
    public var countLimit: Int? {
        get { access { $0.countLimit } }
        set { access { $0.countLimit = Self.limit(newValue) }; limitsChanged() }
    }
    /// The most bytes (the sum of the steps' ``UndoCommand/cost``) kept. `nil` (or 0 or less,
    /// read back as `nil`): unlimited. Lowered, it drops steps as ``countLimit`` does.
    public var memoryLimit: Int? {
        get { access { $0.memoryLimit } }
        set { access { $0.memoryLimit = Self.limit(newValue) }; limitsChanged() }
    }

    /// A limit as kept: `nil` for none, 0 or less (Qt's "no limit").
    static func limit(_ value: Int?) -> Int? { value.flatMap { $0 > 0 ? $0 : nil } }
    /// How long after the previous change a change with the same coalescing key still joins
    /// its step. `nil`: no time limit (runs end only on a break). Default 500 ms.
    public var coalescingWindow: Duration? {
        get { access { $0.coalescingWindow } }
        set { access { $0.coalescingWindow = newValue } }
    }
    /// Formats names into menu titles; changing it (say, the locale) updates the titles.
    public var formatter: UndoTitleFormatter {
        get { access { $0.formatter } }
        set {
            access { $0.formatter = newValue }
            notifyIfObserved()
        }
    }
    /// The context the person is looking at: the default of ``undo(in:)``, ``canUndo``, the
    /// titles, ``isDirty(_:)`` and what observers see. `nil`: the whole history.
    public var currentContext: UndoContext? {
        get { access { $0.currentContext } }
        set {
            access { $0.currentContext = newValue }
            notifyIfObserved()
        }
    }
    /// The deepest nesting of groups accepted.
    public static let maximumGroupDepth = 64

    // MARK: Counts

    /// All steps of the current branch, done and redoable, pending ones included (``treeCount``:
    /// the states of every branch).
    public var count: Int { access { $0.steps.count } }
    /// How many steps are done.
    public var position: Int { access { $0.position } }
    /// The sum of the costs of the steps of every branch (each measured when it went in or last
    /// merged): what ``memoryLimit`` limits.
    public var totalCost: Int { access { $0.totalCost } }
    /// Steps that can be undone (in the whole history).
    public var undoCount: Int { access { $0.position } }
    /// Steps that can be redone (in the whole history).
    public var redoCount: Int { access { $0.steps.count - $0.position } }
    /// How deep groups are open now (0 when none is).
    public var groupDepth: Int { access { $0.openGroups.count } }
    /// The groups being recorded, outermost first.
    var openGroups: [UndoGroup] { access { $0.openGroups } }
    /// Whether changes are performed without being recorded.
    public var isRecordingPaused: Bool { access { $0.recordingPauses > 0 } }
    /// Whether an action is running (its perform or undo is on the stack of the calling
    /// thread, when read through ``SharedUndoHistory``): code that the action calls can refuse
    /// what must not happen meanwhile, as the plugin host refuses loading and unloading.
    public var isRunningAction: Bool { storage.isBusy }

    /// Whether there is something to undo in the current context (never while a group is open).
    public var canUndo: Bool { canUndo(in: currentContext) }
    /// Whether there is something to redo in the current context (never while a group is open).
    public var canRedo: Bool { canRedo(in: currentContext) }

    /// Whether there is something to undo in `context` (`nil`: in the whole history).
    /// - Complexity: O(1) for the whole history; O(steps since that context's newest) otherwise.
    public func canUndo(in context: UndoContext?) -> Bool { access { $0.newestDone(in: context) != nil } }
    /// Whether there is something to redo in `context` (`nil`: in the whole history).
    public func canRedo(in context: UndoContext?) -> Bool { access { $0.oldestRedoable(in: context) != nil } }

    // MARK: Recording

    /// Performs `command` and records it as a step (or joins it to the newest step, when it
    /// coalesces). Redo steps of the command's context are set aside as a branch. While recording is
    /// paused, the command is performed and not recorded; so is a command that marks itself
    /// obsolete (``UndoChanges/markObsolete()``).
    /// - Parameter command: the change to make and record.
    /// - Returns: whether the change was recorded, or left no step because it marked itself
    ///   obsolete or recording is paused.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside an action; the command's own
    ///   error (as ``UndoError/actionFailed(step:underlying:)``) if it fails, with nothing recorded.
    /// - Complexity: O(1) amortized (plus the redo steps discarded).
    // Inlinable: specialized for `C` where it is called, the command is run, and moved into
    // its step, without a generic call or copy.
    @inlinable @discardableResult
    public func perform<C: UndoCommand>(_ command: consuming C) throws -> UndoPerformOutcome {
        try beginAction("perform")
        var changes = UndoChanges()
        do {
            try command.perform(&changes)
        } catch {
            endAction()
            throw UndoError.wrap(error, step: command.name)
        }
        guard !changes.isObsolete else {
            // It changed nothing: there is nothing to record.
            endAction()
            return .obsolete
        }
        let paused = storage.record.pointee.recordingPauses > 0
        let observed = storage.record.pointee.add(command)  // its merge is the command's code too
        endAction()
        if observed { notifyObservers() }
        return paused ? .notRecorded : .recorded
    }

    /// Records a change that was already made (the UndoManager style, or a plugin with its own
    /// user interface): the history will undo it, and redo it with ``UndoCommand/perform(_:)``.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside an action.
    @inlinable
    public func record<C: UndoCommand>(_ command: consuming C) throws {
        try beginAction("record")
        let observed = storage.record.pointee.add(command)
        endAction()
        if observed { notifyObservers() }
    }

    /// Marks an action as running: the calls it makes back into the history are refused.
    /// - Throws: ``UndoError/reentrantCall(_:)`` when one already is.
    @inlinable
    func beginAction(_ call: StaticString) throws(UndoError) { try storage.begin(call) }

    /// Ends the action begun with ``beginAction(_:)``.
    @inlinable
    func endAction() { storage.end() }

    /// Ends the current run of coalescing changes: the next change starts a new step.
    public func breakCoalescing() { access { $0.coalescingOpen = false } }

    /// Pauses recording: changes are performed but not recorded until ``resumeRecording()`` is
    /// called as often as this was.
    public func pauseRecording() { access { $0.recordingPauses += 1 } }
    /// Resumes recording paused with ``pauseRecording()``.
    public func resumeRecording() { access { $0.recordingPauses = max(0, $0.recordingPauses - 1) } }

    func refuseReentry(_ call: String) throws(UndoError) {
        if storage.isBusy { throw UndoError.reentrantCall(call) }
    }

    /// A limit changed: trims to it now.
    func limitsChanged() {
        access { $0.trimToLimits() }
        notifyIfObserved()
    }
}
