import Foundation
import Testing
import UndoTestSupport

/// The history's rules for open groups, saves and reverts, as a person at undo-host sees them
/// (the built binary, the bundled plugins).
@Suite("Scripts: open groups, saves inside groups, reverts")
struct GroupsSavesAndRevertsScriptTests {
    @Test("While a group is open the menu offers no undo or redo, in text and in --json")
    func anOpenGroupOffersNothing() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "Hi"
            group begin "Paste"
            text.insert 2 "!"
            menu
            group end
            menu
            """)
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            Edit (untitled)
              Undo    Ctrl+Z  (disabled)
              Redo    Ctrl+Y  (disabled)
            Edit (untitled)
              Undo Paste    Ctrl+Z
              Redo          Ctrl+Y  (disabled)

            """)
        let json = try UndoHostProcess.run(["--json"], input: "text.insert 0 \"Hi\"\ngroup begin \"Paste\"\nmenu\ngroup end\n")
        let lines = json.standardOutput.split(separator: "\n")
        let menu = try #require(lines.first { $0.contains("\"command\":\"menu\"") })
        #expect(menu.contains("\"canUndo\":false") && menu.contains("\"canRedo\":false"))
        #expect(menu.contains("\"enabled\":false") && !menu.contains("\"enabled\":true"))
    }

    @Test("A save inside an open group is refused, and nothing is marked saved")
    func aSaveInsideAGroupIsRefused() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "Hi"
            group begin "Paste"
            text.insert 2 "!"
            save
            """)
        #expect(run.status != 0)
        #expect(run.standardError.contains("a group \"Paste\" is open"))
        #expect(!run.standardOutput.contains("Saved"))
    }

    @Test("Revert to saved is one step; undoing it gives back the state before it, then each step on its own")
    func revertKeepsEveryLevel() throws {
        let run = try UndoHostProcess.runScript("""
            doc letter.txt
            text.insert 0 "x"
            save
            text.bold 0 1
            text.insert 1 "y"
            text.delete 0 1
            revert
            history
            undo
            menu
            undo
            menu
            """)
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            Saved letter.txt
            Revert to Saved
            letter.txt (Text Editor)
              [x]
            History (5 of 5 done)
                 Start
              1  Typing "x"       letter.txt  saved
              2  Bold             letter.txt
              3  Typing "y"       letter.txt
              4  Delete "x"       letter.txt
            > 5  Revert to Saved  letter.txt  group of 3 actions, saved
            Undo Revert to Saved
            letter.txt (Text Editor)
              [y]
            Edit (letter.txt)
              Undo Delete             Ctrl+Z
              Redo Revert to Saved    Ctrl+Y
            Undo Delete
            letter.txt (Text Editor)
              <b>[x]</b>y
            Edit (letter.txt)
              Undo Typing    Ctrl+Z
              Redo Delete    Ctrl+Y

            """)
    }
}
