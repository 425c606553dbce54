import Testing
@testable import UndoCore

/// An undo or redo of one step of a history whose steps are all in the global context takes a
/// shorter way (no scope to resolve, no context to ask, the result built from the name alone);
/// it must give what the general way gives: the same results, errors, positions and counts.
@Suite struct OneStepMove {
    /// What a step does when undone or redone, to cover every kind of result.
    enum Behaviour: CaseIterable {
        case plain, reporting, obsoleteOnUndo, failingOnUndo, unnamed
    }

    final class Model {
        var value = 0
        var failing = false
    }

    struct Step: UndoCommand {
        let model: Model
        let behaviour: Behaviour
        let amount: Int
        var context: UndoContext = .global
        var name: String? { behaviour == .unnamed ? nil : "Step \(amount)" }

        func perform(_ changes: inout UndoChanges) throws {
            model.value += amount
            if behaviour == .reporting { changes.report(context: context, location: Int64(amount)) }
        }

        func undo(_ changes: inout UndoChanges) throws {
            if behaviour == .failingOnUndo && model.failing { throw TestFailure(description: "cannot undo \(amount)") }
            model.value -= amount
            switch behaviour {
            case .reporting: changes.report(context: context, location: Int64(amount), length: 1)
            case .obsoleteOnUndo: changes.markObsolete()
            default: break
            }
        }
    }

    /// Where the steps of a comparison are: the global context, one document, or one document
    /// that is also the current context (each a short way of its own).
    enum Placement: CaseIterable {
        case global, document, currentDocument
    }

    /// A result of one step in a document that reported nothing shares its parts with the
    /// results before it in that document (``UndoResult/init(direction:name:sharing:)``): each
    /// still tells its own document, name and direction, through the short way (every step in
    /// one document) and the general way (steps in two documents, undone and redone in turn).
    @Test func resultsInDocumentsTellTheirOwnDocument() throws {
        let model = Model()
        let a = UndoContext("a document"), b = UndoContext("b document")
        let stack = UndoStack()
        for (offset, context) in [a, b, a, b].enumerated() {
            try stack.perform(Step(model: model, behaviour: .plain, amount: offset + 1, context: context))
        }
        for (amount, context) in [(4, b), (3, a), (2, b), (1, a)] {
            #expect(try stack.undo() == UndoResult(direction: .undo, name: "Step \(amount)", context: context))
        }
        for (amount, context) in [(1, a), (2, b), (3, a), (4, b)] {
            #expect(try stack.redo() == UndoResult(direction: .redo, name: "Step \(amount)", context: context))
        }
        // By document: b's newest, then a's newest, then b's again.
        #expect(try stack.undo(in: b) == UndoResult(direction: .undo, name: "Step 4", context: b))
        #expect(try stack.undo(in: a) == UndoResult(direction: .undo, name: "Step 3", context: a))
        #expect(try stack.undo(in: b) == UndoResult(direction: .undo, name: "Step 2", context: b))
        #expect(model.value == 1)
        stack.checkInvariants()

        let sole = UndoStack(), soleModel = Model()
        for amount in 1...3 {
            try sole.perform(Step(model: soleModel, behaviour: .plain, amount: amount, context: b))
        }
        let first = try #require(try sole.undo())
        let second = try #require(try sole.undo())
        #expect(first == UndoResult(direction: .undo, name: "Step 3", context: b))
        #expect(second == UndoResult(direction: .undo, name: "Step 2", context: b))
        #expect(second.stepCount == 1 && second.changes.isEmpty && second.obsoleteCount == 0)
        #expect(try sole.redo() == UndoResult(direction: .redo, name: "Step 2", context: b))
        #expect(soleModel.value == 3)
    }

    /// Runs the same steps and moves on a history whose steps are all in one context (the short
    /// way) and on one with a step of another document at the bottom (the general way),
    /// comparing each call.
    @Test(arguments: [false, true], Placement.allCases)
    func theShortWayGivesWhatTheGeneralWayGives(failing: Bool, placement: Placement) throws {
        let short = UndoStack(), general = UndoStack()
        let shortModel = Model(), generalModel = Model()
        let context = placement == .global ? UndoContext.global : UndoContext("the document")
        if placement == .currentDocument { short.currentContext = context }
        try general.perform(Step(model: Model(), behaviour: .plain, amount: 100, context: UndoContext("other")))
        var amount = 0
        for behaviour in Behaviour.allCases {
            amount += 1
            try short.perform(Step(model: shortModel, behaviour: behaviour, amount: amount, context: context))
            try general.perform(Step(model: generalModel, behaviour: behaviour, amount: amount, context: context))
        }
        shortModel.failing = failing
        generalModel.failing = failing
        // Undo everything, redo everything, twice, comparing each result or error.
        for _ in 0..<2 {
            for direction in [UndoResult.Direction.undo, .redo] {
                for _ in 0..<(Behaviour.allCases.count + 1) {
                    let shortOutcome = Result { try direction == .undo ? short.undo() : short.redo() }
                    // The general history's bottom step is not moved: it stays done.
                    let generalOutcome: Result<UndoResult?, any Error>
                    if direction == .undo && general.position == 1 {
                        generalOutcome = .success(nil)
                    } else {
                        generalOutcome = Result { try direction == .undo ? general.undo() : general.redo() }
                    }
                    switch (shortOutcome, generalOutcome) {
                    case (.success(let a), .success(let b)):
                        #expect(a == b)
                    case (.failure(let a), .failure(let b)):
                        #expect("\(a)" == "\(b)")
                    default:
                        Issue.record("the two ways differ: \(shortOutcome) against \(generalOutcome)")
                    }
                    #expect(short.position == general.position - 1)
                    #expect(short.count == general.count - 1)
                    #expect(shortModel.value == generalModel.value)
                    // With everything undone, the general history still has its bottom step.
                    if short.position > 0 { #expect(short.undoMenuTitle == general.undoMenuTitle) }
                    #expect(short.redoMenuTitle == general.redoMenuTitle)
                    short.checkInvariants()
                    general.checkInvariants()
                }
            }
        }
    }

    @Test func aResultOfTheShortWayCarriesTheStepsNameAndChanges() throws {
        let stack = UndoStack()
        let model = Model()
        try stack.perform(Step(model: model, behaviour: .reporting, amount: 3))
        try stack.perform(Step(model: model, behaviour: .plain, amount: 4))
        #expect(try stack.undo() == UndoResult(direction: .undo, name: "Step 4", context: .global))
        #expect(try stack.undo() == UndoResult(direction: .undo, name: "Step 3", context: .global,
                                               changes: [UndoChange(context: .global, location: 3, length: 1)]))
        #expect(try stack.undo() == nil)
        #expect(try stack.redo() == UndoResult(direction: .redo, name: "Step 3", context: .global,
                                               changes: [UndoChange(context: .global, location: 3)]))
        #expect(try stack.redo() == UndoResult(direction: .redo, name: "Step 4", context: .global))
        #expect(try stack.redo() == nil)
        #expect(model.value == 7)
    }

    @Test func aFailedUndoKeepsTheCoalescingRunOpen() throws {
        let stack = UndoStack.testing()
        let store = TextStore()
        try stack.perform(Append(store: store, text: "a", typing: true))
        store.failOn = "a"
        #expect(throws: UndoError.self) { try stack.undo() }
        store.failOn = nil
        // Nothing moved, so the run goes on: the next keystroke joins the step.
        try stack.perform(Append(store: store, text: "b", typing: true))
        #expect(stack.count == 1 && stack.position == 1 && store[.global] == "ab")
        stack.checkInvariants()
    }

    @Test func aMoveWithNothingToMoveEndsTheCoalescingRun() throws {
        let stack = UndoStack.testing()
        let store = TextStore()
        try stack.perform(Append(store: store, text: "a", typing: true))
        #expect(try stack.redo() == nil)
        try stack.perform(Append(store: store, text: "b", typing: true))
        #expect(stack.count == 2 && store[.global] == "ab")
        stack.checkInvariants()
    }
}

/// The changes an action reports: an empty collector holds no array, and every way of reporting
/// reads back in order.
@Suite struct ChangesCollector {
    @Test func anEmptyCollectorReadsAsEmpty() {
        var changes = UndoChanges()
        #expect(changes.isEmpty && changes.all.isEmpty && !changes.isObsolete)
        changes.report(contentsOf: UndoChanges())
        #expect(changes.isEmpty && changes.all.isEmpty)
        #expect(changes.takeAll().isEmpty)
    }

    @Test func reportsReadBackInOrder() {
        let a = UndoChange(context: UndoContext("a"), location: 1)
        let b = UndoChange(context: UndoContext("b"), location: 2, length: 3)
        let c = UndoChange(context: .global)
        var first = UndoChanges()
        first.report(a)
        var second = UndoChanges()
        second.report(context: b.context, location: 2, length: 3)
        second.report(c)
        var empty = UndoChanges()
        empty.report(contentsOf: second)
        #expect(empty.all == [b, c])
        first.report(contentsOf: second)
        #expect(first.all == [a, b, c] && !first.isEmpty)
        #expect(first.takeAll() == [a, b, c])
        #expect(first.isEmpty && first.all.isEmpty)
        first.markObsolete()
        #expect(first.isObsolete && first.isEmpty)
    }
}
