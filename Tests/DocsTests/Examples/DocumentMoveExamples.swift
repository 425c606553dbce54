import UndoCore

extension DocExamples {
    /// docs/using-the-history-from-swift.md, "Moves of one document".
    static func movesOfOneDocument() throws {
        // docs:begin moves-of-one-document
        final class Texts { var byDocument: [UndoContext: String] = [:] }

        struct Append: UndoCommand {
            let texts: Texts
            let text: String
            let context: UndoContext
            var name: String? { "Type" }
            func perform(_ changes: inout UndoChanges) throws { texts.byDocument[context, default: ""] += text }
            func undo(_ changes: inout UndoChanges) throws { texts.byDocument[context]!.removeLast(text.count) }
        }

        let letter = UndoContext("letter.txt"), list = UndoContext("list.txt")
        let texts = Texts()
        let history = UndoStack()
        try history.perform(Append(texts: texts, text: "Dear Ann", context: letter))   // state 1
        try history.perform(Append(texts: texts, text: "milk", context: list))         // state 2
        try history.perform(Append(texts: texts, text: ", thanks", context: letter))   // state 3
        try history.perform(Append(texts: texts, text: " eggs", context: list))        // state 4
        func show() { print(texts.byDocument[letter]!, "|", texts.byDocument[list]!) }

        print(history.documentStates(of: letter))        // the letter's own states
        try history.earlier(1, in: letter)               // the letter alone, one of its states back
        show()
        try history.earlier(1, in: letter)
        show()
        try history.later(2, in: letter)
        show()
        try history.goTo(state: 1, in: letter)           // its content at state 1, on any branch
        show()
        print("the letter is at state", history.documentState(of: letter), "| the history at", history.currentState)
        try history.undo()                               // a move is one step
        show()
        // docs:end moves-of-one-document
    }
}
