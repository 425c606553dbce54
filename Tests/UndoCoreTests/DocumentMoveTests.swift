import Testing
@testable import UndoCore

/// Moves of one document through its own states (`goto --doc`, `earlier --doc`, `later --doc`;
/// issue 32): the other documents stay as they are, every state keeps the documents it was made
/// with, and a step that changed several documents is never run for one of them.
@Suite struct DocumentMoves {
    let letter = UndoContext("letter.txt"), sketch = UndoContext("sketch")

    /// The example of the docs: the letter goes back while the sketch keeps its shapes.
    @Test func earlierInOneDocumentLeavesTheOtherAsItIs() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "Dear", context: letter))   // 1
        try stack.perform(Append(store: store, text: "r", context: sketch))      // 2
        try stack.perform(Append(store: store, text: " Ann", context: letter))   // 3
        try stack.perform(Append(store: store, text: "c", context: sketch))      // 4
        #expect(stack.documentStates(of: letter) == [0, 1, 3] && stack.documentState(of: letter) == 3)
        let result = try stack.earlier(1, in: letter)
        #expect(result?.stepCount == 1 && store[letter] == "Dear" && store[sketch] == "rc")
        #expect(stack.currentState == 5 && stack.documentState(of: letter) == 1)
        // Counted in the letter's own states: the move's step is not one of them.
        try stack.earlier(1, in: letter)
        #expect(store[letter] == "" && store[sketch] == "rc" && stack.documentState(of: letter) == 0)
        #expect(try stack.earlier(1, in: letter) == nil)
        try stack.later(2, in: letter)
        #expect(store[letter] == "Dear Ann" && store[sketch] == "rc" && stack.documentState(of: letter) == 3)
        // Every state still shows what it showed when it was made; undo takes a move back as one step.
        try stack.undo()
        #expect(store[letter] == "" && store[sketch] == "rc")
        try stack.goTo(state: 3)
        #expect(store[letter] == "Dear Ann" && store[sketch] == "r")
        stack.checkInvariants()
    }

    /// A state on another branch: the document is undone to where the branches part, then done
    /// along the other one.
    @Test func goToInOneDocumentReachesAnotherBranch() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: letter))   // 1
        try stack.perform(Append(store: store, text: "b", context: letter))   // 2
        try stack.undo()
        try stack.perform(Append(store: store, text: "c", context: letter))   // 3
        try stack.perform(Append(store: store, text: "x", context: sketch))   // 4
        let result = try stack.goTo(state: 2, in: letter, named: "Back to b")
        #expect(result?.stepCount == 2 && result?.name == "Back to b")
        #expect(store[letter] == "ab" && store[sketch] == "x")
        #expect(try stack.goTo(state: 2, in: letter) == nil)
        #expect(throws: UndoError.stateNotFound(99)) { try stack.goTo(state: 99, in: letter) }
        stack.checkInvariants()
    }

    /// Once a limit dropped a document's oldest step, its start is out of reach: a move there
    /// is refused, nothing changes, and its states begin at the oldest one left.
    @Test func theStartIsOutOfReachOnceALimitDroppedTheOldestStep() throws {
        let store = TextStore()
        let stack = UndoStack(countLimit: 2, coalescingWindow: nil)
        try stack.perform(Append(store: store, text: "a", context: letter))   // 1, dropped
        try stack.perform(Append(store: store, text: "b", context: letter))   // 2
        try stack.perform(Append(store: store, text: "c", context: letter))   // 3
        #expect(stack.documentStates(of: letter) == [2, 3])
        #expect(throws: UndoError.stateNotFound(0)) { try stack.goTo(state: 0, in: letter) }
        #expect(store[letter] == "abc" && stack.currentState == 3)
        try stack.earlier(5, in: letter)
        #expect(store[letter] == "ab" && stack.documentState(of: letter) == 2)
        #expect(try stack.earlier(1, in: letter) == nil)
        stack.checkInvariants()
    }

    /// A group over both documents cannot run for one: the refusal names it; nothing changes.
    @Test func aGroupOfSeveralDocumentsOnTheWayIsRefusedByName() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        try stack.perform(Append(store: store, text: "a", context: letter))   // 1
        try stack.beginGroup(named: "Both")
        try stack.perform(Append(store: store, text: "b", context: letter))
        try stack.perform(Append(store: store, text: "1", context: sketch))
        try stack.endGroup()                                                   // 2
        try stack.perform(Append(store: store, text: "c", context: letter))   // 3
        #expect(throws: UndoError.moveCrossesOtherDocuments(letter, step: "Both")) { try stack.goTo(state: 1, in: letter) }
        #expect(store[letter] == "abc" && store[sketch] == "1" && stack.currentState == 3 && stack.steps.count == 3)
        // Within the steps after the group the move runs.
        try stack.earlier(1, in: letter)
        #expect(store[letter] == "ab" && store[sketch] == "1")
        stack.checkInvariants()
    }

    /// Random scripts over two documents against a model that keeps both texts at every state
    /// and the state each document is at: after every move each document is what the model says,
    /// and at the end every state still shows both documents as they were when it was made.
    /// (These scripts stay at the newest state; ``randomScriptsKeepEveryStateAsItWasMade(seed:)``
    /// mixes in new steps at older states and undo and redo in one document.)
    @Test(arguments: 0..<24) func randomScriptsMatchAPerDocumentModel(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let store = TextStore()
        let stack = UndoStack.testing()
        let documents = [letter, sketch]
        let withGroups = seed % 2 == 1
        var texts: [UInt32: [String]] = [0: ["", ""]]            // both texts at each state
        var atState: [UInt32: [UInt32]] = [0: [0, 0]]            // the state each document is at
        var ownStates: [[UInt32]] = [[0], [0]]                   // each document's states
        var present: UInt32 = 0
        var letters = Array("abcdefghijklmnopqrstuvwxyz").map(String.init).makeIterator()
        func check(_ what: String) {
            #expect(stack.currentState == present, "\(what)")
            #expect([store[letter], store[sketch]] == texts[present]!, "\(what) at \(present)")
            for (index, document) in documents.enumerated() {
                #expect(stack.documentState(of: document) == atState[present]![index], "\(what): \(document.name)")
                #expect(stack.documentStates(of: document) == ownStates[index].sorted(), "\(what): states of \(document.name)")
            }
        }
        for move in 0..<40 {
            let which = Int.random(in: 0...1, using: &random)
            let document = documents[which]
            let before = present
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let text = letters.next() ?? "z"
                let both = withGroups && Int.random(in: 0..<4, using: &random) == 0
                if both {
                    try stack.beginGroup(named: "Both \(text)")
                    try stack.perform(Append(store: store, text: text, context: letter))
                    try stack.perform(Append(store: store, text: text, context: sketch))
                    try stack.endGroup()
                } else {
                    try stack.perform(Append(store: store, text: text, context: document))
                }
                present = stack.currentState
                var made = texts[before]!
                var at = atState[before]!
                for index in 0...1 where both || index == which {
                    made[index] += text
                    at[index] = present
                    ownStates[index].append(present)
                }
                texts[present] = made
                atState[present] = at
            default:
                let target: UInt32
                let count = Int.random(in: 1...3, using: &random)
                let kind = Int.random(in: 0..<3, using: &random)
                let mine = ownStates[which].sorted()
                let current = atState[before]![which]
                if kind == 0 {
                    target = mine[Int.random(in: 0..<mine.count, using: &random)]
                } else if kind == 1 {
                    let earlier = mine.filter { $0 < current }
                    guard !earlier.isEmpty else {
                        #expect(try stack.earlier(count, in: document) == nil)
                        check("earlier \(count) at the first state")
                        continue
                    }
                    target = earlier[max(0, earlier.count - count)]
                } else {
                    let later = mine.filter { $0 > current }
                    guard !later.isEmpty else {
                        #expect(try stack.later(count, in: document) == nil)
                        check("later \(count) at the newest state")
                        continue
                    }
                    target = later[min(later.count, count) - 1]
                }
                let result: UndoResult?
                do {
                    result = switch kind {
                    case 0: try stack.goTo(state: target, in: document)
                    case 1: try stack.earlier(count, in: document)
                    default: try stack.later(count, in: document)
                    }
                } catch UndoError.moveCrossesOtherDocuments(let refused, let step) {
                    #expect(withGroups && refused == document && step?.hasPrefix("Both") == true)
                    check("refused move \(move)")
                    continue
                }
                var made = texts[before]!
                made[which] = texts[target]![which]
                if result == nil {
                    #expect(made == texts[before]!, "move \(move) found nothing to do")
                } else {
                    present = stack.currentState
                    #expect(present > before && texts[present] == nil)
                    var at = atState[before]!
                    at[which] = target
                    texts[present] = made
                    atState[present] = at
                }
            }
            check("move \(move) (seed \(seed))")
            stack.checkInvariants()
        }
        // Every state still names both documents as they were when it was made.
        for state in texts.keys.sorted() {
            try stack.goTo(state: state)
            #expect([store[letter], store[sketch]] == texts[state]!, "state \(state)")
        }
    }

    /// Random scripts over two documents that mix new steps made at older states, undo and redo
    /// in one document or in all, `goTo`, `earlier` and `later` of the whole history and moves of
    /// one document, against a model that keeps both texts at every state it has seen: a state
    /// seen once (made, reached, or gone to) shows the same texts ever after; a new step changes
    /// only its document(s); an undo or redo in one document leaves the other as it is; each
    /// document's own states are those its steps made (copies and moves are none); every state
    /// hangs under one made before it. At the end
    /// every state seen is gone to again, and the history replayed from its recorded operations
    /// gives the same tree.
    @Test(arguments: 0..<40) func randomScriptsKeepEveryStateAsItWasMade(seed: UInt64) throws {
        var random = SplitMix(seed: seed &+ 1000)
        let documents = [letter, sketch]
        let withGroups = seed % 2 == 1
        let store = TextStore()
        let stack = UndoStack.testing()
        // The same script on a second history, through the recorded operations (as a journal
        // replays it).
        let replayStore = TextStore()
        let replay = UndoStack.testing()
        var texts: [UInt32: [String]] = [0: ["", ""]]
        var ownStates: [[UInt32]] = [[0], [0]]
        var letters = Array("abcdefghijklmnopqrstuvwxyz").map(String.init).makeIterator()
        func present() -> [String] { [store[letter], store[sketch]] }
        /// The present state shows `expected` (when given) and what it showed before.
        func see(_ what: String, expected: [String]? = nil) {
            let state = stack.currentState
            if let expected { #expect(present() == expected, "\(what): \(present()) at \(state)") }
            if let known = texts[state] {
                #expect(present() == known, "\(what): state \(state) shows \(present()), made as \(known)")
            } else {
                texts[state] = present()
            }
            for (index, document) in documents.enumerated() {
                #expect(stack.documentStates(of: document) == ownStates[index].sorted(), "\(what): states of \(document.name)")
            }
        }
        func operate(_ operation: UndoOperation) throws -> UndoResult? {
            let applied = try operation.apply(to: stack)
            if let recorded = applied.recorded { _ = try recorded.apply(to: replay) }
            return applied.result
        }
        for move in 0..<50 {
            let which = Int.random(in: 0...1, using: &random)
            let document = documents[which]
            let before = present()
            let what = "seed \(seed) move \(move)"
            switch Int.random(in: 0..<12, using: &random) {
            case 0..<4:
                let text = letters.next() ?? "z"
                let both = withGroups && Int.random(in: 0..<4, using: &random) == 0
                for (history, target) in [(stack, store), (replay, replayStore)] {
                    if both {
                        try history.beginGroup(named: "Both \(text)")
                        try history.perform(Append(store: target, text: text, context: letter))
                        try history.perform(Append(store: target, text: text, context: sketch))
                        try history.endGroup()
                    } else {
                        try history.perform(Append(store: target, text: text, context: document))
                    }
                }
                var made = before
                for index in 0...1 where both || index == which {
                    made[index] += text
                    ownStates[index].append(stack.currentState)
                }
                #expect(texts[stack.currentState] == nil, "\(what): a new step took a state number already used")
                see("\(what): new step", expected: made)
            case 4, 5:
                let undo = Int.random(in: 0...1, using: &random) == 0
                let count = Int.random(in: 1...2, using: &random)
                let whole = Int.random(in: 0..<4, using: &random) == 0
                let scope = UndoOperation.Scope(whole ? nil : document)
                let result = try operate(undo ? .undo(count: count, scope: scope) : .redo(count: count, scope: scope))
                if !whole && (!withGroups || (count == 1 && result?.name?.hasPrefix("Both") != true)) {
                    // The other document stays as it is (unless a group over both moved).
                    #expect(present()[1 - which] == before[1 - which], "\(what): \(undo ? "undo" : "redo") in \(document.name)")
                }
                see("\(what): \(undo ? "undo" : "redo")")
            case 6, 7:
                let states = [0] + stack.tree.map(\.id)
                let target = states[Int.random(in: 0..<states.count, using: &random)]
                _ = try operate(.goTo(state: target))
                #expect(stack.currentState == target)
                see("\(what): goto \(target)", expected: texts[target])
            case 8:
                let earlier = Int.random(in: 0...1, using: &random) == 0
                let distance = UndoTravel.states(Int.random(in: 1...2, using: &random))
                let target = stack.travelTarget(distance, earlier: earlier)
                _ = try operate(earlier ? .earlier(distance) : .later(distance))
                if let target { #expect(stack.currentState == target, "\(what)") }
                see("\(what): \(earlier ? "earlier" : "later")", expected: target.flatMap { texts[$0] })
            default:
                let mine = ownStates[which]
                let target = mine[Int.random(in: 0..<mine.count, using: &random)]
                do {
                    _ = try operate(.goToInDocument(state: target, context: document.name, name: "Go"))
                } catch UndoError.moveCrossesOtherDocuments {
                    #expect(withGroups, "\(what)")
                    #expect(present() == before)
                    continue
                }
                var made = before
                made[which] = texts[target]![which]
                see("\(what): goto \(target) in \(document.name)", expected: made)
            }
            stack.checkInvariants()
            replay.checkInvariants()
            // The tree is chronological: every state hangs under one made before it.
            #expect(stack.tree.allSatisfy { $0.parent < $0.id }, "\(what): a state hangs under a newer one")
            #expect(replay.tree == stack.tree && [replayStore[letter], replayStore[sketch]] == present(), "\(what): the replay differs")
            if replay.tree != stack.tree { return }
        }
        // Every state seen still names both documents as they were then.
        for state in texts.keys.sorted() {
            try stack.goTo(state: state)
            #expect(present() == texts[state]!, "seed \(seed): state \(state)")
        }
    }

    /// Each move runs only the steps between the two runs, not all of the document's history:
    /// moving back and forth between two neighbouring states of a long document runs one step
    /// each time (the moves before do not pile up).
    @Test func eachMoveRunsOnlyTheStepsOnItsWay() throws {
        let store = TextStore()
        let stack = UndoStack.testing()
        for index in 0..<50 { try stack.perform(Append(store: store, text: "\(index % 10)", context: letter)) }
        for _ in 0..<20 {
            #expect(try stack.earlier(1, in: letter)?.stepCount == 1)
            #expect(try stack.later(1, in: letter)?.stepCount == 1)
        }
        #expect(store[letter].count == 50)
    }
}
