import Foundation
import Testing
@testable import UndoCore

/// UndoOperation, the one vocabulary of the history's changes: applying an operation is the
/// call it names; its recorded form replays to the same history; its JSON is stable.
@Suite struct UndoOperationTests {
    /// A change of a script: typing into a document, or an operation.
    enum Event { case type(String, UndoContext), operation(UndoOperation) }

    static func randomOperation(_ random: inout SplitMix, states: UInt32) -> UndoOperation {
        let contexts: [String?] = [nil, "a", "b"]
        let scopes: [UndoOperation.Scope] = [.current, .whole, .context("a"), .context("b")]
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        switch random.next() % 14 {
        case 0, 1: return .undo(count: 1 + Int(random.next() % 2), scope: pick(scopes))
        case 2: return .redo(count: 1 + Int(random.next() % 2), scope: pick(scopes))
        case 3: return .move(position: Int(random.next() % 4))
        case 4: return .goTo(state: UInt32(random.next() % UInt64(states + 1)))
        case 5: return .earlier(pick([.states(1), .states(2), .saves(1), .time(.milliseconds(30))]))
        case 6: return .later(pick([.states(1), .saves(1), .time(.milliseconds(30))]))
        case 7: return .breakCoalescing
        case 8: return .markSaved(context: pick(contexts))
        case 9: return .revertToSaved(context: pick(contexts), name: "Revert to Saved")
        case 10: return .currentContext(pick(contexts))
        case 11: return .limits(count: pick([nil, 6, 9]), memory: nil)
        case 12: return .forgetSavePoint(context: pick(contexts))
        default: return .cancelGroup  // refused (no group open): nothing recorded
        }
    }

    /// What a reader sees of a history and its documents (not the times: a replay has its own).
    static func state(_ stack: UndoStack, _ store: TextStore) -> String {
        let tree = stack.tree.map { "\($0.id)<\($0.parent) \($0.name ?? "-") \($0.isApplied) \($0.isSavePoint)" }
        let texts = ["a", "b"].map { store[UndoContext($0)] }
        return "\(tree) @\(stack.currentState) p\(stack.position) \(texts) \(stack.currentContext?.name ?? "-")"
            + " \(stack.countLimit ?? 0)"
    }

    @Test("the recorded forms of a random script replay to the same history", arguments: 1...12 as ClosedRange<UInt64>)
    func recordedFormsReplay(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let clock = ManualUndoClock()
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: nil, clock: clock)
        var recorded: [Event] = []
        for step in 0..<200 {
            clock.advance(milliseconds: 10)
            if random.next() % 2 == 0 {
                let context = UndoContext(random.next() % 2 == 0 ? "a" : "b")
                let text = String(UnicodeScalar(UInt8(97 + step % 26)))
                try stack.perform(Append(store: store, text: text, context: context, typing: true))
                recorded.append(.type(text, context))
            } else {
                let operation = Self.randomOperation(&random, states: stack.currentState + 2)
                guard let applied = try? operation.apply(to: stack) else { continue }
                if let form = applied.recorded { recorded.append(.operation(form)) }
            }
        }
        let replayStore = TextStore()
        let replayed = UndoStack(coalescingWindow: nil, clock: ManualUndoClock())
        for event in recorded {
            switch event {
            case .type(let text, let context):
                try replayed.perform(Append(store: replayStore, text: text, context: context, typing: true))
            case .operation(let operation):
                // A recorded form never depends on the clock or the current context.
                switch operation {
                case .earlier, .later, .move: Issue.record("\(operation) is not a recorded form")
                case .undo(_, .current), .redo(_, .current): Issue.record("\(operation) names no scope")
                default: break
                }
                try operation.apply(to: replayed)
            }
        }
        #expect(Self.state(replayed, replayStore) == Self.state(stack, store))
    }

    @Test("a move is recorded as the state it reached; a travel that finds none as nothing")
    func recordedForms() throws {
        let store = TextStore()
        let stack = UndoStack(coalescingWindow: nil)
        for text in ["x", "y", "z"] {
            try stack.perform(Append(store: store, text: text, context: UndoContext("a")))
        }
        #expect(try UndoOperation.move(position: 1).apply(to: stack).recorded == .goTo(state: 1))
        #expect(try UndoOperation.move(position: 1).apply(to: stack).recorded == nil)
        #expect(try UndoOperation.earlier(.states(5)).apply(to: stack).recorded == .goTo(state: 0))
        #expect(try UndoOperation.earlier(.states(1)).apply(to: stack).recorded == nil)
        stack.currentContext = UndoContext("a")
        let redo = try UndoOperation.redo(count: 1, scope: .current).apply(to: stack)
        #expect(redo.recorded == .redo(count: 1, scope: .context("a")) && redo.result?.name == "Insert")
        // An undo that moves nothing is still recorded: it ends the coalescing run.
        stack.currentContext = UndoContext("b")
        let empty = try UndoOperation.undo(count: 1, scope: .current).apply(to: stack)
        #expect(empty.result == nil && empty.recorded == .undo(count: 1, scope: .context("b")))
        #expect(throws: UndoError.groupOpen) {
            try stack.beginGroup(named: "Open")
            try UndoOperation.undo(count: 1, scope: .whole).apply(to: stack)
        }
    }

    @Test("the JSON of every operation is stable and reads back")
    func json() throws {
        let operations: [UndoOperation] = [
            .undo(count: 1, scope: .current), .redo(count: 2, scope: .context("a")), .move(position: 3), .goTo(state: 4),
            .earlier(.states(1)), .later(.time(.seconds(10))), .travelFoundNoState,
            .beginGroup(name: "G", context: nil), .beginGroup(name: nil, context: "a", description: "d"), .endGroup,
            .cancelGroup, .breakCoalescing, .markSaved(context: nil), .forgetSavePoint(context: "a"),
            .revertToSaved(context: "a", name: "Revert to Saved"), .limits(count: 5, memory: nil),
            .coalescingWindow(.seconds(2)), .currentContext("b"), .pauseRecording, .resumeRecording, .removeAll(context: nil),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for operation in operations {
            let data = try encoder.encode(operation)
            #expect(try JSONDecoder().decode(UndoOperation.self, from: data) == operation)
        }
        // The history journal's file format: these spellings were written by its format 1.
        let written = try operations.prefix(4).map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        #expect(written == [#"{"undo":{"count":1,"scope":{"current":{}}}}"#,
                            #"{"redo":{"count":2,"scope":{"context":{"_0":"a"}}}}"#,
                            #"{"move":{"position":3}}"#, #"{"goTo":{"state":4}}"#])
        #expect(String(decoding: try encoder.encode(operations[7]), as: UTF8.self) == #"{"beginGroup":{"name":"G"}}"#)
    }
}
