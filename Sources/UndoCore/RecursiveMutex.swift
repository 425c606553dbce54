#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A recursive `pthread_mutex_t`, called directly: the lock of a ``SharedUndoHistory`` and a
/// plugin's call lock, each taken on every perform, undo and redo. Recursive, so that a call
/// an action makes back into its own history reaches the history's refusal instead of a
/// deadlock; called directly, because Foundation's `NSRecursiveLock` costs a few dynamic calls
/// more on every use.
@usableFromInline
package final class RecursiveMutex: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let status = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable @inline(__always) package func lock() { pthread_mutex_lock(mutex) }
    @inlinable @inline(__always) package func unlock() { pthread_mutex_unlock(mutex) }
}
