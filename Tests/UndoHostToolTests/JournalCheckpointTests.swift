import Foundation
import Testing
import UndoTestSupport

/// undo-host `checkpoint` and `--checkpoint-every`: a journal restored from a checkpoint (and the
/// changes after it) is the session a journal without one gives, documents, branches, saves and
/// later undo, redo and moves included; and the journal keeps only the changes after it.
@Suite("Journal: checkpoints")
struct JournalCheckpointTests {
    /// The three bundled plugins, by file (the products folder holds test plugins too).
    static let plugins = ["libUndoPluginTextEditor.so", "libUndoPluginCanvas.so", "libUndoPluginSwiftNotes.so"].flatMap {
        ["--plugins", UndoHostProcess.productsFolder.appendingPathComponent($0).path]
    }

    /// Three documents, one per plugin: typing, a branch, a save, a drag, a named group, a
    /// revert, notes with a branch of their own, a cancelled group.
    static let before = """
        text.insert 0 "Dear Ann"
        break
        text.insert 8 ", thanks"
        save
        undo
        text.insert 8 ", sorry"
        doc sketch
        canvas.add 1 "circle" 0 0 10 10 0xff
        canvas.move 1 5 0
        canvas.move 1 5 0
        break
        group begin "Two shapes" --description "Add two squares"
        canvas.add 2 "square" 20 20 5 5 0xff00
        canvas.add 3 "square" 30 30 5 5 0xff0000
        group end
        save
        canvas.recolor 1 0xabcdef
        revert
        doc todo
        notes.write "milk" 1
        notes.write "eggs" 2
        notes.prioritize 0 3
        undo
        notes.write "bread" 1
        doc untitled
        text.bold 0 4
        group begin "Cancelled"
        text.insert 0 "x"
        group cancel

        """

    /// After the checkpoint: changes on top of it, across documents and branches.
    static let after = """
        text.insert 0 ">"
        doc sketch
        undo
        canvas.add 4 "line" 0 0 1 1 0
        goto 2
        doc todo
        later 3

        """

    /// What a reopened session is asked: every document, the history and the tree, then undo,
    /// redo and moves that reach the states the checkpoint holds.
    static let questions = """
        doc
        show --all untitled
        show --all sketch
        show --all todo
        history
        tree
        undo
        redo
        redo
        goto 3
        show --all untitled
        earlier 1f
        later 2
        doc sketch
        undo 2
        show --all sketch
        tree
        history --values

        """

    static func journalPath(_ folder: TemporaryFolder, _ name: String) -> String {
        folder.url.appendingPathComponent(name).path
    }

    /// Standard error without the line that says what was restored.
    static func errors(_ outcome: UndoHostProcess.Outcome) -> [String] {
        outcome.standardError.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("undo-host: journal ") }
    }

    @Test("A session reopened from a checkpoint and the changes after it is the session without one")
    func checkpointThenReopen() throws {
        let folder = try TemporaryFolder()
        let plain = Self.journalPath(folder, "plain.undojournal")
        let checkpointed = Self.journalPath(folder, "checkpointed.undojournal")
        let reference = try UndoHostProcess.run(Self.plugins + ["--keep-going", "--journal", plain],
                                                input: Self.before + Self.after)
        let run = try UndoHostProcess.run(Self.plugins + ["--keep-going", "--journal", checkpointed],
                                          input: Self.before + "checkpoint\n" + Self.after)
        #expect(run.status == 0 && reference.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
        let said = run.lines.filter { $0.hasPrefix("Checkpoint after") }
        #expect(said == ["Checkpoint after change 29: 13 steps and 3 documents (293 bytes); the journal keeps only the changes after it"],
                "\(run.standardOutput)")
        #expect(run.lines.filter { !$0.hasPrefix("Checkpoint after") } == reference.lines)

        // Only the changes after the checkpoint are left, and reopening replays just those.
        let rows = try journalRows(checkpointed, "SELECT sequence FROM changes ORDER BY sequence;")
        #expect(rows == (30...36).map(String.init), "\(rows)")
        #expect(try journalRows(plain, "SELECT count(*) FROM changes;") == ["36"])

        let answer = try UndoHostProcess.run(Self.plugins + ["--keep-going", "--journal", checkpointed], input: Self.questions)
        let expected = try UndoHostProcess.run(Self.plugins + ["--keep-going", "--journal", plain], input: Self.questions)
        #expect(answer.standardError.hasPrefix("undo-host: journal \(checkpointed): restored from the checkpoint after change 29, then 7 changes\n"),
                "\(answer.standardError)")
        #expect(expected.standardError.hasPrefix("undo-host: journal \(plain): 36 changes restored\n"))
        #expect(answer.standardOutput == expected.standardOutput)
        #expect(Self.errors(answer) == Self.errors(expected))
        #expect(answer.standardOutput.contains("History tree") && answer.standardOutput.contains("Dear Ann"))

        // The session reopened from the checkpoint checkpoints again, and comes back the same.
        let again = try UndoHostProcess.run(Self.plugins + ["--journal", checkpointed], input: "checkpoint\n")
        #expect(again.standardOutput.hasPrefix("Checkpoint after change "), "\(again.standardOutput)")
        let twice = try UndoHostProcess.run(Self.plugins + ["--keep-going", "--journal", checkpointed], input: Self.questions)
        let expectedTwice = try UndoHostProcess.run(Self.plugins + ["--keep-going", "--journal", plain], input: Self.questions)
        // One difference, and only in the first show: the questions ended with an undo, whose
        // changes `show` highlights until the next change. Replaying the journal makes that undo
        // again, so it is highlighted; a checkpoint keeps the states, not what the last move
        // changed, so after one nothing is.
        var withoutHighlight = expectedTwice.lines
        let highlight = try #require(withoutHighlight.firstIndex(of: "  (changed and no longer there: #1)"))
        #expect(withoutHighlight[highlight - 1] == "sketch (Canvas): empty" && highlight < 10)
        withoutHighlight.remove(at: highlight)
        #expect(twice.lines == withoutHighlight)
    }

    /// A longer session over the three plugins, with branches, groups (some longer than the
    /// checkpoint interval), saves, reverts, moves by state and by save, and commands that fail.
    static func script(count: Int, seed: UInt64) -> [String] {
        var random = ScriptRandom(seed: seed)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let documents = ["untitled", "sketch", "todo"]
        var lines: [String] = []
        while lines.count < count {
            let i = lines.count
            switch next(20) {
            case 0...2: lines.append("text.insert 0 \"w\(i)\"")
            case 3: lines.append("canvas.add \(i) \"rect\" \(i) 0 4 4 0xff")
            case 4: lines.append("canvas.move \(next(i + 1)) 1 2")
            case 5: lines.append("notes.write \"n\(i)\" \(next(5))")
            case 6: lines.append("notes.prioritize 0 \(next(9))")
            case 7: lines.append("break")
            case 8: lines.append(["undo", "undo 2", "redo"][next(3)])
            case 9: lines.append("save")
            case 10: lines.append("revert")
            case 11: lines.append("goto \(next(i / 2 + 1))")
            case 12: lines.append(["earlier", "later 2", "earlier 1f", "later 1f"][next(4)])
            case 13:
                let members = (0..<next(8)).map { "text.insert 0 \"g\(i)-\($0)\"" }
                lines += ["group begin \"G\(i)\""] + members + [next(4) == 0 ? "group cancel" : "group end"]
            case 14...15: lines.append("doc \(documents[next(3)])")
            case 16: lines.append("text.delete 0 1")
            case 17: lines.append("canvas.remove \(next(i + 1))")
            case 18: lines.append("notes.erase 0")
            default: lines.append("text.bold 0 2")
            }
        }
        return Array(lines.prefix(count))
    }

    static let longQuestions = "tree\nhistory\ndoc\nshow --all untitled\nshow --all sketch\nshow --all todo\n"
        + "undo\nredo\nearlier 3\nlater 1f\nshow --all untitled\nshow --all sketch\nshow --all todo\ntree\n"

    @Test("--checkpoint-every 5 over a long session: the same session, and never more changes left than are due")
    func automaticCheckpoints() throws {
        let folder = try TemporaryFolder()
        let plain = Self.journalPath(folder, "plain.undojournal")
        let automatic = Self.journalPath(folder, "automatic.undojournal")
        let lines = Self.script(count: 400, seed: 11)
        let first = lines.prefix(300).map { $0 + "\n" }.joined()
        let second = lines.dropFirst(300).map { $0 + "\n" }.joined()
        for part in [first, second] {
            let reference = try UndoHostProcess.run(Self.plugins + ["--keep-going", "--journal", plain, "--checkpoint-every", "0"],
                                                    input: part)
            let run = try UndoHostProcess.run(Self.plugins + ["--keep-going", "--journal", automatic, "--checkpoint-every", "5"],
                                              input: part)
            #expect(run.standardOutput == reference.standardOutput)
            #expect(Self.errors(run) == Self.errors(reference))
            #expect(!run.standardError.contains("warning"), "\(run.standardError)")
            // A checkpoint comes once 5 changes, and as many as the steps the last one wrote, have come.
            let left = try #require(Int(journalRows(automatic, "SELECT count(*) FROM changes;").first ?? ""))
            let written = try #require(Int(journalRows(automatic, "SELECT count(*) FROM checkpoint_steps WHERE parent = 0;").first ?? ""))
            #expect(left < max(5, written), "\(left) changes after the last checkpoint of \(written) steps")
            #expect(try journalRows(automatic, "SELECT count(*) FROM checkpoint;") == ["1"])
            #expect(try journalRows(plain, "SELECT count(*) FROM checkpoint;") == ["0"])
        }
        let answer = try UndoHostProcess.run(Self.plugins + ["--keep-going", "--journal", automatic], input: Self.longQuestions)
        let expected = try UndoHostProcess.run(Self.plugins + ["--keep-going", "--journal", plain], input: Self.longQuestions)
        #expect(answer.standardError.contains("restored from the checkpoint after change "), "\(answer.standardError)")
        #expect(answer.standardOutput == expected.standardOutput)
        #expect(Self.errors(answer) == Self.errors(expected))
    }

    @Test("Inside a group the checkpoint waits: the group's changes stay until it ends, then one is taken")
    func automaticCheckpointWaitsForTheGroup() throws {
        let folder = try TemporaryFolder()
        let journal = Self.journalPath(folder, "group.undojournal")
        let group = ["group begin \"Long\""] + (0..<9).map { "text.insert 0 \"\($0)\"" }
        let open = try UndoHostProcess.run(Self.plugins + ["--journal", journal, "--checkpoint-every", "3"],
                                           input: group.joined(separator: "\n") + "\n")
        #expect(open.status == 1 && open.standardError.contains("never ended"), "\(open.standardError)")
        // 10 changes, none checkpointed: the group was open after every one.
        #expect(try journalRows(journal, "SELECT count(*) FROM changes;") == ["10"])
        #expect(try journalRows(journal, "SELECT count(*) FROM checkpoint;") == ["0"])
        let ended = try UndoHostProcess.run(Self.plugins + ["--journal", journal, "--checkpoint-every", "3"], input: "group end\nhistory\n")
        #expect(ended.status == 0, "\(ended.standardError)")
        #expect(try journalRows(journal, "SELECT count(*) FROM changes;") == ["0"])
        #expect(try journalRows(journal, "SELECT sequence FROM checkpoint;") == ["11"])
        let reopened = try UndoHostProcess.run(Self.plugins + ["--journal", journal], input: "history\nshow --all\n")
        #expect(reopened.standardError == "undo-host: journal \(journal): restored from the checkpoint after change 11\n")
        #expect(reopened.standardOutput.contains("> 1  Long   untitled  group of 9 actions"), "\(reopened.standardOutput)")
        #expect(reopened.standardOutput.contains("876543210"))
    }

    @Test("checkpoint without a journal or inside a group is refused, saying why; a journal of format 1, upgraded, takes one")
    func refusedCheckpoints() throws {
        let none = try UndoHostProcess.run(Self.plugins, input: "checkpoint\n")
        #expect(none.status == 1)
        #expect(none.standardError == """
            <stdin>:1: UNDO_ESTATE: checkpoint: no journal is open
              hint: start undo-host with --journal FILE to keep the session's changes

            """, "\(none.standardError)")

        let folder = try TemporaryFolder()
        let journal = Self.journalPath(folder, "j.undojournal")
        let grouped = try UndoHostProcess.run(Self.plugins + ["--journal", journal, "--keep-going"],
                                              input: "group begin \"G\"\ntext.insert 0 \"a\"\ncheckpoint\ngroup end\ncheckpoint\n")
        #expect(grouped.standardError.contains("<stdin>:3: UNDO_ESTATE: a group \"G\" is open\n  hint: end it with group end first"),
                "\(grouped.standardError)")
        #expect(grouped.lines == ["Checkpoint after change 3: 1 step and 1 document (17 bytes); the journal keeps only the changes after it"],
                "\(grouped.standardOutput)")

        let old = Self.journalPath(folder, "old.undojournal")
        let fixture = SourceTree.path("Tests/UndoHostJournalTests/Fixtures/format-1.undojournal")
        try FileManager.default.copyItem(atPath: fixture, toPath: old)
        // A journal of format 1 is upgraded to format 5 when it is opened, and is checkpointed like any other.
        let formatOne = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", old, "--checkpoint-every", "0"],
                                                input: "text.insert 0 \">\"\ncheckpoint\n")
        #expect(formatOne.status == 0)
        #expect(formatOne.lines == ["Checkpoint after change 8: 4 steps and 1 document (97 bytes); the journal keeps only the changes after it"],
                "\(formatOne.standardOutput)")
        let reopened = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", old], input: "show\n")
        #expect(reopened.standardError == "undo-host: journal \(old): restored from the checkpoint after change 8\n", "\(reopened.standardError)")
        #expect(reopened.standardOutput.contains(">Dear Ann, thanks"), "\(reopened.standardOutput)")
    }

    @Test("--checkpoint-every takes a count of changes", arguments: ["-1", "junk", "2.5", ""])
    func badIntervals(value: String) throws {
        let run = try UndoHostProcess.run(Self.plugins + ["--journal", "/nonexistent/never.undojournal", "--checkpoint-every", value],
                                          input: "")
        #expect(run.status == 2)
        #expect(run.standardError == "undo-host: --checkpoint-every \(value): use a number of changes (0: never)\nRun undo-host --help for the usage.\n",
                "\(run.standardError)")
    }

    /// A plugin without save_document and load_document (the example Swift counter) in a document.
    static let withCounter = plugins + ["--plugins", UndoHostProcess.productsFolder.appendingPathComponent("libUndoExampleSwiftCounter.so").path]

    @Test("A plugin that cannot save its documents is named; its changes stay and an automatic checkpoint only warns, once")
    func aPluginThatCannotSave() throws {
        let folder = try TemporaryFolder()
        let journal = Self.journalPath(folder, "j.undojournal")
        let manual = try UndoHostProcess.run(Self.withCounter + ["--journal", journal],
                                             input: "text.insert 0 \"a\"\ndoc counts\nswiftcounter.add 2\ncheckpoint\n")
        #expect(manual.status == 1)
        #expect(manual.standardError == """
            <stdin>:4: UNDO_ENOTSUP: checkpoint: plugin com.example.swiftcounter cannot save its documents as bytes (save_document and load_document, plugin ABI 1.7)
              hint: nothing was written: its changes stay in the journal and are replayed from the start

            """, "\(manual.standardError)")
        #expect(try journalRows(journal, "SELECT count(*) FROM changes;") == ["3"])

        let lines = (1...12).map { "swiftcounter.add \($0)" }.joined(separator: "\n") + "\n"
        let automatic = try UndoHostProcess.run(Self.withCounter + ["--journal", journal, "--checkpoint-every", "2"], input: lines)
        #expect(automatic.status == 0, "\(automatic.standardError)")
        let warning = "undo-host: warning: automatic checkpoint failed: plugin com.example.swiftcounter cannot save its documents as bytes "
            + "(save_document and load_document, plugin ABI 1.7)\n  hint: nothing was written: its changes stay in the journal "
            + "and are replayed from the start; the session goes on; this warning is not repeated\n"
        #expect(automatic.standardError == "undo-host: journal \(journal): 3 changes restored\n" + warning,
                "\(automatic.standardError)")
        #expect(try journalRows(journal, "SELECT count(*) FROM changes;") == ["15"])
        let reopened = try UndoHostProcess.run(Self.withCounter + ["--journal", journal], input: "history\n")
        #expect(reopened.standardError == "undo-host: journal \(journal): 15 changes restored\n")
        #expect(reopened.standardOutput.contains("> 14  Count"), "\(reopened.standardOutput)")

        // Under --json the warning is one object on standard error.
        let json = try UndoHostProcess.run(Self.withCounter + ["--journal", journal, "--checkpoint-every", "1", "--json"], input: "swiftcounter.add 1\n")
        #expect(json.standardError.contains(#"{"warning":"automatic checkpoint failed","code":"UNDO_ENOTSUP","message":"plugin com.example.swiftcounter cannot save"#),
                "\(json.standardError)")
    }

    @Test("A plugin whose load refuses what its save wrote: the checkpoint is refused naming both, every change stays")
    func bytesThatDoNotLoadBack() throws {
        let folder = try TemporaryFolder()
        let plugin = folder.url.appendingPathComponent("libstatebox.so").path
        let fixtures = SourceTree.path("Tests/UndoPluginHostTests/Fixtures")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Mode 7 from the start: its save writes a format version its load refuses.
        process.arguments = ["cc", "-std=c99", "-shared", "-fPIC", "-DSTATEBOX_MODE=7", "-I", SourceTree.include, "-I", fixtures,
                             "-o", plugin, fixtures + "/statebox.c"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed")
        let journal = Self.journalPath(folder, "j.undojournal")
        let outcome = try UndoHostProcess.run(Self.plugins + ["--plugins", plugin, "--journal", journal],
                                              input: "doc box\nstatebox.append \"ab\"\ncheckpoint\n")
        #expect(outcome.status == 1)
        #expect(outcome.standardError.hasPrefix("<stdin>:3: UNDO_EPLUGIN: checkpoint: "), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("plugin org.example.statebox cannot load the bytes it saved for document \"box\" "
                                               + "(unknown statebox format version)"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("hint: nothing was written: the journal keeps every change"), "\(outcome.standardError)")
        #expect(try journalRows(journal, "SELECT count(*) FROM changes;") == ["2"])
        #expect(try journalRows(journal, "SELECT count(*) FROM checkpoint;") == ["0"])
    }

    @Test("doc naming the current document after reopening (from the changes or a checkpoint) writes no change")
    func docOfTheCurrentDocumentWritesNothing() throws {
        let folder = try TemporaryFolder()
        let journal = Self.journalPath(folder, "j.undojournal")
        let first = try UndoHostProcess.run(Self.plugins + ["--journal", journal], input: "doc letter\ntext.insert 0 \"a\"\n")
        #expect(first.status == 0, "\(first.standardError)")
        #expect(try journalRows(journal, "SELECT count(*) FROM changes;") == ["2"])
        let again = try UndoHostProcess.run(Self.plugins + ["--journal", journal], input: "doc letter\ndoc letter\n")
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try journalRows(journal, "SELECT count(*) FROM changes;") == ["2"], "doc of the current document wrote a change")
        let checkpointed = try UndoHostProcess.run(Self.plugins + ["--journal", journal], input: "checkpoint\n")
        #expect(checkpointed.status == 0, "\(checkpointed.standardError)")
        let reopened = try UndoHostProcess.run(Self.plugins + ["--journal", journal], input: "doc letter\nshow\n")
        #expect(reopened.status == 0, "\(reopened.standardError)")
        #expect(try journalRows(journal, "SELECT count(*) FROM changes;") == ["0"], "doc of the current document wrote a change")
        // Another document is a change.
        _ = try UndoHostProcess.run(Self.plugins + ["--journal", journal], input: "doc other\n")
        #expect(try journalRows(journal, "SELECT count(*) FROM changes;") == ["1"])
    }

    @Test("A document over 16 MiB (the text plugin's save_document_v2, ABI 1.8) is checkpointed in pieces and reopens the same")
    func aDocumentOverSixteenMiB() throws {
        let folder = try TemporaryFolder()
        let journal = Self.journalPath(folder, "large.undojournal")
        // 3,500,000 characters: 17,500,012 bytes of state, over UNDO_MAX_VALUE_SIZE.
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        func text(_ count: Int, _ start: Int) -> String { String((start..<(start + count)).map { letters[($0 / 5 + $0) % 26] }) }
        let script = "doc big\ntext.insert 0 \"\(text(1_750_000, 0))\"\nbreak\ntext.insert 1750000 \"\(text(1_750_000, 1_750_000))\"\n"
        let session = try UndoHostProcess.run(Self.plugins + ["--journal", journal], input: script + "checkpoint\n")
        #expect(session.status == 0, "\(session.standardError)")
        #expect(session.lines.contains("Checkpoint after change 4: 2 steps and 1 document (17,500,012 bytes); the journal keeps only the changes after it"),
                "\(session.lines.filter { $0.hasPrefix("Checkpoint") })")
        // Counted: the state takes its document's row and 4 pieces of at most 4 MiB.
        #expect(try journalRows(journal, "SELECT count(*) || ' ' || max(length(bytes)) FROM checkpoint_pieces;") == ["4 4194304"])
        let state = "SELECT hex(sha3_query('SELECT state FROM checkpoint_documents; SELECT bytes FROM checkpoint_pieces ORDER BY ordinal;'));"
        let saved = try journalRows(journal, state)
        // Reopened from the checkpoint, the plugin saves the same bytes again.
        let reopened = try UndoHostProcess.run(Self.plugins + ["--journal", journal], input: "checkpoint\n")
        #expect(reopened.status == 0, "\(reopened.standardError)")
        #expect(reopened.standardError.hasPrefix("undo-host: journal \(journal): restored from the checkpoint after change 4"),
                "\(reopened.standardError.prefix(300))")
        #expect(reopened.lines.contains { $0.hasPrefix("Checkpoint after change 4: 2 steps and 1 document (17,500,012 bytes)") })
        #expect(try journalRows(journal, state) == saved && saved.count == 1 && saved[0].count == 64)
        // And its two steps undo back to nothing.
        let undone = try UndoHostProcess.run(Self.plugins + ["--journal", journal], input: "undo\nundo\nshow\n")
        #expect(undone.status == 0 && undone.lines.last == "big (Text Editor): empty", "\(undone.standardOutput.prefix(400))")
    }

    @Test("--json gives what the checkpoint holds; in Korean it says so in Korean")
    func jsonAndKorean() throws {
        let folder = try TemporaryFolder()
        let journal = Self.journalPath(folder, "j.undojournal")
        let json = try UndoHostProcess.run(Self.plugins + ["--journal", journal, "--json"],
                                           input: "text.insert 0 \"Hi\"\ndoc sketch\ncanvas.add 1 \"dot\" 0 0 1 1 0\ncheckpoint\n")
        let last = try #require(json.lines.last)
        #expect(last.contains(#""command":"checkpoint","ok":true,"message":"Checkpoint after change 3: 2 steps and 2 documents"#), "\(last)")
        #expect(last.contains(#""checkpoint":{"after":3,"steps":2,"documents":["untitled","sketch"],"bytes":"#), "\(last)")
        let korean = try UndoHostProcess.run(Self.plugins + ["--journal", journal, "--locale", "ko"], input: "text.insert 0 \">\"\ncheckpoint\n")
        let said = try #require(korean.lines.first)
        #expect(korean.lines.count == 1 && said.hasPrefix("변경 4 뒤의 체크포인트: 단계 3개와 문서 2개 (")
                && said.hasSuffix("바이트). 저널에는 그 뒤의 변경만 남습니다"), "\(korean.standardOutput)")
    }
}

/// The SIGKILL test of ``JournalSessionTests`` with automatic checkpoints every 7 changes, so kills
/// land during checkpoints and right after them; the references are journals without any.
@Suite("Journal: checkpoints and crashes")
struct JournalCheckpointCrashTests {
    @Test("SIGKILL at 60 points with --checkpoint-every 7: the session without checkpoints, and nothing acknowledged lost")
    func killedAroundCheckpoints() throws {
        var checkpointed = 0
        // `doc untitled` after the listings: what a reopened `show` highlights (the changes of
        // the last undo) is not kept by a checkpoint, so both sides show no highlight.
        try JournalSessionTests.kill(durability: "full", seed: 7, every: 4, options: ["--checkpoint-every", "7"],
                                     questions: "tree\nhistory\ndoc\ndoc untitled\nshow --all untitled\nshow --all b.txt\n") { journal in
            if try journalRows(journal, "SELECT count(*) FROM checkpoint;") == ["1"] { checkpointed += 1 }
        }
        // Every kill after the first 7 changes or so finds a checkpoint written.
        #expect(checkpointed >= 45, "only \(checkpointed) of 60 killed journals had a checkpoint")
    }
}

/// The first column of each row of `query` on the journal at `path` (read-only, with the
/// system's sqlite3 shell).
func journalRows(_ path: String, _ query: String) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", "-readonly", path, query]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map { String($0.split(separator: "|").first ?? "") }
}
