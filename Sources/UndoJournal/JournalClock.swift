import Synchronization
import UndoCore

/// The clock of a journaled history: the wall clock (the times of steps survive a restart),
/// except while a journal is replayed, when it tells each replayed change the time it was first
/// made (``replaying(at:)``).
public final class JournalClock: UndoClock {
    /// The time replayed now, or 0 for the wall clock.
    private let replayed = Atomic<UInt64>(0)

    public init() {}

    public func nanoseconds() -> UInt64 {
        let time = replayed.load(ordering: .relaxed)
        return time != 0 ? time : UndoJournal.now()
    }

    /// Makes the clock tell `time` (nanoseconds since 1970) until ``resume()``.
    public func replaying(at time: UInt64) { replayed.store(max(time, 1), ordering: .relaxed) }

    /// Back to the wall clock.
    public func resume() { replayed.store(0, ordering: .relaxed) }
}
