import Synchronization

/// The time source of coalescing windows; injectable so tests control time.
public protocol UndoClock: Sendable {
    /// Monotonic nanoseconds.
    func nanoseconds() -> UInt64
}

/// The system's monotonic clock.
public struct SystemUndoClock: UndoClock {
    public init() {}
    public func nanoseconds() -> UInt64 {
        let (seconds, attoseconds) = Self.origin.duration(to: .now).components
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
    private static let origin = ContinuousClock.now
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
