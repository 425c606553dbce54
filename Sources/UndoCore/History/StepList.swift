/// The steps of a record, oldest first: the commands in chunks (``CommandChunks``) whose first
/// `start` slots are steps a limit dropped, not yet compacted away, and each step's serial, cost
/// and time beside it in runs (``StepRuns``).
///
/// A slot holds the command alone (40 bytes, or 80 for a command of 25 to 64 bytes, see
/// ``CommandChunks``): the serial, cost and time of steps pushed one after another by a
/// program (consecutive serials, commands of one type, within one tick of the clock) cost
/// nothing per step. A step read from the list is a ``Step``, built from its four parts;
/// ``change(at:_:)`` runs or changes a command in place and ``read(at:_:)`` reads one, each
/// with the command's own type.
///
/// A limit drops the oldest step on every change once the history is full; an array would move
/// every other step to drop it. Here the dropped step's slot is emptied (a ``Vacancy``, which
/// holds nothing) and `start` moves past it; a chunk of empty slots is freed once it is one, and
/// while the steps fit in one chunk the empty slots are removed in one move once they are half
/// of it, so dropping costs O(1) amortized and the slack stays below one chunk.
///
/// Invariant (checked by ``checkInvariants()``): `0 <= start <= commands.count`, every slot
/// below `start` is a vacancy, and the runs hold one serial, cost and time for each step.
@usableFromInline
struct StepList: RandomAccessCollection {
    @usableFromInline var commands = CommandChunks()
    @usableFromInline var start = 0
    @usableFromInline var serials = StepRuns<StepSerial>()
    @usableFromInline var costs = StepRuns<StepCost>()
    @usableFromInline var times = StepRuns<StepTime>()

    @usableFromInline init() {}

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { commands.count &- start }

    /// The step at `index` (a copy: change one with ``withCommand(at:_:)``).
    /// - Complexity: O(1) for the newest steps; O(log runs) otherwise.
    @inlinable subscript(index: Int) -> Step {
        Step(command: commands[start + index], serial: serials[index].value, cost: costs[index].value,
             time: times[index].value)
    }

    @inlinable func command(at index: Int) -> any UndoCommand { commands[start + index] }
    @inlinable func serial(at index: Int) -> UInt32 { serials[index].value }
    @inlinable func cost(at index: Int) -> Int32 { costs[index].value }
    @inlinable func time(at index: Int) -> UInt64 { times[index].value }

    /// Walks the steps oldest first, run by run (no search per step).
    @usableFromInline
    struct Iterator: IteratorProtocol {
        @usableFromInline let list: StepList
        @usableFromInline var index: Int
        @usableFromInline var serial: StepRuns<StepSerial>.Cursor
        @usableFromInline var cost: StepRuns<StepCost>.Cursor
        @usableFromInline var time: StepRuns<StepTime>.Cursor

        @inlinable
        init(_ list: StepList) {
            self.list = list
            index = list.start
            serial = .first(of: list.serials)
            cost = .first(of: list.costs)
            time = .first(of: list.times)
        }

        /// Walks the steps from the one at `offset` on.
        /// - Complexity: O(log runs).
        init(_ list: StepList, from offset: Int) {
            precondition(offset >= 0 && offset <= list.count, "step \(offset) outside 0...\(list.count)")
            self.list = list
            index = list.start + offset
            serial = .at(offset, of: list.serials)
            cost = .at(offset, of: list.costs)
            time = .at(offset, of: list.times)
        }

        @inlinable
        mutating func next() -> Step? {
            guard index < list.commands.count else { return nil }
            defer { index &+= 1 }
            return Step(command: list.commands[index], serial: serial.next(in: list.serials).value,
                        cost: cost.next(in: list.costs).value, time: time.next(in: list.times).value)
        }
    }

    @inlinable
    func makeIterator() -> Iterator { Iterator(self) }

    /// The steps in `range`, oldest first (copies), read run by run.
    /// - Complexity: O(log runs + the steps in `range`).
    func steps(in range: Range<Int>) -> [Step] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "steps \(range) outside 0..<\(count)")
        guard !range.isEmpty else { return [] }
        var serial = StepRuns<StepSerial>.Cursor.at(range.lowerBound, of: serials)
        var cost = StepRuns<StepCost>.Cursor.at(range.lowerBound, of: costs)
        var time = StepRuns<StepTime>.Cursor.at(range.lowerBound, of: times)
        var result: [Step] = []
        result.reserveCapacity(range.count)
        for index in range {
            result.append(Step(command: commands[start + index], serial: serial.next(in: serials).value,
                               cost: cost.next(in: costs).value, time: time.next(in: times).value))
        }
        return result
    }

    /// The index of the step whose serial is `serial`.
    /// - Complexity: O(runs of serials).
    func firstIndex(ofSerial serial: UInt32) -> Int? { serials.firstIndex(of: serial) }

    /// Runs `change` on the command of the step at `index`, in place, with its own type (the
    /// way steps are run: no existential is made, so a large command is never boxed for it).
    @inlinable @inline(__always)
    mutating func change<V: StepCommandChange>(at index: Int, _ change: inout V) throws(V.Failure) -> V.Result {
        try commands.change(at: start + index, &change)
    }

    /// Runs `reader` on the command of the step at `index`, in place, with its own type.
    @inlinable @inline(__always)
    func read<V: StepCommandRead>(at index: Int, _ reader: inout V) -> V.Result {
        commands.read(at: start + index, &reader)
    }

    /// Judges the command of the step at `index` where it is held (``HeldCommandJudge``):
    /// `nil` when it is not of the judged type, or there is no judge. (The judge is passed as
    /// an optional: unwrapped by the caller, it was retained and released at every step.)
    func judgeHeld(at index: Int, by judge: HeldCommandJudge?) -> Bool? {
        judge?.judge(commands.slot(start + index))
    }

    /// Sets the time of the step at `index` (a merge into it).
    /// - Complexity: O(1) for the newest step.
    @inlinable
    mutating func setTime(_ time: UInt64, at index: Int) {
        // A merge into the newest step within the clock's tick changes nothing.
        if index == endIndex &- 1 && times.last.value == time { return }
        times.set(StepTime(time), at: index)
    }

    /// Replaces the steps from `index` on with `steps`, as many.
    /// - Complexity: O(`steps.count`), plus the runs after them when their number changes.
    mutating func replace(from index: Int, with steps: [Step]) {
        for (offset, step) in steps.enumerated() { commands[start + index + offset] = step.command }
        let range = index..<(index + steps.count)
        serials.replace(range, with: steps.map { StepSerial($0.serial) })
        costs.replace(range, with: steps.map { StepCost($0.cost) })
        times.replace(range, with: steps.map { StepTime($0.time) })
    }

    /// Offers `next` to the step at `index`, in place (see ``HistoryRecord/merge(_:into:)``);
    /// after a merge, measures it again and sets its time to `now`.
    /// - Returns: the outcome, and by how much the cost grew.
    @inlinable
    mutating func merge<C: UndoCommand>(_ next: borrowing C, intoStepAt index: Int, at now: UInt64) -> (UndoMerge?, Int) {
        let (outcome, measured) = commands.mergeMeasuring(next, intoCommandAt: start + index)
        guard outcome == .merged else { return (outcome, 0) }
        let old = costs[index].value
        if measured != old { costs.set(StepCost(measured), at: index) }
        setTime(now, at: index)
        return (outcome, Int(measured) - Int(old))
    }

    @inlinable
    mutating func append(_ step: consuming Step) {
        commands.append(step.command)
        appendFields(serial: step.serial, cost: step.cost, time: step.time)
    }

    /// Appends a step while a list is rebuilt step by step (``HistoryRecord/removeAll(where:)``):
    /// inlined there, so a step that continues every run costs a few compares.
    @inline(__always)
    mutating func appendKept(_ step: consuming Step) {
        commands.append(step.command)
        serials.append(StepSerial(step.serial))
        costs.append(StepCost(step.cost))
        times.append(StepTime(step.time))
    }

    /// Adds a command of a known type as a new step: measured, then made an existential in place.
    /// - Returns: its cost.
    // Always inlined into the push, as the step was before its fields moved into runs (a call
    // of its own cost a large command about 40 instructions more per push).
    @inlinable @inline(__always)
    mutating func append<C: UndoCommand>(typed command: consuming C, serial: UInt32, time: UInt64) -> Int32 {
        let cost = Int32(clamping: Swift.max(0, command.cost))
        commands.append(typed: command)
        appendFields(serial: serial, cost: cost, time: time)
        return cost
    }

    @inlinable
    mutating func appendFields(serial: UInt32, cost: Int32, time: UInt64) {
        serials.append(StepSerial(serial))
        costs.append(StepCost(cost))
        times.append(StepTime(time))
    }

    mutating func insert(_ step: consuming Step, at index: Int) {
        commands.insert(step.command, at: start + index)
        serials.insert(StepSerial(step.serial), at: index)
        costs.insert(StepCost(step.cost), at: index)
        times.insert(StepTime(step.time), at: index)
    }

    @usableFromInline
    mutating func remove(at index: Int) -> Step {
        if index == 0 { return removeFirst() }
        // The command moved out once (a copy read first, then the slot's own dropped, made a
        // command of over 24 bytes an existential twice).
        let removed = Step(command: commands.remove(at: start + index), serial: serials[index].value,
                           cost: costs[index].value, time: times[index].value)
        serials.remove(at: index)
        costs.remove(at: index)
        times.remove(at: index)
        return removed
    }

    /// Drops the oldest step.
    /// - Complexity: O(1) amortized.
    mutating func removeFirst() -> Step {
        precondition(start < commands.count, "removeFirst on no steps")
        let command = commands.exchange(at: start, with: Vacancy())
        let removed = Step(command: command, serial: serials[0].value, cost: costs[0].value, time: times[0].value)
        serials.removeFirst()
        costs.removeFirst()
        times.removeFirst()
        start += 1
        if start == commands.count {
            commands.removeAll()
            start = 0
        } else if start >= CommandChunks.chunkSize {
            commands.removeFirstChunks(start / CommandChunks.chunkSize)
            start %= CommandChunks.chunkSize
        } else if commands.chunkCount == 1 && start >= 16 && 2 * start >= commands.count {
            commands.removeFirstOfOnlyChunk(start)
            start = 0
        }
        return removed
    }

    mutating func removeLast() -> Step {
        precondition(start < commands.count, "removeLast on no steps")
        let last = count - 1
        let removed = Step(command: commands.removeLast(), serial: serials[last].value, cost: costs[last].value,
                           time: times[last].value)
        serials.removeLast()
        costs.removeLast()
        times.removeLast()
        if start == commands.count {
            commands.removeAll()
            start = 0
        }
        return removed
    }

    /// Moves the step at `from` to `to`, the steps between one place toward `from`.
    /// - Complexity: O(|from - to|) for the commands, O(runs after the lower of the two) for
    ///   the fields.
    mutating func move(from: Int, to: Int) {
        guard from != to else { return }
        var slot = from
        while slot < to { commands.swapAt(start + slot, start + slot + 1); slot += 1 }
        while slot > to { commands.swapAt(start + slot, start + slot - 1); slot -= 1 }
        serials.move(from: from, to: to)
        costs.move(from: from, to: to)
        times.move(from: from, to: to)
    }

    /// Removes the steps from `index` to the end.
    mutating func removeSuffix(from index: Int) {
        commands.removeSuffix(from: start + index)
        serials.removeSuffix(from: index)
        costs.removeSuffix(from: index)
        times.removeSuffix(from: index)
        if start == commands.count {
            commands.removeAll()
            start = 0
        }
    }

    mutating func append(contentsOf steps: some Sequence<Step>) {
        for step in steps { append(step) }
    }

    mutating func removeAll() {
        commands.removeAll()
        start = 0
        serials.removeAll()
        costs.removeAll()
        times.removeAll()
    }

    /// Traps unless the invariant holds (see the type's documentation).
    func checkInvariants() {
        commands.checkInvariants()
        precondition(start >= 0 && start <= commands.count, "start \(start) outside 0...\(commands.count)")
        for index in 0..<start {
            precondition(commands[index] is Vacancy, "a dropped slot at \(index) still holds a step")
        }
        let count = commands.count - start
        precondition(serials.count == count && costs.count == count && times.count == count,
                     "\(count) steps with \(serials.count) serials, \(costs.count) costs and \(times.count) times")
        serials.checkInvariants()
        costs.checkInvariants()
        times.checkInvariants()
    }
}

/// What a dropped step's slot holds until the slots are compacted (see ``StepList``): a command
/// that is never run.
@usableFromInline
struct Vacancy: UndoCommand {
    @usableFromInline init() {}
    @usableFromInline func perform(_ changes: inout UndoChanges) throws { preconditionFailure("a dropped step was run") }
    @usableFromInline func undo(_ changes: inout UndoChanges) throws { preconditionFailure("a dropped step was run") }
}
