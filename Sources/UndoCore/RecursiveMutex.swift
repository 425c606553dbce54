#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A recursive mutex: the lock of a ``SharedUndoHistory``, which is also the call lock of the
/// plugins of a host performing into it (every plugin call the history makes is then a nested
/// lock). Recursive, so that a call an action makes back into its own history reaches the
/// history's refusal instead of a deadlock.
///
/// A plain `pthread_mutex_t` plus the owning thread and a depth: a nested lock by the owner is
/// a comparison and an increment, where a recursive pthread mutex costs a full call (about as
/// much as taking it the first time). `owner` is read by other threads (who only ever find it
/// is not their own id), so it is atomic; `depth` is only touched by the owner.
@usableFromInline
package final class RecursiveMutex: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let owner = Atomic<UInt>(0)
    @usableFromInline @exclusivity(unchecked) var depth = 0

    package init() {
        mutex = .allocate(capacity: 1)
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable @inline(__always) static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    @inlinable @inline(__always) package func lock() {
        let thread = Self.currentThread
        if owner.load(ordering: .relaxed) == thread {
            depth &+= 1
            return
        }
        pthread_mutex_lock(mutex)
        owner.store(thread, ordering: .relaxed)
        depth = 1
    }

    @inlinable @inline(__always) package func unlock() {
        depth &-= 1
        if depth == 0 {
            owner.store(0, ordering: .relaxed)
            pthread_mutex_unlock(mutex)
        }
    }

    /// Whether the calling thread holds the lock.
    @inlinable package var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == Self.currentThread }
}
