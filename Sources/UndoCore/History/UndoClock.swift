#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The time source of coalescing windows and of the steps' times; injectable so tests control time.
public protocol UndoClock: Sendable {
    /// Monotonic nanoseconds.
    func nanoseconds() -> UInt64
}

/// The system's monotonic clock, read at the kernel's tick (`CLOCK_MONOTONIC_COARSE`, on
/// Linux): it does not jump with the wall clock, and its resolution (one tick, 1-4 ms) is far
/// finer than what it times (coalescing windows of hundreds of milliseconds, time travel by
/// seconds).
public struct SystemUndoClock: UndoClock {
    public init() {}
    /// Read for every change (each step carries its time), so straight from the system, and
    /// the coarse clock: it costs a memory read where `CLOCK_MONOTONIC` reads the time-stamp
    /// counter and scales it (about 10 ns against 70 ns on the machine docs/performance.md
    /// was measured on).
    public func nanoseconds() -> UInt64 { Self.now() }

    /// The time now (``nanoseconds()``), read directly where the history adds a change.
    static func now() -> UInt64 {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        #else
        clock_gettime(CLOCK_MONOTONIC, &now)
        #endif
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}

/// A clock that moves only when told: for tests and for replaying scripts deterministically.
public final class ManualUndoClock: UndoClock {
    private let now = Atomic<UInt64>(0)
    public init() {}
    public func nanoseconds() -> UInt64 { now.load(ordering: .relaxed) }
    /// Moves time forward.
    public func advance(milliseconds: UInt64) {
        now.add(milliseconds * 1_000_000, ordering: .relaxed)
    }
}
