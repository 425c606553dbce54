/// The commands of a ``StepList``, oldest first, in chunks of ``chunkSize`` slots that never
/// move, each command kept in its slot whole: no heap block of its own for a command of up to
/// 64 bytes.
///
/// One array of every command doubles as it grows: each doubling allocates a new block, copies
/// every command into it and frees the old one, so a history of a million steps has copied and
/// faulted in about twice its size by the time it holds them (measured: about 18 ns of a 51 ns
/// push at 10^6 steps). Here a push writes one slot; a full chunk is followed by a new one; the
/// room left over is at most one chunk. The first chunk grows as an array does (a history of a
/// few steps takes a few slots) until it has ``chunkSize`` slots; every later chunk is made with
/// its ``chunkSize`` slots.
///
/// **Two widths of slot.** The existential `any UndoCommand` holds a value of up to 24 bytes in
/// place and boxes a larger one in a heap block of its own: a step of 64 bytes (a plugin step)
/// then cost a malloc on its push and a free on its drop (measured: about 200 instructions and
/// 30 ns of a push, undo and redo). So a chunk is one of two kinds:
/// - *narrow* (40 bytes a slot): each slot is an `any UndoCommand`, as before;
/// - *wide* (80 bytes a slot): each slot is the command's type (`any UndoCommand.Type`, 16
///   bytes) and, for a command of 25 to 64 bytes, the command itself in the 64 bytes after it;
///   any other command (a small one, or one over 64 bytes or aligned beyond 8) is held there in
///   an `any UndoCommand`, marked by the type ``InExistential``.
///
/// A history starts narrow, so UndoCore's own small commands keep 40 bytes a step. The first
/// command of 25 to 64 bytes appended to a narrow chunk makes that chunk wide (its commands
/// moved, at most ``chunkSize``), and a new chunk has the kind of the chunk before it. A command
/// in a wide slot is reached with its own type (``change(at:_:)``, ``read(at:_:)``,
/// ``mergeMeasuring(_:intoCommandAt:)``); the calls that hand out `any UndoCommand` (the
/// subscript, ``exchange(at:with:)``, ``removeLast()``) make one, boxing a large command, and
/// are for the paths a step is not run on.
///
/// **Storage.** A ``Table`` object owns the chunks: its state (the counts, the room and the
/// list of chunks) and every chunk are memory it allocated, and frees when it goes. A value
/// holds the table and, beside it, the address of its state, so a slot is reached with a few
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
///   commands, the others are uninitialized; only the first chunk may have no command;
/// - a narrow chunk's slot holds an `any UndoCommand`; a wide chunk's slot holds a type and,
///   after it, a value of that type, which ``needsWide(_:)``, or the type ``InExistential`` and an
///   `any UndoCommand`;
/// - a wide chunk is followed only by wide chunks.
///
/// This is the one type in UndoCore that reaches commands through pointers; the pointers are
/// the table's own allocations and never leave this file.
@usableFromInline
struct CommandChunks {
    /// Slots per chunk: a power of two, so a slot's chunk and place are a shift and a mask.
    @inlinable static var chunkShift: Int { 10 }
    @inlinable static var chunkSize: Int { 1 &<< chunkShift }
    @inlinable static var placeMask: Int { chunkSize &- 1 }

    /// A narrow slot: one existential.
    @inlinable static var narrowStride: Int { MemoryLayout<any UndoCommand>.stride }
    /// Where a wide slot's command starts, after its type.
    @inlinable static var widePayloadOffset: Int { MemoryLayout<any UndoCommand.Type>.stride }
    /// The bytes a wide slot holds a command in.
    @inlinable static var widePayloadSize: Int { 64 }
    @inlinable static var wideStride: Int { widePayloadOffset &+ widePayloadSize }
    @inlinable static var slotAlignment: Int { 8 }

    /// Whether a `C` fits the existential's inline room (three words, aligned to at most 8): a
    /// narrow slot suits it.
    @inlinable
    static func fitsNarrow<C>(_ type: C.Type) -> Bool {
        MemoryLayout<C>.size <= 3 &* MemoryLayout<Int>.size && MemoryLayout<C>.alignment <= slotAlignment
    }

    /// Whether a `C` is held in a wide slot itself: one the existential would box, that fits.
    @inlinable
    static func needsWide<C>(_ type: C.Type) -> Bool {
        !fitsNarrow(type) && MemoryLayout<C>.size <= widePayloadSize && MemoryLayout<C>.alignment <= slotAlignment
    }

    /// The type a wide slot holding an `any UndoCommand` is marked with: never run.
    @usableFromInline
    enum InExistential: UndoCommand {
        @usableFromInline func perform(_ changes: inout UndoChanges) throws {}
        @usableFromInline func undo(_ changes: inout UndoChanges) throws {}
    }

    /// One chunk: its slots, and their kind.
    @usableFromInline
    struct Chunk {
        @usableFromInline var base: UnsafeMutableRawPointer
        @usableFromInline var isWide: Bool

        @inlinable var stride: Int { isWide ? CommandChunks.wideStride : CommandChunks.narrowStride }

        /// A chunk of `room` uninitialized slots.
        static func allocate(room: Int, wide: Bool) -> Chunk {
            let stride = wide ? CommandChunks.wideStride : CommandChunks.narrowStride
            return Chunk(base: .allocate(byteCount: room * stride, alignment: CommandChunks.slotAlignment), isWide: wide)
        }
    }

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
        @usableFromInline var chunks: UnsafeMutablePointer<Chunk>

        /// The slot of `index`, and whether it is wide.
        @inlinable
        func slot(_ index: Int) -> Slot {
            let chunk = chunks[index &>> chunkShift]
            return Slot(address: chunk.base + (index & placeMask) &* chunk.stride, isWide: chunk.isWide)
        }

        /// The slots chunk `chunk` holds commands in.
        func heldSlots(inChunk chunk: Int) -> Int {
            let before = chunk == 0 ? 0 : firstRoom + (chunk - 1) * chunkSize
            let room = chunk == 0 ? firstRoom : chunkSize
            return Swift.min(Swift.max(0, count - before), room)
        }
    }

    /// One slot's address and kind.
    @usableFromInline
    struct Slot {
        @usableFromInline let address: UnsafeMutableRawPointer
        @usableFromInline let isWide: Bool

        @inlinable init(address: UnsafeMutableRawPointer, isWide: Bool) {
            self.address = address
            self.isWide = isWide
        }

        /// A narrow slot's existential, or a wide slot's marked ``InExistential``.
        @inlinable var existential: UnsafeMutablePointer<any UndoCommand> {
            (isWide ? address + CommandChunks.widePayloadOffset : address).assumingMemoryBound(to: (any UndoCommand).self)
        }
        /// A wide slot's type.
        @inlinable var commandType: any UndoCommand.Type { address.load(as: (any UndoCommand.Type).self) }
        @inlinable var payload: UnsafeMutableRawPointer { address + CommandChunks.widePayloadOffset }
        /// Whether the command is an existential (a narrow slot, or a wide one marked ``InExistential``).
        @inlinable var holdsExistential: Bool { !isWide || commandType == InExistential.self }

        /// Puts `command` in this uninitialized slot: in a wide slot as itself when it is of
        /// 25 to 64 bytes, else (and in a narrow slot) in an existential.
        @inlinable @inline(__always)
        func initialize<C: UndoCommand>(typed command: consuming C) {
            if isWide && CommandChunks.needsWide(C.self) {
                address.initializeMemory(as: (any UndoCommand.Type).self, to: C.self)
                payload.initializeMemory(as: C.self, to: command)
                return
            }
            if isWide { address.initializeMemory(as: (any UndoCommand.Type).self, to: InExistential.self) }
            (isWide ? payload : address).initializeMemory(as: (any UndoCommand).self, to: command)
        }

        /// Puts `command` in this uninitialized slot, with its own type in a wide slot.
        @usableFromInline
        func initialize(_ command: any UndoCommand) {
            guard isWide else {
                _ = address.initializeMemory(as: (any UndoCommand).self, to: command)
                return
            }
            func put<C: UndoCommand>(_ command: C) -> Bool {
                guard CommandChunks.needsWide(C.self) else { return false }
                initialize(typed: command)
                return true
            }
            if put(command) { return }
            address.initializeMemory(as: (any UndoCommand.Type).self, to: InExistential.self)
            payload.initializeMemory(as: (any UndoCommand).self, to: command)
        }

        /// A copy of the command.
        @usableFromInline
        func read() -> any UndoCommand {
            if holdsExistential { return existential.pointee }
            func load<C: UndoCommand>(_ type: C.Type) -> any UndoCommand {
                payload.assumingMemoryBound(to: C.self).pointee
            }
            return load(commandType)
        }

        /// Moves the command out; the slot is left uninitialized.
        @usableFromInline
        func take() -> any UndoCommand {
            if holdsExistential { return existential.move() }
            func move<C: UndoCommand>(_ type: C.Type) -> any UndoCommand {
                payload.assumingMemoryBound(to: C.self).move()
            }
            return move(commandType)
        }

        /// Destroys the command; the slot is left uninitialized.
        @usableFromInline
        func deinitialize() {
            if holdsExistential { existential.deinitialize(count: 1); return }
            func destroy<C: UndoCommand>(_ type: C.Type) { payload.assumingMemoryBound(to: C.self).deinitialize(count: 1) }
            destroy(commandType)
        }

        /// Moves the command of `source` into this uninitialized slot; `source` is left
        /// uninitialized. Slots of one kind move with the command's own type.
        func moveInitialize(from source: Slot) {
            guard isWide == source.isWide else { return initialize(source.take()) }
            guard isWide else { return existential.moveInitialize(from: source.existential, count: 1) }
            let type = source.commandType
            address.initializeMemory(as: (any UndoCommand.Type).self, to: type)
            if type == InExistential.self {
                existential.moveInitialize(from: source.existential, count: 1)
                return
            }
            func move<C: UndoCommand>(_ type: C.Type) {
                payload.bindMemory(to: C.self, capacity: 1).moveInitialize(from: source.payload.assumingMemoryBound(to: C.self), count: 1)
            }
            move(type)
        }

        /// Copies the command of `source`, a slot of the same kind, into this uninitialized slot.
        func copyInitialize(from source: Slot) {
            guard isWide == source.isWide else { return initialize(source.read()) }
            guard isWide else { return existential.initialize(to: source.existential.pointee) }
            let type = source.commandType
            address.initializeMemory(as: (any UndoCommand.Type).self, to: type)
            if type == InExistential.self {
                existential.initialize(to: source.existential.pointee)
                return
            }
            func copy<C: UndoCommand>(_ type: C.Type) {
                payload.initializeMemory(as: C.self, to: source.payload.assumingMemoryBound(to: C.self).pointee)
            }
            copy(type)
        }

        /// Runs `change` on the command, in place, with its own type. Always inlined, with
        /// the openers below, into the caller's specialization for `V`: the only call left is
        /// to `V`'s method for the command's type (a call through `V`'s witness table cost
        /// about 50 instructions more a step).
        @inlinable @inline(__always)
        func change<V: StepCommandChange>(_ change: inout V) throws(V.Failure) -> V.Result {
            if !isWide { return try change.change(existential: &existential.pointee) }
            let type = commandType
            if type == InExistential.self { return try change.change(existential: &existential.pointee) }
            return try Self.changeTyped(payload, as: type, with: &change)
        }

        @inlinable @inline(__always)
        static func changeTyped<C: UndoCommand, V: StepCommandChange>(_ payload: UnsafeMutableRawPointer, as type: C.Type,
                                                                       with change: inout V) throws(V.Failure) -> V.Result {
            try change.change(&payload.assumingMemoryBound(to: C.self).pointee)
        }

        /// Runs `body` on the command, in place, when the slot holds a `C` itself (a wide slot
        /// of that type); `nil` for any other type, or a command held in an existential. A type
        /// comparison before anything is read: the slot's type is not opened
        /// (``UndoCommandOfTypeMatcher``). `body` only reads the command.
        @inlinable @inline(__always)
        func readIfHeld<C: UndoCommand, R>(as type: C.Type, _ body: (inout C) -> R) -> R? {
            guard isWide, commandType == C.self else { return nil }
            return body(&payload.assumingMemoryBound(to: C.self).pointee)
        }

        /// Runs `reader` on the command, in place, with its own type (inlined as ``change(_:)``).
        @inlinable @inline(__always)
        func read<V: StepCommandRead>(_ reader: inout V) -> V.Result {
            if !isWide { return Self.handExistential(&existential.pointee, to: &reader) }
            let type = commandType
            if type == InExistential.self { return Self.handExistential(&existential.pointee, to: &reader) }
            return Self.readTyped(payload, as: type, with: &reader)
        }

        @inlinable @inline(__always)
        static func readTyped<C: UndoCommand, V: StepCommandRead>(_ payload: UnsafeMutableRawPointer, as type: C.Type,
                                                                  with reader: inout V) -> V.Result {
            // Reached as an inout access: a read of `pointee` passed on copied the command
            // (measured: a copy and a destroy of a plugin step, about 30 instructions).
            // `reader` only reads it.
            hand(&payload.assumingMemoryBound(to: C.self).pointee, to: &reader)
        }

        @inlinable @inline(__always)
        static func hand<C: UndoCommand, V: StepCommandRead>(_ command: inout C, to reader: inout V) -> V.Result {
            reader.read(command)
        }

        @inlinable @inline(__always)
        static func handExistential<V: StepCommandRead>(_ command: inout any UndoCommand, to reader: inout V) -> V.Result {
            reader.read(existential: command)
        }
    }

    /// Owns a state and the chunks it lists; frees both, and the commands, when it goes.
    @usableFromInline
    final class Table {
        @usableFromInline let state: UnsafeMutablePointer<TableState>

        /// A table with one empty chunk of `firstRoom` slots.
        init(firstRoom: Int, wide: Bool) {
            let chunks = UnsafeMutablePointer<Chunk>.allocate(capacity: 4)
            chunks.initialize(to: Chunk.allocate(room: firstRoom, wide: wide))
            state = .allocate(capacity: 1)
            state.initialize(to: TableState(count: 0, capacity: firstRoom, firstRoom: firstRoom, chunkCount: 1,
                                            chunkRoom: 4, chunks: chunks))
        }

        deinit {
            let table = state.pointee
            for chunk in 0..<table.chunkCount {
                let held = table.heldSlots(inChunk: chunk), slots = table.chunks[chunk]
                if slots.isWide {
                    for place in 0..<held { Slot(address: slots.base + place * wideStride, isWide: true).deinitialize() }
                } else {
                    slots.base.assumingMemoryBound(to: (any UndoCommand).self).deinitialize(count: held)
                }
                slots.base.deallocate()
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

    /// Whether the slot of `index` is wide (tests).
    func isWide(_ index: Int) -> Bool { slot(index).isWide }

    // MARK: Reaching a slot

    /// The slot of the command at `index`, checked.
    @inlinable @inline(__always)
    func slot(_ index: Int) -> Slot {
        guard let state else { preconditionFailure("command \(index) of none") }
        precondition(index >= 0 && index < state.pointee.count, "command \(index) outside 0..<\(state.pointee.count)")
        return state.pointee.slot(index)
    }

    /// Makes the table this value's own (a copy when it is shared).
    @inlinable @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&table) { copyTable() }
    }

    /// The command at `index` (a copy; one of over 24 bytes in a wide slot is boxed for it).
    /// - Complexity: O(1).
    @usableFromInline
    subscript(index: Int) -> any UndoCommand {
        get { slot(index).read() }
        set {
            makeUnique()
            let slot = slot(index)
            slot.deinitialize()
            slot.initialize(newValue)
        }
    }

    /// Runs `change` on the command at `index`, in place, with its own type.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    mutating func change<V: StepCommandChange>(at index: Int, _ change: inout V) throws(V.Failure) -> V.Result {
        makeUnique()
        return try slot(index).change(&change)
    }

    /// Runs `reader` on the command at `index`, in place, with its own type.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    func read<V: StepCommandRead>(at index: Int, _ reader: inout V) -> V.Result {
        slot(index).read(&reader)
    }

    /// Replaces the command at `index` with `command`.
    /// - Returns: the command it held.
    /// - Complexity: O(1).
    mutating func exchange(at index: Int, with command: consuming any UndoCommand) -> any UndoCommand {
        makeUnique()
        let slot = slot(index)
        let old = slot.take()
        slot.initialize(command)
        return old
    }

    /// Offers `next` to the command at `index`, in place (``HistoryRecord/mergeMeasuring(_:into:)``;
    /// a closure cannot borrow `next`, so the merge is called here). Always inlined into the
    /// merge path, as the array's subscript was.
    @inlinable @inline(__always)
    mutating func mergeMeasuring<C: UndoCommand>(_ next: borrowing C, intoCommandAt index: Int) -> (UndoMerge?, Int32) {
        makeUnique()
        let slot = slot(index)
        // A `C` the existential holds in place is never held itself: for such a `C` the
        // second path is not compiled (measured: UndoCore typing 202 → 199 Ir per op).
        if !Self.needsWide(C.self) || slot.holdsExistential {
            return HistoryRecord.mergeMeasuring(next, into: &slot.existential.pointee)
        }
        // A wide slot holds its type: a `C` is changed in place, with no cast.
        guard slot.commandType == C.self else { return (nil, 0) }
        return HistoryRecord.mergeMeasuring(next, intoSame: &slot.payload.assumingMemoryBound(to: C.self).pointee)
    }

    // MARK: Adding and removing

    /// Adds `command` after the last one, in its slot.
    /// - Complexity: O(1); a new chunk every ``chunkSize`` commands; the last chunk made wide
    ///   (O(``chunkSize``)) once, by its first command of 25 to 64 bytes.
    // The common cases written out (a small command in a narrow chunk, a wide one in a wide
    // chunk), the others out of line, so that the push it is inlined into stays small.
    @inlinable @inline(__always)
    mutating func append<C: UndoCommand>(typed command: consuming C) {
        if !isKnownUniquelyReferenced(&table) || state.unsafelyUnwrapped.pointee.count == state.unsafelyUnwrapped.pointee.capacity {
            makeRoom()
        }
        let state = self.state.unsafelyUnwrapped
        let index = state.pointee.count
        let chunk = state.pointee.chunks[index &>> Self.chunkShift]
        let place = index & Self.placeMask
        if Self.needsWide(C.self) {
            guard chunk.isWide else { return appendOutOfLine(command) }
            Slot(address: chunk.base + place &* Self.wideStride, isWide: true).initialize(typed: command)
        } else {
            guard !chunk.isWide else { return appendOutOfLine(command) }
            (chunk.base + place &* Self.narrowStride).initializeMemory(as: (any UndoCommand).self, to: command)
        }
        state.pointee.count &+= 1
    }

    /// ``append(typed:)``'s other cases, out of line: a command of 25 to 64 bytes into a narrow
    /// chunk (made wide first), or one held in an existential into a wide chunk.
    @usableFromInline @inline(never)
    mutating func appendOutOfLine<C: UndoCommand>(_ command: consuming C) {
        var state = self.state.unsafelyUnwrapped
        if Self.needsWide(C.self) && !state.pointee.slot(state.pointee.count).isWide {
            widenLastChunk()
            state = self.state.unsafelyUnwrapped
        }
        state.pointee.slot(state.pointee.count).initialize(typed: command)
        state.pointee.count &+= 1
    }

    /// Adds `command` after the last one.
    @usableFromInline
    mutating func append(_ command: consuming any UndoCommand) {
        func add<C: UndoCommand>(_ command: C) { append(typed: command) }
        add(command)
    }

    /// Makes the table this value's own with a free slot: a first table, the first chunk grown
    /// (twice its room, up to ``chunkSize``), or a new chunk (of the last one's kind).
    @usableFromInline @inline(never)
    mutating func makeRoom() {
        guard table != nil else { return adopt(Table(firstRoom: 4, wide: false)) }
        makeUnique()
        let state = self.state.unsafelyUnwrapped
        if state.pointee.count < state.pointee.capacity { return }
        if state.pointee.chunkCount == 1 && state.pointee.firstRoom < Self.chunkSize {
            let room = Swift.min(2 * state.pointee.firstRoom, Self.chunkSize)
            resizeChunk(0, room: room, wide: state.pointee.chunks[0].isWide)
            state.pointee.firstRoom = room
            state.pointee.capacity = room
            return
        }
        if state.pointee.chunkCount == state.pointee.chunkRoom {
            let room = 2 * state.pointee.chunkRoom
            let grown = UnsafeMutablePointer<Chunk>.allocate(capacity: room)
            grown.moveInitialize(from: state.pointee.chunks, count: state.pointee.chunkCount)
            state.pointee.chunks.deallocate()
            state.pointee.chunks = grown
            state.pointee.chunkRoom = room
        }
        let wide = state.pointee.chunks[state.pointee.chunkCount - 1].isWide
        (state.pointee.chunks + state.pointee.chunkCount).initialize(to: Chunk.allocate(room: Self.chunkSize, wide: wide))
        state.pointee.chunkCount += 1
        state.pointee.capacity += Self.chunkSize
    }

    /// Makes the last chunk wide, its commands moved into wide slots. The table is this
    /// value's own.
    /// - Complexity: O(``chunkSize``).
    @usableFromInline @inline(never)
    mutating func widenLastChunk() {
        let state = self.state.unsafelyUnwrapped
        let last = state.pointee.chunkCount - 1
        resizeChunk(last, room: last == 0 ? state.pointee.firstRoom : Self.chunkSize, wide: true)
    }

    /// Gives chunk `chunk` new slots: `room` of them, wide or narrow, its commands moved in.
    private func resizeChunk(_ chunk: Int, room: Int, wide: Bool) {
        let state = self.state.unsafelyUnwrapped
        let old = state.pointee.chunks[chunk]
        let new = Chunk.allocate(room: room, wide: wide)
        for place in 0..<state.pointee.heldSlots(inChunk: chunk) {
            Slot(address: new.base + place * new.stride, isWide: wide)
                .moveInitialize(from: Slot(address: old.base + place * old.stride, isWide: old.isWide))
        }
        old.base.deallocate()
        state.pointee.chunks[chunk] = new
    }

    /// Removes the last command.
    /// - Complexity: O(1).
    @discardableResult
    mutating func removeLast() -> any UndoCommand {
        precondition(count > 0, "removeLast on no commands")
        makeUnique()
        let state = self.state.unsafelyUnwrapped
        state.pointee.count -= 1
        let removed = state.pointee.slot(state.pointee.count).take()
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
            state.pointee.slot(state.pointee.count).deinitialize()
        }
        freeEmptyChunks()
    }

    /// Frees the chunks after the one that holds the last command (chunk 0 stays).
    private func freeEmptyChunks() {
        let state = self.state.unsafelyUnwrapped
        let needed = Swift.max(1, (state.pointee.count + Self.chunkSize - 1) >> Self.chunkShift)
        while state.pointee.chunkCount > needed {
            state.pointee.chunkCount -= 1
            state.pointee.chunks[state.pointee.chunkCount].base.deallocate()
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
        let first = slot(i), second = slot(j)
        if !first.isWide && !second.isWide { return swap(&first.existential.pointee, &second.existential.pointee) }
        // Through a slot on the stack, each command moved with its own type.
        withUnsafeTemporaryAllocation(byteCount: Self.wideStride, alignment: Self.slotAlignment) { buffer in
            let aside = Slot(address: buffer.baseAddress!, isWide: true)
            aside.moveInitialize(from: first)
            first.moveInitialize(from: second)
            second.moveInitialize(from: aside)
        }
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
            for place in 0..<Self.chunkSize { state.pointee.slot(chunk &<< Self.chunkShift | place).deinitialize() }
            state.pointee.chunks[chunk].base.deallocate()
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
        for index in 0..<k { state.pointee.slot(index).deinitialize() }
        for index in k..<state.pointee.count { state.pointee.slot(index - k).moveInitialize(from: state.pointee.slot(index)) }
        state.pointee.count -= k
    }

    /// Removes every command.
    mutating func removeAll() { adopt(nil) }

    // MARK: Tables

    private mutating func adopt(_ table: Table?) {
        self.table = table
        state = table?.state
    }

    /// Replaces the table, shared with another value, by a copy of it and its commands (in
    /// chunks of the same kinds).
    /// - Complexity: O(`count`).
    @usableFromInline @inline(never)
    mutating func copyTable() {
        guard let original = state?.pointee else { return }
        let copy = Table(firstRoom: original.firstRoom, wide: original.chunks[0].isWide)
        let state = copy.state
        if original.chunkRoom > state.pointee.chunkRoom {
            let chunks = UnsafeMutablePointer<Chunk>.allocate(capacity: original.chunkRoom)
            chunks.moveInitialize(from: state.pointee.chunks, count: 1)
            state.pointee.chunks.deallocate()
            state.pointee.chunks = chunks
            state.pointee.chunkRoom = original.chunkRoom
        }
        for chunk in 1..<original.chunkCount {
            (state.pointee.chunks + chunk).initialize(to: Chunk.allocate(room: Self.chunkSize, wide: original.chunks[chunk].isWide))
            state.pointee.chunkCount += 1
        }
        state.pointee.capacity = original.capacity
        for index in 0..<original.count {
            state.pointee.slot(index).copyInitialize(from: original.slot(index))
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
        for chunk in 1..<tableState.chunkCount {
            precondition(!tableState.chunks[chunk - 1].isWide || tableState.chunks[chunk].isWide,
                         "a narrow chunk \(chunk) after a wide one")
        }
        for index in 0..<tableState.count {
            let slot = tableState.slot(index)
            guard slot.isWide, slot.commandType != InExistential.self else { continue }
            func fits<C: UndoCommand>(_ type: C.Type) -> Bool { Self.needsWide(type) }
            precondition(fits(slot.commandType), "a wide slot \(index) holds a \(slot.commandType) itself, not of 25 to 64 bytes")
        }
    }
}

/// A change made to one command of the history, in place, with the command's own type
/// (``CommandChunks/change(at:_:)``): the way a step is run and changed without making it an
/// existential (which would box a large command).
@usableFromInline
protocol StepCommandChange {
    associatedtype Result
    associatedtype Failure: Error
    /// The change, on a command held in a wide slot, of its own type.
    mutating func change<C: UndoCommand>(_ command: inout C) throws(Failure) -> Result
    /// The change, on a command held in an existential (the default opens it): a change that
    /// calls the command's methods on the existential directly saves the opening's generic call.
    mutating func change(existential command: inout any UndoCommand) throws(Failure) -> Result
}

extension StepCommandChange {
    @inlinable
    mutating func change(existential command: inout any UndoCommand) throws(Failure) -> Result {
        try change(&command)
    }
}

/// A read of one command of the history, in place, with the command's own type
/// (``CommandChunks/read(at:_:)``).
@usableFromInline
protocol StepCommandRead {
    associatedtype Result
    mutating func read<C: UndoCommand>(_ command: borrowing C) -> Result
    /// The read of a command held in an existential (the default opens it).
    mutating func read(existential command: any UndoCommand) -> Result
}

extension StepCommandRead {
    @inlinable
    mutating func read(existential command: any UndoCommand) -> Result { read(command) }
}
