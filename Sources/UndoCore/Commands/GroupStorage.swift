/// Where an ``UndoGroup`` keeps what can change: one allocation the group owns, holding its
/// name, its description and its parts, and a flag that says an access to them is under way.
///
/// **Invariant** (checked on every access, in every build): accesses never overlap. This is the
/// exclusivity rule of a class's stored properties, enforced with one flag instead of the run
/// time's per-thread access set, which cost about 80 instructions an access: adding a member to
/// an open group made one, and so did every undo and redo of a group, its name and its context.
/// The pointer is the group's own allocation, made in ``init(name:parts:)`` and freed by
/// ``free()`` from the group's deinit; it never leaves this type.
@usableFromInline
struct GroupStorage {
    @usableFromInline
    struct Fields {
        @usableFromInline var name: String?
        @usableFromInline var historyDescription: String?
        @usableFromInline var parts: UndoGroup.Parts
        @usableFromInline var busy: Bool
    }

    @usableFromInline let fields: UnsafeMutablePointer<Fields>

    init(name: String?, parts: UndoGroup.Parts) {
        fields = .allocate(capacity: 1)
        fields.initialize(to: Fields(name: name, historyDescription: nil, parts: parts, busy: false))
    }

    /// Frees the fields. Only from the group's deinit.
    func free() {
        precondition(!fields.pointee.busy, "an UndoGroup was freed during an access to it")
        fields.deinitialize(count: 1)
        fields.deallocate()
    }

    /// Adds a member of a known type (``UndoGroup/append(typed:)``).
    @inlinable
    func append<C: UndoCommand>(typed member: consuming C) {
        // Measured before the access: a member's cost or context may read its own group.
        let measured = UndoGroup.Measured.measure(member)
        var pending: C? = member
        access { $0.parts.append(typed: pending.take().unsafelyUnwrapped, measured) }
    }

    /// Offers `next` to the newest member, in place (``HistoryRecord/mergeWithNewest(_:at:)``):
    /// a member annulled leaves; a merge forgets what the group kept of its members (the member's cost changed). One access,
    /// written out here: a closure could not borrow `next`.
    /// - Complexity: O(1) plus the merge.
    @usableFromInline
    func mergeIntoNewestMember<C: UndoCommand>(_ next: borrowing C) -> UndoMerge {
        precondition(!fields.pointee.busy, "an UndoGroup was used from inside an access to it (a member's name, context, cost or merge that uses its own group)")
        fields.pointee.busy = true
        defer { fields.pointee.busy = false }
        let outcome = fields.pointee.parts.members.mergeIntoLast(next) ?? .refused
        if outcome == .annulled { fields.pointee.parts.members.dropLast() }
        if outcome != .refused { fields.pointee.parts.forget() }
        return outcome
    }

    /// Whether `other` is this storage.
    func isSame(as other: GroupStorage) -> Bool { fields == other.fields }

    /// Runs `body` with the fields, which no other access uses meanwhile.
    /// - Precondition: no access is under way (a member's name, context, cost or merge must not
    ///   use the group it is in while the group reads it).
    @inlinable
    func access<R>(_ body: (inout Fields) throws -> R) rethrows -> R {
        precondition(!fields.pointee.busy, "an UndoGroup was used from inside an access to it (a member's name, context, cost or merge that uses its own group)")
        fields.pointee.busy = true
        defer { fields.pointee.busy = false }
        return try body(&fields.pointee)
    }
}
