extension UndoStack {
    /// Undoes the newest step of the ``currentContext`` (of the whole history when that is `nil`).
    /// - Returns: what was undone and where it changed things, or `nil` if there was nothing.
    /// - Throws: the action's error, with the history exactly as it was;
    ///   ``UndoError/groupOpen`` while a group is open; ``UndoError/reentrantCall(_:)``.
    /// - Complexity: O(1) for the whole history.
    @inlinable @inline(__always) @discardableResult
    public func undo() throws -> UndoResult? {
        // Inlined: a caller that drops the result destroys a plain value, not an optional one
        // through value witnesses. The common case first: the whole history, nothing open, nothing running.
        guard currentContext == nil && openGroups.isEmpty && !runningAction else { return try undo(in: currentContext) }
        guard _position > 0 else { return nil }
        coalescingOpen = false
        do {
            let outcome = try undoStep(at: _position &- 1)
            notifyIfChanged()
            return UndoResult(direction: .undo, outcome)
        } catch {
            notifyIfChanged()  // a step that could not be put back was removed
            throw error
        }
    }

    /// Undoes the newest step of `context`; `nil` means the whole history.
    @discardableResult
    public func undo(in scope: UndoContext?) throws -> UndoResult? {
        try refuseReentry("undo")
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        guard let index = newestDone(in: scope) else { return nil }
        coalescingOpen = false
        defer { notifyIfChanged() }
        return UndoResult(direction: .undo, try undoStep(at: index))
    }

    /// Redoes the oldest redoable step of the ``currentContext``.
    /// - Returns: what was redone, or `nil` if there was nothing.
    /// - Throws: as ``undo(in:)``.
    @inlinable @inline(__always) @discardableResult
    public func redo() throws -> UndoResult? {
        guard currentContext == nil && openGroups.isEmpty && !runningAction else { return try redo(in: currentContext) }
        guard _position < storage.count else { return nil }
        coalescingOpen = false
        do {
            let outcome = try redoStep(at: _position)
            notifyIfChanged()
            return UndoResult(direction: .redo, outcome)
        } catch {
            notifyIfChanged()
            throw error
        }
    }

    /// Redoes the oldest redoable step of `context`; `nil` means the whole history.
    @discardableResult
    public func redo(in scope: UndoContext?) throws -> UndoResult? {
        try refuseReentry("redo")
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        guard let index = oldestRedoable(in: scope) else { return nil }
        coalescingOpen = false
        defer { notifyIfChanged() }
        return UndoResult(direction: .redo, try redoStep(at: index))
    }

    /// Undoes up to `count` steps in one call. If one fails, those already undone are redone,
    /// so the call is all or nothing.
    /// - Returns: the combined result (the last step's name, every change), or `nil` if there
    ///   was nothing to undo.
    @discardableResult
    public func undo(count: Int) throws -> UndoResult? {
        try move(count: count, direction: .undo, scope: currentContext)
    }

    /// Undoes up to `count` steps of `context` (`nil`: the whole history), all or nothing.
    @discardableResult
    public func undo(count: Int, in scope: UndoContext?) throws -> UndoResult? {
        try move(count: count, direction: .undo, scope: scope)
    }

    /// Redoes up to `count` steps in one call, all or nothing.
    @discardableResult
    public func redo(count: Int) throws -> UndoResult? {
        try move(count: count, direction: .redo, scope: currentContext)
    }

    /// Redoes up to `count` steps of `context` (`nil`: the whole history), all or nothing.
    @discardableResult
    public func redo(count: Int, in scope: UndoContext?) throws -> UndoResult? {
        try move(count: count, direction: .redo, scope: scope)
    }

    /// Jumps to `position` (0: everything undone; ``count``: everything done), as a history
    /// panel does when a row is clicked. All or nothing.
    /// - Throws: ``UndoError/positionOutOfRange(requested:count:)``, or an action's error.
    @discardableResult
    public func move(to target: Int) throws -> UndoResult? {
        guard target >= 0 && target <= storage.count else {
            throw UndoError.positionOutOfRange(requested: target, count: storage.count)
        }
        if target < position { return try move(count: position - target, direction: .undo, scope: nil) }
        if target > position { return try move(count: target - position, direction: .redo, scope: nil) }
        return nil
    }

    func move(count: Int, direction: UndoResult.Direction, scope: UndoContext?) throws -> UndoResult? {
        if count == 1 {
            // One step is all or nothing already: the single-step path, with the same effects.
            let result = direction == .undo ? try undo(in: scope) : try redo(in: scope)
            coalescingOpen = false
            return result
        }
        try refuseReentry(direction == .undo ? "undo" : "redo")
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        coalescingOpen = false
        defer { notifyIfChanged() }
        var combined: UndoResult?
        var done = 0
        while done < count {
            let index = direction == .undo ? newestDone(in: scope) : oldestRedoable(in: scope)
            guard let index else { break }
            do {
                let result = UndoResult(direction: direction,
                                        direction == .undo ? try undoStep(at: index) : try redoStep(at: index))
                if combined == nil {
                    combined = result
                } else {
                    combined!.name = result.name
                    combined!.context = result.context
                    combined!.stepCount += 1
                    combined!.changes += result.changes
                }
                done += 1
            } catch {
                // Put back what this call already moved over, newest first.
                while done > 0 {
                    let back = direction == .undo ? oldestRedoable(in: scope) : newestDone(in: scope)
                    guard let back else { break }
                    _ = direction == .undo ? try? redoStep(at: back) : try? undoStep(at: back)
                    done -= 1
                }
                throw error
            }
        }
        return combined
    }

    // MARK: The one place the position moves

    /// Undoes the done step at `index` and makes it the first redo step.
    @usableFromInline
    func undoStep(at index: Int) throws -> StepOutcome {
        runningAction = true
        let outcome: StepOutcome
        do {
            outcome = try Self.undo(&storage.slot(at: index).pointee)
        } catch {
            runningAction = false
            try failStep(at: index, error)
        }
        runningAction = false
        if index != _position &- 1 { storage.relocate(from: index, to: _position &- 1) }
        _position &-= 1
        return outcome
    }

    /// Redoes the redoable step at `index` and makes it the newest done step.
    @usableFromInline
    func redoStep(at index: Int) throws -> StepOutcome {
        runningAction = true
        let outcome: StepOutcome
        do {
            outcome = try Self.redo(&storage.slot(at: index).pointee)
        } catch {
            runningAction = false
            try failStep(at: index, error)
        }
        runningAction = false
        if index != _position { storage.relocate(from: index, to: _position) }
        _position &+= 1
        return outcome
    }

    // The step is opened once (in place) for its action and the result's name and context,
    // instead of once per call on the existential.

    private static func undo<T: UndoCommand>(_ command: inout T) throws -> StepOutcome {
        var changes = UndoChanges()
        try command.undo(&changes)
        return StepOutcome(name: command.name, context: command.context, changes: changes.reported)
    }

    private static func redo<T: UndoCommand>(_ command: inout T) throws -> StepOutcome {
        var changes = UndoChanges()
        try command.perform(&changes)
        return StepOutcome(name: command.name, context: command.context, changes: changes.reported)
    }

    /// An action failed: the history stays as it was, unless the step could not even be put
    /// back, in which case it is removed so that what remains still matches the document.
    func failStep(at index: Int, _ error: any Error) throws -> Never {
        let name = storage.withCommand(at: index) { $0.name }
        let failure = UndoError.wrap(error, step: name)
        if case .rollbackFailed = failure {
            let (removed, _) = storage.remove(at: index)
            if index < position { position -= 1 }
            totalCost -= removed.cost
        }
        throw failure
    }

    // MARK: Finding steps

    /// The index of the newest done step of `context` (`nil`: of any context). A group that also
    /// changed other documents is only offered while no later done step changed those.
    /// - Complexity: O(1) for `nil`; O(steps after it) otherwise.
    func newestDone(in context: UndoContext?) -> Int? {
        guard position > 0 else { return nil }
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
    /// rule for groups that span documents.
    func oldestRedoable(in context: UndoContext?) -> Int? {
        guard position < storage.count else { return nil }
        guard let context else { return position }
        for index in position..<storage.count where step(at: index, touches: context) {
            return isFree(index, among: position..<index) ? index : nil
        }
        return nil
    }

    /// Whether the step at `index` changes `context`.
    func step(at index: Int, touches context: UndoContext) -> Bool {
        storage.withCommand(at: index) { command in
            if command.context == context { return true }
            guard let group = Self.group(in: command) else { return false }
            return group.allContexts.contains(context)
        }
    }

    /// The contexts the step at `index` changes.
    func contexts(at index: Int) -> Set<UndoContext> {
        storage.withCommand(at: index) { Self.contexts(of: $0) }
    }

    static func contexts(of command: any UndoCommand) -> Set<UndoContext> {
        if let group = group(in: command) { return group.allContexts.union([group.context]) }
        return [command.context]
    }

    /// Whether no step in `others` changes a context that the step at `index` changes, so it
    /// can move past them without taking another document's changes out of order.
    func isFree(_ index: Int, among others: Range<Int>) -> Bool {
        guard !others.isEmpty, Self.group(in: storage.command(at: index)) != nil else { return true }
        let contexts = contexts(at: index)
        guard contexts.count > 1 else { return true }
        for other in others where contexts.contains(where: { step(at: other, touches: $0) }) {
            return false
        }
        return true
    }
}
