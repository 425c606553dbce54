#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import UndoCore
import UndoJournal

/// The thread that commits a journal's group of changes (normal durability) when its window has
/// passed and no later change has committed it: without it, the last changes before a pause
/// would wait for the next change. A thread of its own (not Dispatch, which libundohost.so does
/// without): each group that begins posts the semaphore; the thread waits for the window, then
/// calls `commit`, which commits whatever group is open.
///
/// Invariants: `semaphore` is allocated and initialized from `init` until `stop()` has joined the
/// thread, and only then destroyed and freed; the thread holds a reference to this object until
/// it returns, so `stop()` must be called (HostJournal's close does) and is idempotent.
final class GroupCommitThread: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>
    private var thread = pthread_t()
    private let stopping = Atomic<Bool>(false)
    private let isStopped = Locked(false)
    private let window: UInt64
    private let commit: @Sendable () -> Void

    /// Starts the thread. - Parameters: window: nanoseconds a group may wait; commit: commits
    /// the open group, if any.
    init?(windowNanoseconds window: UInt64, commit: @escaping @Sendable () -> Void) {
        self.window = window
        self.commit = commit
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        let retained = Unmanaged.passRetained(self)
        let status = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let owner = Unmanaged<GroupCommitThread>.fromOpaque(argument).takeRetainedValue()
            owner.run()
            return nil
        }, retained.toOpaque())
        if status != 0 {
            retained.release()
            sem_destroy(semaphore)
            semaphore.deallocate()
            return nil
        }
    }

    /// A group began: commit it after the window.
    func groupBegan() {
        assert(!stopping.load(ordering: .relaxed), "a stopped commit thread was used")
        sem_post(semaphore)
    }

    /// Ends the thread (without a last commit: the journal's close commits) and waits for it.
    func stop() {
        let wasStopped = isStopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        stopping.store(true, ordering: .relaxed)
        sem_post(semaphore)
        pthread_join(thread, nil)
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    private func run() {
        while true {
            while sem_wait(semaphore) != 0 && errno == EINTR {}
            if stopping.load(ordering: .relaxed) { return }
            var request = timespec(tv_sec: Int(window / 1_000_000_000), tv_nsec: Int(window % 1_000_000_000))
            var left = timespec()
            while nanosleep(&request, &left) != 0 && errno == EINTR { request = left }
            if stopping.load(ordering: .relaxed) { return }
            commit()
        }
    }
}
