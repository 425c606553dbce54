import Foundation
import Testing
import UndoCore
import UndoPluginHost
@testable import UndoHostSession
import UndoTestSupport

/// What people who used undo-host from the outside found (issue 33), each as it works now.
@Suite("What outsiders found")
struct OutsiderFindingsTests {
    @Test("unload counts the steps of every branch that left, as close does")
    func unloadCountsEveryBranch() throws {
        // Two shapes on the branch left behind, one on the current branch, and one of each branch
        // shared below the fork: four steps leave.
        let run = try UndoHostProcess.runScript("""
            canvas.add 1 "rect" 0 0 1 1 0
            canvas.add 2 "rect" 0 0 1 1 0
            canvas.add 3 "rect" 0 0 1 1 0
            undo 2
            canvas.add 4 "rect" 0 0 1 1 0
            unload canvas
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("Unloaded org.undohost.canvas: 4 steps left the history\n"), "\(run.standardOutput)")
    }

    @Test("unload takes a plugin's steps out of reverts too, and counts them")
    func unloadLooksInsideReverts() throws {
        // The second revert crosses to the branch the first one hangs on: it takes shape 2 back
        // and does shape 1 and the first revert again, copies that hold shape 1 and shape 2 in
        // reverts. Found by the C API fuzzer: after an unload, undoing such a revert ran a
        // canvas step with the canvas plugin gone.
        let run = try UndoHostProcess.runScript("""
            save
            canvas.add 1 "rect" 0 0 1 1 0
            revert
            save
            undo
            canvas.add 2 "rect" 0 0 1 1 0
            revert
            unload canvas
            tree
            """)
        #expect(run.status == 0, "\(run.standardError)")
        // Before, 3 steps were counted, the second revert stayed (holding a copy of shape 2's
        // step) and undoing it failed with "plugin org.undohost.canvas is not loaded".
        #expect(run.standardOutput.hasSuffix("""
            Unloaded org.undohost.canvas: 4 steps left the history
            History tree (no steps)
            @ 0  Start  (current)

            """), "\(run.standardOutput)")
    }

    @Test("A plugin --plugins names that is refused fails the run (the others load and the session runs)")
    func aRefusedPluginFailsTheRun() throws {
        let folder = try TemporaryFolder()
        let notAPlugin = folder.url.appendingPathComponent("libnot.so").path
        try Data("not an ELF file".utf8).write(to: URL(fileURLWithPath: notAPlugin))
        let text = UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginTextEditor.so").path
        let run = try UndoHostProcess.run(["--plugins", text, "--plugins", notAPlugin, "run", "-"],
                                          input: "text.insert 0 \"still runs\"\nshow\n")
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("still runs"))
        #expect(run.standardError.contains("cannot load \(notAPlugin)"), "\(run.standardError)")
        let fine = try UndoHostProcess.run(["--plugins", text, "plugins"])
        #expect(fine.status == 0)
    }

    /// The prompt's "*" inside groups: a cancelled inner group's change leaves with it, while
    /// an ended one's stays the outer group's (it showed "*" for an unchanged document).
    @Test("The prompt's * follows each open group's own changes")
    func dirtyFollowsEachOpenGroup() throws {
        let host = PluginHost()
        _ = try host.load(file: UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginTextEditor.so").path)
        let session = HostSession(host: host)
        for line in ["doc a", "group begin \"Outer\"", "group begin \"Inner\"", "text.insert 0 \"x\""] {
            #expect(session.run(line)?.error == nil, "\(line)")
        }
        #expect(session.state.isDirty)
        #expect(session.run("group cancel")?.error == nil)
        #expect(!session.state.isDirty, "the only change left with the cancelled inner group")
        for line in ["group begin \"Inner\"", "text.insert 0 \"y\"", "group end"] {
            #expect(session.run(line)?.error == nil, "\(line)")
        }
        #expect(session.state.isDirty, "the ended inner group's change is the outer group's")
        #expect(session.run("group cancel")?.error == nil)
        #expect(!session.state.isDirty)
    }

    @Test("An alert with only Cancel asks for its one choice, not a range 1-1")
    func aLoneChoiceIsNotARange() throws {
        let view = AlertView(alert: UndoStack().alert)
        #expect(view.choices.count == 1)
        #expect(view.choicePrompt() == "Choose 1 or c: ")
        #expect(view.choicePrompt(words: .korean) == "1 또는 c을(를) 고르세요: ")
        let stack = UndoStack()
        struct Step: UndoCommand {
            var name: String? { "Step" }
            mutating func perform(_ changes: inout UndoChanges) throws {}
            mutating func undo(_ changes: inout UndoChanges) throws {}
        }
        try stack.perform(Step())
        #expect(AlertView(alert: stack.alert).choicePrompt() == "Choose 1-2 or u/c: ")
    }

    @Test("At the prompt a long error and its hint are wrapped to the terminal, as help is; a script's stay one line each")
    func longErrorsAreWrappedAtThePrompt() {
        let error = SessionError(.syntax, "goto: \"a-very-long-word\" is not a state number, and this message goes on past the width",
                                 hint: "the numbers are those of the tree (type tree); 0 is the start")
        let state = SessionState(document: "d", canUndo: false, canRedo: false, undoTitle: "Undo", redoTitle: "Redo",
                                 isDirty: false, position: 0, count: 0, openGroups: 0)
        let prompt = CapturedOutput()
        OutcomePresenter(output: prompt, json: false, style: .plain, layout: TextLayout(width: 40, height: 24))
            .presentError(error, at: .prompt, state: state)
        let lines = prompt.standardError.split(separator: "\n")
        #expect(lines.count > 3, "\(prompt.standardError)")
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(prompt.standardError)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  ") })
        let script = CapturedOutput()
        OutcomePresenter(output: script, json: false, style: .plain, layout: TextLayout(width: 40, height: 24))
            .presentError(error, at: .script(file: "a.undo", line: 3), state: state)
        #expect(script.standardError.split(separator: "\n").count == 2)
    }

    @Test("A group a journal left open is said on reopening, and quit then exits 1 naming it; in Korean too")
    func aGroupLeftOpenInAJournal() throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("open.undojournal").path
        let first = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal],
                                            input: "group begin \"Paste\"\ntext.insert 0 \"a\"\n")
        #expect(first.status == 1)
        let reopened = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal], input: "quit\n")
        #expect(reopened.status == 1)
        #expect(reopened.standardError == """
            undo-host: journal \(journal): 2 changes restored
            undo-host: journal \(journal): group "Paste" is still open (the session that wrote it never ended it): end it with group end, or take it back with group cancel
            <stdin>:1: UNDO_ESTATE: group "Paste", open in the journal, was never ended
              hint: end it with group end, or take it back with group cancel

            """, "\(reopened.standardError)")
        let korean = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal, "--locale", "ko"],
                                             input: "group end\nhistory\n")
        #expect(korean.status == 0, "\(korean.standardError)")
        #expect(korean.standardError.hasPrefix("undo-host: 저널 \(journal): 변경 2개를 되살렸습니다\n"), "\(korean.standardError)")
        #expect(korean.standardError.contains("그룹 \"Paste\"이 아직 열려 있습니다"))
        #expect(korean.standardOutput.contains("> 1  Paste"))
    }

    @Test("Inside an open group the document is dirty once an action changed it (the prompt's \"*\" beside \"+\")")
    func aGroupsChangesMakeTheDocumentDirty() throws {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--json", "--keep-going"],
                                          input: "group begin \"G\"\ngroup end\ngroup begin \"G\"\ntext.insert 0 \"a\"\ngroup cancel\n")
        let dirty = run.standardOutput.split(separator: "\n").map { $0.contains("\"dirty\":true") }
        #expect(dirty == [false, false, false, true, false], "\(run.standardOutput)")
    }

    @Test("With --journal, the quit question says that the journal keeps the unsaved changes")
    func quittingWithAJournalSaysItKeepsTheChanges() throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("q.undojournal").path
        let terminal = try PseudoTerminal(arguments: ["--journal", journal], columns: 200)
        try terminal.waitForPrompt("untitled> ")
        terminal.type("text.insert 0 \"a\"\r")
        try terminal.waitForPrompt("untitled*> ")
        terminal.type("quit\r")
        let question = try terminal.waitFor("[y/N] ")
        #expect(question.contains("Quit? untitled has unsaved changes; the journal keeps them (undo-host --journal \(journal) restores them). [y/N] "),
                "\(question.debugDescription)")
        terminal.type("y")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("--locale ko: the tree, the moves across it, their errors and the journal's messages are Korean")
    func treeMovesAndJournalInKorean() throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("ko.undojournal").path
        let script = """
            text.insert 0 "a"
            break
            text.insert 1 "b"
            undo
            text.insert 1 "c"
            tree
            tree --times
            goto 2
            earlier
            later
            goto 99
            goto x
            earlier 3x
            goto 0
            earlier
            """
        let first = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--locale", "ko", "--keep-going", "--journal", journal],
                                            input: script)
        let again = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--locale", "ko", "--journal", journal], input: "tree\n")
        let text = first.standardOutput + first.standardError + again.standardOutput + again.standardError
        for korean in ["기록 트리 (단계 3개, 가지 2개, 현재 상태 3)", "o 0  처음", "(현재)", "초 전", "상태 2(으)로 이동: 상태 2 (단계 2개)",
                       "이전으로 1: 상태 1", "이후로 1: 상태 2", "goto: 기록에 상태 99이(가) 없습니다", "모든 상태를 보려면 tree를 입력하세요",
                       "상태 번호가 아닙니다", "거리가 아닙니다", "더 이전이 없습니다", "저널 \(journal): 변경 "] {
            #expect(text.contains(korean), "missing \(korean) in \(text)")
        }
        // Every English fragment of the table, and the words that were hard-coded before.
        let leaked = KoreanSessionTests.englishOnlyFragments.filter { KoreanSessionTests.containsWords(text, $0) }
        #expect(leaked.isEmpty, "English in the Korean session: \(leaked)")
        for english in ["History tree", "Start", "current", "ago", "Go to state", "Earlier", "Later", "changes restored",
                        "not a state number", "not a distance", "nothing earlier"] {
            #expect(!KoreanSessionTests.containsWords(text, english), "\(english) in \(text)")
        }
    }

    @Test("A plugin's error is printed once (it was also logged: twice on standard error)")
    func aPluginErrorIsPrintedOnce() throws {
        let probe = try ProbeBuild.build()
        let run = try UndoHostProcess.run(["--plugins", probe], input: "probe.forget\n")
        #expect(run.status == 1)
        // The probe's view counts its performs, so the session sees its document changed by the
        // failed perform and says so (the hint of a perform that changed its document).
        #expect(run.standardError == """
            <stdin>:1: UNDO_EPLUGIN: probe.forget: perform failed: perform succeeded without setting inverse argument 1 (x: i64); the step cannot be undone
              hint: the plugin changed document untitled before it failed, and the history is unchanged: the document no longer matches its history (undo will not restore it); report this to the plugin's author

            """, "\(run.standardError)")
    }

    @Test("--json: an unknown word is not a perform; a move across branches says so; tree states have descriptions; goto 99 names the command with a hint")
    func jsonFindings() throws {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--json", "--keep-going"], input: """
            hisory
            text.insrt 0 "a"
            text.insert 0 "a"
            break
            text.insert 1 "b"
            undo
            text.insert 1 "c"
            tree
            goto 2
            goto 1
            goto 3
            goto 99
            """)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 12, "\(run.standardOutput)")
        guard lines.count == 12 else { return }
        #expect(lines[0].contains("\"command\":\"unknown\",\"ok\":false"), "\(lines[0])")
        #expect(lines[1].contains("\"command\":\"perform\",\"ok\":false"), "an unknown action id is a perform that failed")
        #expect(lines[7].contains("\"name\":\"Typing\",\"description\":\"Typing \\\"b\\\"\""), "\(lines[7])")
        #expect(lines[8].contains("\"direction\":\"across\""), "\(lines[8])")
        #expect(lines[9].contains("\"direction\":\"undo\""), "\(lines[9])")
        #expect(lines[10].contains("\"direction\":\"redo\""), "\(lines[10])")
        #expect(lines[11].contains("\"command\":\"goto\",\"ok\":false"), "\(lines[11])")
        #expect(lines[11].contains("\"message\":\"goto: no state 99 in the history (it never existed, or a limit dropped it)\",\"hint\":\"type tree to see every state\""),
                "\(lines[11])")
    }

    @Test("help of a coalescing action says steps join by their key when the plugin merges them, not that consecutive steps coalesce")
    func helpSaysHowStepsCoalesce() throws {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins, input: "help text.delete\n")
        let text = run.standardOutput.replacingOccurrences(of: "\n  ", with: " ")
        #expect(text.contains("coalesces: consecutive steps with the same coalescing key (the action's, or one a step sets for itself) "
                              + "in one document join one step when the plugin merges them"), "\(run.standardOutput)")
    }

    @Test("help check names --json and --allow-writable-plugins, which check takes")
    func helpCheckNamesJSON() throws {
        let help = try UndoHostProcess.run(["help", "check"])
        #expect(help.status == 0)
        let text = help.standardOutput.replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains("--json prints the report as one JSON object"), "\(help.standardOutput)")
        #expect(text.contains("--allow-writable-plugins"))
        let plugin = UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginCanvas.so").path
        let json = try UndoHostProcess.run(["check", "--json", "--filter", "descriptor", plugin])
        #expect(json.status == 0)
        #expect(json.standardOutput.hasPrefix("{"), "\(json.standardOutput)")
    }

    @Test("--durability and --checkpoint-every without --journal are refused, naming the option")
    func journalOptionsNeedAJournal() throws {
        for option in [["--durability", "normal"], ["--checkpoint-every", "5"]] {
            let run = try UndoHostProcess.run(option + ["plugins"])
            #expect(run.status == 2)
            #expect(run.standardError.hasPrefix("undo-host: \(option[0]) applies to a journal: give --journal FILE too, "
                                                + "or leave \(option[0]) out\n"), "\(run.standardError)")
            #expect(run.standardOutput.isEmpty)
        }
    }

    @Test("Descriptions quote a deleted quote escaped, and control characters in a description stay off the terminal")
    func descriptionsAreEscapedWhereShown() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "say \\"hi\\"\\tnow"
            text.delete 4 1
            history
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("  1  Typing \"say \\\"hi\\\"\\tnow\"  untitled\n"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("> 2  Delete \"\\\"\"               untitled\n"), "\(run.standardOutput)")

        // A description given through the C API or Swift may hold any character: shown escaped.
        struct Described: UndoCommand {
            var historyDescription: String? { "Paste\tthree\nlines\u{1b}[2J" }
            var name: String? { "Paste" }
            mutating func perform(_ changes: inout UndoChanges) throws {}
            mutating func undo(_ changes: inout UndoChanges) throws {}
        }
        let stack = UndoStack()
        try stack.perform(Described())
        let text = HistoryPanelView(stack: stack).rendered(style: .plain)
        // Tabs and line breaks become spaces (the history text's whitespace is collapsed); any
        // other control character is shown escaped, so none reaches the terminal.
        #expect(text.hasSuffix("\n> 1  Paste three lines\\u{1b}[2J"), "\(text)")
        #expect(!text.contains("\t") && !text.contains("\u{1b}"))
        #expect(text.split(separator: "\n").count == 3)
    }
}

/// The host tests' probe plugin (Tests/UndoPluginHostTests/Fixtures/probe.c), built as an outside
/// author would.
enum ProbeBuild {
    static func build() throws -> String { try FixturePluginBuild.build("probe") }
}

/// A C plugin of the host tests' fixtures (Tests/UndoPluginHostTests/Fixtures/NAME.c), built as an
/// outside author would, into a kept temporary folder.
enum FixturePluginBuild {
    /// - Returns: the path of the built `libNAME.so`.
    static func build(_ name: String) throws -> String {
        let output = TemporaryFolder.kept(name) + "/lib\(name).so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-std=c99", "-shared", "-fPIC", "-I", SourceTree.include, "-o", output,
                             SourceTree.path("Tests/UndoPluginHostTests/Fixtures/\(name).c")]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed")
        return output
    }
}
