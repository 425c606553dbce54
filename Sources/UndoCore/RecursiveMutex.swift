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
/// Taken on every perform, undo and redo, so its common cases are a few instructions:
/// - a nested lock by the owner is a comparison and an increment (`owner`, `depth`);
/// - an uncontended lock is one compare-and-swap of `state`, an unlock one exchange.
///
/// A thread that finds it taken sleeps on a condition variable (`waitMutex`, `wakeUp`): it
/// sets `state` to 2 ("someone may be waiting") with `waitMutex` held, so the unlock that then
/// sees 2 takes `waitMutex` before signalling and the wake-up cannot be lost.
///
/// `owner` is read by other threads (who only ever find it is not their own id), so it is
/// atomic; `depth` is only touched by the owner.
@usableFromInline
package final class RecursiveMutex: @unchecked Sendable {
    /// 0 free, 1 taken, 2 taken and a thread may be waiting.
    @usableFromInline let state = Atomic<Int>(0)
    @usableFromInline let owner = Atomic<UInt>(0)
    @usableFromInline @exclusivity(unchecked) var depth = 0
    private let waitMutex: UnsafeMutablePointer<pthread_mutex_t>
    private let wakeUp: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        waitMutex = .allocate(capacity: 1)
        wakeUp = .allocate(capacity: 1)
        precondition(pthread_mutex_init(waitMutex, nil) == 0 && pthread_cond_init(wakeUp, nil) == 0,
                     "pthread_mutex_init / pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(wakeUp)
        pthread_mutex_destroy(waitMutex)
        wakeUp.deallocate()
        waitMutex.deallocate()
    }

    @inlinable @inline(__always) static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    @inlinable @inline(__always) package func lock() {
        let thread = Self.currentThread
        if owner.load(ordering: .relaxed) == thread {
            depth &+= 1
            return
        }
        if !state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            waitForLock()
        }
        owner.store(thread, ordering: .relaxed)
        depth = 1
    }

    @inlinable @inline(__always) package func unlock() {
        depth &-= 1
        if depth == 0 {
            owner.store(0, ordering: .relaxed)
            if state.exchange(0, ordering: .releasing) == 2 { wakeWaiter() }
        }
    }

    /// Whether the calling thread holds the lock.
    @inlinable package var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == Self.currentThread }

    /// Sleeps until the lock is free, then takes it (marked as possibly waited for).
    @usableFromInline func waitForLock() {
        pthread_mutex_lock(waitMutex)
        while state.exchange(2, ordering: .acquiring) != 0 {
            pthread_cond_wait(wakeUp, waitMutex)
        }
        pthread_mutex_unlock(waitMutex)
    }

    /// Wakes one thread waiting in ``waitForLock()``.
    @usableFromInline func wakeWaiter() {
        pthread_mutex_lock(waitMutex)
        pthread_cond_signal(wakeUp)
        pthread_mutex_unlock(waitMutex)
    }
}
