@testable import UndoCore

/// A text document the test commands change, keyed by context so several documents can share
/// one history.
final class TextStore {
    var texts: [UndoContext: String] = [:]
    /// When set, the next perform/undo of a command with this text fails.
    var failOn: String?
    /// When set, every perform (but not undo) of a command with this text fails.
    var failOnRedo: String?
    subscript(context: UndoContext) -> String {
        get { texts[context, default: ""] }
        set { texts[context] = newValue }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
}

/// Appends text at the end; coalesces as "Typing" when `typing` is set.
struct Append: UndoCommand {
    let store: TextStore
    var text: String
    var context: UndoContext = .global
    var typing = false
    var named: String? = "Insert"
    var discardable = false

    var name: String? { typing ? "Typing" : named }
    var coalescingKey: UndoCoalescingKey? { typing ? UndoCoalescingKey("typing") : nil }
    var isDiscardable: Bool { discardable }
    var cost: Int { 32 + text.utf8.count }

    mutating func perform(_ changes: inout UndoChanges) throws {
        if store.failOn == text || store.failOnRedo == text { throw TestFailure(description: "cannot insert \(text)") }
        let start = store[context].count
        store[context] += text
        changes.report(context: context, location: Int64(start), length: Int64(text.count))
    }

    mutating func undo(_ changes: inout UndoChanges) throws {
        if store.failOn == text { throw TestFailure(description: "cannot remove \(text)") }
        precondition(store[context].hasSuffix(text), "undo out of order: \(store[context]) does not end in \(text)")
        store[context].removeLast(text.count)
        changes.report(context: context, location: Int64(store[context].count), length: 0)
    }

    mutating func merge(with next: Append) -> UndoMerge {
        text += next.text
        return .merged
    }
}

/// Adds to a counter; two adds that sum to zero annul each other.
final class Counter { var value = 0 }

struct Add: UndoCommand {
    let counter: Counter
    var amount: Int
    var name: String? { "Add" }
    var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("add") }
    mutating func perform(_ changes: inout UndoChanges) throws { counter.value += amount }
    mutating func undo(_ changes: inout UndoChanges) throws { counter.value -= amount }
    mutating func merge(with next: Add) -> UndoMerge {
        amount += next.amount
        return amount == 0 ? .annulled : .merged
    }
}

/// A command with no merge of its own: same-key runs become a coalesced group.
struct Nudge: UndoCommand {
    let counter: Counter
    var name: String? { "Move" }
    var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("move") }
    mutating func perform(_ changes: inout UndoChanges) throws { counter.value += 1 }
    mutating func undo(_ changes: inout UndoChanges) throws { counter.value -= 1 }
}

/// Calls back into the history from inside its own undo or perform.
struct Reentrant: UndoCommand {
    let stack: UndoStack
    let log: Log
    final class Log { var errors: [UndoError] = [] }
    var name: String? { "Reenter" }
    mutating func perform(_ changes: inout UndoChanges) throws {
        do { try stack.undo() } catch let error as UndoError { log.errors.append(error) }
    }
    mutating func undo(_ changes: inout UndoChanges) throws {
        do { try stack.redo() } catch let error as UndoError { log.errors.append(error) }
        do { try stack.perform(Add(counter: Counter(), amount: 1)) } catch let error as UndoError { log.errors.append(error) }
    }
}

extension UndoStack {
    /// A history whose coalescing window runs on `clock`.
    static func testing(clock: ManualUndoClock = ManualUndoClock(), countLimit: Int? = nil,
                        memoryLimit: Int? = nil) -> UndoStack {
        UndoStack(countLimit: countLimit, memoryLimit: memoryLimit, clock: clock)
    }

    var names: [String?] { steps.map(\.name) }
}

/// A seeded generator: every random choice of a test can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Counts the values alive that hold one of its tokens: a test checks that everything it made
/// is freed exactly once.
final class Census {
    var alive = 0
}

/// Counts itself in its census while it lives.
final class Token {
    let census: Census
    init(_ census: Census) { self.census = census; census.alive += 1 }
    deinit { census.alive -= 1 }
}

/// A command that does nothing, told apart by its number and counted by its token's census.
struct NumberedCommand: UndoCommand {
    let number: Int
    let token: Token
    func perform(_ changes: inout UndoChanges) {}
    func undo(_ changes: inout UndoChanges) {}
}

/// A ``NumberedCommand`` of 64 bytes: a history keeps it in a wide slot, in place.
struct WideNumberedCommand: UndoCommand {
    let number: Int
    let token: Token
    var padding: (Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6)
    func perform(_ changes: inout UndoChanges) {}
    func undo(_ changes: inout UndoChanges) {}
}

/// A ``NumberedCommand`` of 96 bytes: too large for a wide slot, boxed there.
struct HugeNumberedCommand: UndoCommand {
    let number: Int
    let token: Token
    var padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    func perform(_ changes: inout UndoChanges) {}
    func undo(_ changes: inout UndoChanges) {}
}
