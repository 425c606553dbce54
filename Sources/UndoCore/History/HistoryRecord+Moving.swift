extension HistoryRecord {
    /// A step's command taken out of the record to run (its place holds a ``Vacancy``).
    struct Taken {
        let index: Int
        var command: any UndoCommand
    }

    /// What ``advance(_:_:moved:more:in:changes:)`` did.
    enum Advance {
        /// The next step to move over, taken out.
        case next(Taken)
        /// Done: the combined result; the action ended; whether anyone observes the history.
        case done(UndoResult, observed: Bool)
    }

    /// Begins an undo or redo of `scope`: refuses a call from inside an action and while a
    /// group is open, ends the coalescing run, and takes out the first step to move over,
    /// marking an action as running.
    /// - Returns: that step, or `nil` when there is nothing to move over (no action begun).
    mutating func beginMove(_ direction: UndoResult.Direction, in scope: UndoContext?) throws(UndoError) -> Taken? {
        if runningAction { throw UndoError.reentrantCall(direction == .undo ? "undo" : "redo") }
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        coalescingOpen = false
        guard let index = find(direction, in: scope) else { return nil }
        runningAction = true
        return take(at: index)
    }

    /// The step the next undo (or redo) of `scope` moves over.
    func find(_ direction: UndoResult.Direction, in scope: UndoContext?) -> Int? {
        direction == .undo ? newestDone(in: scope) : oldestRedoable(in: scope)
    }

    /// Takes the command at `index` out of the record, so that it runs outside it.
    mutating func take(at index: Int) -> Taken {
        Taken(index: index, command: takeOut(&steps[index].command))
    }

    /// Completes the move over `taken`, which ran (see ``complete(_:_:)``), then takes out the
    /// next step of `scope` when `more` are wanted and there is one; else ends the action
    /// (unless `ending` is `false`) and returns the combined result.
    /// - Parameter moved: how many steps the call has moved over, this one included.
    mutating func advance(_ taken: Taken, _ direction: UndoResult.Direction, moved: Int, more: Bool,
                          in scope: UndoContext?, changes: UndoChanges, ending: Bool = true) -> Advance {
        complete(taken, direction)
        if more, let index = find(direction, in: scope) { return .next(take(at: index)) }
        // Each step moved over sits at the position's edge: the first one undone (the newest)
        // was pushed up by each later one; the last one redone is the newest done step.
        let command = steps[direction == .undo ? position + moved - 1 : position - 1].command
        let result = UndoResult(direction: direction, name: command.name, context: command.context, stepCount: moved,
                                changes: changes.all)
        return .done(result, observed: ending ? endAction() : false)
    }

    // MARK: The one place the position moves

    /// Puts back `taken`, which was undone (or redone) outside the record, and moves it to the
    /// position's edge: an undone step becomes the first redo step, a redone one the newest
    /// done step.
    /// - Complexity: O(1) plus the steps it moves past (none unless it was in another context's
    ///   way).
    mutating func complete(_ taken: Taken, _ direction: UndoResult.Direction) {
        steps[taken.index].command = taken.command
        var from = taken.index
        let to = direction == .undo ? position - 1 : position
        while from < to { steps.swapAt(from, from + 1); from += 1 }
        while from > to { steps.swapAt(from, from - 1); from -= 1 }
        position += direction == .undo ? -1 : 1
    }

    /// Puts back `taken`, whose undo or redo failed with `error`: the record stays as it was,
    /// unless the step could not even be put back (``UndoError/rollbackFailed(step:message:)``),
    /// in which case it is removed, so that what remains still matches the document.
    /// - Returns: the failure, named after the step.
    mutating func fail(_ taken: Taken, _ error: any Error) -> UndoError {
        steps[taken.index].command = taken.command
        let failure = UndoError.wrap(error, step: taken.command.name)
        if case .rollbackFailed = failure {
            totalCost -= Int(steps.remove(at: taken.index).cost)
            if taken.index < position { position -= 1 }
        }
        return failure
    }

    /// Moves the redo step at `index` back among the done steps without running it (a revert
    /// took its change back, and takes it back again in its own step).
    mutating func relocateDone(from index: Int) {
        var from = index
        while from > position { steps.swapAt(from, from - 1); from -= 1 }
        position += 1
    }

    // MARK: Finding steps

    /// The index of the newest done step of `context` (`nil`: of any context), or `nil` while a
    /// group is open. A group that also changed other documents is only offered while no later
    /// done step changed those.
    /// - Complexity: O(1) for `nil`; O(steps after it) otherwise.
    func newestDone(in context: UndoContext?) -> Int? {
        guard openGroups.isEmpty, position > 0 else { return nil }
        guard let context else { return position - 1 }
        var index = position - 1
        while index >= 0 {
            if step(at: index, touches: context) {
                return isFree(index, among: (index + 1)..<position) ? index : nil
            }
            index -= 1
        }
        return nil
    }

    /// The index of the oldest redoable step of `context` (`nil`: of any context), with the same
    /// rules as ``newestDone(in:)``.
    func oldestRedoable(in context: UndoContext?) -> Int? {
        guard openGroups.isEmpty, position < steps.count else { return nil }
        guard let context else { return position }
        for index in position..<steps.count where step(at: index, touches: context) {
            return isFree(index, among: position..<index) ? index : nil
        }
        return nil
    }

    /// Whether the step at `index` changes `context`.
    func step(at index: Int, touches context: UndoContext) -> Bool {
        let command = steps[index].command
        if command.belongs(to: context) { return true }
        guard let group = Self.group(in: command) else { return false }
        return group.allContexts.contains(context)
    }

    /// Whether no step in `others` changes a context that the step at `index` changes, so it
    /// can move past them without taking another document's changes out of order.
    func isFree(_ index: Int, among others: Range<Int>) -> Bool {
        guard !others.isEmpty, Self.group(in: steps[index].command) != nil else { return true }
        let contexts = Self.contexts(of: steps[index].command)
        guard contexts.count > 1 else { return true }
        for other in others where contexts.contains(where: { step(at: other, touches: $0) }) {
            return false
        }
        return true
    }

    // MARK: Save points

    /// The serial of the newest done, non-discardable step of `context`, or the context's
    /// baseline when none is done: what stands for its present content.
    func savedMarker(in context: UndoContext) -> UInt32 {
        newestNonDiscardableSerial(in: context, below: position) ?? (saveStates[context] ?? SaveState()).baseline
    }

    func newestNonDiscardableSerial(in context: UndoContext, below end: Int) -> UInt32? {
        var index = end - 1
        while index >= 0 {
            if step(at: index, touches: context) && !steps[index].command.isDiscardable {
                return steps[index].serial
            }
            index -= 1
        }
        return nil
    }

    func isDirty(_ context: UndoContext) -> Bool {
        !(saveStates[context] ?? SaveState()).saved.contains(savedMarker(in: context))
    }

    /// How many steps of `context` to undo (negative) or redo (positive) to reach its saved
    /// state; `nil` if it cannot be reached.
    func pathToSaved(in context: UndoContext) -> Int? {
        let state = saveStates[context] ?? SaveState()
        if state.saved.contains(savedMarker(in: context)) { return 0 }
        // Backwards: after undoing the k-th done step of the context, the marker is the next
        // non-discardable step below it (or the baseline).
        var count = 0
        var index = position - 1
        while index >= 0 {
            if step(at: index, touches: context) {
                // A step that also changed other documents cannot be part of a revert of this one.
                if Self.contexts(of: steps[index].command).count > 1 { return nil }
                count += 1
                let marker = newestNonDiscardableSerial(in: context, below: index) ?? state.baseline
                if state.saved.contains(marker) { return -count }
            }
            index -= 1
        }
        // Forwards: redoing a non-discardable step makes it the marker.
        count = 0
        for index in position..<steps.count where step(at: index, touches: context) {
            if Self.contexts(of: steps[index].command).count > 1 { return nil }
            count += 1
            if !steps[index].command.isDiscardable && state.saved.contains(steps[index].serial) { return count }
        }
        return nil
    }

    /// Records the revert of `context` that just moved over `count` of its steps in
    /// `direction` (to its saved state) as one new step named `name`.
    mutating func recordRevert(_ context: UndoContext, moved count: Int, _ direction: UndoResult.Direction, name: String) {
        // The steps just moved over, nearest the position first: oldest first after undoing,
        // newest first after redoing.
        var moved: [any UndoCommand] = []
        var indices: [Int] = []
        var index = direction == .undo ? position : position - 1
        while moved.count < count && index >= 0 && index < steps.count {
            if step(at: index, touches: context) {
                moved.append(steps[index].command)
                indices.append(index)
            }
            index += direction == .undo ? 1 : -1
        }
        if direction == .undo {
            // Back to done, where they were (the newest of this context, in their order), then
            // the revert, which undoes copies of them: its undo does them again.
            for index in indices { relocateDone(from: index) }
            let taken = UndoGroup(name: nil, context: context, members: moved)
            appendFinished(InvertedCommand(inner: taken, name: name, context: context))
        } else {
            // Out of the done steps, into the revert, which does them again on redo.
            for index in indices.sorted(by: >) {
                totalCost -= Int(steps.remove(at: index).cost)
                position -= 1
            }
            appendFinished(UndoGroup(name: name, context: context, members: moved.reversed()))
        }
        saveStates[context, default: SaveState()].saved.insert(savedMarker(in: context))
    }
}
