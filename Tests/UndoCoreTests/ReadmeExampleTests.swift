import Testing
import UndoCore

// The README's first example, kept here so it cannot drift from what compiles and runs.
private final class Document { var text = "" }

private struct Insert: UndoCommand {
    let document: Document
    var text: String
    var name: String? { "Typing" }
    var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("typing") }

    mutating func perform(_ changes: inout UndoChanges) throws {
        changes.report(context: .global, location: Int64(document.text.count), length: Int64(text.count))
        document.text += text
    }
    mutating func undo(_ changes: inout UndoChanges) throws {
        document.text.removeLast(text.count)
        changes.report(context: .global, location: Int64(document.text.count))
    }
    mutating func merge(with next: Insert) -> UndoMerge {
        text += next.text
        return .merged
    }
}

@Suite struct ReadmeExample {
    @Test func theQuickExampleWorksAsTheReadmeSays() throws {
        let document = Document()
        let history = UndoStack()
        for key in "Hello" { try history.perform(Insert(document: document, text: String(key))) }
        #expect(history.undoMenuTitle == "Undo Typing")
        let result = try history.undo()
        #expect(document.text == "")
        #expect(result?.changes == [UndoChange(context: .global, location: 0)])
        #expect(history.redoMenuTitle == "Redo Typing")
    }
}
