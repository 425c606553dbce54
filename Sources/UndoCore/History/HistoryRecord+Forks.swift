/// Keeping each stored branch at a state its steps fit.
///
/// A branch hangs at a step of the current branch (its fork) and is done on top of the steps up
/// to that fork. An undo or redo in one context moves a step past other contexts' steps, which
/// changes what is done up to the forks among them (a revert moves no step: it adds its own).
/// Each context's steps keep their order, so a branch still fits a fork when the steps done up
/// to it differ only in contexts that nothing in the branch (nor in the branches hanging on it)
/// changes. Such moves hang the branches there. Per-document undo and redo stay always offered:
/// a branch that would fit no state of the reordered list (it changes both the moved step's
/// documents and those it passes) is dropped rather than redone on a state it was not made on.
extension HistoryRecord {
    /// The contexts changed by the branches hanging at `fork`, and by those hanging on their
    /// steps, and so on.
    /// - Complexity: O(branches × branches in that subtree + their steps).
    func contextsOfBranches(at fork: UInt32) -> Set<UndoContext> {
        var contexts: Set<UndoContext> = []
        var forks = [fork]
        while let next = forks.popLast() {
            for index in branches.branches.indices where branches.branches[index].fork == next {
                for step in branches.steps(of: index) {
                    contexts.formUnion(Self.contexts(of: step.command))
                    forks.append(step.serial)
                }
            }
        }
        return contexts
    }

    /// Where the stored branches must hang when the step at `index` moves to `to` (an undo
    /// moves a done step up past other contexts' done steps, a redo moves a redo step down past
    /// other contexts' redo steps): for each branch whose fork is among the steps passed,
    /// the branch (named by its first step, as slots move) and the fork it then fits.
    /// - Returns: the new forks, and the forks whose branches fit no state of the reordered list
    ///   (both empty when nothing is passed or no branch hangs there).
    /// - Complexity: O(steps passed × branches), plus ``contextsOfBranches(at:)`` for each fork
    ///   among them.
    func forksAfterMoving(_ index: Int, to: Int) -> (moves: [(first: UInt32, fork: UInt32)], stranded: [UInt32]) {
        guard index != to, !branches.isEmpty else { return ([], []) }
        let lower = min(index, to), upper = max(index, to)
        let moved = steps[index].serial
        let movedContexts = Self.contexts(of: steps[index].command)
        let before: UInt32 = lower == 0 ? 0 : steps[lower - 1].serial
        // The block in its old order: for an undo the moved step then those it passes; for a
        // redo those it passes then the moved step. Each step's offset in it, by serial.
        var offsets: [UInt32: Int] = [:]
        for offset in lower...upper { offsets[steps[offset].serial] = offset }
        var result: [(first: UInt32, fork: UInt32)] = []
        // In the order found (a set's order follows the per-process hash seed, and the order in
        // which branches are dropped decides the slots, so the numbers, of those that stay).
        var stranded: [UInt32] = []
        for slot in branches.branches.indices {
            let fork = branches.branches[slot].fork
            guard let offset = offsets[fork], !stranded.contains(fork) else { continue }
            let first = branches.firstSerial(of: slot)
            let needs = contextsOfBranches(at: fork)
            // The contexts of the passed steps in `range` (old offsets).
            func passedContexts(_ range: ClosedRange<Int>) -> Set<UndoContext> {
                var contexts: Set<UndoContext> = []
                for other in range where other != index { contexts.formUnion(Self.contexts(of: steps[other].command)) }
                return contexts
            }
            if index < to {
                // Undo: S X1…Xm becomes X1…Xm S. At Xm the state is the one after S now.
                if offset == upper { result.append((first, moved)); continue }
                if needs.isDisjoint(with: movedContexts) {
                    // The same state without S: at S, the state before it; at Xk, Xk itself.
                    if fork == moved { result.append((first, before)) }
                } else if offset + 1 > upper || needs.isDisjoint(with: passedContexts((offset + 1)...upper)) {
                    // With the rest of X done too: after S.
                    result.append((first, moved))
                } else if !stranded.contains(fork) {
                    stranded.append(fork)
                }
            } else {
                // Redo: X1…Xm S becomes S X1…Xm. At S the state is the one after Xm now.
                if fork == moved { result.append((first, steps[upper - 1].serial)); continue }
                if needs.isDisjoint(with: movedContexts) { continue }   // Xk with S done too
                if needs.isDisjoint(with: passedContexts(lower...offset)) {
                    result.append((first, before))   // without X1…Xk
                } else if !stranded.contains(fork) {
                    stranded.append(fork)
                }
            }
        }
        return (result, stranded)
    }

    /// Hangs the branches as ``forksAfterMoving(_:to:)`` found, after dropping those stranded
    /// (with the branches hanging on their steps).
    /// - Complexity: O(branches × (forks moved + branches dropped) + steps dropped).
    mutating func rehang(_ forks: (moves: [(first: UInt32, fork: UInt32)], stranded: [UInt32])) {
        for fork in forks.stranded {
            for step in branches.removeSubtrees(at: fork) { totalCost -= Int(step.cost) }
        }
        for (first, fork) in forks.moves {
            guard let slot = branches.branches.indices.first(where: { branches.firstSerial(of: $0) == first }) else { continue }
            branches.setFork(ofBranchAt: slot, to: fork)
        }
    }
}
