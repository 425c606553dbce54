extension UndoStack {
    /// Marks `context`'s present state as saved (default: the current context, or
    /// ``UndoContext/global`` when there is none). Ends the coalescing run: a later change never
    /// joins a step from before the save.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside an action.
    public func markSaved(_ context: UndoContext? = nil) throws {
        try refuseReentry("markSaved")
        let context = context ?? currentContext ?? .global
        let marker = newestSavedMarker(in: context)
        saveStates[context, default: SaveState()].saved = marker
        coalescingOpen = false
        notifyIfChanged()
    }

    /// Whether `context` (default: the current one, or ``UndoContext/global``) differs from its
    /// saved state. Discardable steps do not count.
    /// - Complexity: O(steps since that context's newest non-discardable step).
    public func isDirty(_ context: UndoContext? = nil) -> Bool {
        let context = context ?? currentContext ?? .global
        let state = saveStates[context] ?? SaveState()
        return newestSavedMarker(in: context, state: state) != state.saved
    }

    /// Whether the saved state of `context` can still be reached by undoing or redoing.
    public func canRevertToSaved(_ context: UndoContext? = nil) -> Bool {
        let context = context ?? currentContext ?? .global
        return isDirty(context) && pathToSaved(in: context) != nil
    }

    /// Takes `context` back (or forward) to its saved state in one call, recorded as one step
    /// named "Revert to Saved" that can itself be undone. All or nothing.
    /// - Returns: the result of the revert, or `nil` when the context is not dirty.
    /// - Throws: ``UndoError/savePointUnreachable(_:)`` when the saved state's steps are gone
    ///   or the way back passes a group that also changed other documents;
    ///   an action's error, with the history as it was.
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
        guard var result = try move(count: abs(path), direction: direction, scope: context) else {
            throw UndoError.savePointUnreachable(context)
        }
        if result.stepCount != abs(path) {
            // A step on the way also changed another document that moved on since: stop here.
            _ = try? move(count: result.stepCount, direction: direction == .undo ? .redo : .undo, scope: context)
            throw UndoError.savePointUnreachable(context)
        }
        // Take the steps just moved over out of the history and record the revert as one step.
        var moved: [any UndoCommand] = []
        for _ in 0..<abs(path) {
            let index = direction == .undo ? oldestRedoable(in: context)! : newestDone(in: context)!
            let (command, _) = storage.remove(at: index)
            if index < position { position -= 1 }
            totalCost -= command.cost
            moved.append(command)
        }
        let name = "Revert to Saved"
        if direction == .undo {
            // The reverted steps stay in the history as done (one group), followed by the revert,
            // which undoes that same group object: undoing the revert redoes them, and undoing
            // further takes them back in order. Sharing the object keeps its perform and undo
            // calls alternating, which stateful commands rely on.
            let changes = UndoGroup(name: moved.last?.name, context: context, members: moved)
            insertStep(changes)
            insertStep(InvertedCommand(inner: changes, name: name, context: context))
        } else {
            insertStep(UndoGroup(name: name, context: context, members: moved.reversed()))
        }
        saveStates[context, default: SaveState()].saved = storage.serial(at: position - 1)
        result.name = name
        return result
    }

    /// How many steps of `context` to undo (negative) or redo (positive) to reach its saved
    /// state; `nil` if it cannot be reached.
    func pathToSaved(in context: UndoContext) -> Int? {
        let state = saveStates[context] ?? SaveState()
        if newestSavedMarker(in: context, state: state) == state.saved { return 0 }
        // Backwards: after undoing the k-th done step of the context, the marker is the next
        // non-discardable step below it (or the baseline).
        var steps = 0
        var index = position - 1
        while index >= 0 {
            if step(at: index, touches: context) {
                // A step that also changed other documents cannot be part of a revert of this one.
                if contexts(at: index).count > 1 { return nil }
                steps += 1
                let marker = newestNonDiscardableSerial(in: context, below: index) ?? state.baseline
                if marker == state.saved { return -steps }
            }
            index -= 1
        }
        // Forwards: redoing a non-discardable step makes it the marker.
        steps = 0
        for index in position..<storage.count {
            if step(at: index, touches: context) {
                if contexts(at: index).count > 1 { return nil }
                steps += 1
                let discardable = storage.withCommand(at: index) { $0.isDiscardable }
                if !discardable && storage.serial(at: index) == state.saved { return steps }
            }
        }
        return nil
    }

    /// The serial of the newest done, non-discardable step of `context`, or the context's
    /// baseline when none is done.
    func newestSavedMarker(in context: UndoContext, state: SaveState? = nil) -> UInt32 {
        newestNonDiscardableSerial(in: context, below: position) ?? (state ?? saveStates[context] ?? SaveState()).baseline
    }

    func newestNonDiscardableSerial(in context: UndoContext, below end: Int) -> UInt32? {
        var index = end - 1
        while index >= 0 {
            if step(at: index, touches: context) && !storage.withCommand(at: index, { $0.isDiscardable }) {
                return storage.serial(at: index)
            }
            index -= 1
        }
        return nil
    }
}
