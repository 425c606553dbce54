/// A field of the steps kept in runs (see ``StepRuns``): the value at `offset` places after a
/// run's first step follows from the run's first value.
@usableFromInline
protocol StepRunValue: Equatable {
    /// The value `offset` steps after a step with this value, in the same run.
    func advanced(by offset: Int) -> Self
    /// What ``StepRuns`` keeps as its newest value while it holds none (never read).
    static var none: Self { get }
}

/// A step's serial: consecutive steps with consecutive serials share a run (a history that is
/// only pushed to is one run).
@usableFromInline
struct StepSerial: StepRunValue {
    @usableFromInline var value: UInt32
    @inlinable init(_ value: UInt32) { self.value = value }
    @inlinable func advanced(by offset: Int) -> StepSerial { StepSerial(value &+ UInt32(truncatingIfNeeded: offset)) }
    @inlinable static var none: StepSerial { StepSerial(0) }
}

/// A step's cost: consecutive steps of equal costs share a run (commands of one type cost the
/// same).
@usableFromInline
struct StepCost: StepRunValue {
    @usableFromInline var value: Int32
    @inlinable init(_ value: Int32) { self.value = value }
    @inlinable func advanced(by offset: Int) -> StepCost { self }
    @inlinable static var none: StepCost { StepCost(0) }
}

/// A step's time: steps made within one tick of the clock share a run.
@usableFromInline
struct StepTime: StepRunValue {
    @usableFromInline var value: UInt64
    @inlinable init(_ value: UInt64) { self.value = value }
    @inlinable func advanced(by offset: Int) -> StepTime { self }
    @inlinable static var none: StepTime { StepTime(0) }
}

/// One field of a ``StepList``'s steps, oldest first, kept in runs instead of one value per
/// step: where steps follow one another as a program pushes them (consecutive serials, one
/// command type's cost, one tick of the clock), a run of any length costs one entry, so the
/// list's own array holds only the commands.
///
/// Positions are absolute: index 0 is at `origin`, and run `r` covers the positions from
/// `starts[r]` up to the next run's start (`end` for the newest), its value at position `p`
/// being `values[r].advanced(by: p - starts[r])`. Dropping the oldest value moves `origin` (and
/// `head` past a run it leaves behind); runs left behind are removed in one move once they are
/// half of the arrays, so dropping costs O(1) amortized, as ``StepList`` does with its slots.
///
/// Invariants (checked by ``checkInvariants()``): `starts` and `values` have one entry per run;
/// with no values held, no run is kept and `head == 0`; otherwise `head < starts.count`,
/// `starts[head] <= origin < end`, and the starts from `head` on rise strictly, those after
/// the head's above `origin`, the newest below `end`; `newestStart` and `newestValue` are the
/// newest run's start and value.
@usableFromInline
struct StepRuns<Value: StepRunValue> {
    @usableFromInline var starts: [Int] = []
    @usableFromInline var values: [Value] = []
    @usableFromInline var head = 0
    @usableFromInline var origin = 0
    @usableFromInline var end = 0
    /// The newest run's start and value, as in `starts` and `values` (while a value is held):
    /// an append that continues the newest run reads these, not the arrays.
    @usableFromInline var newestStart = 0
    @usableFromInline var newestValue = Value.none

    @usableFromInline init() {}

    /// Copies the newest run's start and value out of the arrays: every change but an
    /// append that continues the newest run ends with it.
    @usableFromInline
    mutating func noteNewest() {
        if let last = starts.last {
            newestStart = last
            newestValue = values[values.count - 1]
        } else {
            newestStart = 0
            newestValue = .none
        }
    }

    /// How many values are held.
    @inlinable var count: Int { end &- origin }

    /// How many runs are live (from `head`).
    var runCount: Int { starts.count - head }

    /// The run that holds absolute position `position` (which must be held).
    /// - Complexity: O(1) for the newest run, O(log runs) otherwise.
    @inlinable
    func run(at position: Int) -> Int {
        let last = starts.count &- 1
        if starts[last] <= position { return last }
        return search(position, below: last)
    }

    /// The run that holds `position`, one of the runs before `last`.
    @usableFromInline
    func search(_ position: Int, below last: Int) -> Int {
        var low = head, high = last
        // The run is the last whose start is at or before `position`: in head..<last.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if starts[middle] <= position { low = middle } else { high = middle }
        }
        return low
    }

    /// The value of the step at `index`.
    /// - Complexity: O(1) in the newest run, O(log runs) otherwise.
    @inlinable
    subscript(index: Int) -> Value {
        precondition(index >= 0 && index < count, "step \(index) outside 0..<\(count)")
        let position = origin &+ index
        if position >= newestStart { return newestValue.advanced(by: position &- newestStart) }
        return value(before: position)
    }

    /// The value at `position`, in a run before the newest.
    @usableFromInline
    func value(before position: Int) -> Value {
        let run = search(position, below: starts.count - 1)
        return values[run].advanced(by: position - starts[run])
    }

    /// The newest value (there must be one).
    @inlinable
    var last: Value { newestValue.advanced(by: end &- 1 &- newestStart) }

    /// Adds a value after the newest.
    /// - Complexity: O(1) amortized; no entry when it continues the newest run.
    @inlinable @inline(__always)
    mutating func append(_ value: Value) {
        if end != origin && newestValue.advanced(by: end &- newestStart) == value {
            end &+= 1
            return
        }
        appendRun(value)
    }

    /// Adds a value as a run of its own (apart: the common append continues the newest run).
    @usableFromInline @inline(never)
    mutating func appendRun(_ value: Value) {
        starts.append(end)
        values.append(value)
        end += 1
        noteNewest()
    }

    /// Sets the value of the step at `index`.
    /// - Complexity: O(1) for the newest step, O(runs after it) otherwise.
    @inlinable
    mutating func set(_ value: Value, at index: Int) {
        let position = origin &+ index
        // The newest step alone in its run (a merge into it, again): in place. Only a held
        // position is the newest run's start and `end - 1` at once.
        if position == end &- 1 && newestStart == position {
            values[values.count &- 1] = value
            newestValue = value
            return
        }
        precondition(index >= 0 && index < count, "step \(index) outside 0..<\(count)")
        setApart(value, at: position)
    }

    @usableFromInline
    mutating func setApart(_ value: Value, at position: Int) {
        if self[position - origin] == value { return }
        let run = split(at: position)
        if position &+ 1 < end { _ = split(at: position &+ 1) }
        values[run] = value
        noteNewest()
    }

    /// Makes a run start at `position` (held): splits the run holding it.
    /// - Returns: the index of the run that starts at `position`.
    /// - Complexity: O(runs after it).
    @usableFromInline
    mutating func split(at position: Int) -> Int {
        let run = run(at: position)
        if starts[run] == position { return run }
        if run == head && position == origin {
            // The head run's dropped part goes: the run starts where the values do.
            values[run] = values[run].advanced(by: position - starts[run])
            starts[run] = position
            return run
        }
        starts.insert(position, at: run + 1)
        values.insert(values[run].advanced(by: position - starts[run]), at: run + 1)
        return run + 1
    }

    /// Inserts a value at `index` (`0...count`).
    /// - Complexity: O(runs after it).
    mutating func insert(_ value: Value, at index: Int) {
        precondition(index >= 0 && index <= count, "insert at \(index) outside 0...\(count)")
        if index == count { return append(value) }
        let run = split(at: origin + index)
        for later in run..<starts.count { starts[later] += 1 }
        starts.insert(origin + index, at: run)
        values.insert(value, at: run)
        end += 1
        noteNewest()
    }

    /// Removes the value at `index`.
    /// - Complexity: O(1) amortized for the oldest, O(runs after it) otherwise.
    mutating func remove(at index: Int) {
        precondition(index >= 0 && index < count, "remove at \(index) outside 0..<\(count)")
        if index == 0 { return removeFirst() }
        let position = origin + index
        let run = split(at: position)
        if position + 1 < end { _ = split(at: position + 1) }
        starts.remove(at: run)
        values.remove(at: run)
        for later in run..<starts.count { starts[later] -= 1 }
        end -= 1
        noteNewest()
    }

    /// Drops the oldest value.
    /// - Complexity: O(1) amortized.
    @usableFromInline
    mutating func removeFirst() {
        precondition(end != origin, "removeFirst on no values")
        origin += 1
        if origin == end { return removeAll() }
        if head + 1 < starts.count && starts[head + 1] <= origin { head += 1 }
        if head >= 16 && 2 * head >= starts.count {
            starts.removeFirst(head)
            values.removeFirst(head)
            head = 0
        }
    }

    /// Removes the newest value.
    /// - Complexity: O(1).
    mutating func removeLast() {
        precondition(end != origin, "removeLast on no values")
        end -= 1
        if end == origin { return removeAll() }
        if starts[starts.count - 1] == end {
            starts.removeLast()
            values.removeLast()
            noteNewest()
        }
    }

    /// Removes the values from `index` to the end.
    /// - Complexity: O(runs removed).
    mutating func removeSuffix(from index: Int) {
        precondition(index >= 0 && index <= count, "removeSuffix from \(index) outside 0...\(count)")
        if index == count { return }
        if index == 0 { return removeAll() }
        if origin + index > newestStart {
            // Inside the newest run, which keeps its first value: no entry changes.
            end = origin + index
            return
        }
        let run = split(at: origin + index)
        starts.removeSubrange(run...)
        values.removeSubrange(run...)
        end = origin + index
        noteNewest()
    }

    /// Replaces the values in `range` with as many `newValues`.
    /// - Complexity: O(`range.count`), plus the runs after `range` when the runs replaced and
    ///   those made differ in number (their entries move).
    mutating func replace(_ range: Range<Int>, with newValues: [Value]) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count && newValues.count == range.count,
                     "replace \(range) of 0..<\(count) with \(newValues.count) values")
        guard !range.isEmpty else { return }
        let lower = origin + range.lowerBound, upper = origin + range.upperBound
        let first = split(at: lower)
        let last = upper < end ? split(at: upper) : starts.count
        var newStarts: [Int] = [], newRuns: [Value] = []
        for (offset, value) in newValues.enumerated() {
            let position = lower + offset
            if let run = newRuns.last, run.advanced(by: position - newStarts[newStarts.count - 1]) == value { continue }
            newStarts.append(position)
            newRuns.append(value)
        }
        starts.replaceSubrange(first..<last, with: newStarts)
        values.replaceSubrange(first..<last, with: newRuns)
        noteNewest()
    }

    /// The values in `range`, read run by run.
    /// - Complexity: O(log runs + `range.count`).
    func values(in range: Range<Int>) -> [Value] {
        guard !range.isEmpty else { return [] }
        var cursor = Cursor.at(range.lowerBound, of: self)
        return range.map { _ in cursor.next(in: self) }
    }

    /// Moves the value at `from` to `to`, those between one place toward `from`.
    /// - Complexity: O(|from - to|), plus the runs after the two when the move changes how many
    ///   runs they take.
    mutating func move(from: Int, to: Int) {
        guard from != to else { return }
        let window = Swift.min(from, to)..<(Swift.max(from, to) + 1)
        var moved = values(in: window)
        if from < to {
            moved.append(moved.removeFirst())
        } else {
            moved.insert(moved.removeLast(), at: 0)
        }
        replace(window, with: moved)
    }

    mutating func removeAll() {
        starts.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        head = 0
        origin = 0
        end = 0
        noteNewest()
    }

    /// Walks the values oldest first, run by run (no search per value): the run's first value
    /// and start, and where the next run starts, are kept, so a step inside a run reads no array.
    @usableFromInline
    struct Cursor {
        @usableFromInline var run: Int
        @usableFromInline var position: Int
        @usableFromInline var runStart: Int
        @usableFromInline var runValue: Value
        /// Where the run after `run` starts (`Int.max` after the newest).
        @usableFromInline var boundary: Int

        @inlinable
        init(run: Int, position: Int) {
            self.run = run
            self.position = position
            runStart = 0
            runValue = .none
            boundary = Int.max
        }

        /// A cursor at the first value. (A function, not an initializer: an initializer would
        /// take the runs as its own, a copy of their arrays' references.)
        @inlinable
        static func first(of runs: StepRuns) -> Cursor {
            var cursor = Cursor(run: runs.head, position: runs.origin)
            if runs.end != runs.origin { cursor.enter(runs.head, of: runs) }
            return cursor
        }

        /// A cursor at the value of index `index` (held, or the count).
        /// - Complexity: O(log runs).
        static func at(_ index: Int, of runs: StepRuns) -> Cursor {
            guard index > 0 && index < runs.count else {
                var cursor = first(of: runs)
                cursor.position = runs.origin + index
                return cursor
            }
            var cursor = Cursor(run: runs.head, position: runs.origin + index)
            cursor.enter(runs.run(at: runs.origin + index), of: runs)
            return cursor
        }

        @usableFromInline
        mutating func enter(_ run: Int, of runs: StepRuns) {
            self.run = run
            runStart = runs.starts[run]
            runValue = runs.values[run]
            boundary = run + 1 < runs.starts.count ? runs.starts[run + 1] : Int.max
        }

        /// The value at the cursor's position; then moves on by one.
        @inlinable
        mutating func next(in runs: StepRuns) -> Value {
            if position == boundary { enter(run &+ 1, of: runs) }
            defer { position &+= 1 }
            return runValue.advanced(by: position &- runStart)
        }
    }

    /// Traps unless the invariants hold (see the type's documentation).
    func checkInvariants() {
        precondition(starts.count == values.count, "\(starts.count) run starts for \(values.count) values")
        precondition(origin <= end, "origin \(origin) after end \(end)")
        guard end != origin else {
            precondition(starts.isEmpty && head == 0 && newestValue == .none, "runs kept with no values")
            return
        }
        precondition(head < starts.count && starts[head] <= origin, "the head run starts after the values")
        for run in (head + 1)..<max(head + 1, starts.count) {
            precondition(starts[run] > starts[run - 1] && starts[run] > origin, "run \(run) does not start after the one before it")
        }
        precondition(starts[starts.count - 1] < end, "the newest run is empty")
        precondition(newestStart == starts[starts.count - 1] && newestValue == values[values.count - 1],
                     "the newest run's start and value are not those in the arrays")
    }
}

extension StepRuns where Value == StepSerial {
    /// The index of the first step whose serial is `serial`, run by run.
    /// - Complexity: O(runs).
    func firstIndex(of serial: UInt32) -> Int? {
        guard end != origin else { return nil }
        for run in head..<starts.count {
            let lower = Swift.max(starts[run], origin)
            let upper = run + 1 < starts.count ? starts[run + 1] : end
            // The serials of a run rise by one from its start (wrapping): the offset of `serial`
            // from the run's first, if it lies in the run's held part.
            let offset = Int(serial &- values[run].value)
            if offset >= lower - starts[run] && offset < upper - starts[run] { return starts[run] + offset - origin }
        }
        return nil
    }
}
