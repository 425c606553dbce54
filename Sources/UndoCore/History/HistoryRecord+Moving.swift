extension HistoryRecord {
    /// Which steps a move takes: those of the current context, or of a given one (`nil`: the
    /// whole history).
    enum Scope {
        case current
        case given(UndoContext?)
    }

    /// Undoes or redoes up to `count` steps of `scope`, all or nothing. With `removingObsolete`
    /// (undo and redo), a step whose action marks itself obsolete leaves the history; a revert
    /// passes `false`: it keeps its steps, which its own step takes back and does again.
    /// - Returns: the combined result: every change in order, and the name and context of the
    ///   newest step moved over (the first undone, or the last redone); `nil` if there was
    ///   nothing to move over.
    /// - Throws: ``UndoError/groupOpen`` while a group is open; the first action's error, after
    ///   putting back what the call had moved over.
    mutating func move(count: Int, _ direction: UndoResult.Direction, in scope: Scope,
                       removingObsolete: Bool = true) throws -> UndoResult? {
        // A refused or failed move changes nothing, not even the coalescing run: a journal,
        // which keeps only the calls that succeeded, then replays to the same history.
        let wasOpen = coalescingOpen
        do {
            return try moveSteps(count: count, direction, in: scope, removingObsolete: removingObsolete)
        } catch {
            coalescingOpen = wasOpen
            throw error
        }
    }

    private mutating func moveSteps(count: Int, _ direction: UndoResult.Direction, in scope: Scope,
                                    removingObsolete: Bool) throws -> UndoResult? {
        let scope: UndoContext? = switch scope {
        case .current: currentContext
        case .given(let context): context
        }
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        coalescingOpen = false
        guard let first = find(direction, in: scope) else { return nil }
        var changes = UndoChanges()
        if count == 1 {
            // One step, the common case: the result built once, in place (its parts moved in,
            // not copied).
            let removed = try apply(direction, at: first, &changes, removingObsolete: removingObsolete)
            let obsolete = removed == nil ? 0 : 1
            let (name, context) = removed ?? nameAndContext(at: direction == .undo ? position : position - 1)
            return UndoResult(direction: direction, name: name, context: context, stepCount: 1,
                              changes: changes.takeAll(), obsoleteCount: obsolete)
        }
        var moved = 0
        // The steps moved over that are still in the history (obsolete ones left it).
        var kept = 0
        // The name of the newest step moved over, when it left the history.
        var newestRemoved: (name: String?, context: UndoContext)?
        var index: Int? = first
        while moved < count, let next = index {
            do {
                let removed = try apply(direction, at: next, &changes, removingObsolete: removingObsolete)
                if removed == nil { kept += 1 }
                if direction == .redo || moved == 0 { newestRemoved = removed }
            } catch {
                // Put back what this call already moved over, newest first (a step that left
                // the history changed nothing).
                let back: UndoResult.Direction = direction == .undo ? .redo : .undo
                var scratch = UndoChanges()
                while kept > 0, let step = find(back, in: scope) {
                    _ = try? apply(back, at: step, &scratch)
                    kept -= 1
                }
                throw error
            }
            moved += 1
            index = find(direction, in: scope)
        }
        // Each step moved over sits at the position's edge: the first one undone (the newest)
        // was pushed up by each later one; the last one redone is the newest done step.
        let (name, context) = newestRemoved ?? nameAndContext(at: direction == .undo ? position + kept - 1 : position - 1)
        return UndoResult(direction: direction, name: name, context: context, stepCount: moved,
                          changes: changes.takeAll(), obsoleteCount: moved - kept)
    }

    /// The step the next undo (or redo) of `scope` moves over.
    func find(_ direction: UndoResult.Direction, in scope: UndoContext?) -> Int? {
        direction == .undo ? newestDone(in: scope) : oldestRedoable(in: scope)
    }

    /// The name and context of the step at `index`, read in place (no copy of the command).
    mutating func nameAndContext(at index: Int) -> (name: String?, context: UndoContext) {
        steps.withStep(at: index) { $0.nameAndContext() }
    }

    // MARK: The one place the position moves

    /// Undoes the done step at `index` (or redoes the redo step at `index`) and moves it to the
    /// position's edge: an undone step becomes the first redo step, a redone one the newest
    /// done step. An action that fails leaves the record as it was, unless the step could not
    /// even be put back (``UndoError/rollbackFailed(step:message:)``): then it is removed, so
    /// that what remains still matches the document, and the documents it changed count as
    /// edited until their next save.
    ///
    /// With `removingObsolete`, a step whose action marked itself obsolete
    /// (``UndoChanges/markObsolete()``) leaves the history instead of moving.
    /// - Returns: the name and context of the step when it left the history as obsolete.
    /// - Complexity: O(1) plus the steps it moves past (none unless `index` is in another
    ///   context's way).
    @discardableResult
    mutating func apply(_ direction: UndoResult.Direction, at index: Int, _ changes: inout UndoChanges,
                        removingObsolete: Bool = false) throws -> (name: String?, context: UndoContext)? {
        let marks = changes.obsoleteMarks
        do {
            try steps.withStep(at: index) { step in
                switch direction {
                case .undo: try step.command.undo(&changes)
                case .redo: try step.command.perform(&changes)
                }
            }
        } catch {
            let failure = UndoError.wrap(error, step: nameAndContext(at: index).name)
            if case .rollbackFailed = failure {
                // The documents hold part of the step's change, which no state of the history
                // describes any more: none of their states is the saved one until the next save,
                // so they report themselves edited and a close warns instead of losing work.
                for context in Self.contexts(of: steps[index].command) {
                    saveStates[context, default: SaveState()].saved = []
                }
                count(steps[index].command, -1, done: index < position)
                removeFromList(at: index)
                if index < position { position -= 1 }
            }
            throw failure
        }
        if changes.obsoleteMarks != marks {
            changes.obsoleteMarks = marks
            if removingObsolete { return removeObsolete(at: index) }
        }
        place(direction, from: index)
        return nil
    }

    /// Moves the step at `index`, just undone (or redone), to the position's edge.
    mutating func place(_ direction: UndoResult.Direction, from index: Int) {
        var from = index
        let to = direction == .undo ? position - 1 : position
        if from != to && !branches.isEmpty { rehang(forksAfterMoving(from, to: to)) }
        while from < to { steps.swapAt(from, from + 1); from += 1 }
        while from > to { steps.swapAt(from, from - 1); from -= 1 }
        position += direction == .undo ? -1 : 1
        countMove(at: from, toDone: direction == .redo)
    }

    /// Counts the step at `index` over from redo to done (`toDone`) or from done to redo.
    /// - Complexity: O(1) while every step is in the global context (no copy of the step, no
    ///   look at its contexts); O(contexts it touches) otherwise.
    mutating func countMove(at index: Int, toDone: Bool) {
        // No count outside the global context means no step touches another context (a step
        // counts for each context it touches), so this one counts for the global context alone.
        if contextCounts.onlyGlobal {
            contextCounts.moveGlobal(toDone: toDone)
            return
        }
        let moved = steps[index].command
        count(moved, -1, done: !toDone)
        count(moved, 1, done: toDone)
    }

    /// Removes the step at `index`, which changes nothing any more: the states before and
    /// after it are one, so a save point at it moves to the state before it.
    mutating func removeObsolete(at index: Int) -> (name: String?, context: UndoContext) {
        let removed = nameAndContext(at: index)
        let serial = steps[index].serial
        for context in Self.contexts(of: steps[index].command) {
            guard var state = saveStates[context], state.saved.contains(serial) else { continue }
            state.saved.insert(newestNonDiscardableSerial(in: context, below: index) ?? state.baseline)
            saveStates[context] = state
        }
        count(steps[index].command, -1, done: index < position)
        removeFromList(at: index)
        if index < position { position -= 1 }
        return removed
    }

    // MARK: Finding steps

    /// The index of the newest done step of `context` (`nil`: of any context), or `nil` while a
    /// group is open. A group that also changed other documents is only offered while no later
    /// done step changed those.
    /// - Complexity: O(1) for `nil`; O(steps after it) otherwise.
    func newestDone(in context: UndoContext?) -> Int? {
        guard openGroups.isEmpty, position > 0 else { return nil }
        guard let context else { return position - 1 }
        guard contextCounts[context].done > 0 else { return nil }
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
        guard contextCounts[context].redo > 0 else { return nil }
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
        let newest = contextCounts[context].done == 0 ? nil : newestNonDiscardableSerial(in: context, below: position)
        return newest ?? (saveStates[context] ?? SaveState()).baseline
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
}
