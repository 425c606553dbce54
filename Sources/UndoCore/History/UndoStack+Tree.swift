/// One state of the history tree: the state after a step, as ``UndoStack/tree`` lists it.
public struct UndoTreeNode: Sendable, Equatable {
    /// The step's serial: the state's id for ``UndoStack/goTo(state:)``. Serials grow in the
    /// order steps are made, so they order the states chronologically.
    public var id: UInt32
    /// The state this one follows: the step before it on its branch, or where its branch forks
    /// off (0: the start of the history).
    public var parent: UInt32
    public var name: String?
    /// The step's longer description (``UndoCommand/historyDescription``), as history lists show it.
    public var description: String?
    public var context: UndoContext
    /// When the state was made (last changed, for a step that coalesced), in the history
    /// clock's nanoseconds.
    public var time: UInt64
    /// 0 for the current branch (the steps undo and redo move along), 1 and up for the others.
    public var branch: Int
    /// Whether the step is done: the state is on the way from the start to the current state.
    public var isApplied: Bool
    /// Whether this is the current state.
    public var isCurrent: Bool
    /// Whether the state was saved at some time (travel by saves stops here).
    public var wasSaved: Bool
    /// Whether its document's content now on disk is this state.
    public var isSavePoint: Bool
    /// Whether this is the state ``UndoStack/redo(count:)`` goes to next (from the current
    /// state, along the current branch).
    public var isNextRedo: Bool = false
}

extension UndoStack {
    /// The id of the current state: the serial of the newest done step, 0 at the start.
    public var currentState: UInt32 { access { $0.currentState } }

    /// Every step of every branch (the whole tree): the current branch first, oldest first,
    /// then each other branch from its fork on.
    /// - Complexity: O(steps + saves).
    public var tree: [UndoTreeNode] {
        access { record in
            let saved = Set(record.saveLog.map(\.state))
            let current = record.currentState
            var nodes: [UndoTreeNode] = []
            nodes.reserveCapacity(record.steps.count + record.branches.stepCount)
            var index = 0
            record.forEachStep { step, branch, parent in
                let command = step.command
                nodes.append(UndoTreeNode(
                    id: step.serial, parent: parent, name: command.name, description: command.historyDescription,
                    context: command.context, time: step.time,
                    branch: branch, isApplied: branch == 0 && index < record.position,
                    isCurrent: step.serial == current, wasSaved: saved.contains(step.serial),
                    isSavePoint: record.isSaved(step.serial, in: command.context),
                    isNextRedo: branch == 0 && index == record.position))
                index += 1
            }
            return nodes
        }
    }

    /// How many states all branches hold together: their steps, without the pending redo
    /// steps, which are no states until they are redone (``count`` is the current branch's
    /// steps, pending ones included).
    public var treeCount: Int { access { $0.pendingStart + $0.branches.stepCount - $0.branches.pendingCount } }

    /// The history clock's time now, on the scale of ``UndoTreeNode/time``.
    public var currentTime: UInt64 { access { $0.clock.nanoseconds() } }

    /// Whether the start of the history (state 0) was saved at some time.
    public var wasStartSaved: Bool { access { $0.saveLog.contains { $0.state == 0 } } }

    /// Moves the documents to the state after step `id` (0: the start of the history), on
    /// whichever branch it is: undoing back to where its branch forks off, then redoing along
    /// it. That branch becomes the current one, so undo and redo then move along it, and a
    /// later return to the fork redoes into it (the branch last used). Every context moves.
    /// All or nothing, as ``undo(count:)``. Vim's `:undo N`.
    /// - Returns: what moved, or `nil` when the documents are already there.
    /// - Throws: ``UndoError/stateNotFound(_:)``; ``UndoError/groupOpen``; an action's error,
    ///   after going back to the state the call started from; ``UndoError/reentrantCall(_:)``.
    /// - Complexity: O(steps in the history + steps moved over).
    @discardableResult
    public func goTo(state id: UInt32) throws -> UndoResult? {
        try beginAction("goTo")
        defer {
            endAction()
            notifyIfObserved()
        }
        return try storage.record.pointee.goTo(id)
    }

    /// Travels back through the states in the order they were made, across branches: by a
    /// count (`.states(1)` is Vim's `g-`), a time, or saves (see ``UndoTravel``). Vim's `:earlier`.
    /// - Returns: what moved, or `nil` when there is no earlier state.
    /// - Throws: as ``goTo(state:)``.
    /// - Complexity: O(steps in the history × log n) for n states; O(steps + saves) otherwise;
    ///   plus the steps moved over.
    @discardableResult
    public func earlier(_ distance: UndoTravel) throws -> UndoResult? { try travel(distance, earlier: true) }

    /// Travels forward through the states in the order they were made (`.states(1)` is Vim's
    /// `g+`). Vim's `:later`.
    /// - Returns: what moved, or `nil` when there is no later state.
    /// - Throws: as ``goTo(state:)``.
    @discardableResult
    public func later(_ distance: UndoTravel) throws -> UndoResult? { try travel(distance, earlier: false) }

    /// The id of the state ``earlier(_:)`` (or ``later(_:)``) would move to, without moving;
    /// `nil` when it would stay.
    public func travelTarget(_ distance: UndoTravel, earlier: Bool) -> UInt32? {
        access { $0.travelTarget(distance, earlier: earlier) }
    }

    private func travel(_ distance: UndoTravel, earlier: Bool) throws -> UndoResult? {
        try travelFindingTarget(distance, earlier: earlier).result
    }

    /// Travels as ``earlier(_:)`` or ``later(_:)`` and tells which state it went to (what a
    /// journal records: the move to that state).
    func travelFindingTarget(_ distance: UndoTravel, earlier: Bool) throws -> (result: UndoResult?, target: UInt32?) {
        try beginAction(earlier ? "earlier" : "later")
        defer {
            endAction()
            notifyIfObserved()
        }
        let record = storage.record
        guard record.pointee.openGroups.isEmpty else { throw UndoError.groupOpen }
        let (found, aim) = record.pointee.travelAim(distance, earlier: earlier)
        guard let target = found else { return (nil, nil) }
        let result = try record.pointee.goTo(target)
        if let aim { record.pointee.timeCursor = (target, aim) }
        return (result, target)
    }
}
