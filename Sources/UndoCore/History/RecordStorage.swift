/// Where an ``UndoStack`` keeps its record: one allocation holding the ``HistoryRecord`` and a
/// flag that says a call is using it. The one place UndoCore holds state behind a pointer.
///
/// **Invariant** (checked on every access, in every build): one call at a time uses the record.
/// - ``begin(_:)`` starts a change and refuses one made from inside another with
///   ``UndoError/reentrantCall(_:)`` (a command that calls back into its history to change it);
///   ``end()`` finishes it. Between the two, the history reaches the record through
///   ``record``, and runs commands.
/// - ``access(_:)`` runs a read or a change that cannot be refused; it stops the program when
///   another call is using the record (a command, a name getter or a merge that uses its own
///   history while the history is using it), so the record is never seen half changed.
///
/// This is the exclusivity rule of a class's stored property, enforced with one flag instead of
/// the run time's per-thread access set (which cost more than an undo itself).
@usableFromInline
struct RecordStorage {
    @usableFromInline let record: UnsafeMutablePointer<HistoryRecord>
    @usableFromInline let busy: UnsafeMutablePointer<Bool>

    init(_ initial: HistoryRecord) {
        record = .allocate(capacity: 1)
        record.initialize(to: initial)
        busy = .allocate(capacity: 1)
        busy.initialize(to: false)
    }

    /// Frees the record. Only from the stack's deinit.
    func free() {
        precondition(!busy.pointee, "an UndoStack was freed while one of its calls was under way")
        record.deinitialize(count: 1)
        record.deallocate()
        busy.deallocate()
    }

    /// Starts a change: the record is the caller's until ``end()``.
    /// - Throws: ``UndoError/reentrantCall(_:)`` from inside another change.
    // The call's name is a `StaticString`, made a `String` only for the error: a `String`
    // chosen between two literals (`undo`, `redo`) was released on every call.
    @inlinable
    func begin(_ call: StaticString) throws(UndoError) {
        if busy.pointee { throw UndoError.reentrantCall(call.description) }
        busy.pointee = true
    }

    /// Finishes the change begun with ``begin(_:)``.
    @inlinable
    func end() {
        assert(busy.pointee, "end() without begin()")
        busy.pointee = false
    }

    /// Whether a change is under way.
    @inlinable
    var isBusy: Bool { busy.pointee }

    /// Runs `body` with the record, which no other call uses meanwhile.
    /// - Precondition: no call is using the record (a command, a name getter or a merge of one
    ///   of the history's commands must not use the history).
    @inlinable
    func access<R>(_ body: (inout HistoryRecord) throws -> R) rethrows -> R {
        precondition(!busy.pointee, "an UndoStack was used from inside one of its own calls (an action, or a name, context, cost, key or merge of one of its commands)")
        busy.pointee = true
        defer { busy.pointee = false }
        return try body(&record.pointee)
    }
}
