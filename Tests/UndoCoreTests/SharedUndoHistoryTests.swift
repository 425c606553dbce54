import Testing
import Dispatch
@testable import UndoCore

/// Adds to a counter guarded by the history's lock (actions run with it held).
private final class SharedCounter: @unchecked Sendable { var value = 0 }

private struct Bump: UndoCommand {
    let counter: SharedCounter
    let amount: Int
    var name: String? { "Bump" }
    mutating func perform(_ changes: inout UndoChanges) throws { counter.value += amount }
    mutating func undo(_ changes: inout UndoChanges) throws { counter.value -= amount }
}

@Suite struct SharedHistory {
    @Test func manyThreadsPerformUndoAndReadTitlesSafely() throws {
        let counter = SharedCounter()
        let history = SharedUndoHistory(UndoStack(coalescingWindow: nil))
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<2_000 {
                switch i % 4 {
                case 0, 1: try? history.perform(Bump(counter: counter, amount: worker + 1))
                case 2: _ = try? history.undo()
                default: _ = history.state.undoTitle
                }
            }
        }
        // Whatever the interleaving, the counter equals the sum of the done steps.
        let done = history.withStack { stack -> Int in
            stack.checkInvariants()
            return stack.undoCount
        }
        _ = try history.withStack { stack in try stack.undo(count: done) }
        #expect(counter.value == 0)
        #expect(history.state.canRedo)
    }
}
