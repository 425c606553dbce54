// docs:begin step-texts
import UndoCore

// docs:end step-texts
extension DocExamples {
    /// docs/using-the-history-from-swift.md, "A step's description and values".
    static func stepTexts() throws {
        // docs:begin step-texts
        final class Document { var text = "" }

        struct Typing: UndoCommand {
            let document: Document
            var typed: String
            let offset: Int
            var name: String? { "Typing" }                            // the Edit menu
            var historyDescription: String? { "Typing \"\(typed)\"" } // a history list
            var historyValues: [UndoStepValue] {                      // what the list may show of it
                [UndoStepValue(label: "offset", value: String(offset)), UndoStepValue(label: "text", value: typed)]
            }
            var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("typing") }
            func perform(_ changes: inout UndoChanges) throws { document.text += typed }
            func undo(_ changes: inout UndoChanges) throws { document.text.removeLast(typed.count) }
            mutating func merge(with next: Typing) -> UndoMerge {
                typed += next.typed
                return .merged
            }
        }

        let document = Document()
        let history = UndoStack()
        try history.perform(Typing(document: document, typed: "hel", offset: 0))
        try history.perform(Typing(document: document, typed: "lo", offset: 3))
        try history.beginGroup(named: "Paste", description: "Paste 2 lines")
        try history.perform(Typing(document: document, typed: "\na\nb", offset: 5))
        try history.endGroup()
        print(history.undoMenuTitle)
        for step in history.steps {
            let values = history.historyValues(at: step.index).map { "\($0.label): \($0.value)" }
            print(step.index, history.historyText(at: step.index) ?? "-", values)
        }
        // docs:end step-texts
    }
}
