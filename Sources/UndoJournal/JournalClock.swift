#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import UndoCore

/// The clock of a journaled history: the wall clock (the times of steps survive a restart),
/// except while a journal is replayed, when it tells each replayed change the time it was first
/// made (``replaying(at:)``). Made with a `before` clock, it tells that clock's time until a
/// journal is opened (``useWallClock()``): the C API's histories start that way.
public final class JournalClock: UndoClock {
    /// The time replayed now, or 0 for the wall clock.
    private let replayed = Atomic<UInt64>(0)
    private let before: (any UndoClock)?
    private let isWallClock: Atomic<Bool>
    /// The time of the change just made, which its journal record keeps: the one replayed, else
    /// the last wall-clock time told.
    private let lastTold = Atomic<UInt64>(0)

    /// - Parameter before: the clock to tell until ``useWallClock()`` (`nil`: the wall clock from the start).
    public init(before: (any UndoClock)? = nil) {
        self.before = before
        isWallClock = Atomic(before == nil)
    }

    public func nanoseconds() -> UInt64 {
        let time = replayed.load(ordering: .relaxed)
        if time != 0 { return time }
        if let before, !isWallClock.load(ordering: .relaxed) { return before.nanoseconds() }
        let now = Self.wallClockNanoseconds()
        lastTold.store(now, ordering: .relaxed)
        return now
    }

    /// The time replayed now, else the last wall-clock time told (0: none yet). A change journaled
    /// while it is replayed (undo-host's upgrade of a format-1 journal) keeps the time replayed.
    public var lastTime: UInt64 { lastTold.load(ordering: .relaxed) }

    /// Tells the wall clock from now on (a journal opens on a history without steps, so no time
    /// of the `before` clock is compared with it).
    public func useWallClock() { isWallClock.store(true, ordering: .relaxed) }

    /// Makes the clock tell `time` (nanoseconds since 1970) until ``resume()``.
    public func replaying(at time: UInt64) {
        replayed.store(max(time, 1), ordering: .relaxed)
        lastTold.store(max(time, 1), ordering: .relaxed)
    }

    /// Back to the wall clock.
    public func resume() {
        replayed.store(0, ordering: .relaxed)
        lastTold.store(0, ordering: .relaxed)
    }

    /// The wall clock, in nanoseconds since 1970: the time every journal keeps for a change.
    public static func wallClockNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
