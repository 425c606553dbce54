/// The undo history: steps, a position between the done and the redoable ones, save points,
/// limits, groups, coalescing, contexts and observers.
///
/// A small record in the spirit of Qt's `QUndoStack` and the Rust crate `undo`: the steps
/// (oldest first), the position (how many are done), a save state per context and the limits.
/// Every move of the position goes through `undoStep(at:)` / `redoStep(at:)`, and observers
/// hear of a change only when a value they can see changed.
///
/// **Contexts.** Every step belongs to a context (a document). Plain `undo()` takes back the
/// newest step of any context; `undo(in:)` the newest step of one context, even if steps of
/// other documents came after it — that step then becomes the first redo step. Doing something
/// new discards only the redo steps of its own context, so each document keeps its own redo.
///
/// **Threads.** `UndoStack` is not synchronized: use it from one thread at a time (for example
/// the main thread), or share it through ``SharedUndoHistory``. Actions and observers run on
/// the calling thread, synchronously.
///
/// **Cost.** A step of a small command costs 44 bytes of history (the inline command and its
/// serial); push, undo and redo are O(1) amortized, trimming to a limit included.
public final class UndoStack {
    // MARK: Configuration

    // Exclusivity: the stored properties the hot paths touch are `@exclusivity(unchecked)`.
    // The history never lets the code it calls change them while it uses them (actions and
    // the commands' properties must not call back into their history, and every mutating entry
    // point refuses calls from inside an action; a limit set from inside an action takes
    // effect at the next change), so the run-time checks could never fire, and they cost
    // nearly half of a push, undo or redo (a swift_beginAccess on every property access).

    /// The most steps kept; the oldest go first (never the step just done). `nil`: unlimited.
    @exclusivity(unchecked)
    public var countLimit: Int? { didSet { limitsChanged() } }
    /// The most bytes (the sum of the steps' ``UndoCommand/cost``) kept. `nil`: unlimited.
    @exclusivity(unchecked)
    public var memoryLimit: Int? { didSet { limitsChanged() } }
    /// Whether either limit is set (one test on the push path instead of two optionals).
    @usableFromInline @exclusivity(unchecked) var hasLimits = false
    /// How long after the previous change a change with the same coalescing key still joins
    /// its step. `nil`: no time limit (runs end only on a break). Default 500 ms.
    public var coalescingWindow: Duration? {
        didSet { coalescingWindowNanoseconds = coalescingWindow.map(Self.nanoseconds) }
    }
    /// Formats names into menu titles; changing it (say, the locale) updates the titles.
    public var formatter: UndoTitleFormatter { didSet { titleMemo.removeAll(); notifyIfChanged() } }
    /// The context the person is looking at: the default of ``undo(in:)``, ``canUndo``, the
    /// titles, ``isDirty`` and what observers see. `nil`: the whole history.
    @exclusivity(unchecked)
    public var currentContext: UndoContext? { didSet { notifyIfChanged() } }
    /// The deepest nesting of groups accepted.
    public static let maximumGroupDepth = 64

    @usableFromInline let clock: any UndoClock
    @usableFromInline @exclusivity(unchecked) var coalescingWindowNanoseconds: UInt64?

    // MARK: State
    //
    // `@usableFromInline`: the push path is `@inlinable` (see perform(_:)), so a program's own
    // command types are specialized into it and their properties read without dynamic calls.

    @usableFromInline @exclusivity(unchecked) var storage = StepStorage()
    /// How many steps are done: `storage[0..<position]` are done, the rest can be redone.
    public internal(set) var position: Int {
        get { _position }
        set { _position = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _position = 0
    @usableFromInline @exclusivity(unchecked) var nextSerial: UInt32 = 1
    /// The sum of the steps' costs.
    public internal(set) var totalCost: Int {
        get { _totalCost }
        set { _totalCost = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _totalCost = 0
    /// The save state of every context that was saved or lost steps to a limit. Read and
    /// changed through this property only: it first writes down the baseline trimming left
    /// pending.
    var saveStates: [UndoContext: SaveState] {
        get { flushPendingBaseline(); return _saveStates }
        _modify { flushPendingBaseline(); yield &_saveStates }
    }
    @exclusivity(unchecked) var _saveStates: [UndoContext: SaveState] = [:]
    /// The baseline the newest trimmed step left for its context, not yet in `_saveStates`:
    /// a history at its limit trims a step on every push, nearly always of the same context,
    /// and only the last baseline of a context counts, so trimming compares contexts instead
    /// of hashing one into the dictionary every time.
    @exclusivity(unchecked) var pendingBaseline: (context: UndoContext, serial: UInt32)?
    @usableFromInline @exclusivity(unchecked) var openGroups: [UndoGroup] = []
    /// The members of the last group closed: room made in the next one (see `endGroup`).
    @usableFromInline @exclusivity(unchecked) var expectedGroupSize = 8
    /// The kinds of the members groups held (see ``MemberKind``), found again by the next
    /// group of the same members rather than made anew.
    @usableFromInline @exclusivity(unchecked) var memberKinds: [MemberKind] = []
    /// Set while an action runs, to refuse calls from inside it.
    @usableFromInline @exclusivity(unchecked) var runningAction = false
    @usableFromInline @exclusivity(unchecked) var recordingPauses = 0
    /// Whether the next change with the same key may join the newest step.
    @usableFromInline @exclusivity(unchecked) var coalescingOpen = false
    @usableFromInline @exclusivity(unchecked) var lastCoalescingTime: UInt64 = 0
    @exclusivity(unchecked) var titleMemo = TitleMemo()
    /// The places the last undo or redo reported, until its result takes them (nearly always
    /// `nil`: see `undoStep(at:)`).
    @usableFromInline @exclusivity(unchecked) var reportedChanges: [UndoChange]?
    @usableFromInline @exclusivity(unchecked) var observers: [Observer] = []
    var nextObserverID = 0
    var lastState: UndoState?

    /// Creates an empty, unlimited history.
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
        self.hasLimits = countLimit != nil || memoryLimit != nil
        self.coalescingWindow = coalescingWindow
        self.coalescingWindowNanoseconds = coalescingWindow.map(Self.nanoseconds)
        self.clock = clock
        self.formatter = formatter
    }

    deinit {
        storage.removeAll()
        titleMemo.deallocate()
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) &* 1_000_000_000 &+ UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    // MARK: Counts

    /// All steps, done and redoable.
    public var count: Int { storage.count }
    /// Steps that can be undone (in the whole history).
    public var undoCount: Int { position }
    /// Steps that can be redone (in the whole history).
    public var redoCount: Int { storage.count - position }
    /// How deep groups are open now (0 when none is).
    public var groupDepth: Int { openGroups.count }
    /// Whether changes are performed without being recorded.
    public var isRecordingPaused: Bool { recordingPauses > 0 }
    /// Whether an action is running (its perform or undo is on the stack of the calling
    /// thread, when read through ``SharedUndoHistory``): code that the action calls can refuse
    /// what must not happen meanwhile, as the plugin host refuses loading and unloading.
    public var isRunningAction: Bool { runningAction }

    /// Whether there is something to undo in the current context.
    public var canUndo: Bool { canUndo(in: currentContext) }
    /// Whether there is something to redo in the current context.
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
    ///
    /// Inlined into the caller and specialized for `C`: the command's properties (its key,
    /// cost, context) are read directly, and it moves into its slot without a dynamic copy.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside an action; the command's own
    ///   error (as ``UndoError/actionFailed(step:underlying:)``) if it fails, with nothing recorded.
    /// - Complexity: O(1) amortized (plus the redo steps discarded).
    @inlinable
    public func perform<C: UndoCommand>(_ command: consuming C) throws {
        // `consuming` hands the command on into the history without a copy.
        if runningAction { throw UndoError.reentrantCall("perform") }
        var changes = UndoChanges()
        runningAction = true
        do {
            try command.perform(&changes)
        } catch {
            runningAction = false
            throw UndoError.wrap(error, step: command.name)
        }
        runningAction = false
        if recordingPauses == 0 { add(command) }
        notifyIfChanged()
    }

    /// Records a change that was already made (the UndoManager style, or a plugin with its own
    /// user interface): the history will undo it, and redo it with ``UndoCommand/perform(_:)``.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside an action.
    @inlinable
    public func record<C: UndoCommand>(_ command: consuming C) throws {
        if runningAction { throw UndoError.reentrantCall("record") }
        if recordingPauses == 0 { add(command) }
        notifyIfChanged()
    }

    /// Ends the current run of coalescing changes: the next change starts a new step.
    public func breakCoalescing() { coalescingOpen = false }

    /// Pauses recording: changes are performed but not recorded until ``resumeRecording()`` is
    /// called as often as this was.
    public func pauseRecording() { recordingPauses += 1 }
    /// Resumes recording paused with ``pauseRecording()``.
    public func resumeRecording() { if recordingPauses > 0 { recordingPauses -= 1 } }

    /// Adds a performed (or already made) command. The common cases stay inline: a change
    /// merged into the newest step of its own type, a member of an open group, and a new step
    /// at the top of a history without limits; everything else (merges within groups, runs,
    /// limits, redo steps to discard) goes through ``addInGeneral(_:)``.
    @inlinable @inline(__always)
    func add<C: UndoCommand>(_ command: consuming C) {
        if let key = command.coalescingKey {
            if coalescingOpen && openGroups.isEmpty && _position > 0 {
                let window = coalescingWindowNanoseconds
                let now = window == nil ? 0 : clock.nanoseconds()
                if window == nil || now &- lastCoalescingTime <= window!,
                   let outcome = mergeIntoNewest(command, key: key) {
                    switch outcome {
                    case .merged: lastCoalescingTime = now
                    case .annulled: removeAnnulledNewest()
                    case .refused: keepAsRun(command, key: key, now: now)
                    }
                    if hasLimits { trimToLimits() }
                    return
                }
            }
            addInGeneral(command)
        } else if let group = openGroups.last {
            coalescingOpen = false
            group.append(command, room: expectedGroupSize, kinds: &memberKinds)
        } else if _position == storage.count && !hasLimits {
            coalescingOpen = false
            let serial = takeSerial()
            _totalCost &+= command.cost
            storage.append(typed: command, serial: serial)
            _position &+= 1
        } else {
            addInGeneral(command)
        }
    }

    /// Offers `next` to the newest step when that is a command of the same type, key and
    /// context, through its own ``UndoCommand/merge(with:)``.
    /// - Returns: the merge's outcome; `nil` when the newest step is not of that kind.
    @inlinable @inline(__always)
    func mergeIntoNewest<C: UndoCommand>(_ next: C, key: UndoCoalescingKey) -> UndoMerge? {
        Self.merge(into: storage.slot(at: _position &- 1), next, key: key, totalCost: &_totalCost)
    }

    /// Merges `next` into the command at `top` when that is a `C`: specialized for `C`, so
    /// the command's key, context, cost and merge are direct calls on the step in place.
    @inlinable @inline(__always)
    static func merge<C: UndoCommand>(into slot: UnsafeMutablePointer<any UndoCommand>, _ next: C,
                                      key: UndoCoalescingKey, totalCost: inout Int) -> UndoMerge? {
        let (address, type) = payload(of: slot)
        guard type == C.self else { return nil }
        let top = address.assumingMemoryBound(to: C.self)
        guard top.pointee.coalescingKey == key, top.pointee.belongs(to: next.context) else { return nil }
        let oldCost = top.pointee.cost
        let outcome = top.pointee.merge(with: next)
        if outcome == .merged { totalCost &+= top.pointee.cost &- oldCost }
        return outcome
    }

    /// Where the command in `slot` is stored (in the slot, or in its box, made unique) and its
    /// type: opening the existential once, without copying the command.
    @inlinable @inline(__always)  // every keystroke of a typing run opens the newest step here
    static func payload(of slot: UnsafeMutablePointer<any UndoCommand>) -> (UnsafeMutableRawPointer, any UndoCommand.Type) {
        func open<T: UndoCommand>(_ command: inout T) -> (UnsafeMutableRawPointer, any UndoCommand.Type) {
            (address(of: &command), T.self)
        }
        return open(&slot.pointee)
    }

    /// The address an inout argument was passed at (no generic closure to call, unlike
    /// `withUnsafeMutablePointer`, which stays unspecialized here).
    @inlinable @inline(__always)
    static func address<T>(of pointer: UnsafeMutablePointer<T>) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(pointer)
    }

    /// The newest step and the change just merged into it cancel out: both vanish; the redo
    /// steps survive, as after any change that changes nothing.
    @usableFromInline
    func removeAnnulledNewest() {
        let (removed, _) = storage.remove(at: position - 1)
        position -= 1
        totalCost -= removed.cost
        coalescingOpen = false
    }

    /// The newest step refused to merge `next`: the two are kept together as one coalesced run
    /// (a group), which later changes with the same key join.
    @usableFromInline
    func keepAsRun(_ next: any UndoCommand, key: UndoCoalescingKey, now: UInt64) {
        storage.withCommand(at: position - 1) { top in
            let oldCost = top.cost
            top = UndoGroup(name: top.name, context: top.context, members: [top, next], runKey: key)
            totalCost += top.cost - oldCost
        }
        lastCoalescingTime = now
    }

    @inlinable @inline(__always)
    func takeSerial() -> UInt32 {
        let serial = nextSerial
        nextSerial = nextSerial == UInt32.max ? 1 : nextSerial &+ 1
        return serial
    }

    /// Adds a performed (or already made) command: to the open group, to the newest step when
    /// it coalesces, or as a new step.
    @usableFromInline
    func addInGeneral<C: UndoCommand>(_ command: consuming C) {
        let key = command.coalescingKey
        var now: UInt64 = 0
        var withinWindow = key != nil && coalescingOpen
        if key != nil, let window = coalescingWindowNanoseconds {
            now = clock.nanoseconds()
            if withinWindow && now &- lastCoalescingTime > window { withinWindow = false }
        }
        if let group = openGroups.last {
            // The last member changed in place (through `members`, every change would copy them).
            if withinWindow, group.memberCount > 0,
               group.withLastMember({ coalesce(&$0, with: command, key: key!) }) != nil {
                if case .annulled? = lastMergeOutcome { group.removeLastMember() }
                group.membersChangedInPlace()
            } else {
                // The first member also gives the group its context.
                group.append(consume command, room: expectedGroupSize, kinds: &memberKinds)
            }
            coalescingOpen = key != nil
            lastCoalescingTime = now
            return
        }
        if withinWindow, position > 0 {
            let index = position - 1
            let oldCost = storage.withCommand(at: index) { $0.cost }
            if let outcome = storage.withCommand(at: index, { coalesce(&$0, with: command, key: key!) }) {
                switch outcome {
                case .annulled:
                    // Both vanish; the redo steps survive, as after any change that changes nothing.
                    let (removed, _) = storage.remove(at: index)
                    position -= 1
                    totalCost -= removed.cost
                    coalescingOpen = false
                default:
                    totalCost += storage.withCommand(at: index) { $0.cost } - oldCost
                    lastCoalescingTime = now
                }
                trimToLimits()
                return
            }
        }
        insertStep(consume command)  // moved, not copied, into the history
        coalescingOpen = key != nil
        lastCoalescingTime = now
    }

    /// The outcome of the last `coalesce` (kept apart to keep that call's return small).
    @exclusivity(unchecked) var lastMergeOutcome: UndoMerge?

    /// Joins `next` to `top` if they share the key and context: through the command's own
    /// merge when both are of one type, else as a coalesced run (a group of the two).
    /// - Returns: `nil` if they do not coalesce.
    func coalesce<C: UndoCommand>(_ top: inout any UndoCommand, with next: C, key: UndoCoalescingKey) -> UndoMerge? {
        lastMergeOutcome = nil
        guard let topKey = top.coalescingKey, topKey == key, top.belongs(to: next.context) else {
            if let run = top as? UndoGroup, run.runKey == key, run.context == next.context {
                appendToRun(run, next)
                lastMergeOutcome = .merged
                return .merged
            }
            return nil
        }
        let outcome = Self.merge(&top, with: next)
        switch outcome {
        case .merged, .annulled:
            lastMergeOutcome = outcome
            return outcome
        case .refused, nil:
            top = UndoGroup(name: top.name, context: top.context, members: [top, next], runKey: key)
            lastMergeOutcome = .merged
            return .merged
        }
    }

    private func appendToRun<C: UndoCommand>(_ run: UndoGroup, _ next: C) {
        run.membersChangedInPlace()
        if run.memberCount > 0,
           let outcome = run.withLastMember({ Self.merge(&$0, with: next) }), outcome != .refused {
            if outcome == .annulled { run.removeLastMember() }
            return
        }
        run.append(next)
    }

    /// Calls `top.merge(with: next)` when both are of one type (opened, no dynamic cast).
    static func merge<T: UndoCommand, C: UndoCommand>(_ top: inout T, with next: C) -> UndoMerge? {
        guard T.self == C.self else { return nil }
        return top.merge(with: unsafeBitCast(next, to: T.self))
    }

    /// Inserts a new step at the position, after discarding the redo steps of its contexts.
    @inline(__always)  // inlined, the new command moves straight into its slot, uncopied
    func insertStep(_ command: consuming any UndoCommand) {
        if position < storage.count { discardRedoSteps(of: command) }
        let serial = takeSerial()
        totalCost += command.cost
        storage.insert(command, serial: serial, at: position)
        position += 1
        trimToLimits()
    }

    /// Doing something new ends the redo steps of the contexts it changes, and of every context
    /// a discarded step shared with them (those could not be redone in order any more). A
    /// future branch mode would keep them here instead.
    func discardRedoSteps(of command: any UndoCommand) {
        guard position < storage.count else { return }
        var contexts = Self.contexts(of: command)
        var index = position
        while index < storage.count {
            if contexts.contains(where: { step(at: index, touches: $0) }) {
                contexts.formUnion(self.contexts(at: index))
                let (removed, _) = storage.remove(at: index)
                totalCost -= removed.cost
            } else {
                index += 1
            }
        }
    }

    /// A limit changed: trims to it now or, from inside an action (whose step must stay where
    /// it is while it runs), at the next change.
    private func limitsChanged() {
        hasLimits = countLimit != nil || memoryLimit != nil
        guard !runningAction else { return }
        trimToLimits()
        notifyIfChanged()
    }

    /// Drops the oldest steps beyond the limits, never the step just done.
    /// - Complexity: O(1) amortized per dropped step.
    @usableFromInline
    func trimToLimits() {
        guard countLimit != nil || memoryLimit != nil else { return }
        while storage.count > 1 && overLimits {
            if position >= 2 {
                let (removed, serial) = storage.removeFirst()
                position -= 1
                totalCost -= removed.cost
                if !removed.isDiscardable { moveBaselines(past: removed, serial: serial) }
            } else if storage.count > position {
                // Only the step just done is left to undo: drop the farthest redo step instead.
                let (removed, _) = storage.removeLast()
                totalCost -= removed.cost
            } else {
                break
            }
        }
    }

    /// Undoing everything left no longer reaches the state before the trimmed `step`, in any
    /// context it changed.
    private func moveBaselines(past step: any UndoCommand, serial: UInt32) {
        guard Self.group(in: step) != nil else {
            // One context (this runs on every push once a limit is reached): no set to build,
            // and no hashing while the trimmed steps keep to one context.
            let context = step.context
            if let pending = pendingBaseline, pending.context != context { flushPendingBaseline() }
            pendingBaseline = (context, serial)
            return
        }
        for context in Self.contexts(of: step) {
            saveStates[context, default: SaveState()].baseline = serial
        }
    }

    /// Writes the baseline trimming left pending into the save states.
    /// - Complexity: O(1) amortized (one dictionary update, when one is pending).
    @inline(__always)
    func flushPendingBaseline() {
        guard let pending = pendingBaseline else { return }
        pendingBaseline = nil
        _saveStates[pending.context, default: SaveState()].baseline = pending.serial
    }

    var overLimits: Bool {
        if let limit = countLimit, storage.count > max(limit, 1) { return true }
        if let limit = memoryLimit, totalCost > limit { return true }
        return false
    }

    func refuseReentry(_ call: String) throws {
        if runningAction { throw UndoError.reentrantCall(call) }
    }
}

/// The save state of one context: the serial of its newest done step when it was saved, and
/// what stands for "none of its steps done" (0, or the newest step trimmed away).
struct SaveState {
    var saved: UInt32 = 0
    var baseline: UInt32 = 0
}
