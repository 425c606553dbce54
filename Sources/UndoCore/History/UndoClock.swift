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

/// The system's monotonic clock (CLOCK_MONOTONIC: it does not jump with the wall clock).
public struct SystemUndoClock: UndoClock {
    public init() {}
    /// Read for every change (each step carries its time), so straight from the system: a
    /// `ContinuousClock` duration costs 128-bit arithmetic on every read.
    public func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
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
