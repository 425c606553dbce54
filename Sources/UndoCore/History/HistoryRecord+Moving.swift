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
        if count == 1 && removingObsolete && openGroups.isEmpty {
            if contextCounts.onlyGlobal {
                if isWholeHistory(scope) { return try moveOneGlobal(direction) }
            } else if pendingOrigins.isEmpty, let sole = contextCounts.soleContext, covers(scope, sole) {
                return try moveOne(direction, allIn: sole)
            }
        }
        let wasOpen = coalescingOpen
        do {
            return try moveSteps(count: count, direction, in: scope, removingObsolete: removingObsolete)
        } catch {
            coalescingOpen = wasOpen
            throw error
        }
    }

    /// Whether `scope` is the whole history (no context given, none current).
    private func isWholeHistory(_ scope: Scope) -> Bool {
        switch scope {
        case .current: currentContext == nil
        case .given(let context): context == nil
        }
    }

    /// Whether a move of `scope` takes the steps of `context`: the whole history, or `context`.
    private func covers(_ scope: Scope, _ context: UndoContext) -> Bool {
        switch scope {
        case .current: currentContext == nil || currentContext == context
        case .given(let given): given == nil || given == context
        }
    }

    /// An undo or redo of one step while every step is in one document, `context` (counted
    /// there alone), and the move is of the whole history or of that document: the step is at
    /// the position's edge, and is counted over in `context` directly. The same move as
    /// ``moveSteps(count:_:in:removingObsolete:)`` makes (`OneStepMove` compares them).
    /// Apart from ``moveOneGlobal(_:)`` on purpose: one function for both, with the context a
    /// parameter, measured 306 Ir per op of pushundoredo against 285 and 883 of
    /// pushundoredo-doc against 755.
    /// - Complexity: O(1).
    private mutating func moveOne(_ direction: UndoResult.Direction, allIn context: UndoContext) throws -> UndoResult? {
        let index = direction == .undo ? position - 1 : position
        let wasOpen = coalescingOpen
        coalescingOpen = false
        guard index >= 0 && index < steps.count else { return nil }
        var changes = UndoChanges()
        let marks = changes.obsoleteMarks
        var run = RunStep(direction, readingName: true)
        let name: String?
        do {
            name = try run.run(at: index, of: &steps, &changes)
        } catch {
            coalescingOpen = wasOpen
            throw failed(at: index, error)
        }
        if changes.obsoleteMarks != marks {
            changes.obsoleteMarks = marks
            let removed = removeObsolete(at: index)
            return UndoResult(direction: direction, name: removed.name, context: removed.context, stepCount: 1,
                              changes: changes.takeAll(), obsoleteCount: 1)
        }
        position = direction == .undo ? position &- 1 : position &+ 1
        contextCounts.move(in: context, toDone: direction == .redo)
        return oneStepResult(direction, name: name, context: context, changes: &changes)
    }

    /// The result of one step that stayed in the history (none obsolete). One in a document
    /// that reported no changes shares the parts kept for that document (immutable) instead of
    /// allocating its own.
    /// - Complexity: O(1) (a comparison of the document's name with the one kept).
    private mutating func oneStepResult(_ direction: UndoResult.Direction, name: String?, context: UndoContext,
                                        changes: inout UndoChanges) -> UndoResult {
        guard changes.isEmpty, !context.name.isEmpty else {
            return UndoResult(direction: direction, name: name, context: context, stepCount: 1,
                              changes: changes.takeAll())
        }
        if let kept = sharedResultDetails, kept.context == context {
            return UndoResult(direction: direction, name: name, sharing: kept)
        }
        let details = UndoResult.oneStepDetails(in: context)
        sharedResultDetails = details
        return UndoResult(direction: direction, name: name, sharing: details)
    }

    /// An undo or redo of one step of the whole history while every step is in the global
    /// context, the common call: the step is at the position's edge (nothing to reorder), its
    /// context is the global one (no need to ask the command), and a result that reports no
    /// changes is built from the name alone. The same move as ``moveSteps(count:_:in:removingObsolete:)``
    /// makes, through ``apply(_:at:_:removingObsolete:)``.
    /// - Complexity: O(1).
    private mutating func moveOneGlobal(_ direction: UndoResult.Direction) throws -> UndoResult? {
        let index = direction == .undo ? position - 1 : position
        let wasOpen = coalescingOpen
        coalescingOpen = false
        guard index >= 0 && index < steps.count else { return nil }
        var changes = UndoChanges()
        let removed: (name: String?, context: UndoContext)?
        // The step's name for the result, read in the access that runs its action (a second
        // access to the step cost a uniqueness check and the existential's projection again).
        var name: String?
        do {
            removed = try applyInlined(direction, at: index, &changes, removingObsolete: true, readingName: true, name: &name)
        } catch {
            coalescingOpen = wasOpen
            throw error
        }
        if let removed {
            return UndoResult(direction: direction, name: removed.name, context: removed.context, stepCount: 1,
                              changes: changes.takeAll(), obsoleteCount: 1)
        }
        guard changes.isEmpty else {
            return UndoResult(direction: direction, name: name, context: .global, stepCount: 1, changes: changes.takeAll())
        }
        return UndoResult(direction: direction, oneGlobalStepNamed: name)
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
        if count == 1 && first == (direction == .undo ? position - 1 : position) {
            // One step at the position's edge, the common case: nothing is reordered, and the
            // result is built once, in place (its parts moved in, not copied).
            let removed = try apply(direction, at: first, &changes, removingObsolete: removingObsolete)
            if let removed {
                return UndoResult(direction: direction, name: removed.name, context: removed.context, stepCount: 1,
                                  changes: changes.takeAll(), obsoleteCount: 1)
            }
            let (name, context) = nameAndContext(at: direction == .undo ? position : position - 1)
            return oneStepResult(direction, name: name, context: context, changes: &changes)
        }
        // What the call reorders, noted before each step moves: at the end, the states that
        // reordering changed become copies (see ``finishReordering(_:)``).
        var reordering: Reordering?
        if count == 1 {
            // One step past others: the result built once, in place.
            noteReordering(&reordering, moving: first, direction)
            // A failed step leaves the record as it was (see ``apply(_:at:_:removingObsolete:)``).
            let removed = try applyNoting(&reordering, direction, at: first, &changes, removingObsolete: removingObsolete)
            let obsolete = removed == nil ? 0 : 1
            let (name, context) = removed ?? nameAndContext(at: direction == .undo ? position : position - 1)
            if let reordering { finishReordering(reordering) }
            return UndoResult(direction: direction, name: name, context: context, stepCount: 1,
                              changes: changes.takeAll(), obsoleteCount: obsolete)
        }
        // A redo that numbers pending steps is put back, when it fails, by its redo steps as
        // they were (the serials it took given back): pending steps have no serial to find them by.
        let savedTail = direction == .redo && !pendingOrigins.isEmpty
            ? (steps: steps.steps(in: position..<steps.count), origins: pendingOrigins, nextSerial: nextSerial) : nil
        var moved = 0
        // The steps moved over that are still in the history (obsolete ones left it).
        var kept = 0
        // The name of the newest step moved over, when it left the history.
        var newestRemoved: (name: String?, context: UndoContext)?
        var index: Int? = first
        while moved < count, let next = index {
            do {
                noteReordering(&reordering, moving: next, direction)
                let removed = try applyNoting(&reordering, direction, at: next, &changes, removingObsolete: removingObsolete)
                if removed == nil { kept += 1 }
                if direction == .redo || moved == 0 { newestRemoved = removed }
            } catch {
                // Put back what this call already moved over, newest first (a step that left
                // the history changed nothing), and the steps in their order.
                let back: UndoResult.Direction = direction == .undo ? .redo : .undo
                var scratch = UndoChanges()
                while kept > 0, let step = find(back, in: scope) {
                    _ = try? apply(back, at: step, &scratch)
                    kept -= 1
                }
                if let savedTail {
                    restoreTail(savedTail.steps, origins: savedTail.origins, nextSerial: savedTail.nextSerial)
                } else if let reordering {
                    restoreOrder(reordering)
                }
                throw error
            }
            moved += 1
            index = find(direction, in: scope)
        }
        // Each step moved over sits at the position's edge: the first one undone (the newest)
        // was pushed up by each later one; the last one redone is the newest done step.
        let (name, context) = newestRemoved ?? nameAndContext(at: direction == .undo ? position + kept - 1 : position - 1)
        if let reordering { finishReordering(reordering) }
        return UndoResult(direction: direction, name: name, context: context, stepCount: moved,
                          changes: changes.takeAll(), obsoleteCount: moved - kept)
    }

    // MARK: Keeping the states' meaning

    /// The stretch of the current branch that a move in one context reorders: its steps'
    /// serials in their order before the call, from index `start` to `end` (exclusive, in the
    /// present indices). An undo in one context moves its step up past other contexts' done
    /// steps; a redo moves it down past their redo steps; no step outside the stretch moves.
    struct Reordering {
        var start: Int
        var end: Int
        /// 0 for a pending step (see ``HistoryRecord/pendingOrigins``).
        var serials: [UInt32]
        /// The states the call made of pending steps it redid: new, so they need no copy.
        var fresh: Set<UInt32> = []
    }

    /// Widens `reordering` to the step at `index`, about to move in `direction`, and what it will
    /// pass (nothing when it moves past no step).
    /// - Complexity: O(steps added to the stretch).
    mutating func noteReordering(_ reordering: inout Reordering?, moving index: Int, _ direction: UndoResult.Direction) {
        if direction == .undo {
            if var stretch = reordering {
                guard index < stretch.start else { return }
                stretch.serials.insert(contentsOf: (index..<stretch.start).map { steps[$0].serial }, at: 0)
                stretch.start = index
                reordering = stretch
            } else if index != position - 1 {
                reordering = Reordering(start: index, end: position, serials: (index..<position).map { steps[$0].serial })
            }
        } else {
            if var stretch = reordering {
                guard index >= stretch.end else { return }
                stretch.serials.append(contentsOf: (stretch.end...index).map { steps[$0].serial })
                stretch.end = index + 1
                reordering = stretch
            } else if index != position {
                reordering = Reordering(start: position, end: index + 1, serials: (position...index).map { steps[$0].serial })
            }
        }
    }

    /// ``apply(_:at:_:removingObsolete:)``, taking a step that leaves the history (obsolete, or
    /// not put back after a failure) out of `reordering` too.
    private mutating func applyNoting(_ reordering: inout Reordering?, _ direction: UndoResult.Direction, at index: Int,
                                      _ changes: inout UndoChanges, removingObsolete: Bool) throws
        -> (name: String?, context: UndoContext)?
    {
        guard reordering != nil else { return try apply(direction, at: index, &changes, removingObsolete: removingObsolete) }
        let serial = steps[index].serial, total = steps.count
        defer {
            if steps.count < total, let offset = reordering!.serials.firstIndex(of: serial) {
                reordering!.serials.remove(at: offset)
                reordering!.end -= 1
            }
        }
        let removed = try apply(direction, at: index, &changes, removingObsolete: removingObsolete)
        if serial == 0 && removed == nil && direction == .redo { reordering!.fresh.insert(steps.serial(at: position - 1)) }
        return removed
    }

    /// Keeps every state naming the documents as they were when it was made, after moves in one
    /// context reordered `reordering`: the state after a step that now follows other steps than
    /// it was made on would mean something else. From the first step that changed its place on,
    /// the numbered steps stay where they were made, in their old order, as a branch at the
    /// state before them (with every branch that hangs at them); on the current branch the done
    /// ones come back, in their new order, as copies with new numbers (``copy(of:at:)``), and
    /// the redo ones as pending steps, which are no states until they are redone
    /// (``pendingOrigins``). A step the call redid from pending is a new state already and
    /// stays as it is. The done steps after the last that moved are copied too, though their
    /// states did not change: the current branch then stays in the order its states were made,
    /// so no state hangs under a newer one. Undo and redo go on along the copies as along the
    /// steps.
    /// - Complexity: O(steps from the first that moved to the end of the current branch +
    ///   contexts they change), plus the limits' trimming.
    mutating func finishReordering(_ reordering: Reordering) {
        assert(reordering.end - reordering.start == reordering.serials.count, "a reordered stretch lost count")
        guard let first = reordering.serials.indices.first(where: { steps[reordering.start + $0].serial != reordering.serials[$0] })
        else { return }
        let lower = reordering.start + first
        var moved: [UInt32: Step] = [:]
        for index in lower..<reordering.end where steps[index].serial != 0 { moved[steps[index].serial] = steps[index] }
        // The numbered steps in their old order: a run from the fork (the pending ones, which
        // are no states, come after them).
        var originals = reordering.serials[first...].compactMap { $0 == 0 ? nil : moved[$0] }
        let pendingStart = self.pendingStart
        if reordering.end < pendingStart { originals.append(contentsOf: steps.steps(in: reordering.end..<pendingStart)) }
        let fork: UInt32 = lower == 0 ? 0 : steps[lower - 1].serial
        let now = clock.nanoseconds()
        var done: [Step] = []
        for step in steps.steps(in: lower..<position) {
            done.append(reordering.fresh.contains(step.serial) ? step : copy(of: step, at: now))
        }
        steps.replace(from: lower, with: done)
        let redo = steps.steps(in: position..<pendingStart)
        let pending = steps.steps(in: pendingStart..<steps.count)
        let origins = pendingOrigins
        steps.removeSuffix(from: position)
        pendingOrigins = []
        for step in redo { appendPending(copyOf: step) }
        steps.append(contentsOf: pending)
        pendingOrigins.append(contentsOf: origins)
        branches.add(fork: fork, steps: originals)
        trimToLimits()
    }

    /// Puts the redo steps back as `tail` was (a failed redo, its steps undone again), the
    /// pending ones with `origins`, and gives back the serials the call took (from
    /// `nextSerial` on), so the history is as before the call.
    /// - Complexity: O(redo steps + serials given back).
    mutating func restoreTail(_ tail: [Step], origins: [UInt32], nextSerial saved: UInt32) {
        for step in steps.steps(in: position..<steps.count) {
            count(step.command, -1, done: false)
            totalCost -= Int(step.cost)
        }
        steps.removeSuffix(from: position)
        for step in tail {
            count(step.command, 1, done: false)
            totalCost += Int(step.cost)
        }
        steps.append(contentsOf: tail)
        pendingOrigins = origins
        var serial = saved
        while serial != nextSerial {
            copyOrigins[serial] = nil
            for index in saveStates.indices { saveStates.values[index].saved.remove(serial) }
            serial = serial == UInt32.max ? 1 : serial + 1
        }
        nextSerial = saved
    }

    /// Puts the steps of `reordering` back in their order before the call (after a failed call
    /// put the documents back); a step that left the history meanwhile stays out.
    /// - Complexity: O(steps in the stretch).
    mutating func restoreOrder(_ reordering: Reordering) {
        var present: [UInt32: Step] = [:]
        let end = min(reordering.end, steps.count)
        for index in reordering.start..<end { present[steps[index].serial] = steps[index] }
        steps.replace(from: reordering.start, with: reordering.serials.compactMap { present[$0] })
    }

    /// The step the next undo (or redo) of `scope` moves over.
    func find(_ direction: UndoResult.Direction, in scope: UndoContext?) -> Int? {
        direction == .undo ? newestDone(in: scope) : oldestRedoable(in: scope)
    }

    /// The name of the step at `index`, read in place (no copy of the command).
    mutating func name(at index: Int) -> String? {
        var reader = StepName()
        return steps.read(at: index, &reader)
    }

    /// The name and context of the step at `index`, read in place (no copy of the command).
    mutating func nameAndContext(at index: Int) -> (name: String?, context: UndoContext) {
        var reader = StepNameAndContext()
        return steps.read(at: index, &reader)
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
        var unread: String?
        return try applyInlined(direction, at: index, &changes, removingObsolete: removingObsolete,
                                readingName: false, name: &unread)
    }

    /// ``apply(_:at:_:removingObsolete:)`` itself, always inlined: the one-step undo and redo of
    /// the whole history (``moveOneGlobal(_:)``), the common call, then pays no call for it and
    /// passes nothing through memory (measured: about 30 instructions per undo or redo).
    /// With `readingName`, `name` gets the step's name once its action succeeded.
    @inline(__always)
    private mutating func applyInlined(_ direction: UndoResult.Direction, at index: Int, _ changes: inout UndoChanges,
                                       removingObsolete: Bool, readingName: Bool,
                                       name: inout String?) throws -> (name: String?, context: UndoContext)? {
        let marks = changes.obsoleteMarks
        var run = RunStep(direction, readingName: readingName)
        do {
            let read = try run.run(at: index, of: &steps, &changes)
            if readingName { name = read }
        } catch {
            throw failed(at: index, error)
        }
        if changes.obsoleteMarks != marks {
            changes.obsoleteMarks = marks
            if removingObsolete { return removeObsolete(at: index) }
        }
        if pendingOrigins.isEmpty { place(direction, from: index) } else { placeWithPending(direction, from: index) }
        return nil
    }

    /// ``place(_:from:)`` while pending steps wait: a pending step just redone has its state
    /// reached, so it becomes one (after the move, at the newest done step's place). Apart, so
    /// that the common path stays small enough to be inlined where it is called.
    @inline(never)
    private mutating func placeWithPending(_ direction: UndoResult.Direction, from index: Int) {
        guard index >= pendingStart else { return place(direction, from: index) }
        let origin = pendingOrigins.remove(at: index - pendingStart)
        place(direction, from: index)
        numberPending(at: position - 1, origin: origin)
    }

    /// The error of the step at `index`, whose action just failed with `error`, named after the
    /// step; when the step could not even be put back, it leaves the history (see
    /// ``apply(_:at:_:removingObsolete:)``). Apart, so the common path does not carry its frame.
    private mutating func failed(at index: Int, _ error: any Error) -> UndoError {
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
        return failure
    }

    /// Moves the step at `index`, just undone (or redone), to the position's edge. A move past
    /// other steps reorders them: the caller keeps the states' meaning
    /// (``finishReordering(_:)``).
    // Always inlined into its one caller, with the global context's count: an undo or redo
    // pays no calls for its bookkeeping.
    @inline(__always)
    mutating func place(_ direction: UndoResult.Direction, from index: Int) {
        assert(direction == .undo ? position > 0 : position < steps.count, "a move past the history's ends")
        let to = direction == .undo ? position - 1 : position
        if index != to { moveStep(from: index, to: to) }
        // 0 <= position <= steps.count, and an undo moves a done step (position >= 1), a redo a
        // redo step (position < steps.count): no overflow.
        position = direction == .undo ? position &- 1 : position &+ 1
        countMove(at: to, toDone: direction == .redo)
    }

    /// Moves the step at `from` to `to`, the steps between one place toward `from`.
    private mutating func moveStep(from: Int, to: Int) {
        steps.move(from: from, to: to)
    }

    /// Counts the step at `index` over from redo to done (`toDone`) or from done to redo.
    /// - Complexity: O(1) while every step is in the global context (no copy of the step, no
    ///   look at its contexts); O(contexts it touches) otherwise.
    @inline(__always)
    mutating func countMove(at index: Int, toDone: Bool) {
        // No count outside the global context means no step touches another context (a step
        // counts for each context it touches), so this one counts for the global context alone.
        if contextCounts.onlyGlobal {
            contextCounts.moveGlobal(toDone: toDone)
            return
        }
        countMoveAcrossContexts(at: index, toDone: toDone)
    }

    /// Counts the step at `index` over, in every context it touches (apart from the common
    /// path of ``countMove(at:toDone:)``).
    @inline(never)
    mutating func countMoveAcrossContexts(at index: Int, toDone: Bool) {
        // A step that is no group counts for its own context alone: read in place, counted over
        // in that context (no copy of the step, its context read once).
        var reader = StepSingleContext()
        let single = steps.read(at: index, &reader)
        if let single {
            contextCounts.move(in: single, toDone: toDone)
            return
        }
        let moved = steps.command(at: index)
        count(moved, -1, done: !toDone)
        count(moved, 1, done: toDone)
    }

    /// Removes the step at `index`, which changes nothing any more: the states before and
    /// after it are one, so a save point at it moves to the state before it.
    mutating func removeObsolete(at index: Int) -> (name: String?, context: UndoContext) {
        let removed = nameAndContext(at: index)
        let serial = steps[index].serial
        for context in Self.contexts(of: steps[index].command) where serial != 0 {
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
    @inline(__always)
    func newestDone(in context: UndoContext?) -> Int? {
        guard openGroups.isEmpty, position > 0 else { return nil }
        guard let context else { return position - 1 }
        return newestDone(of: context)
    }

    /// ``newestDone(in:)`` for a context, out of line: the whole history's case, inlined, is a
    /// subtraction.
    private func newestDone(of context: UndoContext) -> Int? {
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
    @inline(__always)
    func oldestRedoable(in context: UndoContext?) -> Int? {
        guard openGroups.isEmpty, position < steps.count else { return nil }
        guard let context else { return position }
        return oldestRedoable(of: context)
    }

    /// ``oldestRedoable(in:)`` for a context, out of line.
    private func oldestRedoable(of context: UndoContext) -> Int? {
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
        guard let group = UndoGroup.group(in: command) else { return false }
        return group.allContexts.contains(context)
    }

    /// Whether no step in `others` changes a context that the step at `index` changes, so it
    /// can move past them without taking another document's changes out of order.
    func isFree(_ index: Int, among others: Range<Int>) -> Bool {
        guard !others.isEmpty, UndoGroup.group(in: steps[index].command) != nil else { return true }
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
        !isSaved(savedMarker(in: context), in: context)
    }

    /// Whether `marker` (a serial standing for `context`'s content, see ``savedMarker(in:)``)
    /// is a saved state of `context`. A copy of a saved step is marked saved when it is made, and
    /// a save at a copy marks the step it is a copy of too (see ``copy(of:at:)``): the sets stay
    /// plain serials, as snapshots keep them.
    func isSaved(_ marker: UInt32, in context: UndoContext) -> Bool {
        // A context never saved is saved at the start (``SaveState``'s default).
        guard let saved = saveStates[context]?.saved else { return marker == 0 }
        return saved.contains(marker)
    }
}

/// Runs a step's action, undo or redo, in place with the step's own type (``StepList/change(at:_:)``),
/// and reads its name after it when asked (in the same access: a second one cost a uniqueness
/// check and the slot's projection again). The name is handed back, not stored: a stored one
/// released its old value (`nil`) in a call to the run time at every undo and redo.
@usableFromInline
struct RunStep: StepCommandChange {
    let direction: UndoResult.Direction
    let readingName: Bool
    /// The places the action reports: the caller's, moved in for the run and back after it.
    var changes = UndoChanges()

    @inline(__always)
    init(_ direction: UndoResult.Direction, readingName: Bool) {
        self.direction = direction
        self.readingName = readingName
    }

    /// Runs the step at `index` of `steps`, its places reported into `changes`.
    /// - Returns: the step's name after its action, when reading it (else `nil`).
    @inline(__always)
    mutating func run(at index: Int, of steps: inout StepList, _ changes: inout UndoChanges) throws -> String? {
        swap(&self.changes, &changes)
        defer { swap(&self.changes, &changes) }
        return try steps.change(at: index, &self)
    }

    @usableFromInline
    mutating func change<C: UndoCommand>(_ command: inout C) throws(any Error) -> String? {
        switch direction {
        case .undo: try command.undo(&changes)
        case .redo: try command.perform(&changes)
        }
        return readingName ? command.name : nil
    }

    /// The same, on the existential itself: no generic call (measured: about 60 instructions
    /// an undo or redo of a small step).
    @usableFromInline @inline(__always)
    mutating func change(existential command: inout any UndoCommand) throws(any Error) -> String? {
        switch direction {
        case .undo: try command.undo(&changes)
        case .redo: try command.perform(&changes)
        }
        return readingName ? command.name : nil
    }
}

/// Reads a step's name in place (``StepList/read(at:_:)``).
struct StepName: StepCommandRead {
    func read<C: UndoCommand>(_ command: borrowing C) -> String? { command.name }
}

/// Reads a step's name and context in place.
struct StepNameAndContext: StepCommandRead {
    func read<C: UndoCommand>(_ command: borrowing C) -> (name: String?, context: UndoContext) { (command.name, command.context) }
}

/// Reads the context of a step that is no group (nor runs one, ``UndoGroup/group(in:)``), in
/// place; `nil` for a group.
struct StepSingleContext: StepCommandRead {
    func read<C: UndoCommand>(_ command: borrowing C) -> UndoContext? {
        // Only a group's own types are made an existential to look inside.
        if C.self == UndoGroup.self || C.self == InvertedCommand.self, UndoGroup.group(in: copy command) != nil { return nil }
        return command.context
    }
}
