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
/// refusal (``UndoError/reentrantCall(_:)``) instead of a deadlock: its owner counts its nested
/// holds itself.
///
/// Taken without a wait (the common case: one thread at a time) by one compare-and-exchange of
/// the owner's thread id with acquiring order, and given back by a store of 0 with releasing
/// (sequentially consistent) order, so ThreadSanitizer sees every hand-over as the atomic
/// acquire and release it is. A thread that finds the lock taken sleeps on a pthread condition
/// variable under a pthread mutex (both intercepted by ThreadSanitizer too), never in a futex of
/// its own; the owner wakes one sleeper when it gives the lock back and some thread counts
/// itself as waiting. (A normal pthread mutex taken and given back on every call cost about
/// 95 instructions a pair; this costs about 30.)
///
/// Invariants:
/// - `owner` is the id of the thread that holds the lock, or 0. It becomes a thread's id only
///   by that thread's compare-and-exchange from 0, and 0 only by the owner's store; any thread
///   may read it, and only ever learns whether it is its own id. `depth` (the owner's holds,
///   at least 1 while held) is touched only by the owner.
/// - `waiters` counts the threads between announcing themselves (under `sleepers`) and taking
///   the lock; it is raised before a waiter's compare-and-exchange and read after the owner's
///   store, both sequentially consistent, so either the owner sees the waiter and signals it
///   (under `sleepers`, which the waiter holds until it sleeps: the signal cannot come between
///   its failed attempt and its sleep), or the waiter's attempt sees the lock given back. No
///   wake-up is lost.
/// - `sleepers` and `wakeUp` are allocated and initialized from `init` until `deinit`.
@usableFromInline
package final class RecursiveMutex: @unchecked Sendable {
    private let owner = Atomic<UInt>(0)
    /// How deep the owner holds it; touched only by the owner.
    private var depth = 0
    /// Threads waiting for the lock (see the invariants).
    private let waiters = Atomic<Int>(0)
    /// Where waiting threads sleep: `wakeUp` is waited on and signalled with `sleepers` held.
    private let sleepers: UnsafeMutablePointer<pthread_mutex_t>
    private let wakeUp: UnsafeMutablePointer<pthread_cond_t>
    /// Acquisitions that had to wait for another thread (for tests: none without contention).
    private let waitedAcquisitions = Atomic<Int>(0)

    package init() {
        sleepers = .allocate(capacity: 1)
        wakeUp = .allocate(capacity: 1)
        var status = pthread_mutex_init(sleepers, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        status = pthread_cond_init(wakeUp, nil)
        precondition(status == 0, "pthread_cond_init failed: \(status)")
    }

    deinit {
        assert(owner.load(ordering: .relaxed) == 0 && waiters.load(ordering: .relaxed) == 0,
               "a lock freed while held or waited for")
        pthread_cond_destroy(wakeUp)
        pthread_mutex_destroy(sleepers)
        wakeUp.deallocate()
        sleepers.deallocate()
    }

    private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    @usableFromInline package func lock() {
        let thread = Self.currentThread
        let (taken, holder) = owner.compareExchange(expected: 0, desired: thread, ordering: .acquiring)
        if taken {
            assert(depth == 0, "a lock taken with holds counted")
            depth = 1
        } else if holder == thread {
            depth += 1
        } else {
            lockAfterWaiting(thread)
        }
    }

    /// Takes the lock held by another thread once it is given back, sleeping meanwhile.
    private func lockAfterWaiting(_ thread: UInt) {
        var status = pthread_mutex_lock(sleepers)
        precondition(status == 0, "pthread_mutex_lock failed: \(status)")
        waiters.wrappingAdd(1, ordering: .sequentiallyConsistent)
        while !owner.compareExchange(expected: 0, desired: thread, ordering: .sequentiallyConsistent).exchanged {
            status = pthread_cond_wait(wakeUp, sleepers)
            precondition(status == 0, "pthread_cond_wait failed: \(status)")
        }
        waiters.wrappingSubtract(1, ordering: .relaxed)
        status = pthread_mutex_unlock(sleepers)
        precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
        waitedAcquisitions.wrappingAdd(1, ordering: .relaxed)
        assert(depth == 0, "a lock taken with holds counted")
        depth = 1
    }

    @usableFromInline package func unlock() {
        assert(isHeldByCurrentThread, "unlock by a thread that does not hold the lock")
        depth -= 1
        guard depth == 0 else { return }
        owner.store(0, ordering: .sequentiallyConsistent)
        if waiters.load(ordering: .sequentiallyConsistent) != 0 { wakeOneWaiter() }
    }

    /// Wakes one thread sleeping in ``lockAfterWaiting(_:)`` (or about to: it holds `sleepers`
    /// until it sleeps).
    private func wakeOneWaiter() {
        var status = pthread_mutex_lock(sleepers)
        precondition(status == 0, "pthread_mutex_lock failed: \(status)")
        status = pthread_cond_signal(wakeUp)
        precondition(status == 0, "pthread_cond_signal failed: \(status)")
        status = pthread_mutex_unlock(sleepers)
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

    /// How many threads are waiting for the lock now.
    package var waitingThreads: Int { waiters.load(ordering: .relaxed) }

    /// How many acquisitions so far had to wait for another thread to give the lock back.
    package var acquisitionsThatWaited: Int { waitedAcquisitions.load(ordering: .relaxed) }
}
