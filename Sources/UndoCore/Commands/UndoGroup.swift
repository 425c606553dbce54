/// A step made of several commands that undo and redo as one: a named group, or a run of
/// coalesced changes. Members run in order on redo and in reverse order on undo; if one fails
/// partway, those already changed are put back so the group stays atomic.
///
/// **Storage.** The members live in one buffer (see ``MemberBuffer``): unboxed, at their own
/// size, while all are of one type (a macro, a paste: the common case), so a member of two
/// words costs 16 bytes rather than a 40-byte existential, and the group runs them with a loop
/// specialized for their type. A member of another type turns the buffer into one of boxed
/// members (``AnyMember``), as do the rarer changes in place (a merge into the last member,
/// a removal).
public final class UndoGroup: UndoCommand {
    /// The members, oldest first (a copy: each boxed as an existential).
    /// - Complexity: O(members)
    public internal(set) var members: [any UndoCommand] {
        get {
            var all: [any UndoCommand] = []
            guard let buffer else { return all }
            all.reserveCapacity(MemberBuffer.count(buffer))
            _ = MemberBuffer.manage(buffer, .copyOut, into: &all)
            return all
        }
        set {
            releaseBuffer()
            buffer = MemberBuffer.boxing(newValue, room: newValue.count)
            membersChangedInPlace()
        }
    }
    /// The members' buffer; `nil` while there are none (so the first member finds no buffer,
    /// makes one for its type and gives an unnamed group its context).
    // Unchecked like the history's own state (see UndoStack): only the history changes the
    // members, never while one of them runs, and the checks cost a third of a group's undo.
    @usableFromInline @exclusivity(unchecked) var buffer: UnsafeMutableRawPointer?
    @exclusivity(unchecked) public var name: String?
    @exclusivity(unchecked) public internal(set) var context: UndoContext
    /// `true` for a coalesced run (its key is the run's), `false` for an explicit group.
    let runKey: UndoCoalescingKey?

    init(name: String?, context: UndoContext, members: [any UndoCommand] = [], runKey: UndoCoalescingKey? = nil) {
        self.name = name
        self.context = context
        self.buffer = MemberBuffer.boxing(members, room: members.count)
        self.knownAppendedCost = members.isEmpty ? 0 : -1
        self.runKey = runKey
    }

    deinit { releaseBuffer() }

    /// Destroys the members and frees their buffer.
    func releaseBuffer() {
        guard let buffer else { return }
        self.buffer = nil
        var none: [any UndoCommand] = []
        _ = MemberBuffer.manage(buffer, .destroy, into: &none)
        MemberBuffer.free(buffer)
    }

    /// How many members there are (without copying them out, as ``members`` does).
    /// - Complexity: O(1)
    var memberCount: Int { buffer.map(MemberBuffer.count) ?? 0 }

    /// How many members fit before the buffer grows.
    var memberCapacity: Int { buffer.map { Int(MemberBuffer.header($0).pointee.capacity) } ?? 0 }

    /// Whether the members are stored unboxed (all of one type), not as ``AnyMember``s.
    var membersAreUnboxed: Bool {
        guard let buffer else { return false }
        return MemberBuffer.header(buffer).pointee.typeID != ObjectIdentifier(AnyMember.self)
    }

    /// Traps if the members' buffer is inconsistent: a buffer with no member (the next member
    /// would then not give the group its context), more members than room, or a type that is
    /// not its kind's.
    func checkMemberBuffer(at index: Int) {
        guard let buffer else { return }
        let header = MemberBuffer.header(buffer).pointee
        precondition(header.count > 0 && header.count <= header.capacity,
                     "group at \(index): \(header.count) members in room for \(header.capacity)")
        precondition(header.typeID == header.kind.typeID, "group at \(index): members' type differs from their kind's")
    }

    @usableFromInline @exclusivity(unchecked) var memberContexts: Set<UndoContext>?

    /// The members' costs (plus 8 bytes each) added up as they were appended, so closing a
    /// group of n members does not ask each one for its cost again; `nil` once the members
    /// changed in another way (a merge, a removal), and then summed on demand.
    var appendedCost: Int? {
        get { knownAppendedCost >= 0 ? knownAppendedCost : nil }
        set { knownAppendedCost = newValue ?? -1 }
    }
    // An Int with -1 for unknown, not an optional: a group object stays within its malloc size
    // class (macro's heap per step).
    @usableFromInline @exclusivity(unchecked) var knownAppendedCost: Int

    /// Adds a member's cost to ``appendedCost`` (before the member is appended).
    @inlinable @inline(__always)
    func addAppendedCost(_ cost: Int) {
        if knownAppendedCost >= 0 { knownAppendedCost &+= cost &+ 8 }
    }

    /// Adds a member while the group is open: the one way members are appended, so the cost
    /// added up and the contexts stay in step with them. Inlined and specialized for the
    /// command's type: while the buffer holds that type and has room, the command moves into
    /// the next slot, unboxed, with no dynamic calls. A group named without a context takes
    /// its first member's.
    /// - Parameters:
    ///   - room: how many members to make room for if the buffer is made now.
    ///   - kinds: the history's member kinds, where a new buffer finds its type's.
    /// - Complexity: O(1) amortized.
    @inlinable @inline(__always)
    func append<C: UndoCommand>(_ member: consuming C, room: Int, kinds: inout [MemberKind]) {
        if let buffer {
            let header = MemberBuffer.header(buffer)
            if header.pointee.typeID == ObjectIdentifier(C.self) && header.pointee.count < header.pointee.capacity {
                store(member, in: buffer)
                return
            }
        }
        appendMakingRoom(member, room: room, kinds: &kinds)
    }

    /// Adds a member outside the history's push path (a run's next change).
    func append<C: UndoCommand>(_ member: consuming C) {
        var kinds: [MemberKind] = []
        append(member, room: 2, kinds: &kinds)
    }

    /// Moves `member` into the next slot of `buffer`, which holds `C`s and has room.
    @inlinable @inline(__always)
    func store<C: UndoCommand>(_ member: consuming C, in buffer: UnsafeMutableRawPointer) {
        let header = MemberBuffer.header(buffer)
        addAppendedCost(member.cost)
        MemberBuffer.elements(buffer, of: C.self).advanced(by: Int(header.pointee.count)).initialize(to: member)
        header.pointee.count &+= 1
        if memberContexts != nil { memberContexts = nil }
    }

    /// ``append(_:room:kinds:)`` when the buffer is missing, full or of another type: makes
    /// the buffer (the first member also gives the group its context), grows it, or boxes the
    /// members when this one is of another type.
    @inlinable
    func appendMakingRoom<C: UndoCommand>(_ member: consuming C, room: Int, kinds: inout [MemberKind]) {
        if let buffer {
            guard MemberBuffer.header(buffer).pointee.typeID == ObjectIdentifier(C.self) else {
                appendBoxed(member)
                return
            }
            self.buffer = MemberBuffer.grow(buffer, of: C.self)
        } else {
            adoptContext(member.context)
            buffer = MemberBuffer.allocate(MemberKind.find(C.self, in: &kinds), capacity: max(room, 1))
        }
        store(member, in: buffer.unsafelyUnwrapped)
    }

    /// Adds a member of another type than the others: boxed, as are the others from now on.
    @usableFromInline
    func appendBoxed(_ member: any UndoCommand) {
        boxMembers()
        var buffer = buffer.unsafelyUnwrapped
        let header = MemberBuffer.header(buffer)
        if header.pointee.count == header.pointee.capacity {
            buffer = MemberBuffer.grow(buffer, of: AnyMember.self)
            self.buffer = buffer
        }
        store(AnyMember(member), in: buffer)
    }

    /// Turns unboxed members into ``AnyMember``s, so members of any type can follow, or be
    /// changed in place as existentials.
    /// - Complexity: O(members), once.
    @usableFromInline
    func boxMembers() {
        guard let buffer, membersAreUnboxed else { return }
        var moved: [any UndoCommand] = []
        moved.reserveCapacity(memberCount)
        _ = MemberBuffer.manage(buffer, .moveOut, into: &moved)
        MemberBuffer.free(buffer)
        self.buffer = MemberBuffer.boxing(moved, room: 2 * moved.count)
    }

    /// Runs `body` on the last member in place, as an existential (boxing the members first).
    /// - Precondition: the group has a member.
    func withLastMember<R>(_ body: (inout any UndoCommand) throws -> R) rethrows -> R {
        boxMembers()
        let buffer = buffer!
        let last = MemberBuffer.count(buffer) - 1
        return try body(&MemberBuffer.elements(buffer, of: AnyMember.self)[last].command)
    }

    /// Removes the last member (after it annulled with a change merged into it).
    func removeLastMember() {
        boxMembers()
        guard let buffer else { return }
        let header = MemberBuffer.header(buffer)
        header.pointee.count -= 1
        _ = (MemberBuffer.elements(buffer, of: AnyMember.self) + Int(header.pointee.count)).move()
        if header.pointee.count == 0 { releaseBuffer() }
        membersChangedInPlace()
    }

    /// Forgets what was known of the members (their contexts, their cost added up) after they
    /// changed other than by ``append(_:room:kinds:)``: a merge into the last one, a removal.
    func membersChangedInPlace() {
        memberContexts = nil
        appendedCost = nil
    }

    @usableFromInline
    func adoptContext(_ firstContext: UndoContext) {
        if context == .global { context = firstContext }
    }

    /// Every context the group's members change (a group can span documents).
    /// - Complexity: O(members) the first time after a change, then O(1).
    var allContexts: Set<UndoContext> {
        if let memberContexts { return memberContexts }
        var contexts: Set<UndoContext> = []
        for member in members {
            if let group = UndoStack.group(in: member) { contexts.formUnion(group.allContexts) }
            else { contexts.insert(member.context) }
        }
        memberContexts = contexts
        return contexts
    }

    public var cost: Int {
        MemoryLayout<UndoGroup>.size + 16 + (appendedCost ?? membersCost)
    }

    /// The members' costs (plus 8 bytes each), asked of every member now (in place).
    var membersCost: Int {
        guard let buffer else { return 0 }
        var none: [any UndoCommand] = []
        return MemberBuffer.manage(buffer, .cost, into: &none)
    }

    /// Discardable only if every member is.
    public var isDiscardable: Bool {
        guard let buffer else { return true }
        var none: [any UndoCommand] = []
        return MemberBuffer.manage(buffer, .allDiscardable, into: &none) != 0
    }

    public func perform(_ changes: inout UndoChanges) throws {
        guard let buffer else { return }
        try run(buffer, forward: true, &changes)
    }

    public func undo(_ changes: inout UndoChanges) throws {
        guard let buffer else { return }
        try run(buffer, forward: false, &changes)
    }

    /// Runs the members through their kind's loop; a failure comes back named after the group.
    private func run(_ buffer: UnsafeMutableRawPointer, forward: Bool, _ changes: inout UndoChanges) throws {
        let header = MemberBuffer.header(buffer)
        do {
            try header.pointee.kind.run(buffer + header.pointee.kind.offset, Int(header.pointee.count), forward, &changes)
        } catch let failure as MemberFailure {
            let wrapped = UndoError.wrap(failure.error, step: name)
            if let rollbackError = failure.rollbackError {
                throw UndoError.rollbackFailed(step: name, message: "\(wrapped); then \(UndoError.wrap(rollbackError, step: nil))")
            }
            throw wrapped
        }
    }

    /// Removes members matching `predicate`, looking inside nested groups.
    /// - Returns: whether anything is left.
    /// The members are rebuilt (and boxed) only if something was removed, here or in a
    /// nested group: closing one document leaves the other documents' groups as they were.
    func removeMembers(where predicate: (any UndoCommand) -> Bool) -> Bool {
        var changed = false
        let left = members.compactMap { member -> (any UndoCommand)? in
            if let group = member as? UndoGroup {
                let before = group.memberCount
                let kept = group.removeMembers(where: predicate) ? group : nil
                if kept == nil || group.memberCount != before || group.appendedCost == nil { changed = true }
                return kept
            }
            if predicate(member) { changed = true; return nil }
            return member
        }
        if changed { members = left }
        // A group belongs to the context of what is left in it.
        if let first = left.first, !left.contains(where: { $0.context == context }) {
            context = first.context
        }
        return !left.isEmpty
    }
}

/// A command run backwards: its perform is the inner command's undo. Reverting to the saved
/// state records the group of steps it undid, then this around that same group, so undoing
/// the revert does them again.
struct InvertedCommand: UndoCommand {
    var inner: any UndoCommand
    var name: String?
    var context: UndoContext
    /// The inner group is counted where it stands in the history itself.
    var cost: Int { MemoryLayout<Self>.size }
    mutating func perform(_ changes: inout UndoChanges) throws { try inner.undo(&changes) }
    mutating func undo(_ changes: inout UndoChanges) throws { try inner.perform(&changes) }
}

/// A member boxed as an existential: the member type of a group whose members are not all of
/// one type (or were changed in place). Never handed out: ``UndoGroup/members`` unwraps it.
@usableFromInline
struct AnyMember: UndoCommand {
    @usableFromInline var command: any UndoCommand
    /// Wraps `command`, unless it is already wrapped (never two boxes deep).
    @usableFromInline init(_ command: any UndoCommand) {
        if let boxed = command as? AnyMember { self = boxed } else { self.command = command }
    }
    @usableFromInline var name: String? { command.name }
    @usableFromInline var context: UndoContext { command.context }
    @usableFromInline var cost: Int { command.cost }
    @usableFromInline var coalescingKey: UndoCoalescingKey? { command.coalescingKey }
    @usableFromInline var isDiscardable: Bool { command.isDiscardable }
    @usableFromInline mutating func perform(_ changes: inout UndoChanges) throws { try command.perform(&changes) }
    @usableFromInline mutating func undo(_ changes: inout UndoChanges) throws { try command.undo(&changes) }
}

/// A member failed while a group ran: its error, and the error of putting back the members
/// already run, if that failed too. The group names both after itself.
@usableFromInline
struct MemberFailure: Error {
    @usableFromInline var error: any Error
    @usableFromInline var rollbackError: (any Error)?
    @usableFromInline init(error: any Error, rollbackError: (any Error)?) {
        self.error = error
        self.rollbackError = rollbackError
    }
}

/// What ``MemberKind/manage`` does with the members.
@usableFromInline
enum MemberOperation: Sendable {
    /// Destroys them.
    case destroy
    /// Appends a copy of each, boxed, to the array; returns 0.
    case copyOut
    /// Moves each out, boxed, into the array, leaving the slots uninitialized; returns 0.
    case moveOut
    /// Returns their costs plus 8 bytes each.
    case cost
    /// Returns 1 if every one is discardable, else 0.
    case allDiscardable
}

/// The operations on the members of one type, made where the type is known (the push path,
/// specialized for it), so a group's undo and redo run a loop specialized for its members,
/// without opening an existential per member. A history keeps the kinds it made (see
/// ``find(_:in:)``): one allocation per member type, not per group.
// Unchecked: every property is a constant, and the functions capture nothing but the type.
@usableFromInline
final class MemberKind: @unchecked Sendable {
    @usableFromInline let typeID: ObjectIdentifier
    /// Where the members start in a buffer: after the header, aligned for the type.
    @usableFromInline let offset: Int
    @usableFromInline let stride: Int
    @usableFromInline let alignment: Int
    /// Performs (`forward`) or undoes (in reverse) `count` members, rolling back on failure.
    @usableFromInline let run: (UnsafeMutableRawPointer, Int, Bool, inout UndoChanges) throws -> Void
    /// Everything else on `count` members, rarely needed (see ``MemberOperation``).
    @usableFromInline let manage: (MemberOperation, UnsafeMutableRawPointer, Int, inout [any UndoCommand]) -> Int

    @inlinable
    init<C: UndoCommand>(_ type: C.Type) {
        typeID = ObjectIdentifier(C.self)
        offset = MemberBuffer.offset(of: C.self)
        stride = MemoryLayout<C>.stride
        alignment = max(MemoryLayout<C>.alignment, MemoryLayout<MemberHeader>.alignment)
        run = { base, count, forward, changes in
            try MemberKind.run(base.assumingMemoryBound(to: C.self), count: count, forward: forward, &changes)
        }
        manage = { operation, base, count, boxed in
            MemberKind.manage(operation, base.assumingMemoryBound(to: C.self), count: count, &boxed)
        }
    }

    /// The kind of boxed members.
    @usableFromInline static let boxed = MemberKind(AnyMember.self)

    /// The kind of `C` from `kinds`, made and remembered if missing (a few kinds are kept:
    /// a program's groups hold few types, often one).
    @inlinable
    static func find<C: UndoCommand>(_ type: C.Type, in kinds: inout [MemberKind]) -> MemberKind {
        for kind in kinds where kind.typeID == ObjectIdentifier(C.self) { return kind }
        let kind = C.self == AnyMember.self ? boxed : MemberKind(C.self)
        if kinds.count >= 8 { kinds.removeFirst() }
        kinds.append(kind)
        return kind
    }

    @inlinable
    static func run<C: UndoCommand>(_ members: UnsafeMutablePointer<C>, count: Int, forward: Bool,
                                    _ changes: inout UndoChanges) throws {
        // Each member changed in place (the pointer's subscript addresses it): no copy.
        if forward {
            var index = 0
            do {
                while index < count {
                    try members[index].perform(&changes)
                    index &+= 1
                }
            } catch {
                // Undo what this call already redid, newest first.
                var scratch = UndoChanges()
                do {
                    while index > 0 {
                        index &-= 1
                        try members[index].undo(&scratch)
                    }
                } catch let rollbackError {
                    throw MemberFailure(error: error, rollbackError: rollbackError)
                }
                throw MemberFailure(error: error, rollbackError: nil)
            }
        } else {
            var index = count
            do {
                while index > 0 {
                    try members[index &- 1].undo(&changes)
                    index &-= 1
                }
            } catch {
                // Re-apply what this call already undid, oldest first.
                var scratch = UndoChanges()
                do {
                    while index < count {
                        try members[index].perform(&scratch)
                        index &+= 1
                    }
                } catch let rollbackError {
                    throw MemberFailure(error: error, rollbackError: rollbackError)
                }
                throw MemberFailure(error: error, rollbackError: nil)
            }
        }
    }

    @inlinable
    static func manage<C: UndoCommand>(_ operation: MemberOperation, _ members: UnsafeMutablePointer<C>,
                                       count: Int, _ boxed: inout [any UndoCommand]) -> Int {
        switch operation {
        case .destroy:
            // One at a time: specialized, each is released in place; `deinitialize(count:)`
            // goes through the runtime's generic array destroy.
            for index in 0..<count { (members + index).deinitialize(count: 1) }
        case .copyOut:
            for index in 0..<count { boxed.append(unwrapped(members[index])) }
        case .moveOut:
            for index in 0..<count { boxed.append(unwrapped((members + index).move())) }
        case .cost:
            var total = 0
            for index in 0..<count { total &+= members[index].cost &+ 8 }
            return total
        case .allDiscardable:
            for index in 0..<count where !members[index].isDiscardable { return 0 }
            return 1
        }
        return 0
    }

    /// A member as the group's users see it: a boxed one unwrapped.
    @inlinable
    static func unwrapped<C: UndoCommand>(_ member: consuming C) -> any UndoCommand {
        if C.self == AnyMember.self { return unsafeBitCast(member, to: AnyMember.self).command }
        return member
    }
}

/// The start of a members' buffer; the members follow at ``MemberKind/offset``.
@usableFromInline
struct MemberHeader {
    @usableFromInline var count: Int32
    @usableFromInline var capacity: Int32
    /// The members' type (read on every append, so kept beside the count, not behind `kind`).
    @usableFromInline let typeID: ObjectIdentifier
    @usableFromInline let kind: MemberKind
}

/// A group's members in one block of memory: a header (count, capacity, kind) and the
/// members, unboxed, at their type's stride. One allocation of 24 + n × stride bytes.
@usableFromInline
enum MemberBuffer {
    @inlinable @inline(__always)
    static func offset<C>(of type: C.Type) -> Int {
        let alignment = max(MemoryLayout<C>.alignment, MemoryLayout<MemberHeader>.alignment)
        return (MemoryLayout<MemberHeader>.size + alignment - 1) & ~(alignment - 1)
    }

    @inlinable @inline(__always)
    static func header(_ buffer: UnsafeMutableRawPointer) -> UnsafeMutablePointer<MemberHeader> {
        buffer.assumingMemoryBound(to: MemberHeader.self)
    }

    @inlinable @inline(__always)
    static func elements<C>(_ buffer: UnsafeMutableRawPointer, of type: C.Type) -> UnsafeMutablePointer<C> {
        (buffer + offset(of: C.self)).assumingMemoryBound(to: C.self)
    }

    @usableFromInline
    static func count(_ buffer: UnsafeMutableRawPointer) -> Int { Int(header(buffer).pointee.count) }

    /// An empty buffer for `capacity` members of `kind`.
    @usableFromInline
    static func allocate(_ kind: MemberKind, capacity: Int) -> UnsafeMutableRawPointer {
        precondition(capacity > 0 && capacity <= Int(Int32.max), "group too large")
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: kind.offset + capacity * kind.stride,
                                                      alignment: kind.alignment)
        buffer.initializeMemory(as: MemberHeader.self,
                                repeating: MemberHeader(count: 0, capacity: Int32(capacity), typeID: kind.typeID, kind: kind),
                                count: 1)
        return buffer
    }

    /// Frees a buffer whose members were destroyed or moved out.
    @usableFromInline
    static func free(_ buffer: UnsafeMutableRawPointer) {
        header(buffer).deinitialize(count: 1)
        buffer.deallocate()
    }

    /// A buffer twice as large, the members of `C` moved into it; `buffer` is freed.
    @inlinable
    static func grow<C>(_ buffer: UnsafeMutableRawPointer, of type: C.Type) -> UnsafeMutableRawPointer {
        let old = header(buffer)
        let count = Int(old.pointee.count)
        let grown = allocate(old.pointee.kind, capacity: max(2 * count, 2))
        elements(grown, of: C.self).moveInitialize(from: elements(buffer, of: C.self), count: count)
        header(grown).pointee.count = old.pointee.count
        free(buffer)
        return grown
    }

    /// Runs ``MemberKind/manage`` on the buffer's members.
    static func manage(_ buffer: UnsafeMutableRawPointer, _ operation: MemberOperation,
                       into boxed: inout [any UndoCommand]) -> Int {
        let header = header(buffer).pointee
        return header.kind.manage(operation, buffer + header.kind.offset, Int(header.count), &boxed)
    }

    /// A buffer of `members`, boxed, with room for `room`; `nil` when there are none.
    static func boxing(_ members: [any UndoCommand], room: Int) -> UnsafeMutableRawPointer? {
        guard !members.isEmpty else { return nil }
        let buffer = allocate(MemberKind.boxed, capacity: max(room, members.count))
        let slots = elements(buffer, of: AnyMember.self)
        for (index, member) in members.enumerated() { (slots + index).initialize(to: AnyMember(member)) }
        header(buffer).pointee.count = Int32(members.count)
        return buffer
    }
}
