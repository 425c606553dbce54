import Testing
@testable import UndoCore

/// Documents whose commands check that they are undone in order, recording any violation
/// instead of trapping, so a random session can be judged at the end.
private final class Documents {
    var texts: [UndoContext: String] = [:]
    var selections: [UndoContext: Int] = [:]
    var violations: [String] = []
}

private struct Type: UndoCommand {
    let documents: Documents
    var text: String
    var context: UndoContext
    var typing: Bool
    var name: String? { typing ? "Typing" : "Insert" }
    var coalescingKey: UndoCoalescingKey? { typing ? UndoCoalescingKey("typing") : nil }
    var cost: Int { 24 + text.utf8.count }
    mutating func perform(_ changes: inout UndoChanges) throws { documents.texts[context, default: ""] += text }
    mutating func undo(_ changes: inout UndoChanges) throws {
        let current = documents.texts[context, default: ""]
        guard current.hasSuffix(text) else {
            documents.violations.append("undo of \(text) in \(context): document is \(current)")
            return
        }
        documents.texts[context] = String(current.dropLast(text.count))
    }
    mutating func merge(with next: Type) -> UndoMerge { text += next.text; return .merged }
}

/// A selection change: undoable, but it never makes a document dirty, and it leaves the text alone.
private struct Select: UndoCommand {
    let documents: Documents
    var context: UndoContext
    var name: String? { "Selection" }
    var isDiscardable: Bool { true }
    mutating func perform(_ changes: inout UndoChanges) throws { documents.selections[context, default: 0] += 1 }
    mutating func undo(_ changes: inout UndoChanges) throws { documents.selections[context, default: 0] -= 1 }
}

@Suite struct RandomHistory {
    /// Random sessions mixing contexts, groups, coalescing, limits, save points, reverts and
    /// closed documents. After every operation the record is consistent and a clean context
    /// shows its saved text; at the end, undoing everything and redoing it passes back through
    /// the same states, with no step undone out of order.
    @Test(arguments: 1...40)
    func randomSessionsStayConsistent(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let contexts = [UndoContext("a"), UndoContext("b"), UndoContext("c")]
        let documents = Documents()
        let clock = ManualUndoClock()
        let stack = UndoStack(countLimit: seed % 3 == 0 ? 25 : nil, memoryLimit: seed % 3 == 1 ? 600 : nil, clock: clock)
        var savedText: [UndoContext: String] = Dictionary(uniqueKeysWithValues: contexts.map { ($0, "") })
        var letter = 0
        var trace: [String] = []

        for _ in 0..<1000 {
            let context = contexts.randomElement(using: &random)!
            let roll = Int.random(in: 0..<100, using: &random)
            clock.advance(milliseconds: UInt64.random(in: 0...300, using: &random))
            trace.append("\(roll)@\(context) depth=\(stack.groupDepth) pos=\(stack.position)/\(stack.count) \(documents.texts.sorted { $0.key.name < $1.key.name }.map { "\($0.key)=\($0.value)" })")
            switch roll {
            case 0..<35:
                letter += 1
                let text = String(UnicodeScalar(UInt8(97 + letter % 26)))
                try stack.perform(Type(documents: documents, text: text, context: context, typing: roll < 20))
            case 35..<40:
                try stack.perform(Select(documents: documents, context: context))
            case 40..<52:
                _ = try? stack.undo(in: Bool.random(using: &random) ? context : nil)
            case 52..<60:
                _ = try? stack.redo(in: Bool.random(using: &random) ? context : nil)
            case 60..<63:
                _ = try? stack.undo(count: Int.random(in: 1...5, using: &random), in: nil)
            case 63..<66:
                _ = try? stack.redo(count: Int.random(in: 1...5, using: &random), in: context)
            case 66..<72:
                if stack.groupDepth < 3 { try stack.beginGroup(named: "Group", context: context) }
            case 72..<78:
                if stack.groupDepth > 0 { try stack.endGroup() }
            case 78..<83:
                if stack.groupDepth == 0 {
                    try stack.markSaved(context)
                    savedText[context] = documents.texts[context, default: ""]
                }
            case 83..<87:
                if stack.groupDepth == 0, stack.canRevertToSaved(context) {
                    try stack.revertToSaved(context)
                    #expect(documents.texts[context, default: ""] == savedText[context], "revert of \(context)")
                }
            case 87..<89:
                if stack.groupDepth == 0 && Int.random(in: 0..<4, using: &random) == 0 {
                    try stack.removeAll(in: context)
                    // Closed: its history is gone, and its state now counts as saved.
                    savedText[context] = documents.texts[context, default: ""]
                }
            case 89..<92:
                _ = try? stack.move(to: Int.random(in: 0...stack.count, using: &random))
            default:
                stack.breakCoalescing()
            }
            stack.checkInvariants()
            if !documents.violations.isEmpty {
                Issue.record("\(documents.violations); last steps:\n\(trace.suffix(12).joined(separator: "\n"))\n\(stack.steps.map { "\($0.serial) \($0.context) \($0.name ?? "-") \($0.isApplied) \($0.isSavePoint)" })")
                return
            }
            for context in contexts where stack.groupDepth == 0 && !stack.isDirty(context) {
                if let saved = savedText[context], documents.texts[context, default: ""] != saved {
                    Issue.record("clean \(context) shows \(documents.texts[context, default: ""]), saved \(saved); last steps:\n\(trace.suffix(12).joined(separator: "\n"))\n\(stack.steps.map { "\($0.serial) \($0.context) \($0.name ?? "-") \($0.isApplied) \($0.isSavePoint)" })")
                    return
                }
            }
        }
        while stack.groupDepth > 0 { try stack.endGroup() }
        let before = documents.texts
        let done = stack.undoCount
        try stack.undo(count: done, in: nil)
        try stack.redo(count: done, in: nil)
        #expect(documents.violations == [])
        #expect(documents.texts == before)
        stack.checkInvariants()
    }
}
