import Dispatch
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

    private final class Counter: @unchecked Sendable {
        var value = 0
    }
}
