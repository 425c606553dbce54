import DequeModule

/// The record of an ``UndoStack``: the steps, the position, the save states, the open groups,
/// the coalescing run and the limits, with the one place a change enters it (``add(_:)``) and
/// the one place its position moves (``apply(_:at:_:)``).
///
/// A value type, the one stored property of its ``UndoStack``: a call changes it through one or
/// two accesses, so the algorithms below touch its fields directly (each stored property of a
/// class would pay its own run-time exclusivity check). Commands run between two accesses,
/// never inside one (see ``take(at:)``), so a command that calls back into its history is
/// refused by ``beginAction(_:)``.
///
/// Invariants (checked by ``UndoStack/checkInvariants()``): `0 <= position <= steps.count`;
/// `totalCost` is the sum of the steps' costs; serials are unique; no step is an empty group;
/// at most `max(countLimit, 1)` steps.
struct HistoryRecord {
    /// Every step, oldest first: `steps[0..<position]` are done, the rest can be redone.
    var steps = Deque<Step>()
    /// How many steps are done.
    var position = 0
    /// The sum of the steps' costs (as measured when each went in or last merged).
    var totalCost = 0
    var nextSerial: UInt32 = 1
    /// The save state of every context that was saved or lost steps to a limit.
    var saveStates: [UndoContext: SaveState] = [:]
    /// The groups being recorded, outermost first.
    var openGroups: [UndoGroup] = []
    var recordingPauses = 0
    /// Whether the next change with the same key may join the newest step, and when the last
    /// change of the run was made.
    var coalescingOpen = false
    var lastCoalescingTime: UInt64 = 0
    /// The time the change being merged was made (see ``add(_:)``).
    var pendingCoalescingTime: UInt64 = 0
    /// Where the command taken out for a merge belongs (see ``add(_:)``).
    var mergePlace: MergePlace?
    var countLimit: Int?
    var memoryLimit: Int?
    var coalescingWindow: Duration? {
        didSet { coalescingWindowNanoseconds = coalescingWindow.map(Self.nanoseconds) }
    }
    private(set) var coalescingWindowNanoseconds: UInt64?
    let clock: any UndoClock
    /// Set while an action (or a command's merge) runs, to refuse calls from inside it.
    var runningAction = false
    var currentContext: UndoContext?
    var formatter: UndoTitleFormatter { didSet { titles.removeAll() } }
    var titles = TitleCache()
    var observers: [UndoStack.Observer] = []
    var nextObserverID = 0
    var lastState: UndoState?

    init(countLimit: Int?, memoryLimit: Int?, coalescingWindow: Duration?, clock: any UndoClock,
         formatter: UndoTitleFormatter) {
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

    // MARK: Actions

    /// Marks an action as running: the calls it makes back into the history are refused.
    /// - Throws: ``UndoError/reentrantCall(_:)`` when one already is.
    mutating func beginAction(_ call: String) throws(UndoError) {
        if runningAction { throw UndoError.reentrantCall(call) }
        runningAction = true
    }

    /// Ends the action begun with ``beginAction(_:)``.
    /// - Returns: whether anyone observes the history (the caller then tells them).
    @discardableResult
    mutating func endAction() -> Bool {
        runningAction = false
        return !observers.isEmpty
    }

    // MARK: The one place a change enters the record

    /// What ``add(_:)`` did with a change.
    enum Addition {
        /// Added (or dropped, while recording is paused); the action ended.
        case added(observed: Bool)
        /// It may join the newest step, taken out of the record for the merge: run
        /// ``merge(_:key:into:)`` on it, then ``completeMerge(_:_:_:)``.
        case offered(any UndoCommand, key: UndoCoalescingKey)
    }

    /// Where the command taken out for a merge goes back.
    enum MergePlace {
        case step(Int)
        case member(UndoGroup, Int)
    }

    /// Adds a performed (or already made) change: into the open group, to the newest step (or
    /// the group's newest member) when it coalesces, or as a new step; then the limits are
    /// applied. Nothing is added while recording is paused.
    ///
    /// Coalescing: a change with a coalescing key may join the newest step when the run is
    /// open (no break, save, undo or group boundary since), within the coalescing window, and
    /// the newest step is a command of the same type. Then the newest step is handed out, so
    /// its ``UndoCommand/merge(with:)`` runs outside the record, and
    /// ``completeMerge(_:_:_:)`` decides: merged (one step), annulled (both vanish) or refused
    /// (two steps).
    /// - Precondition: an action is running (``beginAction(_:)``); it ends here unless the
    ///   change is offered for a merge.
    /// - Complexity: O(1) amortized, plus the redo steps discarded and the steps trimmed.
    mutating func add<C: UndoCommand>(_ command: C) -> Addition {
        guard recordingPauses == 0 else { return .added(observed: endAction()) }
        let key = command.coalescingKey
        let now = key != nil && coalescingWindowNanoseconds != nil ? clock.nanoseconds() : 0
        if let key, coalescingOpen, now &- lastCoalescingTime <= coalescingWindowNanoseconds ?? .max,
           let newest = takeNewest(ofType: C.self) {
            pendingCoalescingTime = now
            return .offered(newest, key: key)
        }
        append(command)
        // A change with a key opens (or continues) a run; one without ends it.
        coalescingOpen = key != nil
        lastCoalescingTime = now
        trimToLimits()
        return .added(observed: endAction())
    }

    /// Takes out the newest step (or the open group's newest member) if it is a `C`.
    private mutating func takeNewest<C: UndoCommand>(ofType type: C.Type) -> (any UndoCommand)? {
        func isC<T: UndoCommand>(_ command: T) -> Bool { T.self == C.self }
        if let group = openGroups.last {
            guard let last = group.members.indices.last else { return nil }
            let member = group.members[last]
            guard isC(member) else { return nil }
            mergePlace = .member(group, last)
            return takeOut(&group.members[last])
        }
        guard position > 0 else { return nil }
        let newest = steps[position - 1].command
        guard isC(newest) else { return nil }
        mergePlace = .step(position - 1)
        return takeOut(&steps[position - 1].command)
    }

    /// Puts back the command taken out by ``add(_:)`` and settles the merge's outcome: merged
    /// (re-measured), annulled (both gone; the redo steps survive, as after any change that
    /// changes nothing), or refused or not of one kind (`command` becomes a step of its own).
    /// Ends the action.
    /// - Returns: whether anyone observes the history.
    mutating func completeMerge<C: UndoCommand>(_ newest: any UndoCommand, _ outcome: UndoMerge?, _ command: C) -> Bool {
        guard let place = mergePlace else { preconditionFailure("no command was taken out for a merge") }
        mergePlace = nil
        switch place {
        case .member(let group, let index):
            group.members[index] = newest
            if outcome == .annulled { group.members.remove(at: index) }
            if outcome == .merged || outcome == .annulled { group.membersChanged() }
        case .step(let index):
            steps[index].command = newest
            if outcome == .merged {
                let cost = Step.measure(newest)
                totalCost += Int(cost) - Int(steps[index].cost)
                steps[index].cost = cost
            } else if outcome == .annulled {
                totalCost -= Int(steps.remove(at: index).cost)
                position -= 1
            }
        }
        if outcome != .merged && outcome != .annulled { append(command) }
        coalescingOpen = outcome != .annulled
        lastCoalescingTime = pendingCoalescingTime
        trimToLimits()
        return endAction()
    }

    /// Merges `next` into `top` when `top` is a command of the same type, key and context (the
    /// command's own code: called outside the record).
    /// - Returns: the merge's outcome, or `nil` when they are not of one kind.
    static func merge<C: UndoCommand>(_ next: C, key: UndoCoalescingKey, into top: inout any UndoCommand) -> UndoMerge? {
        func open<T: UndoCommand>(_ top: inout T) -> UndoMerge? {
            // The types compared first: a cast between different types is never tried.
            guard T.self == C.self, let next = next as? T else { return nil }
            guard top.coalescingKey == key, top.belongs(to: next.context) else { return nil }
            return top.merge(with: next)
        }
        return open(&top)
    }

    /// Appends a change as a new step at the position (or as the open group's newest member),
    /// after discarding the redo steps of its contexts.
    private mutating func append(_ command: any UndoCommand) {
        if let group = openGroups.last {
            group.append(command)
            return
        }
        if position < steps.count { discardRedoSteps(of: command) }
        let step = Step(command, serial: takeSerial())
        totalCost += Int(step.cost)
        if position == steps.count { steps.append(step) } else { steps.insert(step, at: position) }
        position += 1
    }

    /// Adds a finished step (a group that closed, a revert) at the position.
    mutating func appendFinished(_ command: any UndoCommand) {
        coalescingOpen = false
        append(command)
        trimToLimits()
    }

    private mutating func takeSerial() -> UInt32 {
        let serial = nextSerial
        nextSerial = nextSerial == UInt32.max ? 1 : nextSerial + 1
        return serial
    }

    /// Doing something new ends the redo steps of the contexts it changes, and of every context
    /// a discarded step shared with them (those could not be redone in order any more).
    /// - Complexity: O(redo steps × contexts they touch).
    private mutating func discardRedoSteps(of command: any UndoCommand) {
        var contexts = Self.contexts(of: command)
        var kept = Deque<Step>()
        for index in position..<steps.count {
            let step = steps[index]
            let touched = Self.contexts(of: step.command)
            if !touched.isDisjoint(with: contexts) {
                contexts.formUnion(touched)
                totalCost -= Int(step.cost)
            } else {
                kept.append(step)
            }
        }
        steps.removeSubrange(position...)
        steps.append(contentsOf: kept)
    }

    // MARK: Limits

    /// Drops the oldest steps beyond the limits, never the step just done: with one step left
    /// to undo, the farthest redo steps go instead.
    /// - Complexity: O(1) amortized per dropped step.
    mutating func trimToLimits() {
        guard countLimit != nil || memoryLimit != nil else { return }
        while steps.count > 1 && overLimits {
            if position >= 2 {
                let removed = steps.removeFirst()
                position -= 1
                totalCost -= Int(removed.cost)
                if !removed.command.isDiscardable {
                    // Undoing everything left no longer reaches the state before this step.
                    for context in Self.contexts(of: removed.command) {
                        saveStates[context, default: SaveState()].baseline = removed.serial
                    }
                }
            } else if steps.count > position {
                totalCost -= Int(steps.removeLast().cost)
            } else {
                break
            }
        }
    }

    private var overLimits: Bool {
        if let limit = countLimit, steps.count > max(limit, 1) { return true }
        if let limit = memoryLimit, totalCost > limit { return true }
        return false
    }

    // MARK: Contexts

    /// The contexts `command` changes: its own, and for a group every member's.
    static func contexts(of command: any UndoCommand) -> Set<UndoContext> {
        guard let group = group(in: command) else { return [command.context] }
        return group.allContexts.union([command.context])
    }

    /// The group `command` is, or runs (a revert), if any.
    static func group(in command: any UndoCommand) -> UndoGroup? {
        // The type is compared before any cast: most steps are no group, and a failing dynamic
        // cast costs far more than the comparison.
        func open<T: UndoCommand>(_ command: T) -> UndoGroup? {
            if T.self == UndoGroup.self { return command as? UndoGroup }
            if T.self == InvertedCommand.self { return (command as? InvertedCommand)?.inner }
            return nil
        }
        return open(command)
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

/// Stands in a step's place while its command runs outside the record (see
/// ``HistoryRecord/take(at:)``); never run itself.
struct Vacancy: UndoCommand {
    mutating func perform(_ changes: inout UndoChanges) throws { preconditionFailure("a vacancy was performed") }
    mutating func undo(_ changes: inout UndoChanges) throws { preconditionFailure("a vacancy was undone") }
}

/// Moves `command` out of its place, leaving a ``Vacancy`` there.
func takeOut(_ command: inout any UndoCommand) -> any UndoCommand {
    var taken: any UndoCommand = Vacancy()
    swap(&taken, &command)
    return taken
}

/// The save state of one context: the markers (serials of its newest done, non-discardable
/// step) at which its content is the saved one, and what stands for "none of its steps done"
/// (0, or the newest step trimmed away). A revert adds its own step's serial: the state after
/// it is the saved content too.
struct SaveState {
    var saved: Set<UInt32> = [0]
    var baseline: UInt32 = 0
}
