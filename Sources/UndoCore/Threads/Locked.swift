#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value shared between threads behind a plain (non-recursive) pthread mutex, where
/// `Synchronization.Mutex` is not used. ThreadSanitizer intercepts
/// pthread locks and so sees every hand-over, while a contended `Mutex` waits in the kernel
/// (a futex), out of its sight, and the value it guards would be reported as raced.
/// (``RecursiveMutex`` is the recursive lock: the history's, and the one most other shared state
/// of the package takes.)
///
/// Invariants: `mutex` is allocated and initialized from `init` until `deinit`; `value` is
/// touched only inside `withLock`, with `mutex` held; a body never calls `withLock` of the same
/// lock (not recursive: of the error-checking type, so that mistake stops the program instead
/// of deadlocking).
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        let status = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed: \(status)")
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
