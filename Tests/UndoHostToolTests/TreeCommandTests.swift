import Foundation
import Testing
import UndoHostSession
import UndoTestSupport

/// `earlier`, `later`, `goto` and `tree` at undo-host (the built binary, the bundled plugins).
@Suite("Scripts: branches and time travel")
struct TreeCommandTests {
    static let branched = """
        text.insert 0 "a"
        break
        text.insert 1 "b"
        break
        text.insert 2 "c"
        undo 2
        text.insert 1 "d"
        """

    @Test("A change after undoing keeps a branch; tree draws it; goto moves onto it")
    func treeAndGoto() throws {
        let run = try UndoHostProcess.runScript(Self.branched + """

            tree
            goto 3
            undo
            redo
            tree
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("""
            History tree (4 steps, 2 branches, at state 4)
            o 0  Start
            o 1  Typing "a"
            ├─o 2  Typing "b"
            │ o 3  Typing "c"
            @ 4  Typing "d"  (current)
            Go to state 3: at state 3 (3 steps)
            """))
        // Redo after returning to the fork took the branch last used (c after b), and the tree
        // now continues along it.
        #expect(run.standardOutput.hasSuffix("""
            History tree (4 steps, 2 branches, at state 3)
            o 0  Start
            o 1  Typing "a"
            ├─o 4  Typing "d"
            o 2  Typing "b"
            @ 3  Typing "c"  (current)

            """))
    }

    @Test("earlier and later go through the states in the order they were made, and by saves")
    func earlierAndLater() throws {
        let run = try UndoHostProcess.runScript(Self.branched + """

            save
            earlier
            earlier 2
            later 3
            earlier 1f
            later 1f
            """)
        #expect(run.status == 0, "\(run.standardError)")
        let titles = run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("Earlier") || $0.hasPrefix("Later") }
        #expect(titles == ["Earlier 1: at state 3 (3 steps)", "Earlier 2: at state 1 (2 steps)",
                           "Later 3: at state 4 (1 step)", "Earlier 1f: at state 0 (2 steps)",
                           "Later 1f: at state 4 (2 steps)"])
    }

    @Test("Mistakes are named: an unknown state, a bad distance, nothing earlier, a group open")
    func mistakes() throws {
        let run = try UndoHostProcess.run(["--keep-going"], input: Self.branched + """

            goto 9
            goto x
            earlier 3x
            later
            goto 0
            earlier
            group begin "G"
            goto 1
            tree --pretty
            """)
        #expect(run.status == 1)
        #expect(run.standardError.contains("<stdin>:8: UNDO_ENOTFOUND: goto: no state 9 in the history (it never existed, or a limit dropped it)\n  hint: type tree to see every state\n"))
        #expect(run.standardError.contains("<stdin>:9: UNDO_EINVAL: goto: \"x\" is not a state number"))
        #expect(run.standardError.contains("<stdin>:10: UNDO_EINVAL: earlier: \"3x\" is not a distance"))
        #expect(run.standardError.contains("<stdin>:11: UNDO_EEMPTY: nothing later: the history is at its newest state"))
        #expect(run.standardError.contains("<stdin>:13: UNDO_EEMPTY: nothing earlier"))
        #expect(run.standardError.contains("<stdin>:15: UNDO_ESTATE: a group \"G\" is open"))
        #expect(run.standardError.contains("<stdin>:16: UNDO_EINVAL: tree: unexpected \"--pretty\""))
    }

    @Test("tree --dot is Graphviz; --json gives the states")
    func dotAndJSON() throws {
        let dot = try UndoHostProcess.runScript(Self.branched + "\ntree --dot\n")
        #expect(dot.standardOutput.contains("digraph history {"))
        #expect(dot.standardOutput.contains("    s1 -> s2;\n"))
        #expect(dot.standardOutput.contains("    s1 -> s4 [style=bold];\n"))
        #expect(dot.standardOutput.contains("s4 [label=\"4 Typing\\nuntitled\", style=filled, fillcolor=lightblue];"))
        let json = try UndoHostProcess.run(["--json"], input: Self.branched + "\ntree\ngoto 2\n")
        let lines = json.standardOutput.split(separator: "\n")
        let tree = try #require(lines.first { $0.contains("\"command\":\"tree\"") })
        #expect(tree.contains("\"current\":4"))
        #expect(tree.contains("{\"id\":2,\"parent\":1,\"name\":\"Typing\",\"description\":\"Typing \\\"b\\\"\",\"document\":\"untitled\",\"branch\":1,"),
                "\(tree)")
        let goto = try #require(lines.first { $0.contains("\"command\":\"goto\"") })
        #expect(goto.contains("\"title\":\"Go to state 2: at state 2 (2 steps)\""))
    }

    @Test("The tree's words parse, and bad ones are refused with the usage")
    func parsing() throws {
        #expect(try SessionCommand.parse("earlier 10s") == .tree(.earlier(.time(.seconds(10)))))
        #expect(try SessionCommand.parse("later") == .tree(.later(.states(1))))
        #expect(try SessionCommand.parse("goto 12") == .tree(.goTo(12)))
        #expect(try SessionCommand.parse("tree --dot --times") == .tree(.tree(dot: true, times: true)))
        #expect(throws: SessionError.self) { try SessionCommand.parse("goto 1 2") }
        #expect(throws: SessionError.self) { try SessionCommand.parse("goto -1") }
        #expect(throws: SessionError.self) { try SessionCommand.parse("earlier 1 2") }
    }
}
