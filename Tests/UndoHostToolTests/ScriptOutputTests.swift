import Testing
import UndoTestSupport

/// `undo-host run FILE` with the bundled plugins: the text a person reads, compared in full.
@Suite("Scripts: menu titles, history and highlighted results")
struct ScriptOutputTests {
    @Test("Typing coalesces into one step; the menu names the steps; undo and redo highlight the result")
    func letterSession() throws {
        let run = try UndoHostProcess.runScript("""
            # A letter: two bursts of typing are one step, bold is another
            doc letter.txt
            text.insert 0 "Hello"
            text.insert 5 " world"
            menu
            text.bold 6 5
            menu
            undo
            menu
            redo
            history
            save
            text.delete 0 6
            history
            undo
            show
            """)
        #expect(run.status == 0)
        #expect(run.standardError == "")
        #expect(run.standardOutput == """
            Edit (letter.txt)
              Undo Typing    Ctrl+Z
              Redo           Ctrl+Y  (disabled)
            Edit (letter.txt)
              Undo Bold    Ctrl+Z
              Redo         Ctrl+Y  (disabled)
            Undo Bold
            letter.txt (Text Editor)
              Hello [world]
            Edit (letter.txt)
              Undo Typing    Ctrl+Z
              Redo Bold      Ctrl+Y
            Redo Bold
            letter.txt (Text Editor)
              Hello <b>[world]</b>
            History (2 of 2 done)
                 Start
              1  Typing "Hello world"  letter.txt
            > 2  Bold                  letter.txt
            Saved letter.txt
            History (3 of 3 done)
                 Start
              1  Typing "Hello world"  letter.txt
              2  Bold                  letter.txt  saved
            > 3  Delete "Hello "       letter.txt
            Undo Delete
            letter.txt (Text Editor)
              [Hello ]<b>world</b>
            letter.txt (Text Editor)
              [Hello ]<b>world</b>

            """)
    }

    @Test("A drag coalesces into one Move until a break; undo N, undo to N and a named group")
    func canvasSession() throws {
        let run = try UndoHostProcess.runScript("""
            doc sketch
            canvas.add 1 "rect" 0 0 10 10 0xff0000
            canvas.add 2 "circle" 50 50 4 4 0x00ff00
            canvas.move 2 1 0
            canvas.move 2 1 0
            break
            canvas.move 2 0 3
            history
            undo 2
            redo
            undo to 1
            group begin "Paste Shapes"
            canvas.add 3 "rect" 1 1 1 1 0
            canvas.add 4 "rect" 2 2 2 2 0
            group end
            menu
            undo
            """)
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            History (4 of 4 done)
                 Start
              1  Add "rect 1"               sketch
              2  Add "circle 2"             sketch
              3  Move "circle 2" by (2, 0)  sketch
            > 4  Move "circle 2" by (0, 3)  sketch
            Undo 2 steps (newest Move)
            sketch (Canvas)
              #1 rect x=0 y=0 w=10 h=10 color=#ff0000
              [#2 circle x=50 y=50 w=4 h=4 color=#00ff00]
            Redo Move
            sketch (Canvas)
              #1 rect x=0 y=0 w=10 h=10 color=#ff0000
              [#2 circle x=52 y=50 w=4 h=4 color=#00ff00]
            Undo to step 1 (2 steps, newest Move)
            sketch (Canvas)
              #1 rect x=0 y=0 w=10 h=10 color=#ff0000
              (changed and no longer there: #2)
            Edit (sketch)
              Undo Paste Shapes    Ctrl+Z
              Redo                 Ctrl+Y  (disabled)
            Undo Paste Shapes
            sketch (Canvas)
              #1 rect x=0 y=0 w=10 h=10 color=#ff0000
              (changed and no longer there: #3, #4)

            """)
    }

    // The undo in a.txt passes b.txt's newer step: it goes on as a copy (3) and a.txt's step waits
    // above it unnumbered (-, a pending step: no state until it is redone), the steps 1 and 2
    // staying where they were made (state 2 still shows "alpha"), so closing b.txt removes its
    // step and the copy.
    @Test("Each document has its own undo (its undone step becomes the first redo step); close removes one document's steps")
    func documentsKeepTheirOwnUndo() throws {
        let run = try UndoHostProcess.runScript("""
            doc a.txt
            text.insert 0 "alpha"
            doc b.txt
            text.insert 0 "beta"
            doc a.txt
            menu
            undo
            history
            close b.txt
            history
            doc
            """)
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            Edit (a.txt)
              Undo Typing    Ctrl+Z
              Redo           Ctrl+Y  (disabled)
            Undo Typing
            a.txt (Text Editor): empty
            History (1 of 2 done)
                 Start
            > 3  Typing "beta"   b.txt
              -  Typing "alpha"  a.txt  undone
            Closed b.txt: 2 steps left the history; now in a.txt
            History (0 of 1 done)
            >    Start
              -  Typing "alpha"  a.txt  undone
            Documents:
                untitled  0 steps
              > a.txt     1 step

            """)
    }

    @Test("A closed document is forgotten by the plugins too: opened again, it starts empty")
    func aClosedDocumentReopensEmpty() throws {
        let run = try UndoHostProcess.runScript("""
            doc notes.txt
            text.insert 0 "draft"
            close notes.txt
            doc notes.txt
            show
            text.insert 0 "new"
            show
            """)
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("notes.txt (no plugin has it yet): empty"))
        #expect(run.standardOutput.contains("  new"))
        #expect(!run.standardOutput.contains("newdraft"))
    }

    @Test("Revert to saved takes the document back as one step, which undo takes back again")
    func revertToSaved() throws {
        let run = try UndoHostProcess.runScript("""
            doc memo
            text.insert 0 "Buy milk"
            save
            text.insert 8 " and eggs"
            text.italic 0 3
            revert
            menu
            undo
            """)
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            Saved memo
            Revert to Saved
            memo (Text Editor)
              [Buy] milk[]
            Edit (memo)
              Undo Revert to Saved    Ctrl+Z
              Redo                    Ctrl+Y  (disabled)
            Undo Revert to Saved
            memo (Text Editor)
              <i>[Buy]</i> milk[ and eggs]

            """)
    }

    @Test("The alert offers Undo X, Redo Y and Cancel; a script picks one by letter or number")
    func alertChoices() throws {
        let run = try UndoHostProcess.runScript("""
            alert
            text.insert 0 "a"
            break
            text.insert 1 "b"
            undo
            alert
            alert 2
            alert c
            """)
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            Alert: Nothing to Undo
              1) Cancel  [c]
            Undo Typing
            untitled (Text Editor)
              a[]
            Alert: Undo Typing
              1) Undo Typing  [u]
              2) Redo Typing  [r]
              3) Cancel       [c]
            Alert: Undo Typing
              1) Undo Typing  [u]
              2) Redo Typing  [r]
              3) Cancel       [c]
            Redo Typing
            untitled (Text Editor)
              a[b]
            Alert: Undo Typing
              1) Undo Typing  [u]
              2) Cancel       [c]
            Cancelled

            """)
    }

    @Test("Titles follow the locale: --locale ko")
    func koreanTitles() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "x"
            menu
            """, extraArguments: ["--locale", "ko"])
        #expect(run.status == 0)
        let menu = run.lines
        #expect(menu.count == 3)
        #expect(menu[1].hasPrefix("  입력 실행 취소"), "got \(menu)")  // the plugin gives its Korean name
        #expect(menu[1].hasSuffix("Ctrl+Z"))
    }

    @Test("A long document scrolls to the change: the highlight is in view, with what is cut marked")
    func longDocumentScrollsToTheChange() throws {
        var script = "doc long\n"
        for id in 1...40 { script += "canvas.add \(id) \"rect\" 0 0 1 1 0\n" }
        script += "canvas.recolor 33 0xabcdef\nundo\n"
        let run = try UndoHostProcess.runScript(script)
        #expect(run.status == 0)
        let lines = run.lines
        #expect(lines.first == "Undo Color Change")
        #expect(lines.contains("  [#33 rect x=0 y=0 w=1 h=1 color=#000000]"))
        #expect(lines.contains("  ... 28 more lines above"), "got \(lines)")
        #expect(lines.contains("  ... 0 more lines below") == false)
        #expect(!lines.contains("  #1 rect x=0 y=0 w=1 h=1 color=#000000"))
        // The view is 12 lines: the heading, the marks and the lines in sight.
        #expect(lines.count == 1 + 1 + 1 + 12)
    }

    @Test("A long line is cut around the change, with … where it is cut")
    func longLineIsCutAroundTheChange() throws {
        let words = (1...40).map { "word\($0)" }.joined(separator: " ")
        let offset = words.distance(from: words.startIndex, to: try #require(words.range(of: "word20")).lowerBound)
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "\(words)"
            text.bold \(offset) 6
            undo
            """)
        #expect(run.status == 0)
        let line = try #require(run.lines.dropFirst(2).first)
        #expect(line.hasPrefix("  …"))
        #expect(line.hasSuffix("…"))
        #expect(line.contains(" [word20] "), "got \(line)")
        #expect(!line.contains("word1 "))
        #expect(line.count <= 78, "the view is 78 columns wide")
    }
}
