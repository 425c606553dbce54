import Testing
@testable import UndoCore

@Suite struct Contexts {
    /// A group's contexts are every member's, whether members of one context come in runs or
    /// alternate (the contexts are hashed only where a member's differs from the one before).
    @Test func aGroupCountsEveryContextItsMembersChangeInRunsOrNot() throws {
        let store = TextStore()
        let stack = UndoStack()
        let a = UndoContext("a"), b = UndoContext("b")
        try stack.beginGroup(named: "Mixed")
        for context in [a, a, b, a, .global, .global, b] {
            try stack.perform(Append(store: store, text: "x", context: context))
        }
        try stack.endGroup()
        let group = try #require(stack.command(at: 0) as? UndoGroup)
        #expect(group.allContexts == [a, b, .global])
        #expect(stack.canUndo(in: a) && stack.canUndo(in: b) && stack.canUndo(in: .global))
        stack.checkInvariants()
        try stack.undo()
        #expect(store[a].isEmpty && store[b].isEmpty && store[.global].isEmpty)
        #expect(stack.canRedo(in: a) && stack.canRedo(in: b) && !stack.canUndo(in: b))
        stack.checkInvariants()
    }

    let one = UndoContext("one.txt")
    let two = UndoContext("two.txt")

    @Test func undoRelatesToTheCurrentContext() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: one, named: "Bold"))
        try stack.perform(Append(store: store, text: "x", context: two, named: "Delete"))
        try stack.perform(Append(store: store, text: "y", context: two, named: "Delete"))
        stack.currentContext = one
        #expect(stack.undoMenuTitle == "Undo Bold" && stack.canUndo && !stack.canRedo)
        let result = try #require(try stack.undo())   // one's newest, though two's came later
        #expect(result.context == one && store[one] == "" && store[two] == "xy")
        #expect(stack.redoMenuTitle == "Redo Bold" && !stack.canUndo)
        stack.currentContext = two
        #expect(stack.undoMenuTitle == "Undo Delete" && !stack.canRedo)
        try stack.undo()
        #expect(store[two] == "x")
        stack.currentContext = nil
        try stack.redo()                              // the whole history: the last undone first
        #expect(store[two] == "xy" && store[one] == "")
        try stack.redo()
        #expect(store[one] == "a")
        stack.checkInvariants()
    }

    @Test func newWorkDiscardsOnlyItsOwnContextsRedo() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: one))
        try stack.perform(Append(store: store, text: "x", context: two))
        try stack.undo(in: one)
        try stack.undo(in: two)
        try stack.perform(Append(store: store, text: "b", context: one))
        #expect(!stack.canRedo(in: one) && stack.canRedo(in: two))
        try stack.redo(in: two)
        #expect(store[two] == "x" && store[one] == "b")
    }

    @Test func closingADocumentRemovesItsStepsAndKeepsTheRest() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: one))
        try stack.beginGroup(named: "Both")
        try stack.perform(Append(store: store, text: "b", context: one))
        try stack.perform(Append(store: store, text: "x", context: two))
        try stack.endGroup()
        try stack.perform(Append(store: store, text: "y", context: two))
        try stack.markSaved(one)
        let removed = try stack.removeAll(in: one)
        #expect(removed == 2 && stack.count == 2)
        #expect(!stack.canUndo(in: one))
        try stack.undo(count: 2)
        #expect(store[two] == "" && store[one] == "ab")
        stack.checkInvariants()
    }

    @Test func savePointsArePerContext() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: one))
        try stack.markSaved(one)
        try stack.perform(Append(store: store, text: "x", context: two))
        #expect(!stack.isDirty(one) && stack.isDirty(two))
        try stack.perform(Append(store: store, text: "b", context: one))
        try stack.revertToSaved(one)
        #expect(store[one] == "a" && store[two] == "x")
    }
}

@Suite struct Observers {
    @Test func observersHearOnlyChanges() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        var heard: [(UndoState, UndoStateChanges)] = []
        let observation = stack.observe { heard.append(($0, $1)) }
        try stack.perform(Append(store: store, text: "a", typing: true))
        #expect(heard.count == 1)
        #expect(heard[0].1 == [.canUndo, .titles, .dirty, .position])
        #expect(heard[0].0.undoTitle == "Undo Typing")
        try stack.perform(Append(store: store, text: "b", typing: true))   // coalesced: nothing visible changed
        #expect(heard.count == 1)
        stack.breakCoalescing()
        #expect(heard.count == 1)
        try stack.markSaved()
        #expect(heard.count == 2 && heard[1].1 == [.dirty])
        try stack.undo()
        #expect(heard.last!.1.contains(.canRedo) && heard.last!.0.redoTitle == "Redo Typing")
        observation.cancel()
        try stack.redo()
        #expect(heard.count == 3)
    }

    @Test func releasingTheObservationStopsIt() throws {
        let stack = UndoStack.testing()
        var calls = 0
        do {
            let observation = stack.observe { _, _ in calls += 1 }
            try stack.perform(Add(counter: Counter(), amount: 1))
            _ = observation
        }
        try stack.undo()
        #expect(calls == 1)
    }
}

@Suite struct Titles {
    @Test func menuTitlesFollowTheGuidelines() throws {
        let stack = UndoStack.testing()
        #expect(stack.undoMenuTitle == "Undo" && stack.redoMenuTitle == "Redo")
        let store = TextStore()
        try stack.perform(Append(store: store, text: "a", named: "change of address."))
        #expect(stack.undoMenuTitle == "Undo Change of Address")
        try stack.perform(Append(store: store, text: "b", named: nil))
        #expect(stack.undoMenuTitle == "Undo")
        try stack.undo()
        #expect(stack.redoMenuTitle == "Redo")
        stack.formatter = UndoTitleFormatter(locale: .korean)
        #expect(stack.undoMenuTitle.contains("Change of Address") || stack.undoMenuTitle.contains("change of address"))
        #expect(stack.undoMenuTitle != "Undo Change of Address")
    }

    @Test func theAlertOffersUndoRedoAndCancelLast() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        #expect(stack.alert.actions.map(\.kind) == [.cancel])
        try stack.perform(Append(store: store, text: "a", typing: true))
        stack.breakCoalescing()
        try stack.perform(Append(store: store, text: "b", named: "Bold"))
        try stack.undo()
        let alert = stack.alert
        #expect(alert.title == "Undo Typing")
        #expect(alert.actions.map(\.title) == ["Undo Typing", "Redo Bold", "Cancel"])
    }
}
