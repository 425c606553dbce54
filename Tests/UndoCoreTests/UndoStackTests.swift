import Testing
@testable import UndoCore

@Suite struct UndoStackBasics {
    @Test func undoAndRedoWalkTheHistory() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        #expect(!stack.canUndo && !stack.canRedo)
        try stack.perform(Append(store: store, text: "a"))
        try stack.perform(Append(store: store, text: "b"))
        try stack.perform(Append(store: store, text: "c"))
        #expect(store[.global] == "abc")
        #expect(stack.count == 3 && stack.undoCount == 3 && stack.redoCount == 0)

        let result = try #require(try stack.undo())
        #expect(result.direction == .undo && result.name == "Insert")
        #expect(store[.global] == "ab")
        #expect(stack.canUndo && stack.canRedo)
        try stack.undo()
        #expect(store[.global] == "a" && stack.undoCount == 1 && stack.redoCount == 2)
        try stack.redo()
        #expect(store[.global] == "ab")
        try stack.undo(); try stack.undo()
        #expect(store[.global] == "" && !stack.canUndo)
        #expect(try stack.undo() == nil)
        try stack.redo(count: 3)
        #expect(store[.global] == "abc" && !stack.canRedo)
        #expect(try stack.redo() == nil)
    }

    @Test func doingSomethingNewDiscardsTheRedoSteps() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        try stack.undo(count: 2)
        try stack.perform(Append(store: store, text: "x"))
        #expect(store[.global] == "ax")
        #expect(stack.count == 2 && !stack.canRedo)
    }

    @Test func unlimitedByDefault() throws {
        let counter = Counter()
        let stack = UndoStack.testing()
        for _ in 0..<5000 { try stack.perform(Add(counter: counter, amount: 1)); stack.breakCoalescing() }
        #expect(stack.count == 5000)
        try stack.undo(count: 5000)
        #expect(counter.value == 0)
    }

    @Test func countLimitDropsTheOldestSteps() throws {
        let store = TextStore()
        let stack = UndoStack.testing(countLimit: 3)
        for text in ["a", "b", "c", "d", "e"] { try stack.perform(Append(store: store, text: text)) }
        #expect(stack.count == 3)
        try stack.undo(count: 10)
        #expect(store[.global] == "ab")   // a and b can no longer be undone
        stack.countLimit = 1
        #expect(stack.count == 1)         // trimming with only redo steps keeps one
    }

    @Test func memoryLimitDropsOldStepsButNeverTheOneJustDone() throws {
        let store = TextStore()
        let stack = UndoStack.testing(memoryLimit: 100)
        try stack.perform(Append(store: store, text: "0123456789"))         // cost 42
        try stack.perform(Append(store: store, text: "abcdefghij"))         // 84
        #expect(stack.count == 2 && stack.totalCost == 84)
        try stack.perform(Append(store: store, text: "klmnopqrst"))         // 126 > 100: drop oldest
        #expect(stack.count == 2 && stack.totalCost == 84)
        let huge = String(repeating: "z", count: 500)
        try stack.perform(Append(store: store, text: huge))                 // alone over budget, kept
        #expect(stack.count == 1)
        try stack.undo()
        #expect(store[.global].hasSuffix("klmnopqrst"))
    }

    @Test func jumpToAnyStepAndListTheHistory() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c", "d"] { try stack.perform(Append(store: store, text: text, named: "Add \(text)")) }
        let result = try #require(try stack.move(to: 1))
        // The name is the newest step's (the first undone), as undo_result.name says.
        #expect(result.stepCount == 3 && result.direction == .undo && result.name == "Add d")
        let forward = try #require(try stack.move(to: 3))
        #expect(forward.stepCount == 2 && forward.name == "Add c")
        try stack.move(to: 1)
        #expect(store[.global] == "a" && stack.position == 1)
        try stack.move(to: 3)
        #expect(store[.global] == "abc")
        try stack.markSaved()
        let rows = stack.steps
        #expect(rows.map(\.name) == ["Add a", "Add b", "Add c", "Add d"])
        #expect(rows.map(\.isApplied) == [true, true, true, false])
        #expect(rows.map(\.isSavePoint) == [false, false, true, false])
        #expect(throws: UndoError.positionOutOfRange(requested: 9, count: 4)) { try stack.move(to: 9) }
        #expect(try stack.move(to: 3) == nil)
    }

    @Test func resultsSayWhatChangedWhere() throws {
        let store = TextStore()
        let doc = UndoContext("notes.txt")
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "hello", context: doc))
        try stack.perform(Append(store: store, text: " world", context: doc))
        let undo = try #require(try stack.undo())
        #expect(undo.context == doc)
        #expect(undo.changes == [UndoChange(context: doc, location: 5, length: 0)])
        let redo = try #require(try stack.redo())
        #expect(redo.direction == .redo && redo.name == "Insert")
        #expect(redo.changes == [UndoChange(context: doc, location: 5, length: 6)])
        let both = try #require(try stack.undo(count: 2))
        #expect(both.stepCount == 2 && both.changes.count == 2)
    }

    /// A step that reports nothing gives a result with no changes, equal to one made with an
    /// empty list, and its changes can be set afterwards like any other value.
    @Test func aResultWithoutChangesIsAPlainValue() throws {
        let counter = Counter()
        let stack = UndoStack.testing()
        try stack.perform(Add(counter: counter, amount: 2))
        var result = try #require(try stack.undo())
        #expect(result == UndoResult(direction: .undo, name: "Add", context: .global, changes: []))
        #expect(result.changes.isEmpty && counter.value == 0)
        result.changes.append(UndoChange(context: .global, location: 1))
        #expect(result.changes.count == 1)
        #expect(result != UndoResult(direction: .undo, name: "Add", context: .global))
    }

    /// `isEmpty` tells whether anything was reported, like `all.isEmpty`.
    @Test func changesTellWhetherAnythingWasReported() {
        var changes = UndoChanges()
        #expect(changes.isEmpty && changes.all.isEmpty)
        changes.report(context: .global, location: 3)
        #expect(!changes.isEmpty && changes.all.count == 1)
    }

    @Test func discardableStepsDoNotDirtyAndPausedRecordingRecordsNothing() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a"))
        try stack.markSaved()
        try stack.perform(Append(store: store, text: "[sel]", named: "Selection", discardable: true))
        #expect(!stack.isDirty())
        #expect(stack.undoMenuTitle == "Undo Selection")
        try stack.perform(Append(store: store, text: "b"))
        #expect(stack.isDirty())
        stack.pauseRecording()
        #expect(stack.isRecordingPaused)
        try stack.perform(Append(store: store, text: "c"))
        stack.resumeRecording()
        #expect(store[.global] == "a[sel]bc" && stack.count == 3)
    }
}

@Suite struct Failures {
    @Test func aFailedUndoLeavesTheHistoryExactlyAsItWas() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a"))
        try stack.perform(Append(store: store, text: "b"))
        let before = stack.steps
        store.failOn = "b"
        #expect(throws: UndoError.actionFailed(step: "Insert", message: "cannot remove b")) { try stack.undo() }
        #expect(stack.steps == before && stack.position == 2 && store[.global] == "ab")
        store.failOn = nil
        try stack.undo()
        #expect(store[.global] == "a")
    }

    @Test func aFailedPerformRecordsNothing() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        store.failOn = "x"
        #expect(throws: UndoError.self) { try stack.perform(Append(store: store, text: "x")) }
        #expect(stack.count == 0 && store[.global] == "")
    }

    @Test func aGroupFailingPartwayPutsBackWhatItUndid() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.beginGroup(named: "Paste")
        for text in ["a", "b", "c"] { try stack.perform(Append(store: store, text: text)) }
        try stack.endGroup()
        store.failOn = "a"   // c and b undo, then a fails: c and b are redone
        #expect(throws: UndoError.self) { try stack.undo() }
        #expect(store[.global] == "abc" && stack.position == 1)
        store.failOn = nil
        try stack.undo()
        #expect(store[.global] == "")
        store.failOn = "c"   // redo: a, b done, c fails: b and a undone again
        #expect(throws: UndoError.self) { try stack.redo() }
        #expect(store[.global] == "" && stack.position == 0)
    }

    @Test func aGroupThatCannotBePutBackLeavesItsDocumentEdited() throws {
        // The second member undoes, the first fails to undo, and redoing the second to put the
        // group back fails too: the document keeps part of the paste, which no state of the
        // history describes. It must not report itself saved, or closing it would lose work.
        let store = TextStore()
        let doc = UndoContext("doc")
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "x", context: doc))
        try stack.markSaved(doc)
        try stack.beginGroup(named: "Paste", context: doc)
        try stack.perform(Append(store: store, text: "a", context: doc))
        try stack.perform(Append(store: store, text: "b", context: doc))
        try stack.endGroup()
        #expect(stack.isDirty(doc))
        store.failOn = "a"
        // Putting "b" back fails: make every perform of "b" fail once "b" is undone.
        store.failOnRedo = "b"
        let error = try #require(throws: UndoError.self) { try stack.undo(in: doc) }
        guard case .rollbackFailed = error else { Issue.record("expected rollbackFailed, got \(error)"); return }
        #expect(store[doc] == "xa")
        #expect(stack.count == 1)
        #expect(stack.isDirty(doc))
        #expect("\(error)".contains("marked edited"))
        // Saving again makes it clean, as always.
        try stack.markSaved(doc)
        #expect(!stack.isDirty(doc))
    }

    @Test func aJumpIsAllOrNothing() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for text in ["a", "b", "c", "d"] { try stack.perform(Append(store: store, text: text)) }
        store.failOn = "b"
        #expect(throws: UndoError.self) { try stack.move(to: 0) }
        #expect(store[.global] == "abcd" && stack.position == 4)
    }

    @Test func callingTheHistoryFromInsideAnActionIsRefused() throws {
        let stack = UndoStack.testing()
        let log = Reentrant.Log()
        try stack.perform(Reentrant(stack: stack, log: log))
        #expect(log.errors == [.reentrantCall("undo")])
        try stack.undo()
        #expect(log.errors == [.reentrantCall("undo"), .reentrantCall("redo"), .reentrantCall("perform")])
        #expect(stack.position == 0 && stack.count == 1)
        try stack.redo()
        #expect(stack.position == 1)
    }
}
