// docs:begin quick-start
import UndoCore

// docs:end quick-start
extension DocExamples {
    /// README.md, "A first history".
    static func quickStart() throws {
        // docs:begin quick-start
        final class Document { var text = "" }

        struct Insert: UndoCommand {
            let document: Document
            var text: String
            var name: String? { "Typing" }                                // "Undo Typing"
            var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("typing") }

            mutating func perform(_ changes: inout UndoChanges) throws {
                changes.report(context: .global, location: Int64(document.text.count), length: Int64(text.count))
                document.text += text
            }
            mutating func undo(_ changes: inout UndoChanges) throws {
                document.text.removeLast(text.count)
                changes.report(context: .global, location: Int64(document.text.count))
            }
            mutating func merge(with next: Insert) -> UndoMerge {       // keystrokes join one step
                text += next.text
                return .merged
            }
        }

        let document = Document()
        let history = UndoStack()                    // unlimited; UndoStack(countLimit: 100) caps it
        for key in "Hello" { try history.perform(Insert(document: document, text: String(key))) }
        print(history.undoMenuTitle)
        let result = try history.undo()              // the whole burst, and where it changed
        print("text: \"\(document.text)\", changed at", result?.changes.compactMap(\.location) ?? [])
        print(history.redoMenuTitle)
        // docs:end quick-start
    }
}
