import Testing
@testable import UndoCore

/// `UndoStack.extendNewest`: a change joins the newest step in place exactly where `perform`
/// would merge it into that step, and otherwise changes nothing.
@Suite struct ExtendNewestTests {
    let key = UndoCoalescingKey("typing")

    /// Types `text` into the newest `Append` step in place, as a keystroke through a host's fast
    /// path would. `ran` counts the calls of the body.
    func extend(_ stack: UndoStack, _ store: TextStore, _ text: String, context: UndoContext = .global,
                key: UndoCoalescingKey? = nil, ran: inout Int) throws -> Bool {
        try stack.extendNewest(Append.self, key: key ?? self.key, context: context) { newest in
            ran += 1
            if store.failOn == text { throw TestFailure(description: "cannot insert \(text)") }
            store[context] += text
            newest.text += text
            return text.utf8.count
        }
    }

    @Test func aChangeJoinsTheOpenRunInPlace() throws {
        let clock = ManualUndoClock()
        let store = TextStore()
        let stack = UndoStack.testing(clock: clock)
        try stack.perform(Append(store: store, text: "h", typing: true))
        let cost = stack.totalCost
        var ran = 0
        for letter in "ello" {
            clock.advance(milliseconds: 100)
            #expect(try extend(stack, store, String(letter), ran: &ran))
        }
        #expect(ran == 4)
        #expect(stack.count == 1 && stack.undoMenuTitle == "Undo Typing")
        #expect(store[.global] == "hello")
        #expect(stack.totalCost == cost + 4)  // grown by what the body said
        stack.checkInvariants()
        try stack.undo()
        #expect(store[.global] == "")
        try stack.redo()
        #expect(store[.global] == "hello")
        // Joined like a merge: the run is still open after the keystrokes, and closes the same way.
        stack.breakCoalescing()
        #expect(try !extend(stack, store, "!", ran: &ran))
    }

    /// Wherever `perform` would not merge, the body does not run and nothing changes.
    @Test(arguments: ["break", "group", "undo", "save", "window", "paused", "context", "key", "type", "empty", "run"])
    func itDeclinesWhereAMergeWouldNotHappen(_ breaker: String) throws {
        let clock = ManualUndoClock()
        let store = TextStore()
        let stack = UndoStack.testing(clock: clock)
        var context = UndoContext.global
        var key = self.key
        if breaker != "empty" { try stack.perform(Append(store: store, text: "a", typing: true)) }
        switch breaker {
        case "break": stack.breakCoalescing()
        case "group": try stack.beginGroup()
        case "undo":
            try stack.undo()
            try stack.redo()
        case "save": try stack.markSaved()
        case "window": clock.advance(milliseconds: 600)
        case "paused": stack.pauseRecording()
        case "context": context = UndoContext("other")
        case "key": key = UndoCoalescingKey("other")
        case "type":
            let declined = try stack.extendNewest(Nudge.self, key: key, context: context) { _ in
                Issue.record("the body ran for a step of another type")
                return 0
            }
            #expect(!declined)
            return
        case "run":
            // The newest step is a coalesced run: a group of steps that do not merge.
            let counter = Counter()
            try stack.perform(Nudge(counter: counter))
            try stack.perform(Nudge(counter: counter))
            #expect(stack.steps.last?.memberCount == 2)
            let declined = try stack.extendNewest(Nudge.self, key: UndoCoalescingKey("move"), context: context) { _ in
                Issue.record("the body ran for a coalesced run")
                return 0
            }
            #expect(!declined && counter.value == 2)
            return
        default: break
        }
        let (count, cost, text) = (stack.count, stack.totalCost, store[context])
        var ran = 0
        #expect(try !extend(stack, store, "z", context: context, key: key, ran: &ran), "\(breaker)")
        #expect(ran == 0)
        #expect(stack.count == count && stack.totalCost == cost && store[context] == text)
    }

    @Test func aFailingChangeLeavesTheStepAsItWas() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", typing: true))
        store.failOn = "x"
        let cost = stack.totalCost
        var ran = 0
        #expect(throws: UndoError.actionFailed(step: "Typing", message: "cannot insert x")) {
            _ = try extend(stack, store, "x", ran: &ran)
        }
        #expect(stack.count == 1 && stack.totalCost == cost && store[.global] == "a")
        // The history is usable at once: the run goes on, and undoes whole.
        #expect(try extend(stack, store, "b", ran: &ran))
        try stack.undo()
        #expect(store[.global] == "")
        stack.checkInvariants()
    }

    @Test func aDeclinedChangeChangesNothing() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", typing: true))
        let cost = stack.totalCost
        let joined = try stack.extendNewest(Append.self, key: key, context: .global) { _ in nil }
        #expect(!joined && stack.count == 1 && stack.totalCost == cost)
    }

    @Test func fromInsideAnActionItIsRefused() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", typing: true))
        var inner: (any Error)?
        let joined = try stack.extendNewest(Append.self, key: key, context: .global) { newest in
            do {
                _ = try stack.extendNewest(Append.self, key: key, context: .global) { _ in 1 }
            } catch {
                inner = error
            }
            return 0
        }
        #expect(joined)
        #expect(inner as? UndoError == .reentrantCall("perform"))
    }
}

/// `UndoCommand.belongs(to:)`: the history asks it, not the `context` getter, whether the newest
/// step is in the context of a change that may join it (a merge, or a change in place).
@Suite struct BelongsToContextTests {
    /// Keeps its context in a class and counts the questions.
    final class Questions { var asked = 0 }

    struct Counted: UndoCommand {
        let box: Questions
        let context: UndoContext
        var text: String
        var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("typing") }
        mutating func perform(_ changes: inout UndoChanges) throws {}
        mutating func undo(_ changes: inout UndoChanges) throws {}
        mutating func merge(with next: Counted) -> UndoMerge {
            text += next.text
            return .merged
        }
        func belongs(to context: UndoContext) -> Bool {
            box.asked += 1
            return self.context == context
        }
    }

    @Test func theDefaultComparesTheContext() {
        let store = TextStore()
        let step = Append(store: store, text: "a", context: UndoContext("doc"))
        #expect(step.belongs(to: UndoContext("doc")))
        #expect(!step.belongs(to: UndoContext("other")) && !step.belongs(to: .global))
    }

    @Test func mergesAndChangesInPlaceAskTheStep() throws {
        let questions = Questions()
        let doc = UndoContext("doc")
        let stack = UndoStack(coalescingWindow: nil)
        func asks(_ change: () throws -> Void) rethrows -> Bool {
            let before = questions.asked
            try change()
            return questions.asked > before
        }
        try stack.perform(Counted(box: questions, context: doc, text: "a"))
        #expect(try asks { try stack.perform(Counted(box: questions, context: doc, text: "b")) })
        #expect(stack.count == 1)  // merged
        #expect(try asks { try stack.perform(Counted(box: questions, context: UndoContext("other"), text: "c")) })
        #expect(stack.count == 2)  // refused: a new step
        var joined = true
        #expect(try asks {
            joined = try stack.extendNewest(Counted.self, key: UndoCoalescingKey("typing"), context: doc) { _ in 0 }
        })
        #expect(!joined)  // the newest step is in "other"
        #expect(try asks {
            joined = try stack.extendNewest(Counted.self, key: UndoCoalescingKey("typing"), context: UndoContext("other")) {
                $0.text += "d"
                return 0  // the cost of a `Counted` does not grow
            }
        })
        #expect(joined)
        stack.checkInvariants()
    }
}
