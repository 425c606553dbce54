/// Moves of one document through its own states, as Vim keeps an undo tree per buffer.
///
/// A document's content at any state is the run of its own steps from the start to that state
/// (see ``HistoryRecord/contextRun(of:upTo:)``). A move of document D to state S compares the
/// run that made D's present content with D's run up to S, and does the difference (D's steps
/// undone back to where the two runs part, then D's steps redone along S's run) on copies, in
/// one new step on top of the present state, as a revert does. No other document changes and
/// no state moves: every state number keeps meaning what it meant. A step that also changed
/// other documents (a group over several) cannot run for D alone: a move whose way passes one
/// is refused, naming it.
///
/// D's states are the start (0) and the states after its own steps, in the order they were
/// made, across every branch; the steps a document move adds are not states of their own (their
/// content is that of the state they went to), so `earlier --doc 1` twice goes back two states.
extension HistoryRecord {
    /// The step `serial` is a copy of (see ``copy(of:at:)``), or `serial` itself: two steps of
    /// one origin make the same change.
    func origin(of serial: UInt32) -> UInt32 { copyOrigins[serial] ?? serial }

    /// Whether `step` changed `context` (alone or in a group).
    static func step(_ step: Step, touches context: UndoContext) -> Bool {
        step.command.belongs(to: context) || contexts(of: step.command).contains(context)
    }

    /// The run of `context`'s steps that made its present content, oldest first, with document
    /// moves resolved (see ``resolvingMoves(_:of:)``); `nil` when it cannot be rebuilt (a limit
    /// dropped a state a move went to).
    /// - Complexity: O(position), plus O(steps of every branch) per document move resolved.
    func presentRun(of context: UndoContext) -> [Step]? {
        var run: [Step] = []
        for index in 0..<position where step(at: index, touches: context) { run.append(steps[index]) }
        return resolvingMoves(run, of: context)
    }

    /// The run of `context`'s steps that made its content at state `serial`, with document moves
    /// resolved; `nil` when no state has that serial or its run cannot be rebuilt.
    func resolvedRun(of context: UndoContext, upTo serial: UInt32) -> [Step]? {
        if serial == 0 {
            // After a limit dropped the document's oldest steps, its start is out of reach.
            return (saveStates[context] ?? SaveState()).baseline == 0 ? [] : nil
        }
        guard let run = contextRun(of: context, upTo: serial) else { return nil }
        return resolvingMoves(run, of: context)
    }

    /// `run` with its newest document move replaced by the run of the state that move went to
    /// (recursively), so that two runs compare step by step whichever way their content was
    /// reached: both then start from the same content (the start, or what a limit left).
    func resolvingMoves(_ run: [Step], of context: UndoContext) -> [Step]? {
        guard let last = run.lastIndex(where: { documentMoves[origin(of: $0.serial)] != nil }) else { return run }
        let target = documentMoves[origin(of: run[last].serial)]!
        guard let before = resolvedRun(of: context, upTo: target) else { return nil }
        return before + run[(last + 1)...]
    }

    /// The state `context` is at: the state its last move went to, or the state after its newest
    /// step on the way to the present, or 0.
    /// - Complexity: O(position).
    func documentState(of context: UndoContext) -> UInt32 {
        var index = position
        while index > 0 {
            index -= 1
            guard step(at: index, touches: context) else { continue }
            let serial = origin(of: steps[index].serial)
            return documentMoves[serial] ?? serial
        }
        return 0
    }

    /// `context`'s states (see the type's comment), oldest first, 0 included.
    /// - Complexity: O(steps of every branch × log).
    func documentStates(of context: UndoContext) -> [UInt32] {
        // The start is one of them until a limit drops the document's oldest steps.
        var states: [UInt32] = (saveStates[context] ?? SaveState()).baseline == 0 ? [0] : []
        forEachStep { step, _, _ in
            if documentMoves[step.serial] == nil && copyOrigins[step.serial] == nil && Self.step(step, touches: context) {
                states.append(step.serial)
            }
        }
        return states.sorted()
    }

    /// The state `count` of `context`'s states before (or after) the one it is at: the oldest
    /// (newest) when there are fewer; `nil` when there is none before (after) it.
    func documentTravelTarget(_ count: Int, in context: UndoContext, earlier: Bool) -> UInt32? {
        guard count > 0 else { return nil }
        let current = documentState(of: context)
        let states = documentStates(of: context)
        if earlier {
            let before = states.filter { $0 < current }
            guard !before.isEmpty else { return nil }
            return before[max(0, before.count - count)]
        }
        let after = states.filter { $0 > current }
        guard !after.isEmpty else { return nil }
        return after[min(after.count, count) - 1]
    }

    /// What takes `context` to its content at state `target`, or why it cannot be.
    /// - Complexity: O(steps of every branch).
    func documentMovePlan(for context: UndoContext, to target: UInt32) -> Result<RevertPlan, UndoError> {
        guard let aimed = resolvedRun(of: context, upTo: target) else { return .failure(.stateNotFound(target)) }
        // The present content comes from a move to a state a limit dropped: it has no run left.
        guard let current = presentRun(of: context) else { return .failure(.stateNotFound(documentState(of: context))) }
        var shared = 0
        while shared < current.count && shared < aimed.count
                && origin(of: current[shared].serial) == origin(of: aimed[shared].serial) {
            shared += 1
        }
        let way = Array(current[shared...]) + aimed[shared...]
        if let crossing = way.first(where: { Self.contexts(of: $0.command).count > 1 }) {
            return .failure(.moveCrossesOtherDocuments(context, step: crossing.command.name))
        }
        var plan = RevertPlan()
        plan.undone = current[shared...].reversed().map(\.command)
        plan.redone = aimed[shared...].map(\.command)
        return .success(plan)
    }
}

extension UndoStack {
    /// The state `context` is at, as document moves count it: the state its last
    /// ``goTo(state:in:named:)`` went to, or the state after its newest step on the way to the
    /// present (0: none).
    /// - Complexity: O(steps on the current branch).
    public func documentState(of context: UndoContext) -> UInt32 {
        access { $0.documentState(of: context) }
    }

    /// The states of `context`, oldest first: 0 and the states after its own steps on every
    /// branch (a document move's step is not one; see ``goTo(state:in:named:)``).
    /// - Complexity: O(steps of every branch × log).
    public func documentStates(of context: UndoContext) -> [UInt32] {
        access { $0.documentStates(of: context) }
    }

    /// Takes `context` alone to its content at state `id` (on any branch), leaving every other
    /// document as it is: the document's steps are undone back to where its present run and the
    /// run to `id` part, then done along the latter, on copies, in one new step named `name` on
    /// top of the present state (undone as one, like a revert). No state moves, so every state
    /// keeps its number and its documents. Vim's per-buffer `:undo N`.
    /// - Returns: what ran, or `nil` when the document already has that content.
    /// - Throws: ``UndoError/stateNotFound(_:)``; ``UndoError/moveCrossesOtherDocuments(_:step:)``
    ///   when the way passes a step that also changed other documents (a group over several:
    ///   it cannot run for one document alone; ``goTo(state:)`` moves every document);
    ///   ``UndoError/groupOpen``; an action's error, with the history and documents as they were.
    /// - Complexity: O(steps of every branch + steps run).
    @discardableResult
    public func goTo(state id: UInt32, in context: UndoContext, named name: String = "Go to State") throws -> UndoResult? {
        try beginAction("goTo")
        defer {
            endAction()
            notifyIfObserved()
        }
        return try moveDocument(context, to: id, named: name)
    }

    /// Takes `context` alone `count` of its own states back, in the order they were made
    /// (``documentStates(of:)``), as ``goTo(state:in:named:)``. Vim's `:earlier N` in one buffer.
    /// - Returns: what ran, or `nil` when there is no earlier state of the document.
    /// - Throws: as ``goTo(state:in:named:)``.
    @discardableResult
    public func earlier(_ count: Int, in context: UndoContext, named name: String = "Go to State") throws -> UndoResult? {
        try travelFindingTarget(count, in: context, earlier: true, named: name).result
    }

    /// Takes `context` alone `count` of its own states forward (see ``earlier(_:in:named:)``).
    @discardableResult
    public func later(_ count: Int, in context: UndoContext, named name: String = "Go to State") throws -> UndoResult? {
        try travelFindingTarget(count, in: context, earlier: false, named: name).result
    }

    /// The state ``earlier(_:in:named:)`` (or ``later(_:in:named:)``) would take `context` to;
    /// `nil` when it would stay.
    public func documentTravelTarget(_ count: Int, in context: UndoContext, earlier: Bool) -> UInt32? {
        access { $0.documentTravelTarget(count, in: context, earlier: earlier) }
    }

    /// A document travel, and the state it went to (what a journal records).
    func travelFindingTarget(_ count: Int, in context: UndoContext, earlier: Bool,
                             named name: String) throws -> (result: UndoResult?, target: UInt32?) {
        try beginAction(earlier ? "earlier" : "later")
        defer {
            endAction()
            notifyIfObserved()
        }
        guard storage.record.pointee.openGroups.isEmpty else { throw UndoError.groupOpen }
        guard let target = storage.record.pointee.documentTravelTarget(count, in: context, earlier: earlier) else {
            return (nil, nil)
        }
        return (try moveDocument(context, to: target, named: name), target)
    }

    /// The document move itself (inside an action).
    private func moveDocument(_ context: UndoContext, to id: UInt32, named name: String) throws -> UndoResult? {
        let record = storage.record
        guard record.pointee.openGroups.isEmpty else { throw UndoError.groupOpen }
        let plan = try record.pointee.documentMovePlan(for: context, to: id).get()
        guard plan.stepCount > 0 else { return nil }
        var ran = try plan.run(named: name, context: context) {
            record.pointee.saveStates[context, default: SaveState()].saved = []
        }
        record.pointee.coalescingOpen = false
        let serial = record.pointee.nextSerial
        record.pointee.appendFinished(ran.command)
        if record.pointee.position > 0, record.pointee.steps[record.pointee.position - 1].serial == serial {
            record.pointee.documentMoves[serial] = id
        }
        return UndoResult(direction: plan.redone.isEmpty ? .undo : .redo, name: name, context: context,
                          stepCount: plan.stepCount, changes: ran.changes.takeAll())
    }
}
