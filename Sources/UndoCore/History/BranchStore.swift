/// Where a stored branch is: the state it hangs at (`fork`: the serial of that state's newest
/// done step, 0 for the start of the history) and its run of steps in the store's pool, in the
/// order they would be redone.
@usableFromInline
struct StoredBranch {
    @usableFromInline var fork: UInt32
    var start: UInt32
    var count: UInt32
}

/// The branches of a record besides the current one (which is the record's ``StepList``).
///
/// The current branch stays a plain list, so undo, redo, groups and contexts keep their cost;
/// the other branches hang by the serial of their fork and are swapped into the list when the
/// person moves onto them (``HistoryRecord/switchToBranch(_:)``). A fork is a serial of the list,
/// of another branch, or 0; the branches form a tree, so following forks always reaches the list.
///
/// The steps of all branches share one array (`pool`), each branch a run of it, so a branch
/// costs 12 bytes beside its steps instead of an array of its own (a branch of one step, the
/// most common, would pay more for its array than for its step). A removed step's slot is
/// emptied (a ``Vacancy``) and the pool is compacted once half of it is empty, as ``StepList``
/// does.
///
/// A branch stored while pending steps waited at the end of the current branch keeps them at its
/// end (serial 0, see ``HistoryRecord/pendingOrigins``), with the states they copy in
/// `pendingOrigins`, by the branch's first serial (a branch's first step is always a state).
///
/// Invariants (checked by ``checkInvariants()``): no branch is empty; runs lie inside the pool
/// and do not overlap; `stepCount` is the sum of their lengths; every other slot is a vacancy;
/// a branch's pending steps are its last ones, never its first, one for each of its origins;
/// `pendingCount` is the number of pending steps.
@usableFromInline
struct BranchStore {
    private(set) var pool: [Step] = []
    @usableFromInline private(set) var branches: [StoredBranch] = []
    /// The steps in all stored branches.
    @usableFromInline private(set) var stepCount = 0
    /// The states the pending steps at the end of a branch copy, in their order, by the
    /// branch's first serial (looked up only, never listed).
    private var pendingOrigins: [UInt32: [UInt32]] = [:]
    /// The pending steps in all stored branches.
    private(set) var pendingCount = 0

    @inlinable var isEmpty: Bool { branches.isEmpty }

    /// The steps of the branch at `index`, oldest first.
    func steps(of index: Int) -> ArraySlice<Step> {
        let branch = branches[index]
        return pool[Int(branch.start)..<Int(branch.start + branch.count)]
    }

    func firstSerial(of index: Int) -> UInt32 { pool[Int(branches[index].start)].serial }
    func lastSerial(of index: Int) -> UInt32 { pool[Int(branches[index].start + branches[index].count) - 1].serial }

    /// The states the pending steps at the end of the branch at `index` copy.
    func pendingOrigins(of index: Int) -> [UInt32] { pendingOrigins[firstSerial(of: index)] ?? [] }

    /// Adds a branch hanging at `fork` (nothing when `steps` is empty), its pending steps (at
    /// its end) copying `origins`.
    mutating func add(fork: UInt32, steps: some Collection<Step>, origins: [UInt32] = []) {
        guard !steps.isEmpty else { return }
        branches.append(StoredBranch(fork: fork, start: UInt32(pool.count), count: UInt32(steps.count)))
        pool.append(contentsOf: steps)
        stepCount += steps.count
        setOrigins(origins, of: branches.count - 1)
    }

    private mutating func setOrigins(_ origins: [UInt32], of index: Int) {
        guard !origins.isEmpty else { return }
        pendingOrigins[firstSerial(of: index)] = origins
        pendingCount += origins.count
    }

    private mutating func dropOrigins(of index: Int) {
        if let origins = pendingOrigins.removeValue(forKey: firstSerial(of: index)) { pendingCount -= origins.count }
    }

    /// Removes the branch at `index` (the last branch takes its slot: indices are not stable).
    /// - Returns: its steps.
    @discardableResult
    mutating func remove(at index: Int) -> [Step] {
        let steps = Array(self.steps(of: index))
        dropOrigins(of: index)
        vacate(index)
        branches.swapAt(index, branches.count - 1)
        branches.removeLast()
        compactIfSparse()
        return steps
    }

    /// Replaces the steps of the branch at `index`, which keeps its fork and its slot; its
    /// pending steps copy `origins`.
    mutating func replaceSteps(at index: Int, with steps: [Step], origins: [UInt32] = []) {
        precondition(!steps.isEmpty, "a branch replaced by no steps")
        dropOrigins(of: index)
        vacate(index)
        branches[index].start = UInt32(pool.count)
        branches[index].count = UInt32(steps.count)
        pool.append(contentsOf: steps)
        stepCount += steps.count
        setOrigins(origins, of: index)
        compactIfSparse()
    }

    /// Removes the newest step of the branch at `index` (dropping the branch when it empties).
    /// - Returns: the step.
    mutating func removeLastStep(ofBranchAt index: Int) -> Step {
        let slot = Int(branches[index].start + branches[index].count) - 1
        if pool[slot].serial == 0 {
            let first = firstSerial(of: index)
            pendingOrigins[first]!.removeLast()
            pendingCount -= 1
            if pendingOrigins[first]!.isEmpty { pendingOrigins[first] = nil }
        }
        let step = takeStep(at: slot)
        stepCount -= 1
        branches[index].count -= 1
        if branches[index].count == 0 {
            branches.swapAt(index, branches.count - 1)
            branches.removeLast()
        }
        compactIfSparse()
        return step
    }

    /// Whether a branch hangs at `serial`.
    /// - Complexity: O(branches).
    @usableFromInline
    func hasBranches(at serial: UInt32) -> Bool { branches.contains { $0.fork == serial } }

    /// The serials at which branches hang.
    /// - Complexity: O(branches).
    func forks() -> Set<UInt32> { Set(branches.map(\.fork)) }

    /// Moves the branches hanging at `serial` to `anchor` (the step was removed; `anchor` is the
    /// state before it).
    /// - Complexity: O(branches).
    @usableFromInline
    mutating func rehang(from serial: UInt32, to anchor: UInt32) {
        for index in branches.indices where branches[index].fork == serial { branches[index].fork = anchor }
    }

    /// Hangs the branch at `index` at `fork`.
    mutating func setFork(ofBranchAt index: Int, to fork: UInt32) { branches[index].fork = fork }

    /// Removes the branches hanging at `serial`, and those hanging on their steps, and so on.
    /// - Returns: the removed steps.
    /// - Complexity: O(branches × branches removed + steps removed).
    mutating func removeSubtrees(at serial: UInt32) -> [Step] {
        var removed: [Step] = []
        var forks = [serial]
        while let fork = forks.popLast() {
            var index = 0
            while index < branches.count {
                if branches[index].fork == fork {
                    let steps = remove(at: index)
                    forks.append(contentsOf: steps.map(\.serial))
                    removed.append(contentsOf: steps)
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
        for branch in branches.indices {
            for (index, step) in steps(of: branch).enumerated() where step.serial != 0 { found[step.serial] = (branch, index) }
        }
        return found
    }

    /// Traps unless the invariants hold (see the type's documentation).
    func checkInvariants() {
        var used = [Bool](repeating: false, count: pool.count)
        var total = 0
        for branch in branches {
            precondition(branch.count > 0, "an empty branch is stored")
            precondition(Int(branch.start + branch.count) <= pool.count, "a branch runs past the pool")
            for slot in Int(branch.start)..<Int(branch.start + branch.count) {
                precondition(!used[slot], "two branches share slot \(slot)")
                used[slot] = true
            }
            total += Int(branch.count)
        }
        precondition(total == stepCount, "the stored branches' step count is off")
        var pending = 0
        for index in branches.indices {
            let run = steps(of: index)
            let count = pendingOrigins[run.first!.serial]?.count ?? 0
            precondition(run.first!.serial != 0, "a branch starts with a pending step")
            for (offset, step) in run.enumerated() {
                precondition((step.serial == 0) == (offset >= run.count - count), "a branch's pending steps are not its last")
            }
            pending += count
        }
        precondition(pending == pendingCount && pendingOrigins.count <= branches.count, "the stored pending steps' count is off")
        for slot in pool.indices where !used[slot] {
            precondition(pool[slot].command is Vacancy, "a slot outside every branch still holds a step")
        }
    }

    // MARK: Slots

    /// Empties the slots of the branch at `index` (its steps are released).
    private mutating func vacate(_ index: Int) {
        let branch = branches[index]
        for slot in Int(branch.start)..<Int(branch.start + branch.count) { _ = takeStep(at: slot) }
        stepCount -= Int(branch.count)
    }

    private mutating func takeStep(at slot: Int) -> Step {
        var taken = Step(Vacancy(), serial: 0, time: 0)
        swap(&taken, &pool[slot])
        return taken
    }

    /// Moves the branches' runs together once half of the pool (and at least 16 slots) is empty.
    /// - Complexity: O(pool), so O(1) amortized per slot emptied.
    private mutating func compactIfSparse() {
        let empty = pool.count - stepCount
        guard empty >= 16 && 2 * empty >= pool.count else {
            if stepCount == 0 { pool.removeAll() }
            return
        }
        var compacted: [Step] = []
        compacted.reserveCapacity(stepCount)
        for index in branches.indices {
            let start = UInt32(compacted.count)
            compacted.append(contentsOf: steps(of: index))
            branches[index].start = start
        }
        pool = compacted
    }
}
