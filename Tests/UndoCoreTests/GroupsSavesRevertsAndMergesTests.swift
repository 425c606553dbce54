import Testing
@testable import UndoCore

/// The history's rules for groups, saves, reverts and merges: an open group offers no undo, a
/// save inside a group is refused, a revert keeps every level, a refused merge keeps two steps,
/// a key per step, and the name of a multi-step result.
@Suite struct GroupsSavesRevertsAndMerges {
    /// While a group is open nothing is offered to undo or redo (as Qt does while a macro is
    /// recorded), so the menu never offers what `undo()` would refuse.
    @Test func anOpenGroupOffersNoUndoAndNoRedo() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", typing: true))
        try stack.perform(Append(store: store, text: "b", named: "Bold"))
        try stack.undo()
        #expect(stack.canUndo && stack.canRedo)
        var seen: [UndoState] = []
        let observation = stack.observe { state, _ in seen.append(state) }
        try stack.beginGroup(named: "Paste")
        #expect(!stack.canUndo && !stack.canRedo)
        #expect(stack.undoMenuTitle == "Undo" && stack.redoMenuTitle == "Redo")
        #expect(stack.undoName == nil && stack.redoName == nil)
        #expect(stack.alert.undoAction == nil && stack.alert.redoAction == nil)
        #expect(seen.last?.canUndo == false && seen.last?.canRedo == false)
        #expect(throws: UndoError.groupOpen) { try stack.undo() }
        #expect(throws: UndoError.groupOpen) { try stack.redo() }
        try stack.perform(Append(store: store, text: "c"))
        #expect(!stack.canUndo)
        try stack.endGroup()
        #expect(stack.canUndo && stack.undoMenuTitle == "Undo Paste")
        #expect(seen.last?.undoTitle == "Undo Paste")
        observation.cancel()
        stack.checkInvariants()
    }

    /// A save inside an open group would record the state before the group as saved, which
    /// the document is not in: it is refused, and nothing is marked.
    @Test func aSaveInsideAnOpenGroupIsRefused() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a"))
        try stack.markSaved()
        try stack.beginGroup(named: "Edit")
        try stack.perform(Append(store: store, text: "b"))
        #expect(throws: UndoError.groupOpen) { try stack.markSaved() }
        // The reason serves every refused call: it names no undo or redo for a save.
        #expect(UndoError.groupOpen.description == "a group is open: end it first")
        try stack.endGroup()
        #expect(stack.isDirty())
        try stack.revertToSaved()
        #expect(store[.global] == "a" && !stack.isDirty())
        #expect(throws: UndoError.groupOpen) {
            try stack.beginGroup()
            defer { try? stack.endGroup() }
            try stack.revertToSaved()
        }
    }

    /// Revert with Bold, Italic and Delete after the save point: undoing the revert gives the
    /// state before it, and the next undo is "Undo Delete" alone, then Italic, then Bold.
    /// Observers hear of the revert once, with the final state.
    @Test func revertKeepsEveryLevelAndNotifiesOnce() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "x", named: "Typing"))
        try stack.markSaved()
        for (text, name) in [("B", "Bold"), ("I", "Italic"), ("D", "Delete")] {
            try stack.perform(Append(store: store, text: text, named: name))
        }
        var heard: [UndoState] = []
        let observation = stack.observe { state, _ in heard.append(state) }
        try stack.revertToSaved()
        #expect(heard.count == 1)
        #expect(heard.first == stack.state && heard.first?.isDirty == false)
        #expect(heard.first?.undoTitle == "Undo Revert to Saved" && store[.global] == "x")
        try stack.undo()
        #expect(store[.global] == "xBID" && stack.undoMenuTitle == "Undo Delete")
        try stack.undo()
        #expect(store[.global] == "xBI" && stack.undoMenuTitle == "Undo Italic")
        try stack.undo()
        #expect(store[.global] == "xB" && stack.undoMenuTitle == "Undo Bold")
        try stack.undo()
        #expect(store[.global] == "x" && !stack.isDirty() && stack.undoMenuTitle == "Undo Typing")
        // And back up through every level, the revert last.
        try stack.redo(count: 3)
        #expect(store[.global] == "xBID" && stack.redoMenuTitle == "Redo Revert to Saved")
        try stack.redo()
        #expect(store[.global] == "x" && !stack.isDirty())
        observation.cancel()
        stack.checkInvariants()
    }

    /// A revert among steps of other documents moves only its own context's steps.
    @Test func revertInOneContextLeavesTheOthers() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        let (one, two) = (UndoContext("one"), UndoContext("two"))
        try stack.perform(Append(store: store, text: "a", context: one))
        try stack.markSaved(one)
        try stack.perform(Append(store: store, text: "b", context: one))
        try stack.perform(Append(store: store, text: "1", context: two))
        try stack.perform(Append(store: store, text: "c", context: one))
        try stack.revertToSaved(one)
        #expect(store[one] == "a" && store[two] == "1" && !stack.isDirty(one))
        try stack.undo(in: one)
        #expect(store[one] == "abc")
        try stack.undo(in: one)
        #expect(store[one] == "ab")
        try stack.undo(in: two)
        #expect(store[two] == "")
        stack.checkInvariants()
    }

    /// A coalescing key belongs to each step, not to its type: renaming task 2 and then task 3
    /// are two steps; renaming task 2 twice is one.
    @Test func aCoalescingKeyPerStep() throws {
        let tasks = Tasks()
        let stack = UndoStack.testing()
        try stack.perform(Rename(tasks: tasks, task: 2, to: "Shop"))
        try stack.perform(Rename(tasks: tasks, task: 2, to: "Shopping"))
        #expect(stack.count == 1)
        try stack.perform(Rename(tasks: tasks, task: 3, to: "Cook"))
        #expect(stack.count == 2)
        try stack.undo()
        #expect(tasks.names[3] == nil && tasks.names[2] == "Shopping")
        try stack.undo()
        #expect(tasks.names[2] == nil)
        stack.checkInvariants()
    }

    /// The name of a multi-step result is the newest step's: the first one undone, or the last
    /// one redone (undo_result.name in the C header says the same).
    @Test func aMultiStepResultIsNamedAfterTheNewestStep() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text, named: "Add \(text)")) }
        let undone = try #require(try stack.undo(count: 2))
        #expect(undone.name == "Add c" && undone.stepCount == 2)
        let redone = try #require(try stack.redo(count: 2))
        #expect(redone.name == "Add c" && redone.stepCount == 2)
        let one = UndoContext("one")
        try stack.perform(Append(store: store, text: "x", context: one, named: "Add x"))
        let scoped = try #require(try stack.undo(count: 9, in: .global))
        #expect(scoped.name == "Add c" && scoped.stepCount == 3 && store[one] == "x")
    }

    /// Undo, redo and a push cost a constant number of actions each, however long the
    /// history: counted, not timed.
    @Test func eachOperationRunsOneActionWhateverTheLength() throws {
        let calls = CallCounter()
        let stack = UndoStack.testing(countLimit: 500)
        for _ in 0..<2_000 { try stack.perform(Counted(calls: calls)) }
        #expect(calls.performs == 2_000 && stack.count == 500)
        for _ in 0..<500 { try stack.undo() }
        #expect(calls.undos == 500)
        for _ in 0..<500 { try stack.redo() }
        #expect(calls.performs == 2_500)
        // Reading the state asks each step's name at most once per title.
        calls.names = 0
        _ = stack.state
        #expect(calls.names <= 2)
        stack.checkInvariants()
    }
}

/// Task names, renamed by ``Rename``.
final class Tasks { var names: [Int: String] = [:] }

/// Renames one task; renames of the same task coalesce (the key names the task).
struct Rename: UndoCommand {
    let tasks: Tasks
    let task: Int
    var to: String
    var from: String?
    init(tasks: Tasks, task: Int, to: String) { self.tasks = tasks; self.task = task; self.to = to }
    var name: String? { "Rename" }
    var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("rename/\(task)") }
    mutating func perform(_ changes: inout UndoChanges) throws {
        from = tasks.names[task]
        tasks.names[task] = to
    }
    mutating func undo(_ changes: inout UndoChanges) throws { tasks.names[task] = from }
    mutating func merge(with next: Rename) -> UndoMerge {
        to = next.to
        return .merged
    }
}

/// Counts how often the history runs and reads a command.
final class CallCounter {
    var performs = 0, undos = 0, names = 0
}

struct Counted: UndoCommand {
    let calls: CallCounter
    var name: String? { calls.names += 1; return "Count" }
    mutating func perform(_ changes: inout UndoChanges) throws { calls.performs += 1 }
    mutating func undo(_ changes: inout UndoChanges) throws { calls.undos += 1 }
}

/// The count limit drops the oldest step on every push once the history is full: the dropped
/// slots are compacted away in bulk, so the steps' array never holds more than about twice the
/// steps kept (and each push moves O(1) steps, amortized).
@Suite struct StepListBounds {
    @Test func aFullHistoryKeepsItsSlackBounded() throws {
        let counter = Counter()
        let stack = UndoStack.testing(countLimit: 100)
        var largest = 0
        for _ in 0..<20_000 {
            try stack.perform(Add(counter: counter, amount: 1))
            stack.breakCoalescing()
            largest = max(largest, stack.access { $0.steps.commands.count })
        }
        #expect(stack.count == 100 && counter.value == 20_000)
        #expect(largest <= 2 * 100 + 16)
        try stack.undo(count: 100)
        #expect(counter.value == 19_900)
        stack.checkInvariants()
    }

    @Test func droppingAndRemovingKeepTheOrder() throws {
        var list = StepList()
        for serial in 1...40 { list.append(Step(Vacancy(), serial: UInt32(serial), time: 0)) }
        for _ in 0..<25 { _ = list.removeFirst() }
        #expect(list.map(\.serial) == Array(26...40).map(UInt32.init))
        _ = list.remove(at: 3)
        list.move(from: 0, to: 1)
        #expect(list.map(\.serial).prefix(4) == [27, 26, 28, 30])
        _ = list.removeLast()
        #expect(list.count == 13 && list.last?.serial == 39)
        list.checkInvariants()
    }

    /// Removing commands (a plugin's, when it is unloaded) looks inside reverts too: a revert
    /// that took steps back runs them backwards from a group of its own, also when it is a
    /// member of a revert across branches. Found by the C API fuzzer: after an unload, undoing
    /// such a revert ran a step of the plugin that was gone.
    @Test(arguments: ["a", "b"]) func removingCommandsLooksInsideReverts(_ gone: String) throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.markSaved()
        try stack.perform(Append(store: store, text: "a"))
        try stack.revertToSaved()  // a revert that only takes "a" back
        try stack.markSaved()
        try stack.undo()
        try stack.perform(Append(store: store, text: "b"))  // the revert hangs as a branch
        try stack.revertToSaved()  // takes "b" back, then does that revert again
        #expect(store[.global] == "" && stack.count == 3)

        func texts(_ command: any UndoCommand) -> [String] {
            if let group = UndoGroup.group(in: command) { return group.members.flatMap(texts) }
            return (command as? Append).map { [$0.text] } ?? []
        }
        func allTexts() -> [String] { (0..<stack.count).flatMap { texts(stack.command(at: $0)) } }
        #expect(allTexts() == ["a", "b", "b", "a"])

        let removed = try stack.removeAll { ($0 as? Append)?.text == gone }
        #expect(removed == 2)
        #expect(allTexts() == ["a", "b", "b", "a"].filter { $0 != gone })
        stack.checkInvariants()
        // Every step left undoes and redoes, and the text follows.
        let now = store[.global]
        while stack.canUndo { try stack.undo() }
        #expect(store[.global] == "")
        while stack.canRedo { try stack.redo() }
        #expect(store[.global] == now)
    }
}

/// A command that reads its own history while the history runs it.
struct ReadsItsHistory: UndoCommand {
    let stack: UndoStack
    mutating func perform(_ changes: inout UndoChanges) throws { _ = stack.canUndo }
    mutating func undo(_ changes: inout UndoChanges) throws {}
}

@Suite struct ReadingFromInsideAnAction {
    /// A read from inside an action would see the record in the middle of a change: the
    /// history stops the program with a message (a change is refused with an error instead).
    @Test func stopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let stack = UndoStack()
            try stack.perform(ReadsItsHistory(stack: stack))
        }
    }
}
