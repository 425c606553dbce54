/// The record of an ``UndoStack``: the steps, the position, the save states, the open groups,
/// the coalescing run and the limits, with the one place a change enters it (``add(_:)``) and
/// the one place its position moves (``apply(_:at:_:removingObsolete:)``).
///
/// A value type, the one stored property of its ``UndoStack`` besides its action flag: a call
/// changes it through one access, so the algorithms below touch its fields directly (each
/// stored property of a class would pay its own run-time exclusivity check). Commands run
/// inside that access; a command that calls back into its history to change it is refused by
/// the stack's action flag before the record is touched (see ``UndoStack/beginAction(_:)``).
///
/// Invariants (checked by ``UndoStack/checkInvariants()``): `0 <= position <= steps.count`;
/// `totalCost` is the sum of the costs of the steps and of the stored branches' steps; serials
/// are unique across all branches; no step is an empty group; at most `max(countLimit, 1)`
/// steps in all branches; every branch's fork is 0 or a step's serial, and forks form a tree.
@usableFromInline
struct HistoryRecord {
    /// Every step, oldest first: `steps[0..<position]` are done, the rest can be redone.
    @usableFromInline
    var steps = StepList()
    /// How many steps are done.
    @usableFromInline
    var position = 0
    /// The sum of the steps' costs (as measured when each went in or last merged).
    @usableFromInline
    var totalCost = 0
    @usableFromInline
    var nextSerial: UInt32 = 1
    /// How many done and redo steps touch each context.
    @usableFromInline
    var contextCounts = ContextCounts()
    /// The branches besides the current one (the steps above).
    @usableFromInline
    var branches = BranchStore()
    /// Every save, oldest first: the state saved and when (what `earlier 1f` goes back to).
    var saveLog: [SaveRecord] = []
    /// Where the last move by a time aimed, and the state it reached: the next move by a time
    /// from that state counts from the time aimed at, not from when the state was made, so
    /// `earlier 10s` then `later 10s` comes back to where it started (as in Vim).
    var timeCursor: (state: UInt32, time: UInt64)?
    /// The save state of every context that was saved or lost steps to a limit.
    var saveStates: [UndoContext: SaveState] = [:]
    /// The state each document move went to, by the serial of its step (see
    /// ``documentState(of:)``); looked up only, never listed.
    var documentMoves: [UInt32: UInt32] = [:]
    /// The step each copy was made of (the first original, for a copy of a copy), by the copy's
    /// serial (see ``copy(of:at:)``); looked up only, never listed.
    var copyOrigins: [UInt32: UInt32] = [:]
    /// The pending redo steps: other documents' redo steps kept above a change made at an
    /// older state, which are no state yet. They are the last `pendingOrigins.count` steps of
    /// the current branch, all redo steps, each with serial 0, and each entry here is the
    /// state its step copies (the first original); a pending step takes a serial when it is
    /// redone (see ``numberPending(at:origin:)``). So a change made while other documents keep
    /// r redo steps adds one step, not 2r, and a state number still names the documents as
    /// they were when it was made (a pending step has none).
    var pendingOrigins: [UInt32] = []
    /// The groups being recorded, outermost first.
    @usableFromInline
    var openGroups: [UndoGroup] = [] {
        didSet { innermostOpenGroup = openGroups.last?.storage }
    }
    /// The storage of the innermost group being recorded, which every change inside it adds a
    /// member to: reached without retaining and releasing the group each time (an atomic
    /// operation each). `openGroups` keeps the group, and so the storage, alive; the two change
    /// together (`openGroups`' observer), checked by ``UndoStack/checkInvariants()``.
    @usableFromInline
    var innermostOpenGroup: GroupStorage?
    @usableFromInline
    var recordingPauses = 0
    /// How many members the last group closed had: the next group makes room for as many
    /// (programs repeat their groups: a macro, a paste), so it does not grow member by member.
    var lastGroupSize = 0
    /// Whether the last group's first member was held in a wide slot (a plugin step): the next
    /// group's slots are made wide from the start, so its first member does not move the block
    /// into a new one (two allocations a group). Taken from the first member, not from the
    /// block's kind, so one group of small commands puts the next back to narrow slots.
    var lastGroupWasWide = false
    /// Whether the next change with the same key may join the newest step, and when the last
    /// change of the run was made.
    @usableFromInline
    var coalescingOpen = false
    @usableFromInline
    var lastCoalescingTime: UInt64 = 0
    @usableFromInline
    var countLimit: Int?
    @usableFromInline
    var memoryLimit: Int?
    @usableFromInline
    var coalescingWindow: Duration? {
        didSet { coalescingWindowNanoseconds = coalescingWindow.map(Self.nanoseconds) }
    }
    @usableFromInline
    private(set) var coalescingWindowNanoseconds: UInt64?
    @usableFromInline
    let clock: any UndoClock
    /// Whether `clock` is the system's (the default): then it is read directly where a change
    /// is added (``readClock()``; through the existential, it was a call to project the
    /// existential's value and one through its witness table on every change).
    let clockIsSystem: Bool
    @usableFromInline
    var currentContext: UndoContext?
    @usableFromInline
    var formatter: UndoTitleFormatter { didSet { titles.removeAll() } }
    var titles = TitleCache()
    @usableFromInline
    var observers: [UndoStack.Observer] = []
    @usableFromInline
    var nextObserverID = 0
    @usableFromInline
    var lastState: UndoState?
    /// The parts of the result of one step in a document that stayed and reported no changes,
    /// for the document undone or redone in last (see ``oneStepResult(_:name:context:changes:)``).
    var sharedResultDetails: UndoResult.Details?

    @usableFromInline
    init(countLimit: Int?, memoryLimit: Int?, coalescingWindow: Duration?, clock: any UndoClock,
         formatter: UndoTitleFormatter) {
        self.countLimit = countLimit
        self.memoryLimit = memoryLimit
        self.coalescingWindow = coalescingWindow
        self.coalescingWindowNanoseconds = coalescingWindow.map(Self.nanoseconds)
        self.clock = clock
        self.clockIsSystem = clock is SystemUndoClock
        self.formatter = formatter
    }

    @usableFromInline
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) &* 1_000_000_000 &+ UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    // MARK: The one place a change enters the record

    /// Adds a performed (or already made) change: into the open group, merged into the newest
    /// step (or the group's newest member) when it coalesces, or as a new step; then the
    /// limits are applied. Nothing is added while recording is paused.
    ///
    /// Coalescing: a change with a coalescing key joins the newest step when the run is open
    /// (no break, save, undo or group boundary since), within the coalescing window, and the
    /// newest step is a command of the same type, key and context. Its
    /// ``UndoCommand/merge(with:)`` decides: merged (one step), annulled (both vanish) or
    /// refused (two steps).
    /// - Returns: whether anyone observes the history (the caller then tells them).
    /// - Complexity: O(1) amortized, plus the redo steps discarded and the steps trimmed.
    // Inlinable: specialized for `C`, the command's key, cost and merge are direct calls, and
    // it is made an existential in its step in place.
    @inlinable
    mutating func add<C: UndoCommand>(_ command: consuming C) -> Bool {
        guard recordingPauses == 0 else { return isObserved }
        // Asked in place: the key itself is read only by the step it may join, compared there
        // (``UndoCommand/hasCoalescingKey(of:)``); a copy of a heap key here cost a retain and
        // a release, atomic, per keystroke.
        let coalesces = !command.hasCoalescingKey(nil)
        // Every step carries its time (time travel reads it), so a change that makes or merges
        // a step reads the clock, once. A member of an open group carries none (the group gets
        // its time when it closes): it reads the clock only when it has a coalescing key, to time
        // the run it starts or continues.
        let needsTime = openGroups.isEmpty || coalesces
        let now = needsTime ? readClock() : lastCoalescingTime
        var outcome = UndoMerge.refused
        if coalesces, coalescingOpen, now &- lastCoalescingTime <= coalescingWindowNanoseconds ?? .max {
            outcome = mergeWithNewest(command, at: now)
        }
        if outcome == .refused { append(command, at: now) }
        // A change with a key opens (or continues) a run; one without, or one that annulled
        // the step before it, ends it.
        coalescingOpen = coalesces && outcome != .annulled
        lastCoalescingTime = now
        if countLimit != nil || memoryLimit != nil { trimToLimits() }
        return isObserved
    }

    /// The time now, from the history's clock: one direct call (the system's clock read in it).
    @usableFromInline
    func readClock() -> UInt64 {
        clockIsSystem ? SystemUndoClock.now() : clock.nanoseconds()
    }

    /// Whether anyone observes the history.
    // Inlinable: read on every change (a call of its own was about 7 instructions a push).
    @inlinable
    var isObserved: Bool { !observers.isEmpty }

    /// Offers `command`, which has a coalescing key, to the newest step (or the open group's
    /// newest member). Only ``add(_:)`` calls it, when the change has a key: one without would
    /// match every step without one.
    /// - Returns: `.merged` or `.annulled` when it was (the record already changed);
    ///   `.refused` when it must become a step of its own.
    @inlinable
    mutating func mergeWithNewest<C: UndoCommand>(_ command: borrowing C, at now: UInt64) -> UndoMerge {
        // In place in the innermost group's list (through its `members` property, the list
        // was copied and written back on every merge: O(members) a keystroke).
        if let group = innermostOpenGroup { return group.mergeIntoNewestMember(command) }
        guard position > 0 else { return .refused }
        let index = position - 1
        let (outcome, grown) = steps.merge(command, intoStepAt: index, at: now)
        switch outcome {
        case .merged?:
            totalCost += grown
            return .merged
        case .annulled?:
            // Both vanish; the redo steps survive, as after any change that changes nothing.
            count(steps.command(at: index), -1, done: true)
            removeFromList(at: index)
            position -= 1
            return .annulled
        case .refused?, nil:
            return .refused
        }
    }

    /// Appends a change as a new step at the position (or as the open group's newest member).
    @inlinable
    mutating func append<C: UndoCommand>(_ command: consuming C, at now: UInt64) {
        if openGroups.isEmpty && position == steps.count {
            // The common case: a new step on top, made an existential in place. A command added
            // by a program is never a group (groups are made here and come in through insert).
            contextCounts.add(1, done: true, to: command.context)
            totalCost += Int(steps.append(typed: command, serial: takeSerial(), time: now))
            position += 1
        } else if let group = innermostOpenGroup {
            // A member of an open group: made an existential once, in the group's list.
            group.append(typed: command)
        } else {
            insert(command, at: now)
        }
    }

    /// Merges `next` into `top` when `top` is a command of the same type, key and context.
    /// - Returns: the merge's outcome, or `nil` when they are not of one kind.
    // Inlinable: specialized for `C` with the rest of the merge path, one call fewer per keystroke.
    @inlinable
    static func merge<C: UndoCommand>(_ next: borrowing C, into top: inout any UndoCommand) -> UndoMerge? {
        // Of one type only: `top` is changed as a `C` in place (no cast, no copy).
        var outcome: UndoMerge? = nil
        SameTypeView.modify(&top, as: C.self, with: next) { top, next in
            outcome = merge(next, intoSame: &top)
        }
        return outcome
    }

    /// ``merge(_:into:)`` for a `top` of `next`'s own type (a wide slot holds its command's type).
    @inlinable @inline(__always)
    static func merge<C: UndoCommand>(_ next: borrowing C, intoSame top: inout C) -> UndoMerge? {
        guard top.hasCoalescingKey(of: next), top.belongs(to: next.context) else { return nil }
        return top.merge(with: next)
    }

    /// Merges `next` into `top` as ``merge(_:into:)`` does, and measures `top` after a
    /// merge, in place (no copy of the existential to measure it).
    /// - Returns: the merge's outcome (`nil` when they are not of one kind), and the cost of
    ///   `top` after it merged (0 otherwise).
    @inlinable
    static func mergeMeasuring<C: UndoCommand>(_ next: borrowing C, into top: inout any UndoCommand) -> (UndoMerge?, Int32) {
        var result: (UndoMerge?, Int32) = (nil, 0)
        SameTypeView.modify(&top, as: C.self, with: next) { top, next in
            result = mergeMeasuring(next, intoSame: &top)
        }
        return result
    }

    /// ``mergeMeasuring(_:into:)`` for a `top` of `next`'s own type (a wide slot of
    /// ``CommandChunks`` holds its command's type).
    @inlinable @inline(__always)
    static func mergeMeasuring<C: UndoCommand>(_ next: borrowing C, intoSame top: inout C) -> (UndoMerge?, Int32) {
        guard top.hasCoalescingKey(of: next), top.belongs(to: next.context) else { return (nil, 0) }
        let outcome = top.merge(with: next)
        return (outcome, outcome == .merged ? Int32(clamping: max(0, top.cost)) : 0)
    }

    /// Inserts a change as a new step at the position (or as the open group's newest member).
    /// The numbered redo steps stay where they were made, as a branch at the present state;
    /// those of the other contexts that can still be redone after the new step stay above it
    /// as pending steps, which are no state until they are redone (see
    /// ``keepRedoSteps(after:among:)`` and ``pendingOrigins``).
    /// - Complexity: when every redo step is pending and none changes a context the new step
    ///   changes, one step made and the pending steps' slots (and their runs) moved up one place:
    ///   nothing is made, copied or hung for them. Otherwise O(redo steps × contexts they touch).
    @usableFromInline
    mutating func insert(_ command: consuming any UndoCommand, at now: UInt64) {
        if let group = openGroups.last {
            group.append(command)
            return
        }
        let pendingStart = steps.count - pendingOrigins.count
        if position == pendingStart && position < steps.count && !touchesRedoSteps(command) {
            // Every redo step is pending and none changes what the new step changes: they all
            // stay redoable, unnumbered, above it, with nothing to hang or copy.
            let step = Step(command, serial: takeSerial(), time: now)
            count(step.command, 1, done: true)
            totalCost += Int(step.cost)
            steps.insert(step, at: position)
            position += 1
            return
        }
        let redo = position < steps.count ? steps.steps(in: position..<steps.count) : []
        let numbered = pendingStart - position
        let origins = pendingOrigins
        let fork = currentState
        if !redo.isEmpty {
            for step in redo { count(step.command, -1, done: false) }
            steps.removeSuffix(from: position)
            pendingOrigins = []
        }
        // The new step takes the next serial.
        steps.append(Step(command, serial: takeSerial(), time: now))
        count(steps.command(at: position), 1, done: true)
        totalCost += Int(steps.cost(at: position))
        position += 1
        guard !redo.isEmpty else { return }
        let kept = keepRedoSteps(after: steps.command(at: position - 1), among: redo)
        // The numbered ones are states: they stay where they were made. The pending ones were
        // never states: those that do not stay redoable go (their originals are in the tree).
        branches.add(fork: fork, steps: redo[..<numbered])
        var stays = [Bool](repeating: false, count: redo.count)
        for offset in kept {
            stays[offset] = true
            if offset < numbered {
                appendPending(copyOf: redo[offset])
            } else {
                steps.append(redo[offset])
                pendingOrigins.append(origins[offset - numbered])
            }
            count(redo[offset].command, 1, done: false)
        }
        for offset in numbered..<redo.count where !stays[offset] { totalCost -= Int(redo[offset].cost) }
    }

    /// Whether a redo step changes a context that `command` changes.
    /// - Complexity: O(contexts `command` changes).
    private func touchesRedoSteps(_ command: any UndoCommand) -> Bool {
        guard UndoGroup.group(in: command) != nil else { return contextCounts[command.context].redo > 0 }
        return Self.contexts(of: command).contains { contextCounts[$0].redo > 0 }
    }

    /// Appends a pending copy of `step` (a numbered redo step whose state would now mean
    /// something else) at the end of the current branch: the same command and cost, serial 0.
    /// - Complexity: O(1).
    mutating func appendPending(copyOf step: Step) {
        pendingOrigins.append(copyOrigins[step.serial] ?? step.serial)
        totalCost += Int(step.cost)
        steps.append(Step(copying: step, serial: 0, time: step.time))
    }

    /// Gives the pending step just redone, now the newest done step at `index`, a serial: its
    /// state is reached now, so it is a state from now on, a copy of `origin` (saved where
    /// `origin` is, see ``copy(of:at:)``).
    /// - Complexity: O(contexts the step changes) when a context is saved, else O(1).
    mutating func numberPending(at index: Int, origin: UInt32) {
        let serial = takeSerial()
        copyOrigins[serial] = origin
        let command = steps.command(at: index)
        if !saveStates.isEmpty {
            for context in Self.contexts(of: command) where saveStates[context]?.saved.contains(origin) == true {
                saveStates[context]!.saved.insert(serial)
            }
        }
        steps.replace(from: index, with: [Step(command: command, serial: serial, cost: steps.cost(at: index),
                                               time: clock.nanoseconds())])
    }

    /// The index of the first pending step (`steps.count` when there is none).
    var pendingStart: Int { steps.count - pendingOrigins.count }

    /// Adds a finished step (a group that closed, a revert, a document move) at the position.
    @usableFromInline
    mutating func appendFinished(_ command: consuming any UndoCommand) {
        coalescingOpen = false
        insert(command, at: clock.nanoseconds())
        trimToLimits()
    }

    /// Adds a group that closed as a step at the position (``appendFinished(_:)``). On top of
    /// a history with no redo steps (the common case) it is counted and measured through the
    /// group itself, and made an existential once, in its slot: through ``insert(_:at:)`` the
    /// step was copied three times and the group found again by a cast.
    /// - Complexity: O(1) on top, plus the steps trimmed; else as ``insert(_:at:)``.
    mutating func appendFinished(group: UndoGroup) {
        guard openGroups.isEmpty && position == steps.count else { return appendFinished(group) }
        coalescingOpen = false
        let now = clock.nanoseconds()
        count(group: group, context: group.context, 1, done: true)
        totalCost += Int(steps.append(typed: group, serial: takeSerial(), time: now))
        position += 1
        trimToLimits()
    }

    @usableFromInline
    mutating func takeSerial() -> UInt32 {
        let serial = nextSerial
        nextSerial = nextSerial == UInt32.max ? 1 : nextSerial + 1
        return serial
    }

    /// Which of the redo steps stay redo steps after `command`, a new step (offsets into `redo`):
    /// a person who undid in one document and then changes another keeps the first one's redo
    /// steps. A redo step stays when nothing before it that leaves (the new step, or a redo step
    /// set aside) changes any of its contexts: it can then still be redone in order.
    ///
    /// Those that stay cannot keep their numbers: the state after each would now include the
    /// new step, which it was not made with. So every redo step stays where it was made (the
    /// caller hangs them all, in their order, as a branch at the state before the new step,
    /// where ``goTo(_:)`` finds them), and those that stay come back as copies with new numbers
    /// (``copy(of:at:)``): every state keeps naming the documents as they were when it was made.
    /// - Complexity: O(redo steps × contexts they touch).
    private func keepRedoSteps(after command: any UndoCommand, among redo: [Step]) -> [Int] {
        var changed = Self.contexts(of: command)
        var kept: [Int] = []
        for offset in redo.indices {
            let touched = Self.contexts(of: redo[offset].command)
            if touched.isDisjoint(with: changed) {
                kept.append(offset)
            } else {
                changed.formUnion(touched)
            }
        }
        return kept
    }

    /// A copy of `step` under a new serial, made at `now`: the same change, done on other steps
    /// than the original (which keeps its own serial where it was made). The contexts it changes
    /// have the content they had after the original, so it is saved where the original is, and
    /// it is not a state of its own for moves in one document (``documentState(of:)`` names the
    /// original).
    /// - Complexity: O(contexts the step changes) when a context is saved, else O(1).
    mutating func copy(of step: Step, at now: UInt64) -> Step {
        let serial = takeSerial()
        copyOrigins[serial] = copyOrigins[step.serial] ?? step.serial
        if !saveStates.isEmpty {
            for context in Self.contexts(of: step.command) where saveStates[context]?.saved.contains(step.serial) == true {
                saveStates[context]!.saved.insert(serial)
            }
        }
        totalCost += Int(step.cost)
        return Step(copying: step, serial: serial, time: now)
    }

    // MARK: Limits

    /// Drops the oldest steps beyond the limits, never the step just done: with one step left
    /// to undo, the farthest redo steps go instead. With branches, the oldest (lowest serial)
    /// of the steps that can go goes first: the current branch's first step (while two or more
    /// are done), or the newest step of a stored branch on which no other branch hangs (a
    /// branch is trimmed from its tip, since its first step is the way to the rest). Dropping
    /// the current branch's first step also drops the branches that hung before it (their
    /// start can no longer be reached); those that hung on it now start the history.
    /// - Complexity: O(1) amortized per dropped step without stored branches; O(branches) per
    ///   dropped step with them.
    @usableFromInline
    mutating func trimToLimits() {
        guard countLimit != nil || memoryLimit != nil else { return }
        while steps.count + branches.stepCount > 1 && overLimits {
            let oldestLeaf = branches.isEmpty ? nil : oldestBranchLeaf()
            if position >= 2 && (oldestLeaf == nil || steps.serial(at: 0) < oldestLeaf!.serial) {
                let removed = steps.removeFirst()
                count(removed.command, -1, done: true)
                position -= 1
                totalCost -= Int(removed.cost)
                if !branches.isEmpty { dropBranchesBeforeStart(removedFirst: removed.serial) }
                if !removed.command.isDiscardable {
                    // Undoing everything left no longer reaches the state before this step.
                    if let group = UndoGroup.group(in: removed.command) {
                        for context in group.allContexts.union([removed.command.context]) {
                            saveStates[context, default: SaveState()].baseline = removed.serial
                        }
                    } else {
                        saveStates[removed.command.context, default: SaveState()].baseline = removed.serial
                    }
                }
            } else if let leaf = oldestLeaf {
                totalCost -= Int(branches.removeLastStep(ofBranchAt: leaf.branch).cost)
            } else if steps.count > position
                        && (!pendingOrigins.isEmpty || !branches.hasBranches(at: steps.serial(at: steps.count - 1))) {
                let removed = steps.removeLast()
                if !pendingOrigins.isEmpty { pendingOrigins.removeLast() }
                count(removed.command, -1, done: false)
                totalCost -= Int(removed.cost)
            } else {
                break
            }
        }
    }

    private var overLimits: Bool {
        if let limit = countLimit, steps.count + branches.stepCount > max(limit, 1) { return true }
        if let limit = memoryLimit, totalCost > limit { return true }
        return false
    }

    // MARK: Contexts

    /// The contexts `command` changes: its own, and for a group every member's.
    @usableFromInline
    static func contexts(of command: any UndoCommand) -> Set<UndoContext> {
        guard let group = UndoGroup.group(in: command) else { return [command.context] }
        return group.allContexts.union([command.context])
    }
}

/// One step of the record: the command, the serial that names it while it stays (and orders
/// the steps by when they were made), its cost as measured when it went in (or last merged), so
/// the running total never drifts when a command's own estimate would change later, and its time.
@usableFromInline
struct Step {
    @usableFromInline
    var command: any UndoCommand
    @usableFromInline
    let serial: UInt32
    /// Bytes, at most `Int32.max` (a larger estimate counts as that much).
    @usableFromInline
    var cost: Int32
    /// When the step's state was last reached by a change (the history's clock, in
    /// nanoseconds): when it went in, or last merged. Time travel by a duration reads it.
    @usableFromInline
    var time: UInt64

    @inlinable
    init(command: any UndoCommand, serial: UInt32, cost: Int32, time: UInt64) {
        self.command = command
        self.serial = serial
        self.cost = cost
        self.time = time
    }

    @usableFromInline
    init(_ command: any UndoCommand, serial: UInt32, time: UInt64) {
        self.command = command
        self.serial = serial
        self.cost = Step.measure(command)
        self.time = time
    }

    /// A step of a command of a known type: measured, then made an existential in place.
    @inlinable
    init<C: UndoCommand>(typed command: consuming C, serial: UInt32, time: UInt64) {
        self.cost = Int32(clamping: max(0, command.cost))
        self.serial = serial
        self.time = time
        self.command = command
    }

    /// A copy of `step` under another serial and time, at the cost measured for the original.
    init(copying step: Step, serial: UInt32, time: UInt64) {
        self.command = step.command
        self.serial = serial
        self.cost = step.cost
        self.time = time
    }

    @usableFromInline
    static func measure(_ command: any UndoCommand) -> Int32 { Int32(clamping: max(0, command.cost)) }
}

/// The save state of one context: the markers (serials of its newest done, non-discardable
/// step) at which its content is the saved one, and what stands for "none of its steps done"
/// (0, or the newest step trimmed away). A revert adds its own step's serial: the state after
/// it is the saved content too.
struct SaveState {
    @usableFromInline
    var saved: Set<UInt32> = [0]
    @usableFromInline
    var baseline: UInt32 = 0
}
