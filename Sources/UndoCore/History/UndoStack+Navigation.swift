extension UndoStack {
    /// Undoes the newest step of the ``currentContext`` (of the whole history when that is `nil`).
    /// - Returns: what was undone and where it changed things, or `nil` if there was nothing.
    /// - Throws: the action's error, with the history exactly as it was;
    ///   ``UndoError/groupOpen`` while a group is open; ``UndoError/reentrantCall(_:)``.
    /// - Complexity: O(1) for the whole history.
    @discardableResult
    public func undo() throws -> UndoResult? { try undo(in: currentContext) }

    /// Undoes the newest step of `context`; `nil` means the whole history.
    @discardableResult
    public func undo(in scope: UndoContext?) throws -> UndoResult? {
        try move(count: 1, .undo, in: scope, call: "undo")
    }

    /// Redoes the oldest redoable step of the ``currentContext``.
    /// - Returns: what was redone, or `nil` if there was nothing.
    /// - Throws: as ``undo()``.
    @discardableResult
    public func redo() throws -> UndoResult? { try redo(in: currentContext) }

    /// Redoes the oldest redoable step of `context`; `nil` means the whole history.
    @discardableResult
    public func redo(in scope: UndoContext?) throws -> UndoResult? {
        try move(count: 1, .redo, in: scope, call: "redo")
    }

    /// Undoes up to `count` steps in one call. If one fails, those already undone are redone,
    /// so the call is all or nothing.
    /// - Returns: the combined result (the newest step's name, every change), or `nil` if there
    ///   was nothing to undo.
    @discardableResult
    public func undo(count: Int) throws -> UndoResult? { try undo(count: count, in: currentContext) }

    /// Undoes up to `count` steps of `context` (`nil`: the whole history), all or nothing.
    @discardableResult
    public func undo(count: Int, in scope: UndoContext?) throws -> UndoResult? {
        try move(count: count, .undo, in: scope, call: "undo")
    }

    /// Redoes up to `count` steps in one call, all or nothing.
    @discardableResult
    public func redo(count: Int) throws -> UndoResult? { try redo(count: count, in: currentContext) }

    /// Redoes up to `count` steps of `context` (`nil`: the whole history), all or nothing.
    @discardableResult
    public func redo(count: Int, in scope: UndoContext?) throws -> UndoResult? {
        try move(count: count, .redo, in: scope, call: "redo")
    }

    /// Jumps to `position` (0: everything undone; ``count``: everything done), as a history
    /// panel does when a row is clicked. All or nothing.
    /// - Throws: ``UndoError/positionOutOfRange(requested:count:)``, or an action's error.
    @discardableResult
    public func move(to target: Int) throws -> UndoResult? {
        guard target >= 0 && target <= record.count else {
            throw UndoError.positionOutOfRange(requested: target, count: record.count)
        }
        if target < position { return try move(count: position - target, .undo, in: nil, call: "undo") }
        if target > position { return try move(count: target - position, .redo, in: nil, call: "redo") }
        return nil
    }

    /// Undoes or redoes up to `count` steps of `scope`, all or nothing, and tells the
    /// observers once.
    /// - Returns: the combined result: every change in order, and the name and context of the
    ///   newest step moved over (the first undone, or the last redone).
    func move(count: Int, _ direction: UndoResult.Direction, in scope: UndoContext?, call: String) throws -> UndoResult? {
        try refuseReentry(call)
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        coalescingOpen = false
        defer { notifyIfChanged() }
        return try moveSteps(count: count, direction, in: scope)
    }

    /// ``move(count:_:in:call:)`` without the checks and the notification (a revert uses it).
    func moveSteps(count: Int, _ direction: UndoResult.Direction, in scope: UndoContext?) throws -> UndoResult? {
        var changes = UndoChanges()
        var moved = 0
        while moved < count, let index = direction == .undo ? newestDone(in: scope) : oldestRedoable(in: scope) {
            do {
                try apply(direction, at: index, &changes)
            } catch {
                // Put back what this call already moved over, newest first.
                var scratch = UndoChanges()
                while moved > 0, let back = direction == .undo ? oldestRedoable(in: scope) : newestDone(in: scope) {
                    try? apply(direction == .undo ? .redo : .undo, at: back, &scratch)
                    moved -= 1
                }
                throw error
            }
            moved += 1
        }
        guard moved > 0 else { return nil }
        // Each step moved over sits at the position's edge: the first one undone (the newest)
        // was pushed up by each later one; the last one redone is the newest done step.
        return result(direction, at: direction == .undo ? position + moved - 1 : position - 1, moved, changes)
    }

    private func result(_ direction: UndoResult.Direction, at index: Int, _ count: Int, _ changes: UndoChanges) -> UndoResult {
        let command = record[index].command
        return UndoResult(direction: direction, name: command.name, context: command.context, stepCount: count,
                          changes: changes.all)
    }

    // MARK: The one place the position moves

    /// Undoes the done step at `index` (or redoes the redo step at `index`) and moves it to the
    /// position's edge: an undone step becomes the first redo step, a redone one the newest
    /// done step. An action that fails leaves the history as it was, unless the step could not
    /// even be put back (``UndoError/rollbackFailed(step:message:)``): then it is removed, so
    /// that what remains still matches the document.
    /// - Complexity: O(1) plus the steps it moves past (none unless `index` is in another
    ///   context's way).
    func apply(_ direction: UndoResult.Direction, at index: Int, _ changes: inout UndoChanges) throws {
        runningAction = true
        do {
            switch direction {
            case .undo: try record[index].command.undo(&changes)
            case .redo: try record[index].command.perform(&changes)
            }
            runningAction = false
        } catch {
            runningAction = false
            let failure = UndoError.wrap(error, step: record[index].command.name)
            if case .rollbackFailed = failure {
                let removed = record.remove(at: index)
                totalCost -= Int(removed.cost)
                if index < position { position -= 1 }
            }
            throw failure
        }
        var from = index
        let to = direction == .undo ? position - 1 : position
        while from < to { record.swapAt(from, from + 1); from += 1 }
        while from > to { record.swapAt(from, from - 1); from -= 1 }
        position += direction == .undo ? -1 : 1
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
        guard openGroups.isEmpty, position < record.count else { return nil }
        guard let context else { return position }
        for index in position..<record.count where step(at: index, touches: context) {
            return isFree(index, among: position..<index) ? index : nil
        }
        return nil
    }

    /// Whether the step at `index` changes `context`.
    func step(at index: Int, touches context: UndoContext) -> Bool {
        let command = record[index].command
        if command.belongs(to: context) { return true }
        guard let group = Self.group(in: command) else { return false }
        return group.allContexts.contains(context)
    }

    /// The contexts `command` changes: its own, and for a group every member's.
    static func contexts(of command: any UndoCommand) -> Set<UndoContext> {
        guard let group = group(in: command) else { return [command.context] }
        return group.allContexts.union([command.context])
    }

    /// Whether no step in `others` changes a context that the step at `index` changes, so it
    /// can move past them without taking another document's changes out of order.
    func isFree(_ index: Int, among others: Range<Int>) -> Bool {
        guard !others.isEmpty, Self.group(in: record[index].command) != nil else { return true }
        let contexts = Self.contexts(of: record[index].command)
        guard contexts.count > 1 else { return true }
        for other in others where contexts.contains(where: { step(at: other, touches: $0) }) {
            return false
        }
        return true
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
