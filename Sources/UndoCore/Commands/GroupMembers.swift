/// The members of an ``UndoGroup``, oldest first, each kept in its slot whole: in one block,
/// with the two kinds of slot the history's steps have (``CommandChunks``).
///
/// A list of `any UndoCommand` boxes a member of over 24 bytes in a heap block of its own (a
/// plugin step is 64): a group of ten plugin steps made eleven allocations, and each undo and
/// redo reached every member through its box. Here the block is *narrow* (each slot an
/// `any UndoCommand`, 40 bytes) until the first member of 25 to 64 bytes makes it *wide*
/// (each slot the command's type and the command itself, 80 bytes; any other member in an
/// existential marked ``CommandChunks/InExistential``), or wide from the start when the history
/// expects such members (``init(reserving:wide:)``). A group is one block, as its array was.
///
/// **Storage.** A ``Buffer`` (a `ManagedBuffer` of 8-byte words) holds the count, the room and
/// the kind in its header and the slots after it; it frees the members when it goes. It is
/// copied on write, as an array's buffer is, and a copy copies the members.
///
/// **Invariants** (checked by ``checkInvariants()``; an index is checked on every access, in
/// every build): `0 <= count <= room`; the slots `0 ..< count` hold members of the buffer's
/// kind (as a ``CommandChunks`` chunk of that kind holds them), the others are uninitialized;
/// the buffer has room for `room` slots of its kind. The slots' addresses come from the buffer's
/// own elements, inside its `withUnsafeMutablePointers` calls, and never leave this file.
@usableFromInline
struct GroupMembers {
    @usableFromInline
    struct Header {
        @usableFromInline var count: Int
        @usableFromInline var room: Int
        @usableFromInline var isWide: Bool
    }

    @usableFromInline
    final class Buffer: ManagedBuffer<Header, UInt64> {
        /// A buffer with room for `room` uninitialized slots of one kind.
        static func make(room: Int, wide: Bool) -> Buffer {
            let stride = wide ? CommandChunks.wideStride : CommandChunks.narrowStride
            let words = Swift.max(1, room) * stride / MemoryLayout<UInt64>.stride
            let made = Buffer.create(minimumCapacity: words) { _ in Header(count: 0, room: room, isWide: wide) }
            return unsafeDowncast(made, to: Buffer.self)
        }

        /// Runs `body` with the slot of `index` (not checked: the callers check it).
        @inlinable @inline(__always)
        func withSlot<R>(_ index: Int, _ body: (CommandChunks.Slot) throws -> R) rethrows -> R {
            try withUnsafeMutablePointers { header, words in
                let wide = header.pointee.isWide
                let stride = wide ? CommandChunks.wideStride : CommandChunks.narrowStride
                return try body(CommandChunks.Slot(address: UnsafeMutableRawPointer(words) + index &* stride, isWide: wide))
            }
        }

        /// The header, read through its address (``setCount(_:)`` writes it so): the class's
        /// `header` property makes a dynamic exclusivity check of each access (about 50
        /// instructions a member).
        @inlinable @inline(__always)
        var fields: Header {
            get { withUnsafeMutablePointerToHeader { $0.pointee } }
        }

        @inlinable @inline(__always)
        func setCount(_ count: Int) { withUnsafeMutablePointerToHeader { $0.pointee.count = count } }

        deinit {
            let count = fields.count
            if fields.isWide {
                for index in 0..<count { withSlot(index) { $0.deinitialize() } }
            } else {
                withUnsafeMutablePointerToElements { elements in
                    _ = UnsafeMutableRawPointer(elements).assumingMemoryBound(to: (any UndoCommand).self)
                        .deinitialize(count: count)
                }
            }
        }
    }

    @usableFromInline var buffer: Buffer?

    @inlinable init() {}

    /// An empty list with room for `room` members, in wide slots when `wide` (narrow ones turn
    /// wide at the first wide member, which moves the members into a new block).
    init(reserving room: Int, wide: Bool = false) {
        if room > 0 { buffer = Buffer.make(room: room, wide: wide) }
    }

    /// The members of `members`, in order.
    /// - Complexity: O(`members.count`).
    init(_ members: [any UndoCommand]) {
        self.init(reserving: members.count)
        for member in members { append(member) }
    }

    /// The number of members.
    @inlinable var count: Int { buffer?.fields.count ?? 0 }
    @inlinable var isEmpty: Bool { count == 0 }

    /// Whether the slots are wide (tests).
    var isWide: Bool { buffer?.fields.isWide ?? false }

    /// Whether the first member is held in a wide slot itself (not in an existential there).
    /// - Complexity: O(1).
    var firstIsHeldWide: Bool {
        guard let buffer, buffer.fields.count > 0, buffer.fields.isWide else { return false }
        return buffer.withSlot(0) { !$0.holdsExistential }
    }

    /// Copies of the members, oldest first (a member of over 24 bytes boxed for it).
    /// - Complexity: O(`count`).
    var array: [any UndoCommand] {
        var made: [any UndoCommand] = []
        made.reserveCapacity(count)
        for index in 0..<count { made.append(self[index]) }
        return made
    }

    @inlinable @inline(__always)
    func checked(_ index: Int) -> Buffer {
        precondition(index >= 0 && index < count, "member \(index) outside 0..<\(count)")
        return buffer.unsafelyUnwrapped
    }

    /// Makes the buffer this value's own (a copy when it is shared).
    @inlinable @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&buffer) { copyBuffer() }
    }

    /// A copy of the member at `index`.
    /// - Complexity: O(1).
    subscript(index: Int) -> any UndoCommand {
        checked(index).withSlot(index) { $0.read() }
    }

    /// Runs `change` on the members in `range`, each in place with its own type, oldest first
    /// or (`reversed`) newest first, until one throws; the list is made this value's own once.
    /// - Complexity: O(`range.count`) plus the changes.
    @inlinable
    mutating func change<V: StepCommandChange>(_ range: Range<Int>, reversed: Bool, _ change: inout V) throws(V.Failure) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "members \(range) outside 0..<\(count)")
        guard !range.isEmpty else { return }
        makeUnique()
        var failure: V.Failure?
        buffer.unsafelyUnwrapped.withUnsafeMutablePointers { header, words in
            let wide = header.pointee.isWide
            let stride = wide ? CommandChunks.wideStride : CommandChunks.narrowStride
            // From the first slot to run, a stride at a time, forward or back.
            var address = UnsafeMutableRawPointer(words) + (reversed ? range.upperBound - 1 : range.lowerBound) &* stride
            let step = reversed ? -stride : stride
            var left = range.count
            do throws(V.Failure) {
                if wide {
                    while left > 0 {
                        _ = try CommandChunks.Slot(address: address, isWide: true).change(&change)
                        address += step
                        left &-= 1
                    }
                } else {
                    // Narrow slots are existentials: run on them directly.
                    while left > 0 {
                        _ = try change.change(existential: &address.assumingMemoryBound(to: (any UndoCommand).self).pointee)
                        address += step
                        left &-= 1
                    }
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Runs `reader` on the member at `index`, in place, with its own type.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    func read<V: StepCommandRead>(at index: Int, _ reader: inout V) -> V.Result {
        checked(index).withSlot(index) { $0.read(&reader) }
    }

    /// Offers `next` to the newest member, in place, as ``HistoryRecord/merge(_:into:)`` does.
    /// - Returns: the merge's outcome, or `nil` when there is no member or they are not of one kind.
    /// - Complexity: O(1) plus the merge.
    @inlinable
    mutating func mergeIntoLast<C: UndoCommand>(_ next: borrowing C) -> UndoMerge? {
        guard count > 0 else { return nil }
        makeUnique()
        let last = count - 1
        // A closure cannot borrow `next`: it gets a copy (a keystroke merged into an open
        // group's member; the history's own merge path borrows it).
        let next = copy next
        return checked(last).withSlot(last) { slot in
            if !CommandChunks.needsWide(C.self) || slot.holdsExistential {
                return HistoryRecord.merge(next, into: &slot.existential.pointee)
            }
            guard slot.commandType == C.self else { return nil }
            return HistoryRecord.merge(next, intoSame: &slot.payload.assumingMemoryBound(to: C.self).pointee)
        }
    }

    // MARK: Adding and removing

    /// Adds `member` after the last one, in its slot.
    /// - Complexity: O(1) amortized (the slots are moved when the room doubles, and once when
    ///   the first member of 25 to 64 bytes makes them wide).
    @inlinable @inline(__always)
    mutating func append<C: UndoCommand>(typed member: consuming C) {
        if !isKnownUniquelyReferenced(&buffer) || buffer.unsafelyUnwrapped.fields.count == buffer.unsafelyUnwrapped.fields.room
            || CommandChunks.needsWide(C.self) && !buffer.unsafelyUnwrapped.fields.isWide {
            makeRoom(wide: CommandChunks.needsWide(C.self))
        }
        let buffer = self.buffer.unsafelyUnwrapped
        // A closure cannot take a consuming parameter: it takes the member out of an optional.
        var pending: C? = member
        buffer.withSlot(buffer.fields.count) { $0.initialize(typed: pending.take().unsafelyUnwrapped) }
        buffer.setCount(buffer.fields.count &+ 1)
    }

    /// Adds `member` after the last one (opened: a wide one is held in its slot itself).
    mutating func append(_ member: consuming any UndoCommand) {
        func add<C: UndoCommand>(_ member: C) { append(typed: member) }
        add(member)
    }

    /// Makes the buffer this value's own, with a free slot, and wide when `wide`: twice the
    /// room when full (4 at first), the members moved into it.
    @usableFromInline @inline(never)
    mutating func makeRoom(wide: Bool) {
        // Asked before `old` holds the buffer too: a buffer of this value's own is moved from.
        let unique = isKnownUniquelyReferenced(&buffer)
        guard let old = buffer else {
            buffer = Buffer.make(room: 4, wide: wide)
            return
        }
        let header = old.fields
        let room = header.count == header.room ? Swift.max(4, 2 * header.room) : header.room
        let kind = header.isWide || wide
        guard room != header.room || kind != header.isWide || !unique else { return }
        buffer = Self.transfer(from: old, into: Buffer.make(room: room, wide: kind), moving: unique)
    }

    /// `new` with the members of `old`, moved (`old` is then left empty) or copied.
    private static func transfer(from old: Buffer, into new: Buffer, moving: Bool) -> Buffer {
        let count = old.fields.count
        for index in 0..<count {
            old.withSlot(index) { source in
                new.withSlot(index) { if moving { $0.moveInitialize(from: source) } else { $0.copyInitialize(from: source) } }
            }
        }
        new.setCount(count)
        if moving { old.setCount(0) }
        return new
    }

    /// Replaces a shared buffer by a copy of it and its members (slots of the same kind).
    /// - Complexity: O(`count`).
    @usableFromInline @inline(never)
    mutating func copyBuffer() {
        guard let old = buffer else { return }
        buffer = Self.transfer(from: old, into: Buffer.make(room: old.fields.room, wide: old.fields.isWide), moving: false)
    }

    /// Destroys the newest member in its slot (a merge annulled it): it is not handed out, so a
    /// wide one is not boxed to be dropped.
    /// - Complexity: O(1).
    mutating func dropLast() {
        precondition(count > 0, "dropLast on no members")
        makeUnique()
        let buffer = self.buffer.unsafelyUnwrapped
        buffer.setCount(buffer.fields.count - 1)
        buffer.withSlot(buffer.fields.count) { $0.deinitialize() }
    }

    /// What a judge of ``removeAll(judging:held:)`` says of a member: whether it goes, and how many
    /// commands that removes (a nested group's members it took out included).
    struct Verdict {
        var goes: Bool
        var removed: Int
    }

    /// Removes the members `judge` picks (its read of each, in place with its own type, gives
    /// the verdict; `held` judges first the members it can where they are held), the others
    /// kept in order.
    /// - Returns: the commands removed, as the verdicts count them.
    /// - Complexity: O(`count`) plus the judging.
    mutating func removeAll<V: StepCommandRead>(judging judge: inout V, held: HeldCommandJudge?) -> Int
    where V.Result == Verdict {
        guard count > 0 else { return 0 }
        makeUnique()
        let buffer = self.buffer.unsafelyUnwrapped
        var kept = 0
        var removed = 0
        for index in 0..<buffer.fields.count {
            let verdict = buffer.withSlot(index) { slot in
                if let goes = held?.judge(slot) { return Verdict(goes: goes, removed: goes ? 1 : 0) }
                return slot.read(&judge)
            }
            removed += verdict.removed
            if verdict.goes {
                buffer.withSlot(index) { $0.deinitialize() }
            } else {
                if kept != index { buffer.withSlot(index) { source in buffer.withSlot(kept) { $0.moveInitialize(from: source) } } }
                kept += 1
            }
        }
        buffer.setCount(kept)
        return removed
    }

    /// Traps unless the invariant holds (see the type's documentation).
    func checkInvariants() {
        guard let buffer else { return }
        let header = buffer.fields
        precondition(header.count >= 0 && header.count <= header.room, "\(header.count) members in room for \(header.room)")
        let stride = header.isWide ? CommandChunks.wideStride : CommandChunks.narrowStride
        precondition(buffer.capacity * MemoryLayout<UInt64>.stride >= header.room * stride,
                     "room for \(header.room) slots in \(buffer.capacity) words")
        for index in 0..<header.count {
            buffer.withSlot(index) { slot in
                guard slot.isWide, slot.commandType != CommandChunks.InExistential.self else { return }
                func fits<C: UndoCommand>(_ type: C.Type) -> Bool { CommandChunks.needsWide(type) }
                precondition(fits(slot.commandType), "a wide slot \(index) holds a \(slot.commandType) itself, not of 25 to 64 bytes")
            }
        }
    }
}
