/// One history shared by several threads: every call holds a lock around the ``UndoStack``.
///
/// Actions and observers run on the calling thread with the lock held, so they must not wait
/// for another thread that uses this history. An action that calls back into the history from
/// its own perform or undo gets ``UndoError/reentrantCall(_:)``, never a deadlock (the lock is
/// recursive and the stack refuses the call).
public final class SharedUndoHistory: @unchecked Sendable {
    // Recursive: a re-entrant call from an action must reach the stack's refusal instead of
    // deadlocking (see RecursiveMutex).
    @usableFromInline package let mutex = RecursiveMutex()
    @usableFromInline let stack: UndoStack

    /// Shares `stack`, which no one else may use directly from now on.
    public init(_ stack: UndoStack = UndoStack()) {
        self.stack = stack
    }

    /// Runs `body` with the stack, holding the lock.
    // Inlinable: specialized for the caller's closure and result instead of a generic call.
    @inlinable
    public func withStack<R>(_ body: (UndoStack) throws -> R) rethrows -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(stack)
    }

    /// Performs and records `command` (``UndoStack/perform(_:)``).
    /// - Parameter command: the change to make and record.
    /// - Returns: whether it was recorded, or left no step (``UndoPerformOutcome``).
    /// - Complexity: that of ``UndoStack/perform(_:)``; the command is moved into the history,
    ///   not copied (a closure would capture a copy of it).
    @inlinable @discardableResult
    public func perform<C: UndoCommand>(_ command: consuming C) throws -> UndoPerformOutcome {
        mutex.lock()
        defer { mutex.unlock() }
        return try stack.perform(command)
    }
    @discardableResult public func undo() throws -> UndoResult? { try withStack { try $0.undo() } }
    @discardableResult public func redo() throws -> UndoResult? { try withStack { try $0.redo() } }
    public var state: UndoState { withStack { $0.state } }
}
