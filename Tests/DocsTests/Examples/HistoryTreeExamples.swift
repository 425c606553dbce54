import UndoCore

extension DocExamples {
    /// docs/using-the-history-from-swift.md, "Branches and time travel".
    static func branchesAndTimeTravel() throws {
        // docs:begin branches-and-time-travel
        final class Note { var text = "" }

        struct Type: UndoCommand {
            let note: Note
            let text: String
            var name: String? { "Type \"\(text.trimmingPrefix(" "))\"" }
            func perform(_ changes: inout UndoChanges) throws { note.text += text }
            func undo(_ changes: inout UndoChanges) throws { note.text.removeLast(text.count) }
        }

        let clock = ManualUndoClock()                 // a test clock; programs keep the default
        let note = Note()
        let history = UndoStack(clock: clock)
        for word in ["one", " two", " three"] {       // states 1, 2, 3
            try history.perform(Type(note: note, text: word))
            clock.advance(milliseconds: 60_000)
        }
        try history.markSaved()
        try history.undo(count: 2)
        try history.perform(Type(note: note, text: " four"))   // state 4; "two three" is kept as a branch
        print(note.text, "| steps on this branch:", history.count, "| in the tree:", history.treeCount)

        try history.goTo(state: 3)                    // Vim's :undo 3
        print(note.text, "| current state:", history.currentState)
        try history.earlier(.states(1))               // g-: the state made before this one
        print(note.text)
        try history.later(.states(2))                 // g+ twice, across branches
        print(note.text)
        try history.earlier(.saves(1))                // :earlier 1f, the save this state grew from
        print(note.text, "| edited:", history.isDirty())
        try history.earlier(.time(.seconds(90)))      // :earlier 90s
        print(note.text)
        try history.later(.time(.seconds(90)))        // :later 90s: back where :earlier 90s started
        print(note.text)
        let look = try history.withDocuments(atState: 4) { note.text }   // a look without a move
        print(look, "| still", note.text, "at state", history.currentState)
        for node in history.tree {
            print("\(node.id) after \(node.parent), branch \(node.branch): \(node.name ?? "")\(node.isCurrent ? " (current)" : "")")
        }
        // docs:end branches-and-time-travel
    }
}
