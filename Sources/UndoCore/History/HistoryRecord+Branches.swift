extension HistoryRecord {
    /// The state the documents are in: the serial of the newest done step of the current
    /// branch, 0 when none is done (the start of the history).
    @usableFromInline
    var currentState: UInt32 { position == 0 ? 0 : steps.serial(at: position - 1) }

    /// Removes the step at `index` of the current branch: its cost leaves the total, and the
    /// branches that hung at it hang at the state before it. The caller moves the position and
    /// the context counts.
    @discardableResult @usableFromInline
    mutating func removeFromList(at index: Int) -> Step {
        let anchor: UInt32 = index == 0 ? 0 : steps[index - 1].serial
        let pendingStart = self.pendingStart
        let removed = steps.remove(at: index)
        totalCost -= Int(removed.cost)
        if index >= pendingStart {
            // A pending step is no state: no branch hangs at it.
            pendingOrigins.remove(at: index - pendingStart)
        } else if !branches.isEmpty {
            branches.rehang(from: removed.serial, to: anchor)
        }
        return removed
    }

    // MARK: Trimming

    /// The oldest step a limit may drop from a stored branch: the newest step of a branch on
    /// which no other branch hangs (a branch is only ever trimmed from its tip). A pending step
    /// at a branch's end goes before any state (serial 0: the oldest of all).
    /// - Complexity: O(branches).
    func oldestBranchLeaf() -> (branch: Int, serial: UInt32)? {
        var oldest: (branch: Int, serial: UInt32)?
        let forks = branches.forks()
        for index in branches.branches.indices {
            let serial = branches.lastSerial(of: index)
            if serial == 0 { return (index, 0) }
            if forks.contains(serial) { continue }
            if oldest == nil || serial < oldest!.serial { oldest = (index, serial) }
        }
        return oldest
    }

    /// The current branch's first step (`removedFirst`) was dropped: the branches that hung
    /// before it go (their start is no longer reachable), and those that hung on it start the
    /// history now.
    mutating func dropBranchesBeforeStart(removedFirst serial: UInt32) {
        for step in branches.removeSubtrees(at: 0) { totalCost -= Int(step.cost) }
        branches.rehang(from: serial, to: 0)
    }

    // MARK: Moving across branches

    /// Puts the stored branch at `index`, which hangs at the current state, in place of the
    /// current branch's redo steps; those become the stored branch (at the same fork). Nothing
    /// runs: the documents are in the fork's state either way.
    /// - Complexity: O(redo steps + the branch's steps).
    mutating func switchToBranch(_ index: Int) {
        assert(branches.branches[index].fork == currentState, "a branch switched in away from its fork")
        // Pending steps go with the stored branch, after its states; when no state comes before
        // them (they wait right at the fork) they go: a stored branch starts with a state, and
        // their originals stay where they were made.
        if position == pendingStart {
            for step in steps.steps(in: position..<steps.count) {
                count(step.command, -1, done: false)
                totalCost -= Int(step.cost)
            }
            steps.removeSuffix(from: position)
            pendingOrigins = []
        }
        let tail = steps.steps(in: position..<steps.count)
        let tailOrigins = pendingOrigins
        for step in tail { count(step.command, -1, done: false) }
        steps.removeSuffix(from: position)
        let incoming = Array(branches.steps(of: index))
        pendingOrigins = branches.pendingOrigins(of: index)
        for step in incoming { count(step.command, 1, done: false) }
        steps.append(contentsOf: incoming)
        if tail.isEmpty {
            branches.remove(at: index)
        } else {
            branches.replaceSteps(at: index, with: tail, origins: tailOrigins)
        }
    }

    /// Undoes or redoes along the current branch (every context) until `target` steps are done.
    /// - Returns: how many steps were moved over.
    mutating func moveList(to target: Int, _ changes: inout UndoChanges) throws -> Int {
        var moved = 0
        while position > target {
            try apply(.undo, at: position - 1, &changes)
            moved += 1
        }
        while position < target {
            try apply(.redo, at: position, &changes)
            moved += 1
        }
        return moved
    }

    /// The index of `serial` in the current branch.
    /// - Complexity: O(runs of consecutive serials in the current branch).
    func listIndex(of serial: UInt32) -> Int? {
        // 0 is the start, never a step's serial (a pending step's 0 names no state).
        serial == 0 ? nil : steps.firstIndex(ofSerial: serial)
    }

    /// Moves the documents to the state after step `target` (0: the start): back along the
    /// current branch to where the way to `target` forks off, then onto each branch on that way.
    /// - Returns: how many steps were undone and redone.
    /// - Throws: ``UndoError/stateNotFound(_:)`` (nothing moved); an action's error, with the
    ///   record wherever the failing step left it (the caller goes back).
    /// - Complexity: O(steps in the history + steps moved over + branches × branches on the way).
    mutating func travel(to target: UInt32, _ changes: inout UndoChanges) throws -> Int {
        if target == 0 { return try moveList(to: 0, &changes) }
        if let index = listIndex(of: target) { return try moveList(to: index + 1, &changes) }
        let locations = branches.locations()
        guard let found = locations[target] else { throw UndoError.stateNotFound(target) }
        // The branches on the way, from the target's up to the one hanging on the current
        // branch: each named by its first step (slots move as branches are switched), with where
        // its fork is in the branch before it.
        var way: [(first: UInt32, forkOffset: Int?)] = []
        var branch = found.branch
        while true {
            let parent = locations[branches.branches[branch].fork]
            way.append((branches.firstSerial(of: branch), parent?.index))
            guard let parent else { break }
            branch = parent.branch
        }
        let rootFork = branches.branches[branch].fork
        guard var forkIndex = rootFork == 0 ? -1 : listIndex(of: rootFork) else {
            preconditionFailure("a branch hangs at a step that is in no branch")
        }
        var moved = 0
        for (first, forkOffset) in way.reversed() {
            if let forkOffset { forkIndex = position + forkOffset }
            moved += try moveList(to: forkIndex + 1, &changes)
            guard let slot = branches.branches.indices.first(where: { branches.firstSerial(of: $0) == first }) else {
                preconditionFailure("a branch on the way was lost")
            }
            switchToBranch(slot)
        }
        moved += try moveList(to: position + found.index + 1, &changes)
        return moved
    }

    /// Moves to the state after step `target` (0: the start of the history), across branches,
    /// all or nothing.
    /// - Returns: what moved (its direction is `.undo` when `target` is older than where the
    ///   call started); `nil` when the documents are already there.
    /// - Throws: ``UndoError/groupOpen``; ``UndoError/stateNotFound(_:)``; an action's error,
    ///   after going back to where the call started.
    mutating func goTo(_ target: UInt32) throws -> UndoResult? {
        guard openGroups.isEmpty else { throw UndoError.groupOpen }
        let wasOpen = coalescingOpen
        coalescingOpen = false
        let start = currentState
        guard target != start else { return nil }
        var changes = UndoChanges()
        let moved: Int
        // Pending steps waiting right at a fork the way leaves go (``switchToBranch(_:)``): a
        // failed move gives them back with the record as it was (only then is it copied).
        let kept = pendingOrigins.isEmpty || listIndex(of: target) != nil ? nil : self
        do {
            moved = try travel(to: target, &changes)
        } catch {
            var scratch = UndoChanges()
            let back = (try? travel(to: start, &scratch)) != nil
            var rollbackFailed = false
            if case .rollbackFailed? = error as? UndoError { rollbackFailed = true }
            if back && !rollbackFailed, let kept { self = kept }
            // All or nothing: the coalescing run too (a journal keeps only what succeeded).
            coalescingOpen = wasOpen
            throw error
        }
        // The step at the end of the way: the target, or (at the start) the last one undone.
        let (name, context) = position > 0 ? nameAndContext(at: position - 1)
            : steps.isEmpty ? (nil, UndoContext.global) : nameAndContext(at: 0)
        return UndoResult(direction: target < start ? .undo : .redo, name: name, context: context,
                          stepCount: moved, changes: changes.all)
    }

    // MARK: Finding states

    /// Every state's step, current branch first, then each stored branch: what the tree lists
    /// (not the pending steps, which are no states yet: see ``pendingOrigins``).
    func forEachStep(_ body: (Step, _ branch: Int, _ parent: UInt32) -> Void) {
        var parent: UInt32 = 0
        // The pending steps (the end of the list) are no states.
        let states = pendingStart
        var index = 0
        for step in steps {
            guard index < states else { break }
            index += 1
            body(step, 0, parent)
            parent = step.serial
        }
        for index in branches.branches.indices {
            parent = branches.branches[index].fork
            for step in branches.steps(of: index) where step.serial != 0 {
                body(step, index + 1, parent)
                parent = step.serial
            }
        }
    }

    /// Whether `serial` names a state of the history (0, the start, always does).
    func containsState(_ serial: UInt32) -> Bool {
        serial == 0 || listIndex(of: serial) != nil
            || branches.branches.indices.contains { branches.steps(of: $0).contains { $0.serial == serial } }
    }
}
