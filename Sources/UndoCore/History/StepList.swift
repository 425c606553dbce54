/// The steps of a record, oldest first: an `Array` whose first `start` elements are steps a
/// limit dropped, not yet compacted away.
///
/// A limit drops the oldest step on every change once the history is full; an array would move
/// every other step to drop it. Here the dropped step's slot is emptied (a ``Vacancy``, which
/// holds nothing) and `start` moves past it; the empty slots are removed in one move once they
/// are half of the array, so dropping costs O(1) amortized and the slack stays below one half.
/// A step is changed in place through ``withStep(at:_:)`` (an array element's own access, with
/// no copy of the command).
///
/// Invariant (checked by ``checkInvariants()``): `0 <= start <= elements.count`, and every slot
/// below `start` is a vacancy.
@usableFromInline
struct StepList: RandomAccessCollection {
    @usableFromInline var elements: [Step] = []
    @usableFromInline var start = 0

    @usableFromInline init() {}

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { elements.count - start }

    /// The step at `index` (a copy: change one with ``withStep(at:_:)``).
    @inlinable subscript(index: Int) -> Step { elements[start + index] }

    /// Runs `body` on the step at `index`, in place.
    @inlinable
    mutating func withStep<R>(at index: Int, _ body: (inout Step) throws -> R) rethrows -> R {
        try body(&elements[start + index])
    }

    /// Offers `next` to the step at `index`, in place (see ``Step/merge(_:key:)``).
    @inlinable
    mutating func merge<C: UndoCommand>(_ next: borrowing C, key: UndoCoalescingKey, intoStepAt index: Int) -> (UndoMerge?, Int) {
        elements[start + index].merge(next, key: key)
    }

    @inlinable
    mutating func append(_ step: consuming Step) { elements.append(step) }

    mutating func insert(_ step: consuming Step, at index: Int) { elements.insert(step, at: start + index) }

    @usableFromInline
    mutating func remove(at index: Int) -> Step {
        if index == 0 { return removeFirst() }
        return elements.remove(at: start + index)
    }

    /// Drops the oldest step.
    /// - Complexity: O(1) amortized.
    mutating func removeFirst() -> Step {
        precondition(start < elements.count, "removeFirst on no steps")
        var removed = Step(Vacancy(), serial: 0, time: 0)
        swap(&removed, &elements[start])
        start += 1
        if start == elements.count {
            elements.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 16 && 2 * start >= elements.count {
            elements.removeFirst(start)
            start = 0
        }
        return removed
    }

    mutating func removeLast() -> Step {
        precondition(start < elements.count, "removeLast on no steps")
        let removed = elements.removeLast()
        if start == elements.count {
            elements.removeAll(keepingCapacity: true)
            start = 0
        }
        return removed
    }

    mutating func swapAt(_ i: Int, _ j: Int) { elements.swapAt(start + i, start + j) }

    /// Removes the steps from `index` to the end.
    mutating func removeSuffix(from index: Int) { elements.removeSubrange((start + index)...) }

    mutating func append(contentsOf steps: some Sequence<Step>) { elements.append(contentsOf: steps) }

    mutating func removeAll() {
        elements.removeAll()
        start = 0
    }

    /// Traps unless the invariant holds (see the type's documentation).
    func checkInvariants() {
        precondition(start >= 0 && start <= elements.count, "start \(start) outside 0...\(elements.count)")
        for index in 0..<start {
            precondition(elements[index].command is Vacancy, "a dropped slot at \(index) still holds a step")
        }
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
