import DequeModule

extension UndoStack {
    /// The one place a change enters the record: into the open group, merged into the newest
    /// step (or the group's newest member) when it coalesces, or as a new step; then the
    /// limits are applied. Nothing is added while recording is paused.
    ///
    /// Coalescing: a change with a coalescing key joins the newest step when the run is open
    /// (no break, save, undo or group boundary since), within ``coalescingWindow``, and the
    /// newest step is a command of the same type, key and context. Its
    /// ``UndoCommand/merge(with:)`` decides: merged (one step), annulled (both vanish) or
    /// refused (two steps).
    /// - Complexity: O(1) amortized, plus the redo steps discarded and the steps trimmed.
    func add<C: UndoCommand>(_ command: C) {
        guard recordingPauses == 0 else { return }
        let key = command.coalescingKey
        let now = key != nil && coalescingWindowNanoseconds != nil ? clock.nanoseconds() : 0
        var outcome: UndoMerge = .refused
        if let key, coalescingOpen, now &- lastCoalescingTime <= coalescingWindowNanoseconds ?? .max {
            outcome = mergeWithNewest(command, key: key)
        }
        if outcome == .refused { appendStep(command) }
        // A change with a key opens (or continues) a run; one without, or one that annulled
        // the step before it, ends it.
        coalescingOpen = key != nil && outcome != .annulled
        lastCoalescingTime = now
        trimToLimits()
    }

    /// Offers `command` to the newest step (or the open group's newest member).
    /// - Returns: `.merged` or `.annulled` when it was (the record already changed);
    ///   `.refused` when it must become a step of its own.
    private func mergeWithNewest<C: UndoCommand>(_ command: C, key: UndoCoalescingKey) -> UndoMerge {
        if let group = openGroups.last {
            guard !group.members.isEmpty else { return .refused }
            let last = group.members.count - 1
            switch Self.merge(command, key: key, into: &group.members[last]) {
            case .merged?:
                group.membersChanged()
                return .merged
            case .annulled?:
                group.members.removeLast()
                group.membersChanged()
                return .annulled
            case .refused?, nil:
                return .refused
            }
        }
        guard position > 0 else { return .refused }
        let index = position - 1
        switch Self.merge(command, key: key, into: &record[index].command) {
        case .merged?:
            let cost = Step.measure(record[index].command)
            totalCost += Int(cost) - Int(record[index].cost)
            record[index].cost = cost
            return .merged
        case .annulled?:
            // Both vanish; the redo steps survive, as after any change that changes nothing.
            let removed = record.remove(at: index)
            totalCost -= Int(removed.cost)
            position -= 1
            return .annulled
        case .refused?, nil:
            return .refused
        }
    }

    /// Merges `next` into `top` when `top` is a command of the same type, key and context.
    /// - Returns: the merge's outcome, or `nil` when they are not of one kind.
    static func merge<C: UndoCommand>(_ next: C, key: UndoCoalescingKey, into top: inout any UndoCommand) -> UndoMerge? {
        func open<T: UndoCommand>(_ top: inout T) -> UndoMerge? {
            guard T.self == C.self, let next = next as? T else { return nil }
            guard top.coalescingKey == key, top.belongs(to: next.context) else { return nil }
            return top.merge(with: next)
        }
        return open(&top)
    }

    /// Appends a change as a new step at the position (or as the open group's newest member),
    /// after discarding the redo steps of its contexts.
    private func appendStep(_ command: any UndoCommand) {
        if let group = openGroups.last {
            group.append(command)
            return
        }
        if position < record.count { discardRedoSteps(of: command) }
        record.insert(Step(command, serial: takeSerial()), at: position)
        totalCost += Int(record[position].cost)
        position += 1
    }

    /// Adds a finished step (a group that closed, a revert) at the position.
    func appendFinishedStep(_ command: any UndoCommand) {
        coalescingOpen = false
        appendStep(command)
        trimToLimits()
    }

    func takeSerial() -> UInt32 {
        let serial = nextSerial
        nextSerial = nextSerial == UInt32.max ? 1 : nextSerial + 1
        return serial
    }

    /// Doing something new ends the redo steps of the contexts it changes, and of every context
    /// a discarded step shared with them (those could not be redone in order any more).
    /// - Complexity: O(redo steps × contexts they touch).
    func discardRedoSteps(of command: any UndoCommand) {
        var contexts = Self.contexts(of: command)
        var kept = Deque<Step>()
        for index in position..<record.count {
            let step = record[index]
            let touched = Self.contexts(of: step.command)
            if !touched.isDisjoint(with: contexts) {
                contexts.formUnion(touched)
                totalCost -= Int(step.cost)
            } else {
                kept.append(step)
            }
        }
        record.removeSubrange(position...)
        record.append(contentsOf: kept)
    }

    /// A limit changed: trims to it now or, from inside an action (whose step must stay where
    /// it is while it runs), at the next change.
    func limitsChanged() {
        guard !runningAction else { return }
        trimToLimits()
        notifyIfChanged()
    }

    /// Drops the oldest steps beyond the limits, never the step just done: with one step left
    /// to undo, the farthest redo steps go instead.
    /// - Complexity: O(1) amortized per dropped step.
    func trimToLimits() {
        guard countLimit != nil || memoryLimit != nil else { return }
        while record.count > 1 && overLimits {
            if position >= 2 {
                let removed = record.removeFirst()
                position -= 1
                totalCost -= Int(removed.cost)
                if !removed.command.isDiscardable {
                    // Undoing everything left no longer reaches the state before this step.
                    for context in Self.contexts(of: removed.command) {
                        saveStates[context, default: SaveState()].baseline = removed.serial
                    }
                }
            } else if record.count > position {
                let removed = record.removeLast()
                totalCost -= Int(removed.cost)
            } else {
                break
            }
        }
    }

    var overLimits: Bool {
        if let limit = countLimit, record.count > max(limit, 1) { return true }
        if let limit = memoryLimit, totalCost > limit { return true }
        return false
    }
}
