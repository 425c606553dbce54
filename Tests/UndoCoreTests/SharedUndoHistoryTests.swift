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
                case 0, 1: _ = try? history.perform(Bump(counter: counter, amount: worker + 1))
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

    /// An action that calls back into the history from its own perform or undo, on the thread
    /// that holds the lock, is refused with reentrantCall (the lock is recursive: no deadlock).
    @Test func aReentrantCallFromAnActionIsRefusedNotDeadlocked() throws {
        let history = SharedUndoHistory(UndoStack(coalescingWindow: nil))
        let log = ReentryLog()
        try history.perform(Reenter(history: history, log: log))
        try history.undo()
        #expect(log.errors == [.reentrantCall("undo"), .reentrantCall("redo")])
        // The history still works from outside.
        #expect(try history.redo() != nil)
        #expect(history.state.canUndo)
    }
}

private final class ReentryLog: @unchecked Sendable { var errors: [UndoError] = [] }

/// Calls the history it is in from perform (undo) and from undo (redo).
private struct Reenter: UndoCommand {
    let history: SharedUndoHistory
    let log: ReentryLog
    var name: String? { "Reenter" }
    mutating func perform(_ changes: inout UndoChanges) throws { attempt { try history.undo() } }
    mutating func undo(_ changes: inout UndoChanges) throws { attempt { try history.redo() } }
    private func attempt(_ call: () throws -> UndoResult?) {
        do { _ = try call() } catch let error as UndoError { log.errors.append(error) } catch {}
    }
}
