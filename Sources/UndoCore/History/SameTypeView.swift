/// Changes the value in an existential as the type `C` it holds, in place: for the merge of a
/// keystroke into the newest step (``HistoryRecord/mergeMeasuring(_:into:)``), where the
/// incoming command has the type `C` the push was specialized for. The body is written in the
/// caller, so it is `C`'s code: the step's key, context, merge and cost are direct calls. The
/// run time's cast (`as!`) of the incoming command to the step's opened type needed a copy of
/// the command to cast (its retains), its destruction after the merge, and the step's key,
/// context, merge and cost were calls through the protocol's witnesses in code generic in both
/// types.
///
/// **Invariant** (checked in every build, before anything is read): the existential holds a
/// `C` (its opened type `T` is `C`: `T.self == C.self`), so the value's memory is bound to `C`
/// and is changed as the type it holds; otherwise the body is not run and nothing is read. The
/// value is the caller's `inout` access for the body's run only: the pointer does not outlive
/// the call.
@usableFromInline
enum SameTypeView {
    /// Runs `body` with the value in `existential` as the `C` it holds, and `other` (handed
    /// through: a borrowed value cannot be captured by the body), when it holds a `C`.
    /// `body` hands its result back through what it captures (one closure, no generic result in
    /// the opened function).
    /// - Returns: whether `body` ran (`false`: `existential` holds another type).
    /// - Complexity: O(1): a type comparison; no copy of the value.
    @inlinable @discardableResult
    static func modify<C: UndoCommand>(_ existential: inout any UndoCommand, as type: C.Type, with other: C,
                                       _ body: (inout C, C) -> Void) -> Bool {
        open(&existential, with: other, body)
    }

    /// Opens the existential: `T` is the type it holds. Generic in `T` only to reach the value's
    /// address; `body` is the caller's closure, specialized for `C` where it was written.
    @inlinable
    static func open<T: UndoCommand, C>(_ value: inout T, with other: C, _ body: (inout C, C) -> Void) -> Bool {
        guard T.self == C.self else { return false }
        hand(&value, with: other, to: body)
        return true
    }

    /// Calls `body` with the value at `address` (an inout-to-pointer conversion at the call:
    /// valid for this call only), which is a `C`.
    @inlinable @inline(__always)
    static func hand<T, C>(_ address: UnsafeMutablePointer<T>, with other: C, to body: (inout C, C) -> Void) {
        assert(T.self == C.self, "a value read as a type it does not have")
        body(&UnsafeMutableRawPointer(address).assumingMemoryBound(to: C.self).pointee, other)
    }
}
