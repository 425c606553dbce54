#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import UndoCore

/// A clock that counts its reads and moves one second on each, so every read is told apart
/// by the time it gave.
final class CountingClock: UndoClock {
    private let count = Atomic<Int>(0)
    var reads: Int { count.load(ordering: .relaxed) }
    func nanoseconds() -> UInt64 {
        UInt64(count.add(1, ordering: .relaxed).newValue) * 1_000_000_000
    }
}

/// Adds to a counter; no coalescing key, so each one is a step (or group member) of its own.
struct Increment: UndoCommand {
    let counter: Counter
    var amount: Int
    var name: String? { "Increment" }
    mutating func perform(_ changes: inout UndoChanges) throws { counter.value += amount }
    mutating func undo(_ changes: inout UndoChanges) throws { counter.value -= amount }
}

/// How often the history reads its clock: at most once per call, and only when a step (or a
/// coalescing run) needs the time; each step still carries the time of the call that made it.
@Suite struct ClockReads {
    @Test func eachPushReadsTheClockOnceAndItsStepCarriesThatTime() throws {
        let clock = CountingClock()
        let stack = UndoStack(coalescingWindow: nil, clock: clock)
        let counter = Counter()
        for amount in 1...50 { try stack.perform(Increment(counter: counter, amount: amount)) }
        #expect(clock.reads == 50)
        #expect(stack.tree.map(\.time) == (1...50).map { UInt64($0) * 1_000_000_000 })
    }

    @Test func aGroupReadsTheClockOnceWhenItClosesHoweverManyMembersItHas() throws {
        for members in [1, 10, 1000] {
            let clock = CountingClock()
            let stack = UndoStack(clock: clock)
            let counter = Counter()
            try stack.beginGroup(named: "Macro")
            for amount in 1...members { try stack.perform(Increment(counter: counter, amount: amount)) }
            try stack.beginGroup(named: "Inner")
            try stack.perform(Increment(counter: counter, amount: 1))
            try stack.endGroup()
            #expect(clock.reads == 0)
            try stack.endGroup()
            #expect(clock.reads == 1)
            #expect(stack.count == 1 && stack.tree.last?.time == 1_000_000_000)
        }
    }

    @Test func undoRedoAndMovesAcrossBranchesDoNotReadTheClock() throws {
        let clock = CountingClock()
        let stack = UndoStack(clock: clock)
        let counter = Counter()
        for amount in 1...20 { try stack.perform(Increment(counter: counter, amount: amount)) }
        try stack.undo(count: 5)
        try stack.perform(Increment(counter: counter, amount: 100))  // keeps the 5 as a branch
        let before = clock.reads
        #expect(before == 21)
        for _ in 0..<10 { try stack.undo() }
        for _ in 0..<10 { try stack.redo() }
        _ = try stack.goTo(state: 20)
        _ = try stack.earlier(.states(3))
        _ = try stack.later(.time(.seconds(2)))
        #expect(clock.reads == before)
    }

    @Test func typingReadsOncePerKeystrokeAndTheRunTakesTheNewestTime() throws {
        let clock = CountingClock()
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: .seconds(5), clock: clock)
        for letter in ["a", "b", "c"] { try stack.perform(Append(store: store, text: letter, typing: true)) }
        #expect(clock.reads == 3 && stack.count == 1)
        #expect(stack.tree.last?.time == 3_000_000_000)
    }

    @Test func keyedMembersOfAGroupStillCoalesceOnlyWithinTheWindow() throws {
        let clock = CountingClock()  // one second per read
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: .milliseconds(1500), clock: clock)
        try stack.beginGroup(named: "Edit")
        try stack.perform(Append(store: store, text: "a", typing: true))
        try stack.perform(Append(store: store, text: "b", named: "Insert"))  // no key: no read
        try stack.perform(Append(store: store, text: "c", typing: true))
        try stack.perform(Append(store: store, text: "d", typing: true))     // 1 s later: joins "c"
        #expect(clock.reads == 3)
        try stack.endGroup()
        #expect(clock.reads == 4)
        let group = try #require(stack.command(at: 0) as? UndoGroup)
        #expect(group.members.count == 3 && store[.global] == "abcd")
    }

    @Test func aRevertToSavedReadsTheClockOnce() throws {
        let clock = CountingClock()
        let stack = UndoStack(clock: clock)
        let counter = Counter()
        try stack.perform(Increment(counter: counter, amount: 1))
        try stack.markSaved()
        for amount in 2...6 { try stack.perform(Increment(counter: counter, amount: amount)) }
        let before = clock.reads
        _ = try stack.revertToSaved()
        #expect(clock.reads == before + 1 && counter.value == 1)
    }

    /// The system clock is the kernel's coarse monotonic one (a tick, 1-4 ms): it never goes
    /// back, and it moves on with time, finely enough for coalescing windows and time travel.
    @Test func theSystemClockNeverGoesBackAndMovesOnWithinMilliseconds() {
        let clock = SystemUndoClock()
        var last = clock.nanoseconds()
        for _ in 0..<10_000 {
            let now = clock.nanoseconds()
            #expect(now >= last)
            last = now
        }
        var pause = timespec(tv_sec: 0, tv_nsec: 30_000_000)
        nanosleep(&pause, nil)
        // 30 ms slept: at least 30 ms less one tick (at most 4 ms on Linux) passed.
        #expect(clock.nanoseconds() - last >= 25_000_000)
    }

    /// A history on the system's clock (the default, or given) reads it directly where a change
    /// is added, not through the clock's existential: its steps carry the system's time, read
    /// between the reads before and after each push, and typing's run takes its newest.
    @Test func aHistoryOnTheSystemClockStampsItsStepsWithTheSystemsTime() throws {
        let system = SystemUndoClock()
        for stack in [UndoStack(coalescingWindow: nil), UndoStack(coalescingWindow: nil, clock: system)] {
            let counter = Counter()
            var bounds: [ClosedRange<UInt64>] = []
            for amount in 1...20 {
                let before = system.nanoseconds()
                try stack.perform(Increment(counter: counter, amount: amount))
                bounds.append(before...system.nanoseconds())
            }
            let times = stack.tree.map(\.time)
            #expect(times.count == 20)
            for (time, range) in zip(times, bounds) { #expect(range.contains(time)) }
            #expect(stack.currentTime >= times.last!)
        }
        // A clock of another type is still read through its own `nanoseconds()`.
        let counting = CountingClock()
        let stack = UndoStack(coalescingWindow: nil, clock: counting)
        try stack.perform(Increment(counter: Counter(), amount: 1))
        #expect(counting.reads == 1 && stack.tree.map(\.time) == [1_000_000_000])
    }
}
