import Foundation
import Testing
import UndoTestSupport

/// Issue 32 at undo-host (the built binary, the bundled plugins): a revert keeps every state
/// number's meaning, reaches a saved state on another branch, says the true reason when it
/// cannot, and a distance of nothing says so; what it prints never depends on the hash seed.
@Suite("Scripts: states that keep their meaning")
struct StateMeaningScriptTests {
    @Test("The demo's revert of the letter keeps the history in the order it was made")
    func theDemoHistoryStaysInOrder() throws {
        let run = try UndoHostProcess.run(["demo"])
        #expect(run.status == 0, "\(run.standardError)")
        let history = try #require(run.standardOutput.components(separatedBy: "undo-host> history\n").last)
        let numbers = history.split(separator: "\n").prefix(8).compactMap { line -> Int? in
            let trimmed = line.drop { $0 == " " || $0 == ">" }
            return Int(trimmed.prefix { $0.isNumber })
        }
        #expect(numbers == [1, 2, 3, 4, 5, 6], "\(history)")
    }

    @Test("goto 2 after the revert shows what state 2 showed when it was made")
    func aStateNumberKeepsItsDocuments() throws {
        let run = try UndoHostProcess.runScript("""
            doc letter.txt
            text.insert 0 "Dear Ann"
            save
            text.insert 8 "!"
            doc sketch
            canvas.add 1 "rect" 10 10 40 30 0xff0000
            canvas.add 2 "circle" 80 20 16 16 0x0000ff
            goto 2
            show sketch
            goto 4
            doc letter.txt
            revert
            goto 2
            show sketch
            show letter.txt
            """)
        #expect(run.status == 0, "\(run.standardError)")
        // Both times state 2 (each goto and each show): no shapes yet (they were added after it), the letter with its "!".
        #expect(run.standardOutput.components(separatedBy: "sketch (Canvas): empty\n").count == 5, "\(run.standardOutput)")
        #expect(run.standardOutput.hasSuffix("letter.txt (Text Editor)\n  Dear Ann[!]\n"), "\(run.standardOutput)")
    }

    @Test("A revert after branching away from the save reaches it, as Vim's :e! does")
    func revertAcrossBranches() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "a"
            save
            undo
            text.insert 0 "b"
            revert
            show
            undo
            show
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Revert to Saved\nuntitled (Text Editor)\n  [a]\n"))
        #expect(run.standardOutput.hasSuffix("untitled (Text Editor)\n  [b]\n"))
    }

    @Test("After save --forget, revert says the save point was forgotten")
    func revertAfterForgetSaysWhy() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "a"
            save
            text.insert 1 "b"
            save --forget
            expect UNDO_ESTATE revert
            revert
            """)
        #expect(run.status == 1)
        #expect(run.standardError.contains("untitled has no saved state to go back to: its save point was forgotten"),
                "\(run.standardError)")
        #expect(!run.standardError.contains("dropped"))
    }

    @Test("earlier 0, later 0, earlier 0f and earlier 0s stay and say so", arguments: ["earlier 0", "later 0", "earlier 0f", "later 0f", "earlier 0s", "later 0s"])
    func aDistanceOfNothing(command: String) throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "a"
            break
            text.insert 1 "b"
            undo
            \(command)
            show
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("\(command): a distance of 0 moves nowhere; still at state 1"), "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("first state") && !run.standardOutput.contains("newest state"))
        #expect(run.standardOutput.hasSuffix("untitled (Text Editor)\n  a[]\n"), "\(run.standardOutput)")
    }

    @Test("The Korean session says the new refusals in Korean")
    func koreanWords() throws {
        let run = try UndoHostProcess.run(["--locale", "ko", "--keep-going"], input: "text.insert 0 \"a\"\nsave --forget\nrevert\nearlier 0\n")
        #expect(run.standardError.contains("저장 지점을 잊었습니다"), "\(run.standardError)")
        #expect(run.standardOutput.contains("거리가 0이면 움직이지 않습니다"), "\(run.standardOutput)")
    }

    /// Branch numbers, state numbers and the order of everything listed follow the history, not
    /// the per-process hash seed: twenty runs of one script print the same tree.
    @Test("Twenty runs of one branching script in two documents print the same tree")
    func theTreeDoesNotFollowTheHashSeed() throws {
        var script = ""
        for round in 0..<6 {
            script += """
                doc a
                text.insert 0 "a\(round)"
                doc b
                text.insert 0 "b\(round)"
                undo
                doc a
                undo
                text.insert 0 "c\(round)"
                goto \(round * 2)
                doc b
                text.insert 0 "d\(round)"
                revert

                """
        }
        script += "tree\n"
        var trees: Set<String> = []
        for _ in 0..<20 {
            let run = try UndoHostProcess.run(["--json", "--keep-going"], input: script)
            let tree = try #require(run.standardOutput.split(separator: "\n").last)
            // Ages differ from run to run; everything else must not.
            trees.insert(String(tree.replacing(/"ageMilliseconds":\d+,/, with: "")))
        }
        #expect(trees.count == 1)
    }
}

@Suite("Scripts: what the tree marks")
struct TreeMarksScriptTests {
    @Test("The tree tells the state saved now from one saved before, marks where redo goes, shows descriptions")
    func savedNowWasSavedAndRedo() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "a"
            save
            break
            text.insert 1 "b"
            save
            undo
            tree
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("""
            History tree (2 steps, 1 branch, at state 1)
            o 0  Start
            @ 1  Typing "a"  (was saved, current)
            o 2  Typing "b"  (saved, redo)

            """), "\(run.standardOutput)")
        let json = try UndoHostProcess.run(["--json"], input: "text.insert 0 \"a\"\nsave\nundo\ntree\n")
        let tree = try #require(json.standardOutput.split(separator: "\n").last)
        #expect(tree.contains("\"saved\":true,\"savedNow\":true,\"redo\":true,\"text\":\"Typing \\\"a\\\"\""), "\(tree)")
    }

    @Test("tree --doc draws the current document's own tree: its states, each under the one before it")
    func documentTree() throws {
        let run = try UndoHostProcess.runScript("""
            doc a
            text.insert 0 "a1"
            doc b
            text.insert 0 "b1"
            doc a
            break
            text.insert 0 "a2"
            undo
            text.insert 0 "a3"
            doc b
            break
            text.insert 0 "b2"
            doc a
            tree --doc
            doc b
            tree --doc
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("""
            History tree (3 steps, 2 branches, at state 4)
            o 0  Start
            o 1  Typing "a1"
            ├─o 3  Typing "a2"
            @ 4  Typing "a3"  (current)
            History tree (2 steps, 1 branch, at state 5)
            o 0  Start
            o 2  Typing "b1"
            @ 5  Typing "b2"  (current)

            """), "\(run.standardOutput)")
    }

    @Test("tree --doc counts the branches it draws: a line is one, though its states lie on two branches of the whole history")
    func documentTreeCountsItsOwnBranches() throws {
        // The undo in b moves its step past a's second one, which stays where it was made (a
        // branch) and comes back as a copy: a's states 1 and 3 lie on two branches of the whole
        // history, one line in a's own tree. b's step waits above unnumbered (a pending step: no
        // state, not drawn).
        let run = try UndoHostProcess.runScript("""
            doc a
            text.insert 0 "a1"
            doc b
            text.insert 0 "b1"
            doc a
            text.insert 0 "a2"
            doc b
            undo
            doc a
            tree --doc
            tree
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("""
            History tree (2 steps, 1 branch, at state 3)
            o 0  Start
            o 1  Typing "a1"
            @ 3  Typing "a2"  (current)
            History tree (4 steps, 2 branches, at state 4)
            o 0  Start
            o 1  Typing "a1"  (a)
            ├─o 2  Typing "b1"  (b)
            │ o 3  Typing "a2"  (a)
            @ 4  Typing "a2"  (a, current)

            """), "\(run.standardOutput)")
    }

    @Test("history --json gives a pending step no number (null), as the text shows -")
    func pendingStepHasNoNumberInJSON() throws {
        // b's step, undone, waits above a's new change as a pending step.
        let script = """
            doc a
            text.insert 0 "x"
            doc b
            text.insert 0 "y"
            undo
            doc a
            undo
            text.insert 0 "z"
            history

            """
        let text = try UndoHostProcess.run(["--keep-going"], input: script)
        #expect(text.standardOutput.hasSuffix("""
            > 3  Typing "z"  a
              -  Typing "y"  b  undone

            """), "\(text.standardOutput)")
        let json = try UndoHostProcess.run(["--json", "--keep-going"], input: script)
        let history = try #require(json.standardOutput.split(separator: "\n").last)
        #expect(history.contains("{\"number\":3,\"name\":\"Typing\",\"description\":\"Typing \\\"z\\\"\""), "\(history)")
        #expect(history.contains("{\"number\":null,\"name\":\"Typing\",\"description\":\"Typing \\\"y\\\"\""), "\(history)")
        #expect(!history.contains("\"number\":0"), "\(history)")
    }

    @Test("tree --clock shows each state's time of day")
    func clockTimes() throws {
        let run = try UndoHostProcess.runScript("text.insert 0 \"a\"\ntree --clock\n")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains(/@ 1  Typing "a"  \(\d\d:\d\d:\d\d UTC, current\)/), "\(run.standardOutput)")
    }
}

@Suite("Scripts: a look without a move")
struct LookScriptTests {
    static let branched = """
        text.insert 0 "Dear Ann"
        break
        text.insert 8 "!"
        save
        undo
        text.insert 0 "Hi "

        """

    @Test("show --at N and diff N M give the document as at those states; the history stays as it was")
    func showAtAndDiff() throws {
        let run = try UndoHostProcess.runScript(Self.branched + """
            tree
            menu
            show --at 2
            show --at 0
            diff 1
            diff 2 3
            diff 3 3
            tree
            menu
            """)
        #expect(run.status == 0, "\(run.standardError)")
        let output = run.standardOutput
        #expect(output.contains("""
            untitled (Text Editor, state 2)
              Dear Ann!
            untitled (Text Editor, state 0): empty
            untitled (Text Editor): state 1 -> now
            - Dear Ann
            + Hi Dear Ann
            untitled (Text Editor): state 2 -> state 3
            - Dear Ann!
            + Hi Dear Ann
            untitled (Text Editor): state 3 -> state 3
              no difference
            """), "\(output)")
        // The tree and the menu after the looks are those before them.
        let trees = output.components(separatedBy: "History tree")
        #expect(trees.count == 3)
        let first = trees[1].components(separatedBy: "untitled (Text Editor, state 2)")[0]
        #expect(first == trees[2], "\(trees)")
    }

    @Test("A look is not journaled: reopening the journal restores the same changes")
    func notJournaled() throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("look.undojournal").path
        _ = try UndoHostProcess.run(["--journal", journal], input: Self.branched)
        let looked = try UndoHostProcess.run(["--journal", journal], input: "show --at 2\ndiff 1 2\n")
        #expect(looked.status == 0, "\(looked.standardError)")
        let reopened = try UndoHostProcess.run(["--journal", journal], input: "tree\n")
        // Six changes before the looks, six after: the looks wrote nothing.
        #expect(looked.standardError.hasPrefix("undo-host: journal \(journal): 6 changes restored\n"), "\(looked.standardError)")
        #expect(reopened.standardError.hasPrefix("undo-host: journal \(journal): 6 changes restored\n"), "\(reopened.standardError)")
        #expect(reopened.standardOutput.contains("@ 3  Typing \"Hi \"  (current)"), "\(reopened.standardOutput)")
    }

    @Test("A look at a state that does not exist names it; a look inside a group is refused")
    func refusals() throws {
        let run = try UndoHostProcess.run(["--keep-going"], input: Self.branched + "show --at 9\ngroup begin\nshow --at 1\ngroup end\ndiff x\n")
        #expect(run.standardError.contains("no state 9 in the history"), "\(run.standardError)")
        #expect(run.standardError.contains("is open"), "\(run.standardError)")
        #expect(run.standardError.contains("diff: \"x\" is not a state number"), "\(run.standardError)")
    }
}
