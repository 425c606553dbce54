extension UndoStack {
    /// Marks `context`'s present state as saved (default: the current context, or
    /// ``UndoContext/global`` when there is none). Ends the coalescing run: a later change never
    /// joins a step from before the save.
    /// - Throws: ``UndoError/groupOpen`` while a group is open (its changes are made but not yet
    ///   a step, so the state before the group is not what would be saved);
    ///   ``UndoError/reentrantCall(_:)`` from inside an action.
    public func markSaved(_ context: UndoContext? = nil) throws {
        try refuseReentry("markSaved")
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        let context = context ?? currentContext ?? .global
        let marker = savedMarker(in: context)
        saveStates[context, default: SaveState()].saved = [marker]
        coalescingOpen = false
        notifyIfChanged()
    }

    /// Whether `context` (default: the current one, or ``UndoContext/global``) differs from its
    /// saved state. Discardable steps do not count.
    /// - Complexity: O(steps since that context's newest non-discardable step).
    public func isDirty(_ context: UndoContext? = nil) -> Bool {
        let context = context ?? currentContext ?? .global
        return !(saveStates[context] ?? SaveState()).saved.contains(savedMarker(in: context))
    }

    /// Whether the saved state of `context` can still be reached by undoing or redoing.
    public func canRevertToSaved(_ context: UndoContext? = nil) -> Bool {
        let context = context ?? currentContext ?? .global
        return openGroups.isEmpty && isDirty(context) && pathToSaved(in: context) != nil
    }

    /// Takes `context` back (or forward) to its saved state in one call, recorded as one new
    /// step named "Revert to Saved" whose undo restores exactly the state before it. All or
    /// nothing; observers are told once, with the final state.
    ///
    /// Backwards, the steps since the save stay in the history, each a step of its own, below
    /// the revert: undoing the revert does them again, and undoing further takes them back one
    /// at a time. Forwards (the saved state is in the redo steps), the revert does those redo
    /// steps, which it then holds.
    /// - Returns: the result of the revert, or `nil` when the context is not dirty.
    /// - Throws: ``UndoError/savePointUnreachable(_:)`` when the saved state's steps are gone
    ///   or the way back passes a group that also changed other documents;
    ///   ``UndoError/groupOpen``; an action's error, with the history as it was.
    @discardableResult
    public func revertToSaved(_ context: UndoContext? = nil) throws -> UndoResult? {
        try refuseReentry("revertToSaved")
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        let context = context ?? currentContext ?? .global
        guard isDirty(context) else { return nil }
        guard let path = pathToSaved(in: context) else { throw UndoError.savePointUnreachable(context) }
        coalescingOpen = false
        defer { notifyIfChanged() }
        let direction: UndoResult.Direction = path < 0 ? .undo : .redo
        guard var result = try moveSteps(count: abs(path), direction, in: context), result.stepCount == abs(path) else {
            throw UndoError.savePointUnreachable(context)
        }
        // The steps just moved over, nearest the position first: oldest first after undoing,
        // newest first after redoing.
        var moved: [any UndoCommand] = []
        var indices: [Int] = []
        var index = direction == .undo ? position : position - 1
        while moved.count < abs(path) && index >= 0 && index < record.count {
            if step(at: index, touches: context) {
                moved.append(record[index].command)
                indices.append(index)
            }
            index += direction == .undo ? 1 : -1
        }
        let name = "Revert to Saved"
        if direction == .undo {
            // Back to done, where they were (they were the newest of this context, so they
            // return to the position's edge in their order), then the revert, which undoes
            // copies of them: its undo does them again.
            for index in indices { relocateDone(from: index) }
            let steps = UndoGroup(name: nil, context: context, members: moved)
            appendFinishedStep(InvertedCommand(inner: steps, name: name, context: context))
        } else {
            // Out of the done steps, into the revert, which does them again on redo.
            for index in indices.sorted(by: >) {
                let removed = record.remove(at: index)
                totalCost -= Int(removed.cost)
                position -= 1
            }
            appendFinishedStep(UndoGroup(name: name, context: context, members: moved.reversed()))
        }
        saveStates[context, default: SaveState()].saved.insert(savedMarker(in: context))
        result.name = name
        return result
    }

    /// Moves the redo step at `index` back among the done steps without running it (its
    /// change was just taken back by a revert, which takes it back again in its own step).
    private func relocateDone(from index: Int) {
        var from = index
        while from > position { record.swapAt(from, from - 1); from -= 1 }
        position += 1
    }

    /// How many steps of `context` to undo (negative) or redo (positive) to reach its saved
    /// state; `nil` if it cannot be reached.
    func pathToSaved(in context: UndoContext) -> Int? {
        let state = saveStates[context] ?? SaveState()
        if state.saved.contains(savedMarker(in: context)) { return 0 }
        // Backwards: after undoing the k-th done step of the context, the marker is the next
        // non-discardable step below it (or the baseline).
        var steps = 0
        var index = position - 1
        while index >= 0 {
            if step(at: index, touches: context) {
                // A step that also changed other documents cannot be part of a revert of this one.
                if Self.contexts(of: record[index].command).count > 1 { return nil }
                steps += 1
                let marker = newestNonDiscardableSerial(in: context, below: index) ?? state.baseline
                if state.saved.contains(marker) { return -steps }
            }
            index -= 1
        }
        // Forwards: redoing a non-discardable step makes it the marker.
        steps = 0
        for index in position..<record.count where step(at: index, touches: context) {
            if Self.contexts(of: record[index].command).count > 1 { return nil }
            steps += 1
            if !record[index].command.isDiscardable && state.saved.contains(record[index].serial) { return steps }
        }
        return nil
    }

    /// The serial of the newest done, non-discardable step of `context`, or the context's
    /// baseline when none is done: what stands for its present content.
    func savedMarker(in context: UndoContext) -> UInt32 {
        newestNonDiscardableSerial(in: context, below: position) ?? (saveStates[context] ?? SaveState()).baseline
    }

    func newestNonDiscardableSerial(in context: UndoContext, below end: Int) -> UInt32? {
        var index = end - 1
        while index >= 0 {
            if step(at: index, touches: context) && !record[index].command.isDiscardable {
                return record[index].serial
            }
            index -= 1
        }
        return nil
    }
}
