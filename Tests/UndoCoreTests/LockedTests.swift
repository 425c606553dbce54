import Dispatch
import Testing
@testable import UndoCore

/// The package's lock for a shared value: one thread at a time, no update lost.
@Suite struct LockedTests {
    @Test func threadsUpdatingItInTurnLoseNoUpdate() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func anErrorOfTheBodyReleasesTheLock() {
        struct Refused: Error {}
        let value = Locked("a")
        #expect(throws: Refused.self) { try value.withLock { (_: inout String) throws(Refused) in throw Refused() } }
        #expect(value.withLock { $0 } == "a")
    }
}
