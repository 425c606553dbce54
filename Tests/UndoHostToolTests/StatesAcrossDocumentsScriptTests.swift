import Foundation
import Testing
import UndoTestSupport

/// Issue 32 at undo-host: a new step made at an older state, and an undo in one document that
/// passes the other's steps, leave every state showing what it showed when it was made; the
/// other document keeps its redo step; a reopened journal (with or without a checkpoint) goes on
/// exactly as the session did.
@Suite("Scripts: states across documents")
struct StatesAcrossDocumentsScriptTests {
    /// A sketch step (1), back to the start, a letter step (2): the sketch's step stays a redo
    /// step (pending, numbered 3 when redone); then an undo in the sketch passes the letter's
    /// newer step (4: its copy 5, the sketch's step pending again), and a move of the letter alone.
    static let session = """
        doc sketch
        canvas.add 1 "rect" 10 10 40 30 0xff0000
        goto 0
        doc letter.txt
        text.insert 0 "Dear Ann"
        doc sketch
        redo
        doc letter.txt
        text.insert 8 "!"
        doc sketch
        undo

        """
    static let rest = """
        doc letter.txt
        earlier --doc

        """
    static let questions = """
        tree
        goto 1
        show letter.txt
        show sketch
        goto 4
        show letter.txt
        show sketch
        goto 5
        doc letter.txt
        earlier --doc
        show letter.txt
        doc sketch
        redo
        tree

        """

    @Test("State 1 still has no letter after the letter's step made at the start")
    func aStateKeepsItsDocuments() throws {
        let run = try UndoHostProcess.runScript("""
            doc sketch
            canvas.add 1 "rect" 10 10 40 30 0xff0000
            goto 0
            doc letter.txt
            text.insert 0 "Dear Ann"
            doc sketch
            redo
            goto 1
            show letter.txt
            goto 2
            show sketch
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Redo Add Shape\nsketch (Canvas)\n  [#1 rect"), "\(run.standardOutput)")
        let parts = run.standardOutput.components(separatedBy: "Go to state ")
        #expect(parts.count == 4, "\(run.standardOutput)")
        // At 1: the rectangle and no letter (the letter's step was made after it, at the start).
        #expect(parts[2].hasPrefix("1: ") && parts[2].contains("[#1 rect") && parts[2].hasSuffix("letter.txt (Text Editor): empty\nletter.txt (Text Editor): empty\n"),
                "\(parts[2])")
        // At 2: the letter and no rectangle.
        #expect(parts[3].hasPrefix("2: ") && parts[3].contains("[Dear Ann]") && parts[3].contains("sketch (Canvas): empty")
                && !parts[3].contains("[#1 rect"), "\(parts[3])")
    }

    @Test("A reopened journal goes on as the session did", arguments: [false, true])
    func aReopenedJournalKeepsTheCopies(checkpoint: Bool) throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("states.undojournal").path
        let built = Self.session + (checkpoint ? "checkpoint\n" : "") + Self.rest
        let first = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal], input: built)
        #expect(first.status == 0, "\(first.standardError)")
        let reopened = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal], input: Self.questions)
        #expect(reopened.status == 0, "\(reopened.standardError)")
        let live = try UndoHostProcess.run(UndoHostProcess.samplePlugins, input: Self.session + Self.rest + Self.questions)
        #expect(live.status == 0, "\(live.standardError)")
        let answers = reopened.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.hasPrefix("undo-host: journal") }.joined(separator: "\n")
        #expect(!answers.isEmpty && live.standardOutput.hasSuffix(answers), "\(answers)\n---\n\(live.standardOutput)")
        // Each state as it was made: 1 without the letter, 4 with both, 5 (a copy) as 4 without
        // the sketch; the sketch's step waits unnumbered (no state in the tree) through the
        // reopen, and redone it is state 8.
        #expect(answers.contains("Go to state 1: at state 1 (4 steps)\nletter.txt (Text Editor): empty\n"), "\(answers)")
        #expect(answers.contains("letter.txt (Text Editor)\n  [Dear Ann!]\nsketch (Canvas)\n  [#1 rect"), "\(answers)")
        #expect(answers.contains("o 5  Typing \"!\"  (letter.txt)\n@ 6  Go to State 2  (letter.txt, current)\n"), "\(answers)")
        #expect(answers.contains("History tree (6 steps, 3 branches, at state 6)"), "\(answers)")
        #expect(answers.contains("@ 8  Add \"rect 1\"  (sketch, current)"), "\(answers)")
    }
}

/// `tree --doc` draws the states `earlier --doc` and `later --doc` go through: neither a
/// document move's step nor a copy, and the state the document is at as the current one.
@Suite("Scripts: a document's own tree")
struct DocumentTreeScriptTests {
    @Test("tree --doc agrees with earlier --doc and later --doc")
    func treeAgreesWithTheMoves() throws {
        let run = try UndoHostProcess.runScript("""
            doc a
            text.insert 0 "x"
            doc b
            text.insert 0 "y"
            doc a
            break
            text.insert 1 "z"
            earlier --doc
            tree --doc
            doc b
            undo
            doc a
            tree --doc
            later --doc
            """)
        #expect(run.status == 0, "\(run.standardError)")
        // 4 (the move of a back to 1) and the copies of 3 and 4 the undo in b made are no
        // states of a; a is at 1, and later --doc goes to 3, the next one drawn.
        let tree = """
            o 0  Start
            @ 1  Typing "x"  (current)
            o 3  Typing "z"

            """
        #expect(run.standardOutput.components(separatedBy: tree).count == 3, "\(run.standardOutput)")
        #expect(run.standardOutput.hasSuffix("Go to state 3 of a\na (Text Editor)\n  x[z]\n"), "\(run.standardOutput)")
    }

    /// The figure the guides give (docs/undo-host.md, docs/using-the-history-from-swift.md): 20
    /// redo steps kept in one document wait unnumbered while 30 changes are made in another, so
    /// the tree holds 50 steps (the 20 where they were made and the 30), not 650 as when each
    /// change hung them as a branch and copied them above itself; redone, the 20 make 70. When
    /// these figures change, so do the guides.
    @Test("Undoing 20 steps in one document and making 30 changes in another makes 50 steps, as the guides say")
    func keptRedoStepsDoNotGrowWithTheChanges() throws {
        var script = "doc a\n" + String(repeating: "text.insert 0 \"a\"\nbreak\n", count: 20) + "undo 20\n"
        script += "doc b\n" + String(repeating: "text.insert 0 \"b\"\nbreak\n", count: 30) + "tree\n"
        script += "doc a\nredo 20\ntree\n"
        let run = try UndoHostProcess.runScript(script)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("History tree (50 steps, 2 branches, at state 50)"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("History tree (70 steps, 2 branches, at state 70)"), "\(run.standardOutput)")
    }
}
