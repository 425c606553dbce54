/// A branch of the history that is not the current one: steps that were redo steps when a
/// change was made, in the order they would be redone, hanging at the state where they were set
/// aside (`fork`: the serial of that state's newest done step, 0 for the start of the history).
@usableFromInline
struct StoredBranch {
    @usableFromInline var fork: UInt32
    @usableFromInline var steps: [Step]
}

/// The branches of a record besides the current one (which is the record's ``StepList``).
///
/// The current branch stays a plain list, so undo, redo, groups and contexts keep their cost;
/// the other branches hang by the serial of their fork and are swapped into the list when the
/// person moves onto them (``HistoryRecord/switchToBranch(_:)``). A fork is a serial of the list,
/// of another branch, or 0; the branches form a tree, so following forks always reaches the list.
///
/// Invariants (checked by ``UndoStack/checkInvariants()``): no branch is empty; `stepCount` is
/// the sum of their lengths; `forkCounts[s]` is how many branches hang at serial `s`.
@usableFromInline
struct BranchStore {
    @usableFromInline var branches: [StoredBranch] = []
    /// The steps in all stored branches.
    @usableFromInline var stepCount = 0
    /// How many branches hang at each serial (only serials with one or more): a step with none
    /// is a leaf when it ends its branch, and its removal needs no search for branches to move.
    var forkCounts: [UInt32: Int] = [:]

    @inlinable var isEmpty: Bool { branches.isEmpty }

    /// Adds `branch` (nothing when it has no steps).
    mutating func add(_ branch: StoredBranch) {
        guard !branch.steps.isEmpty else { return }
        stepCount += branch.steps.count
        forkCounts[branch.fork, default: 0] += 1
        branches.append(branch)
    }

    /// Removes the branch at `index` (its last slot takes its place: indices are not stable).
    @discardableResult
    mutating func remove(at index: Int) -> StoredBranch {
        let branch = branches[index]
        stepCount -= branch.steps.count
        uncount(fork: branch.fork)
        branches.swapAt(index, branches.count - 1)
        branches.removeLast()
        return branch
    }

    /// Replaces the steps of the branch at `index`, which keeps its fork.
    mutating func replaceSteps(at index: Int, with steps: [Step]) {
        stepCount += steps.count - branches[index].steps.count
        branches[index].steps = steps
    }

    /// Removes the newest step of the branch at `index` (dropping the branch when it empties).
    /// - Returns: the step.
    mutating func removeLastStep(ofBranchAt index: Int) -> Step {
        let step = branches[index].steps.removeLast()
        stepCount -= 1
        if branches[index].steps.isEmpty { remove(at: index) }
        return step
    }

    /// Whether a branch hangs at `serial`.
    func hasBranches(at serial: UInt32) -> Bool { forkCounts[serial] != nil }

    /// Moves the branches hanging at `serial` to `anchor` (the step was removed; `anchor` is the
    /// state before it).
    /// - Complexity: O(1) when none hangs there; O(branches) otherwise.
    @usableFromInline
    mutating func rehang(from serial: UInt32, to anchor: UInt32) {
        guard serial != anchor, let moved = forkCounts.removeValue(forKey: serial) else { return }
        forkCounts[anchor, default: 0] += moved
        for index in branches.indices where branches[index].fork == serial { branches[index].fork = anchor }
    }

    /// Removes the branches hanging at `serial`, and those hanging on their steps, and so on.
    /// - Returns: the removed steps.
    /// - Complexity: O(branches × branches removed + steps removed).
    mutating func removeSubtrees(at serial: UInt32) -> [Step] {
        var removed: [Step] = []
        var forks = [serial]
        while let fork = forks.popLast() {
            guard hasBranches(at: fork) else { continue }
            var index = 0
            while index < branches.count {
                if branches[index].fork == fork {
                    let branch = remove(at: index)
                    for step in branch.steps where hasBranches(at: step.serial) { forks.append(step.serial) }
                    removed.append(contentsOf: branch.steps)
                } else {
                    index += 1
                }
            }
        }
        return removed
    }

    /// Where each serial of a stored branch is: the branch's index and the step's index in it.
    /// - Complexity: O(steps in the branches).
    func locations() -> [UInt32: (branch: Int, index: Int)] {
        var found: [UInt32: (branch: Int, index: Int)] = [:]
        found.reserveCapacity(stepCount)
        for (branch, stored) in branches.enumerated() {
            for (index, step) in stored.steps.enumerated() { found[step.serial] = (branch, index) }
        }
        return found
    }

    private mutating func uncount(fork: UInt32) {
        if let count = forkCounts[fork], count > 1 { forkCounts[fork] = count - 1 } else { forkCounts[fork] = nil }
    }
}
