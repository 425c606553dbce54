#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The lock of a ``SharedUndoHistory``, which is also the lock every call into the plugins of
/// a host performing into it holds: one lock, one owner. Most other shared state of the package
/// (a host's, a plugin's, a C client's history) is behind one too.
///
/// Recursive, so that a call an action makes back into its own history reaches the history's
/// refusal (``UndoError/reentrantCall(_:)``) instead of a deadlock: a pthread mutex of the
/// normal type (ThreadSanitizer sees every acquisition: it intercepts pthread locks), taken
/// once by its owner, which counts its nested holds itself (the normal type's lock and unlock
/// cost about half the recursive type's).
///
/// Invariant: `owner` is the id of the thread that holds the pthread mutex, or 0; it is written
/// only by that thread while it holds it, and read by any thread (which only ever learns whether
/// it is its own id). `depth` (the owner's holds) is touched only by the owner.
@usableFromInline
package final class RecursiveMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let owner = Atomic<UInt>(0)
    /// How deep the owner holds it; touched only by the owner.
    private var depth = 0

    package init() {
        mutex = .allocate(capacity: 1)
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    @usableFromInline package func lock() {
        let thread = Self.currentThread
        if owner.load(ordering: .relaxed) == thread {
            depth += 1
            return
        }
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed: \(status)")
        assert(depth == 0, "a lock taken with holds counted")
        depth = 1
        owner.store(thread, ordering: .relaxed)
    }

    @usableFromInline package func unlock() {
        assert(isHeldByCurrentThread, "unlock by a thread that does not hold the lock")
        depth -= 1
        guard depth == 0 else { return }
        owner.store(0, ordering: .relaxed)
        let status = pthread_mutex_unlock(mutex)
        precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
    }

    /// Runs `body` with the lock held.
    package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Whether the calling thread holds the lock.
    package var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == Self.currentThread }
}
