/// The commands of a ``StepList``, oldest first, in chunks of ``chunkSize`` slots that never
/// move.
///
/// One array of every command doubles as it grows: each doubling allocates a new block, copies
/// every command into it and frees the old one, so a history of a million steps has copied and
/// faulted in about twice its size by the time it holds them (measured: about 18 ns of a 51 ns
/// push at 10^6 steps). Here a push writes one slot; a full chunk is followed by a new one; the
/// room left over is at most one chunk. The first chunk grows as an array does (a history of a
/// few steps takes a few slots) until it has ``chunkSize`` slots; every later chunk is made with
/// its ``chunkSize`` slots.
///
/// **Storage.** A ``Table`` object owns the chunks: its state (the counts, the room and the
/// list of chunks) and every chunk are memory it allocated, and frees when it goes. A value
/// holds the table and, beside it, the address of its state, so a slot is reached with three
/// loads and no reference counting. The table is copied on write, as an array's buffer is, and
/// a copy copies the commands (as an array's copy does): a table's chunks belong to it alone, so
/// a change checks the table alone for uniqueness, one check, as an array's change makes.
///
/// **Invariants** (checked by ``checkInvariants()``; an index is checked on every access, in
/// every build):
/// - `state` is the address of `table`'s state, and both are `nil` together;
/// - a table has at least one chunk; chunk 0 has `firstRoom` slots (at most ``chunkSize``,
///   and ``chunkSize`` as soon as there are two chunks), every other chunk ``chunkSize``;
///   `capacity` is their sum;
/// - the slots `0 ..< count` (slot `i` at place `i % chunkSize` of chunk `i / chunkSize`) hold
///   commands, the others are uninitialized; only the first chunk may have no command.
///
/// This is the one type in UndoCore that reaches commands through pointers; the pointers are
/// the table's own allocations and never leave this file.
@usableFromInline
struct CommandChunks {
    /// Slots per chunk: a power of two, so a slot's chunk and place are a shift and a mask.
    @inlinable static var chunkShift: Int { 10 }
    @inlinable static var chunkSize: Int { 1 &<< chunkShift }
    @inlinable static var placeMask: Int { chunkSize &- 1 }

    @usableFromInline typealias Slots = UnsafeMutablePointer<any UndoCommand>

    @usableFromInline
    struct TableState {
        /// Commands held.
        @usableFromInline var count: Int
        /// Slots allocated, in all chunks.
        @usableFromInline var capacity: Int
        /// Slots of chunk 0.
        @usableFromInline var firstRoom: Int
        @usableFromInline var chunkCount: Int
        /// Room in `chunks`.
        @usableFromInline var chunkRoom: Int
        @usableFromInline var chunks: UnsafeMutablePointer<Slots>

        @inlinable
        func slot(_ index: Int) -> Slots { chunks[index &>> chunkShift] + (index & placeMask) }
    }

    /// Owns a state and the chunks it lists; frees both, and the commands, when it goes.
    @usableFromInline
    final class Table {
        @usableFromInline let state: UnsafeMutablePointer<TableState>

        /// A table with one empty chunk of `firstRoom` slots.
        init(firstRoom: Int) {
            let chunks = UnsafeMutablePointer<Slots>.allocate(capacity: 4)
            chunks.initialize(to: Slots.allocate(capacity: firstRoom))
            state = .allocate(capacity: 1)
            state.initialize(to: TableState(count: 0, capacity: firstRoom, firstRoom: firstRoom, chunkCount: 1,
                                            chunkRoom: 4, chunks: chunks))
        }

        deinit {
            let table = state.pointee
            for chunk in 0..<table.chunkCount {
                let held = Swift.min(Swift.max(0, table.count - chunk * chunkSize), chunkSize)
                table.chunks[chunk].deinitialize(count: held)
                table.chunks[chunk].deallocate()
            }
            table.chunks.deinitialize(count: table.chunkCount)
            table.chunks.deallocate()
            state.deinitialize(count: 1)
            state.deallocate()
        }
    }

    /// `nil` until the first command.
    @usableFromInline var table: Table?
    /// `table`'s state: read without touching the table's reference count.
    @usableFromInline var state: UnsafeMutablePointer<TableState>?

    @inlinable init() {}

    /// The number of commands.
    @inlinable var count: Int { state?.pointee.count ?? 0 }

    /// The number of chunks.
    var chunkCount: Int { state?.pointee.chunkCount ?? 0 }

    // MARK: Reaching a slot

    /// The slot of the command at `index`, checked.
    @inlinable @inline(__always)
    func slot(_ index: Int) -> Slots {
        guard let state else { preconditionFailure("command \(index) of none") }
        precondition(index >= 0 && index < state.pointee.count, "command \(index) outside 0..<\(state.pointee.count)")
        return state.pointee.slot(index)
    }

    /// Makes the table this value's own (a copy when it is shared).
    @inlinable @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&table) { copyTable() }
    }

    /// The command at `index` (a copy).
    /// - Complexity: O(1).
    @inlinable subscript(index: Int) -> any UndoCommand {
        get { slot(index).pointee }
        set {
            makeUnique()
            slot(index).pointee = newValue
        }
    }

    /// Runs `body` with the command at `index`, read in place (no copy of it, nor of the table).
    /// - Complexity: O(1).
    @inlinable
    func readCommand<R>(at index: Int, _ body: (borrowing any UndoCommand) throws -> R) rethrows -> R {
        try body(slot(index).pointee)
    }

    /// Runs `body` on the command at `index`, in place.
    /// - Complexity: O(1).
    @inlinable
    mutating func withCommand<R>(at index: Int, _ body: (inout any UndoCommand) throws -> R) rethrows -> R {
        makeUnique()
        return try body(&slot(index).pointee)
    }

    /// Offers `next` to the command at `index`, in place (``HistoryRecord/mergeMeasuring(_:into:)``;
    /// a closure cannot borrow `next`, so the merge is called here). Always inlined into the
    /// merge path, as the array's subscript was.
    @inlinable @inline(__always)
    mutating func mergeMeasuring<C: UndoCommand>(_ next: borrowing C, intoCommandAt index: Int) -> (UndoMerge?, Int32) {
        makeUnique()
        return HistoryRecord.mergeMeasuring(next, into: &slot(index).pointee)
    }

    // MARK: Adding and removing

    /// Adds `command` after the last one, made an existential in its slot.
    /// - Complexity: O(1); a new chunk every ``chunkSize`` commands.
    @inlinable @inline(__always)
    mutating func append<C: UndoCommand>(typed command: consuming C) {
        if !isKnownUniquelyReferenced(&table) || state.unsafelyUnwrapped.pointee.count == state.unsafelyUnwrapped.pointee.capacity {
            makeRoom()
        }
        let state = self.state.unsafelyUnwrapped
        state.pointee.slot(state.pointee.count).initialize(to: command)
        state.pointee.count &+= 1
    }

    /// Adds `command` after the last one.
    @inlinable
    mutating func append(_ command: consuming any UndoCommand) {
        if !isKnownUniquelyReferenced(&table) || state.unsafelyUnwrapped.pointee.count == state.unsafelyUnwrapped.pointee.capacity {
            makeRoom()
        }
        let state = self.state.unsafelyUnwrapped
        state.pointee.slot(state.pointee.count).initialize(to: command)
        state.pointee.count &+= 1
    }

    /// Makes the table this value's own with a free slot: a first table, the first chunk grown
    /// (twice its room, up to ``chunkSize``), or a new chunk.
    @usableFromInline @inline(never)
    mutating func makeRoom() {
        guard table != nil else { return adopt(Table(firstRoom: 4)) }
        makeUnique()
        let state = self.state.unsafelyUnwrapped
        if state.pointee.count < state.pointee.capacity { return }
        if state.pointee.chunkCount == 1 && state.pointee.firstRoom < Self.chunkSize {
            let room = Swift.min(2 * state.pointee.firstRoom, Self.chunkSize)
            let grown = Slots.allocate(capacity: room)
            grown.moveInitialize(from: state.pointee.chunks[0], count: state.pointee.count)
            state.pointee.chunks[0].deallocate()
            state.pointee.chunks[0] = grown
            state.pointee.firstRoom = room
            state.pointee.capacity = room
            return
        }
        if state.pointee.chunkCount == state.pointee.chunkRoom {
            let room = 2 * state.pointee.chunkRoom
            let grown = UnsafeMutablePointer<Slots>.allocate(capacity: room)
            grown.moveInitialize(from: state.pointee.chunks, count: state.pointee.chunkCount)
            state.pointee.chunks.deallocate()
            state.pointee.chunks = grown
            state.pointee.chunkRoom = room
        }
        (state.pointee.chunks + state.pointee.chunkCount).initialize(to: Slots.allocate(capacity: Self.chunkSize))
        state.pointee.chunkCount += 1
        state.pointee.capacity += Self.chunkSize
    }

    /// Removes the last command.
    /// - Complexity: O(1).
    @discardableResult
    mutating func removeLast() -> any UndoCommand {
        precondition(count > 0, "removeLast on no commands")
        makeUnique()
        let state = self.state.unsafelyUnwrapped
        state.pointee.count -= 1
        let removed = state.pointee.slot(state.pointee.count).move()
        freeEmptyChunks()
        return removed
    }

    /// Removes the commands from `index` to the end.
    /// - Complexity: O(`count - index`).
    mutating func removeSuffix(from index: Int) {
        precondition(index >= 0 && index <= count, "remove from \(index) outside 0...\(count)")
        guard index < count else { return }
        makeUnique()
        let state = self.state.unsafelyUnwrapped
        while state.pointee.count > index {
            state.pointee.count -= 1
            state.pointee.slot(state.pointee.count).deinitialize(count: 1)
        }
        freeEmptyChunks()
    }

    /// Frees the chunks after the one that holds the last command (chunk 0 stays).
    private func freeEmptyChunks() {
        let state = self.state.unsafelyUnwrapped
        let needed = Swift.max(1, (state.pointee.count + Self.chunkSize - 1) >> Self.chunkShift)
        while state.pointee.chunkCount > needed {
            state.pointee.chunkCount -= 1
            state.pointee.chunks[state.pointee.chunkCount].deallocate()
            state.pointee.capacity -= Self.chunkSize
        }
    }

    /// Inserts `command` at `index`, the commands after it one place later.
    /// - Complexity: O(`count - index`).
    mutating func insert(_ command: any UndoCommand, at index: Int) {
        precondition(index >= 0 && index <= count, "insert at \(index) outside 0...\(count)")
        append(command)
        move(from: count - 1, to: index)
    }

    /// Removes the command at `index`, the commands after it one place earlier.
    /// - Complexity: O(`count - index`).
    mutating func remove(at index: Int) -> any UndoCommand {
        precondition(index >= 0 && index < count, "remove at \(index) outside 0..<\(count)")
        move(from: index, to: count - 1)
        return removeLast()
    }

    /// Moves the command at `from` to `to`, the commands between one place toward `from`.
    /// - Complexity: O(|`from - to`|).
    mutating func move(from: Int, to: Int) {
        guard from != to else { return }
        var slot = from
        while slot < to { swapAt(slot, slot + 1); slot += 1 }
        while slot > to { swapAt(slot, slot - 1); slot -= 1 }
    }

    /// Exchanges the commands at `i` and `j`.
    /// - Complexity: O(1).
    mutating func swapAt(_ i: Int, _ j: Int) {
        guard i != j else { return }
        makeUnique()
        swap(&slot(i).pointee, &slot(j).pointee)
    }

    /// Removes the first `chunks` chunks (``chunkSize`` commands each), the others moving down.
    /// - Complexity: O(`chunks` · ``chunkSize`` + chunks in the table).
    mutating func removeFirstChunks(_ chunks: Int) {
        precondition(chunks >= 0 && chunks * Self.chunkSize <= count, "removing \(chunks) of \(chunkCount) chunks")
        guard chunks > 0 else { return }
        guard chunks * Self.chunkSize < count else { return removeAll() }
        makeUnique()
        let state = self.state.unsafelyUnwrapped
        for chunk in 0..<chunks {
            state.pointee.chunks[chunk].deinitialize(count: Self.chunkSize)
            state.pointee.chunks[chunk].deallocate()
        }
        state.pointee.chunks.moveInitialize(from: state.pointee.chunks + chunks, count: state.pointee.chunkCount - chunks)
        state.pointee.chunkCount -= chunks
        state.pointee.count -= chunks * Self.chunkSize
        state.pointee.capacity -= chunks * Self.chunkSize
        state.pointee.firstRoom = Self.chunkSize
    }

    /// Removes the first `k` commands while they all are in the first chunk.
    /// - Complexity: O(`count`), below ``chunkSize``.
    mutating func removeFirstOfOnlyChunk(_ k: Int) {
        precondition(chunkCount == 1 && k >= 0 && k <= count, "removing \(k) of \(count) commands in \(chunkCount) chunks")
        makeUnique()
        let state = self.state.unsafelyUnwrapped
        let slots = state.pointee.chunks[0]
        slots.deinitialize(count: k)
        slots.moveInitialize(from: slots + k, count: state.pointee.count - k)
        state.pointee.count -= k
    }

    /// Removes every command.
    mutating func removeAll() { adopt(nil) }

    // MARK: Tables

    private mutating func adopt(_ table: Table?) {
        self.table = table
        state = table?.state
    }

    /// Replaces the table, shared with another value, by a copy of it and its commands.
    /// - Complexity: O(`count`).
    @usableFromInline @inline(never)
    mutating func copyTable() {
        guard let original = state?.pointee else { return }
        let copy = Table(firstRoom: original.firstRoom)
        let state = copy.state
        // The same chunks as the original's, each command copied into its place.
        if original.chunkRoom > state.pointee.chunkRoom {
            let chunks = UnsafeMutablePointer<Slots>.allocate(capacity: original.chunkRoom)
            chunks.moveInitialize(from: state.pointee.chunks, count: 1)
            state.pointee.chunks.deallocate()
            state.pointee.chunks = chunks
            state.pointee.chunkRoom = original.chunkRoom
        }
        for _ in 1..<original.chunkCount {
            (state.pointee.chunks + state.pointee.chunkCount).initialize(to: Slots.allocate(capacity: Self.chunkSize))
            state.pointee.chunkCount += 1
        }
        state.pointee.capacity = original.capacity
        for index in 0..<original.count {
            state.pointee.slot(index).initialize(to: original.slot(index).pointee)
            state.pointee.count += 1
        }
        adopt(copy)
    }

    /// Traps unless the invariant holds (see the type's documentation).
    func checkInvariants() {
        precondition((table == nil) == (state == nil), "a table without its state, or a state without its table")
        guard let table, let state else { return }
        precondition(state == table.state, "the state of another table")
        let tableState = state.pointee
        precondition(tableState.chunkCount >= 1 && tableState.chunkCount <= tableState.chunkRoom,
                     "\(tableState.chunkCount) chunks in room for \(tableState.chunkRoom)")
        precondition(tableState.firstRoom >= 1 && tableState.firstRoom <= Self.chunkSize
                        && (tableState.chunkCount == 1 || tableState.firstRoom == Self.chunkSize),
                     "a first chunk of \(tableState.firstRoom) slots among \(tableState.chunkCount) chunks")
        precondition(tableState.capacity == tableState.firstRoom + (tableState.chunkCount - 1) * Self.chunkSize,
                     "a capacity of \(tableState.capacity) for \(tableState.chunkCount) chunks")
        precondition(tableState.count >= 0 && tableState.count <= tableState.capacity,
                     "\(tableState.count) commands in \(tableState.capacity) slots")
        precondition(tableState.chunkCount == 1 || tableState.count > (tableState.chunkCount - 1) * Self.chunkSize,
                     "an empty last chunk: \(tableState.count) commands in \(tableState.chunkCount) chunks")
    }
}
