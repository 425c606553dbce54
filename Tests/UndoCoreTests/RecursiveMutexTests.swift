import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import UndoCore

/// The history's lock: recursive for its owner, exclusive across threads, and able to tell
/// whether the calling thread holds it.
@Suite struct RecursiveMutexTests {
    @Test func theOwnerTakesItAgainAndReleasesItLevelByLevel() {
        let mutex = RecursiveMutex()
        #expect(!mutex.isHeldByCurrentThread)
        mutex.lock()
        mutex.lock()
        mutex.lock()
        #expect(mutex.isHeldByCurrentThread)
        mutex.unlock()
        mutex.unlock()
        #expect(mutex.isHeldByCurrentThread)  // one level still held
        mutex.unlock()
        #expect(!mutex.isHeldByCurrentThread)
    }

    @Test func anotherThreadWaitsUntilTheLastLevelIsReleased() {
        let mutex = RecursiveMutex()
        let box = Counter()
        mutex.lock()
        mutex.lock()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            #expect(!mutex.isHeldByCurrentThread)  // held, but not by this thread
            mutex.lock()
            box.value += 1
            mutex.unlock()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        mutex.unlock()
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut)  // still one level
        mutex.unlock()
        #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
        mutex.lock()
        #expect(box.value == 1)
        mutex.unlock()
    }

    @Test func threadsTakingItInTurnLoseNoUpdate() {
        let mutex = RecursiveMutex()
        let box = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<10_000 {
                mutex.lock()
                mutex.lock()  // nested, as a plugin call inside a history call
                box.value += 1
                mutex.unlock()
                mutex.unlock()
            }
        }
        #expect(box.value == 40_000)
    }

    @Test func aLockNoOtherThreadHoldsIsTakenWithoutWaiting() {
        let mutex = RecursiveMutex()
        for _ in 0..<1_000 {
            mutex.lock()
            mutex.lock()
            mutex.unlock()
            mutex.unlock()
        }
        #expect(mutex.acquisitionsThatWaited == 0)
        #expect(mutex.waitingThreads == 0)
    }

    /// Every thread waiting when the lock is given back gets it in turn: each one that gets it
    /// wakes the next when it gives it back, so no wake-up is lost.
    @Test func everyWaitingThreadIsWokenInTurn() {
        let mutex = RecursiveMutex()
        let box = Counter()
        let threads = 6
        mutex.lock()
        let done = DispatchSemaphore(value: 0)
        for index in 0..<threads {
            // Serial queues of their own: each gets a thread at once (the global queue adds
            // threads slowly while its first ones block).
            DispatchQueue(label: "waiter \(index)").async {
                mutex.lock()
                box.value += 1
                mutex.unlock()
                done.signal()
            }
        }
        // All of them asleep on the lock before it is given back (30 s at most).
        var spins = 0
        while mutex.waitingThreads < threads && spins < 30_000 {
            usleep(1_000)
            spins += 1
        }
        #expect(mutex.waitingThreads == threads)
        mutex.unlock()
        for _ in 0..<threads { #expect(done.wait(timeout: .now() + .seconds(30)) == .success) }
        mutex.lock()
        #expect(box.value == threads)
        mutex.unlock()
        #expect(mutex.acquisitionsThatWaited == threads)
        #expect(mutex.waitingThreads == 0)
    }

    @Test func manyThreadsTakingItInShortTurnsLoseNoUpdate() {
        let mutex = RecursiveMutex()
        let box = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 {
                mutex.lock()
                box.value += 1
                mutex.unlock()
            }
        }
        #expect(box.value == 160_000)
        #expect(mutex.waitingThreads == 0)
    }

    private final class Counter: @unchecked Sendable {
        var value = 0
    }
}
