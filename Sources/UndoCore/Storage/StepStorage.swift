/// The steps of a history, oldest first: commands stored inline (an existential of five words)
/// with a 32-bit serial each, in fixed-size chunks.
///
/// Chunks keep the slack of a growing history to one chunk (an `Array` that doubles can hold
/// twice what it needs), and let the oldest steps go in O(1) when a limit trims them, with no
/// `removeFirst` on a large array.
///
/// Invariant: `chunks[chunkStart...]` hold `count` initialized elements starting at `offset` in
/// the first live chunk; chunks before `chunkStart` are already freed (compacted lazily).
///
/// The append path is `@inlinable` so that a push specialized for a concrete command type (see
/// ``UndoStack/perform(_:)``) builds the existential straight in its slot.
@usableFromInline
struct StepStorage {
    @usableFromInline typealias Command = any UndoCommand
    @usableFromInline static var chunkShift: Int { 9 }
    @usableFromInline static var chunkSize: Int { 1 << chunkShift }
    @usableFromInline static var chunkMask: Int { chunkSize - 1 }

    @usableFromInline
    struct Chunk {
        @usableFromInline var commands: UnsafeMutablePointer<Command>
        @usableFromInline var serials: UnsafeMutablePointer<UInt32>
        @usableFromInline
        static func allocate() -> Chunk {
            Chunk(commands: .allocate(capacity: StepStorage.chunkSize),
                  serials: .allocate(capacity: StepStorage.chunkSize))
        }
        func free() {
            commands.deallocate()
            serials.deallocate()
        }
    }

    @usableFromInline var chunks = ChunkTable()
    @usableFromInline var chunkStart = 0
    /// Index of the first element inside `chunks[chunkStart]`.
    @usableFromInline var offset = 0
    @usableFromInline var count = 0

    @usableFromInline init() {}

    @inlinable @inline(__always)
    func locate(_ index: Int) -> (chunk: Int, slot: Int) {
        let raw = index &+ offset
        return (chunkStart &+ (raw &>> Self.chunkShift), raw & Self.chunkMask)
    }

    /// - Complexity: O(1)
    @inline(__always)
    func command(at index: Int) -> Command {
        let (c, s) = locate(index)
        return chunks[c].commands[s]
    }

    /// - Complexity: O(1)
    @inline(__always)
    func serial(at index: Int) -> UInt32 {
        let (c, s) = locate(index)
        return chunks[c].serials[s]
    }

    /// Runs `body` on the command at `index` in place (no copy of the existential).
    /// - Complexity: O(1)
    @inline(__always)
    func withCommand<R>(at index: Int, _ body: (inout Command) throws -> R) rethrows -> R {
        let (c, s) = locate(index)
        return try body(&chunks[c].commands[s])
    }

    /// A pointer to the slot of the command at `index`, valid until the storage changes.
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    func slot(at index: Int) -> UnsafeMutablePointer<Command> {
        let (c, s) = locate(index)
        return chunks[c].commands + s
    }

    /// Appends a command of a known type, made an existential in its slot (no temporary
    /// existential moved in afterwards).
    /// - Complexity: O(1) amortized
    @inlinable @inline(__always)
    mutating func append<C: UndoCommand>(typed command: consuming C, serial: UInt32) {
        appendSlot(serial: serial).initialize(to: command)
    }

    /// - Complexity: O(1) amortized
    @inlinable @inline(__always)  // inlined, the command moves into its slot without a copy
    mutating func append(_ command: consuming Command, serial: UInt32) {
        appendSlot(serial: serial).initialize(to: command)
    }

    /// Counts one more step, with `serial`, and returns its slot, not yet initialized.
    @inlinable @inline(__always)
    mutating func appendSlot(serial: UInt32) -> UnsafeMutablePointer<Command> {
        let (c, s) = locate(count)
        if c == chunks.count { chunks.append(.allocate()) }
        chunks[c].serials[s] = serial
        count += 1
        return chunks[c].commands + s
    }

    /// Removes and returns the oldest step.
    /// - Complexity: O(1) amortized
    mutating func removeFirst() -> (Command, UInt32) {
        precondition(count > 0, "removeFirst on empty step storage")
        let chunk = chunks[chunkStart]
        let element = (chunk.commands + offset).move()
        let serial = chunk.serials[offset]
        count -= 1
        if count == 0 {
            releaseAll()
            return (element, serial)
        }
        offset += 1
        if offset == Self.chunkSize {
            chunk.free()
            chunkStart += 1
            offset = 0
            compactIfNeeded()
        }
        return (element, serial)
    }

    /// Removes and returns the newest step.
    /// - Complexity: O(1) amortized
    mutating func removeLast() -> (Command, UInt32) {
        precondition(count > 0, "removeLast on empty step storage")
        let (c, s) = locate(count - 1)
        let element = (chunks[c].commands + s).move()
        let serial = chunks[c].serials[s]
        count -= 1
        if count == 0 { releaseAll() } else { releaseTrailingChunks() }
        return (element, serial)
    }

    /// Inserts at `index`, shifting later steps up.
    /// - Complexity: O(count - index)
    @inlinable @inline(__always)  // see append
    mutating func insert(_ command: consuming Command, serial: UInt32, at index: Int) {
        if index == count { append(consume command, serial: serial); return }
        insertShifting(command, serial: serial, at: index)
    }

    @usableFromInline
    mutating func insertShifting(_ command: consuming Command, serial: UInt32, at index: Int) {
        precondition(index >= 0 && index < count)
        // Append the last element again, then shift the rest up by one.
        append(self.command(at: count - 1), serial: self.serial(at: count - 1))
        var i = count - 2
        while i > index {
            move(from: i - 1, to: i)
            i -= 1
        }
        let (c, s) = locate(index)
        chunks[c].commands[s] = command
        chunks[c].serials[s] = serial
    }

    /// Removes and returns the step at `index`, shifting later steps down.
    /// - Complexity: O(count - index)
    mutating func remove(at index: Int) -> (Command, UInt32) {
        precondition(index >= 0 && index < count)
        if index == count - 1 { return removeLast() }
        if index == 0 { return removeFirst() }
        let removed = (command(at: index), serial(at: index))
        for i in index..<(count - 1) { move(from: i + 1, to: i) }
        _ = removeLast()
        return removed
    }

    /// Moves the step at `source` to `destination`, shifting those between by one.
    /// - Complexity: O(|source - destination|)
    @inline(__always)  // undo and redo almost always leave the step where it is
    mutating func relocate(from source: Int, to destination: Int) {
        if source != destination { shift(from: source, to: destination) }
    }

    private mutating func shift(from source: Int, to destination: Int) {
        let saved = (command(at: source), serial(at: source))
        if source < destination {
            for i in source..<destination { move(from: i + 1, to: i) }
        } else {
            var i = source
            while i > destination { move(from: i - 1, to: i); i -= 1 }
        }
        let (c, s) = locate(destination)
        chunks[c].commands[s] = saved.0
        chunks[c].serials[s] = saved.1
    }

    /// Replaces the command at `index`, keeping its serial.
    mutating func replace(at index: Int, with command: consuming Command) {
        let (c, s) = locate(index)
        chunks[c].commands[s] = command
    }

    private mutating func move(from source: Int, to destination: Int) {
        let (sc, ss) = locate(source)
        let (dc, ds) = locate(destination)
        chunks[dc].commands[ds] = chunks[sc].commands[ss]
        chunks[dc].serials[ds] = chunks[sc].serials[ss]
    }

    /// Drops every step.
    /// - Complexity: O(count)
    mutating func removeAll() {
        while count > 0 { _ = removeLast() }
        releaseAll()
    }

    private mutating func releaseAll() {
        for i in chunkStart..<chunks.count { chunks[i].free() }
        chunks.removeAll()
        chunks.deallocate()
        chunkStart = 0
        offset = 0
    }

    /// Keeps at most one empty chunk after the last element, so a history that shrinks gives
    /// memory back while one that oscillates at a chunk boundary does not reallocate.
    private mutating func releaseTrailingChunks() {
        let used = locate(count - 1).chunk
        while chunks.count - 1 > used + 1 {
            chunks.removeLast().free()
        }
    }

    /// Freed chunk slots at the front are removed from the chunk table once they are half of
    /// it, keeping trimming O(1) amortized.
    private mutating func compactIfNeeded() {
        if chunkStart > 32 && chunkStart * 2 > chunks.count {
            chunks.removeFirst(chunkStart)
            chunkStart = 0
        }
    }

    /// The bytes this storage has allocated for its slots (for memory reports).
    var allocatedBytes: Int {
        (chunks.count - chunkStart) * Self.chunkSize
            * (MemoryLayout<Command>.stride + MemoryLayout<UInt32>.stride)
    }
}

/// The table of chunks: a growable buffer of chunk pointers, managed by hand so that reaching a
/// step retains and releases nothing (an `Array` here is retained around every call into a
/// command, twice per undo).
@usableFromInline
struct ChunkTable {
    @usableFromInline var base: UnsafeMutablePointer<StepStorage.Chunk>?
    @usableFromInline var count = 0
    @usableFromInline var capacity = 0

    @usableFromInline init() {}

    @inlinable
    subscript(index: Int) -> StepStorage.Chunk {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "chunk index out of range")
            return base.unsafelyUnwrapped[index]
        }
    }

    @usableFromInline
    mutating func append(_ chunk: StepStorage.Chunk) {
        if count == capacity {
            let newCapacity = max(8, capacity * 2)
            let grown = UnsafeMutablePointer<StepStorage.Chunk>.allocate(capacity: newCapacity)
            if let base {
                grown.moveInitialize(from: base, count: count)
                base.deallocate()
            }
            base = grown
            capacity = newCapacity
        }
        (base.unsafelyUnwrapped + count).initialize(to: chunk)
        count += 1
    }

    mutating func removeLast() -> StepStorage.Chunk {
        precondition(count > 0)
        count -= 1
        return (base.unsafelyUnwrapped + count).move()
    }

    /// Drops the first `n` entries (already freed chunks), shifting the rest down.
    mutating func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count)
        guard let base, n > 0 else { return }
        base.moveInitialize(from: base + n, count: count - n)  // may overlap: a memmove
        count -= n
    }

    /// Forgets every entry (the chunks themselves are freed by the caller), keeping the buffer.
    mutating func removeAll() { count = 0 }

    /// Frees the buffer itself.
    mutating func deallocate() {
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }
}
