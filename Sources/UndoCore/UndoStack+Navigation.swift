extension UndoStack {
    /// Undoes the newest step of the ``currentContext`` (of the whole history when that is `nil`).
    /// - Returns: what was undone and where it changed things, or `nil` if there was nothing.
    /// - Throws: the action's error, with the history exactly as it was;
    ///   ``UndoError/groupOpen`` while a group is open; ``UndoError/reentrantCall(_:)``.
    /// - Complexity: O(1) for the whole history.
    @inlinable @inline(__always) @discardableResult
    public func undo() throws -> UndoResult? {
        // Inlined: a caller that drops the result destroys a plain value, not an optional one
        // through value witnesses, and the reads of the step's name and context go away with it
        // (see `resultName(at:)`). The common case first: the whole history, nothing open,
        // nothing running.
        guard currentContext == nil && openGroups.isEmpty && !runningAction else { return try undo(in: currentContext) }
        guard _position > 0 else { return nil }
        coalescingOpen = false
        let reported: Bool
        do {
            reported = try undoStep(at: _position &- 1)
        } catch {
            notifyIfChanged()  // a step that could not be put back was removed
            throw error
        }
        // The step undone is now the first redo step.
        let result = UndoResult(direction: .undo, name: resultName(at: _position), context: resultContext(at: _position),
                                reportedChanges: reported ? takeReportedChanges() : nil)
        notifyIfChanged()
        return result
    }

    /// Undoes the newest step of `context`; `nil` means the whole history.
    @discardableResult
    public func undo(in scope: UndoContext?) throws -> UndoResult? {
        try refuseReentry("undo")
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        guard let index = newestDone(in: scope) else { return nil }
        coalescingOpen = false
        defer { notifyIfChanged() }
        return result(.undo, reported: try undoStep(at: index), at: position)
    }

    /// Redoes the oldest redoable step of the ``currentContext``.
    /// - Returns: what was redone, or `nil` if there was nothing.
    /// - Throws: as ``undo(in:)``.
    @inlinable @inline(__always) @discardableResult
    public func redo() throws -> UndoResult? {
        guard currentContext == nil && openGroups.isEmpty && !runningAction else { return try redo(in: currentContext) }
        guard _position < storage.count else { return nil }
        coalescingOpen = false
        let reported: Bool
        do {
            reported = try redoStep(at: _position)
        } catch {
            notifyIfChanged()
            throw error
        }
        // The step redone is now the newest done step.
        let result = UndoResult(direction: .redo, name: resultName(at: _position &- 1),
                                context: resultContext(at: _position &- 1),
                                reportedChanges: reported ? takeReportedChanges() : nil)
        notifyIfChanged()
        return result
    }

    /// Redoes the oldest redoable step of `context`; `nil` means the whole history.
    @discardableResult
    public func redo(in scope: UndoContext?) throws -> UndoResult? {
        try refuseReentry("redo")
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        guard let index = oldestRedoable(in: scope) else { return nil }
        coalescingOpen = false
        defer { notifyIfChanged() }
        return result(.redo, reported: try redoStep(at: index), at: position - 1)
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
                let result = direction == .undo
                    ? self.result(.undo, reported: try undoStep(at: index), at: position)
                    : self.result(.redo, reported: try redoStep(at: index), at: position - 1)
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

    /// Undoes the done step at `index` and makes it the first redo step (at the new position).
    /// - Returns: whether the action reported changes (see ``takeReportedChanges()``).
    @usableFromInline
    func undoStep(at index: Int) throws -> Bool {
        runningAction = true
        let reported: [UndoChange]?
        do {
            reported = try Self.undo(&storage.slot(at: index).pointee)
        } catch {
            runningAction = false
            try failStep(at: index, error)
        }
        runningAction = false
        if index != _position &- 1 { storage.relocate(from: index, to: _position &- 1) }
        _position &-= 1
        return keepReportedChanges(reported)
    }

    /// Redoes the redoable step at `index` and makes it the newest done step (just below the
    /// new position).
    /// - Returns: whether the action reported changes (see ``takeReportedChanges()``).
    @usableFromInline
    func redoStep(at index: Int) throws -> Bool {
        runningAction = true
        let reported: [UndoChange]?
        do {
            reported = try Self.redo(&storage.slot(at: index).pointee)
        } catch {
            runningAction = false
            try failStep(at: index, error)
        }
        runningAction = false
        if index != _position { storage.relocate(from: index, to: _position) }
        _position &+= 1
        return keepReportedChanges(reported)
    }

    // The step is opened once (in place) for its action.

    @inline(__always)
    private static func undo<T: UndoCommand>(_ command: inout T) throws -> [UndoChange]? {
        var changes = UndoChanges()
        try command.undo(&changes)
        return changes.reported
    }

    @inline(__always)
    private static func redo<T: UndoCommand>(_ command: inout T) throws -> [UndoChange]? {
        var changes = UndoChanges()
        try command.perform(&changes)
        return changes.reported
    }

    /// Sets aside the places an action reported, if any, for its result: most actions report
    /// none, and then the caller has no array to release.
    @inline(__always)
    private func keepReportedChanges(_ reported: [UndoChange]?) -> Bool {
        guard let reported else { return false }
        reportedChanges = reported
        return true
    }

    /// The places the last action reported, handed over (see ``undoStep(at:)``).
    @usableFromInline
    func takeReportedChanges() -> [UndoChange]? {
        defer { reportedChanges = nil }
        return reportedChanges
    }

    /// The result of undoing or redoing the step now at `index`.
    func result(_ direction: UndoResult.Direction, reported: Bool, at index: Int) -> UndoResult {
        UndoResult(direction: direction, name: resultName(at: index), context: resultContext(at: index),
                   reportedChanges: reported ? takeReportedChanges() : nil)
    }

    /// The name of the step at `index`, for a result.
    ///
    /// Read-only to the optimizer (`@_effects(readonly)`): reading a command's name or context
    /// changes nothing (see ``UndoCommand``), so when the caller of the inlined ``undo()`` or
    /// ``redo()`` drops the result, the read is dropped too, with the release of the string.
    @usableFromInline @_effects(readonly)
    func resultName(at index: Int) -> String? { Self.name(of: &storage.slot(at: index).pointee) }

    /// The context of the step at `index`, for a result (see ``resultName(at:)``).
    @usableFromInline @_effects(readonly)
    func resultContext(at index: Int) -> UndoContext { Self.context(of: &storage.slot(at: index).pointee) }

    // Opened in place (`inout`: through the pointer, a borrowed existential would be copied).
    // The projection would make a shared box unique, but the history holds each step alone.

    @inline(__always)
    static func name<T: UndoCommand>(of command: inout T) -> String? { command.name }

    @inline(__always)
    static func context<T: UndoCommand>(of command: inout T) -> UndoContext { command.context }

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
