import UndoCore

// The branching history's workloads (not among the anchors): what a step costs when undone
// steps are kept as branches instead of discarded.

enum TreeWorkloads {
    /// branching: N *add k* pushes; after every 2·depth pushes, `depth` undos, so the next push
    /// sets those steps aside as a branch (N steps in the tree, a branch of `depth` steps for
    /// every 2·depth). Then a jump to the oldest state of the first branch and back. heap per n is
    /// the heap of the whole tree per step, beside pushundoredo's for a linear history.
    static func branching(_ n: Int, depth: Int) throws -> BenchResult {
        var result = BenchResult(workload: depth == 4 ? "branching" : "branching\(depth)", n: n, ops: n)
        let counter = Counter()
        var history: UndoStack! = UndoStack()
        let heapBefore = heapInUse()
        var undos = 0
        var clock = Stopwatch()
        for i in 0..<n {
            try history.perform(AddCommand(counter: counter, amount: Int64(i % 7 + 1)))
            if (i + 1) % (2 * depth) == 0 && i + 1 < n {
                try history.undo(count: depth)
                undos += depth
            }
        }
        result.pushMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0
        let tip = history.currentState
        let value = counter.value

        // Onto the first branch (its first step, state 2·depth − depth + 1) and back.
        let first = UInt32(depth + 1)
        _ = try history.goTo(state: first)
        let atFirst = counter.value
        _ = try history.goTo(state: tip)
        result.undoMs = clock.lap()

        result.ok = history.treeCount == n && counter.value == value && history.currentState == tip
            && atFirst == expectedSum(depth + 1, modulus: 7)
        result.ops = n + undos
        result.totalMs = result.pushMs + result.undoMs
        result.extra = [("tree_steps", "\(history.treeCount)"), ("branch_depth", "\(depth)")]

        _ = clock.lap()
        history = nil
        result.freeMs = clock.lap()
        return result
    }
}
