import Foundation
import Testing
import UndoHostSession
import UndoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// undo-host --journal: a session comes back after a restart or a SIGKILL exactly as it was at
/// its last acknowledged change, branches, saves and documents included.
@Suite("Journal: restart and crash")
struct JournalSessionTests {
    /// A session of `count` lines over two documents: typing, breaks, undos, redos, groups,
    /// saves, moves across branches (by state, by save), deletes that may fail.
    static func script(count: Int, seed: UInt64) -> [String] {
        var random = ScriptRandom(seed: seed)
        func next(_ bound: Int) -> Int { random.next(bound) }
        var lines: [String] = []
        var document = "untitled"
        while lines.count < count {
            let i = lines.count
            switch next(16) {
            case 0...3: lines.append("text.insert 0 \"w\(i)\"")
            case 4: lines.append("break")
            case 5: lines.append("undo")
            case 6: lines.append("undo 2")
            case 7: lines.append("redo")
            case 8: lines.append("save")
            case 9: lines.append("goto \(next(i / 2 + 1))")
            case 10: lines.append("earlier")
            case 11: lines.append("later 2")
            case 12: lines += ["group begin \"G\(i)\"", "text.insert 0 \"g\(i)\"", "text.insert 0 \"h\(i)\"", "group end"]
            case 13:
                document = document == "untitled" ? "b.txt" : "untitled"
                lines.append("doc \(document)")
            case 14: lines.append("earlier 1f")
            default: lines.append("text.delete 0 1")
            }
        }
        return Array(lines.prefix(count))
    }

    /// What a restored session shows: the tree, the current branch, every document.
    static let questions = "tree\nhistory\ndoc\nshow --all untitled\nshow --all b.txt\n"

    static func answers(journal: String, questions: String = questions) throws -> String {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--keep-going", "--journal", journal],
                                          input: questions)
        return run.standardOutput
    }

    @Test("A restored session is the session as it was: documents, branches, saves, the current state")
    func aRestartLosesNothing() throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("session.undojournal").path
        let lines = Self.script(count: 150, seed: 3).joined(separator: "\n") + "\n"
        let uninterrupted = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--keep-going"],
                                                    input: lines + Self.questions)
        let first = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--keep-going", "--journal", journal], input: lines)
        #expect(first.standardOutput == uninterrupted.standardOutput.prefix(first.standardOutput.count).description)
        let restored = try Self.answers(journal: journal)
        #expect(uninterrupted.standardOutput.hasSuffix(restored), "\(restored)")
        #expect(restored.contains("History tree"))
    }

    @Test("A journal made with a plugin that is missing now is refused, naming the plugin and its version, and left as it was")
    func aMissingPluginIsNamed() throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("j.undojournal").path
        _ = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal],
                                    input: "canvas.add 1 \"circle\" 0 0 10 10 0xff\ntext.insert 0 \"Hi\"\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: journal))
        let textOnly = ["--plugins", UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginTextEditor.so").path]
        let refused = try UndoHostProcess.run(textOnly + ["--journal", journal], input: "text.insert 0 \"lost\"\n")
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("journal \(journal): it needs plugin org.undohost.canvas 1.x (written with 1.0.0); it is not loaded"),
                "\(refused.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == before)
    }

    @Test("A journal of format 1 (session lines) is upgraded to format 5 and continued; the old file is kept beside it")
    func aFormatOneJournalIsUpgraded() throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("old.undojournal").path
        let fixture = SourceTree.path("Tests/UndoHostJournalTests/Fixtures/format-1.undojournal")
        try FileManager.default.copyItem(atPath: fixture, toPath: journal)
        let original = try Data(contentsOf: URL(fileURLWithPath: journal))
        let first = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal], input: "text.insert 0 \">\"\n")
        #expect(first.status == 0)
        #expect(first.standardError == """
            undo-host: journal \(journal): format 1 (session lines) upgraded to format 5; the old file is kept as \(journal).format-1
            undo-host: journal \(journal): 7 changes restored

            """, "\(first.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
                == ["old.undojournal", "old.undojournal.format-1"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal + ".format-1")) == original)
        #expect(try journalRows(journal, "PRAGMA user_version;") == ["5"])
        // Each change keeps the time it was first made.
        let times = try journalRows(journal, "SELECT time FROM changes ORDER BY sequence;")
        #expect(times.count == 8)
        #expect(Array(times.prefix(7)) == (try journalRows(journal + ".format-1", "SELECT time FROM entries ORDER BY sequence;")))

        let second = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal], input: "show\n")
        #expect(second.standardError == "undo-host: journal \(journal): 8 changes restored\n", "\(second.standardError)")
        #expect(second.standardOutput.contains(">Dear Ann, thanks"), "\(second.standardOutput)")
    }

    /// A format-1 journal over two documents, as undo-host wrote them: steps of both plugins, a
    /// group, a save, an undo, a move across branches, a second apart each.
    static let formatOneEntries: [SessionLineJournal.Entry] = [
        ("untitled", "org.undohost.text/insert 0 \"Hello\""), ("untitled", "doc \"b.txt\""),
        ("b.txt", "org.undohost.canvas/add 1 \"circle\" 0 0 10 10 0xff"), ("b.txt", "group begin \"Edit\""),
        ("b.txt", "org.undohost.text/insert 0 \"ab\""), ("b.txt", "org.undohost.text/insert 2 \"cd\""), ("b.txt", "group end"),
        ("b.txt", "save"), ("b.txt", "undo 1"), ("b.txt", "doc \"untitled\""),
        ("untitled", "org.undohost.text/insert 5 \" world\""), ("untitled", "goto 3"),
    ].enumerated().map { index, entry in
        SessionLineJournal.Entry(sequence: Int64(index + 1), time: 1_795_000_000_000_000_000 + UInt64(index) * 1_000_000_000,
                                 document: entry.0, command: entry.1)
    }

    @Test("An upgraded journal reopens to the session its upgrade restored: documents, branches, saves")
    func anUpgradedJournalReopensTheSame() throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("two.undojournal").path
        try writeFormatOneJournal(journal, Self.formatOneEntries)
        let first = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal], input: Self.questions)
        #expect(first.status == 0)
        #expect(first.standardError.contains("format 1 (session lines) upgraded to format 5"), "\(first.standardError)")
        // The same lines run without a journal give the same session.
        let lines = Self.formatOneEntries.map { $0.command + "\n" }.joined()
        let direct = try UndoHostProcess.run(UndoHostProcess.samplePlugins, input: lines + Self.questions)
        #expect(direct.standardOutput.hasSuffix(first.standardOutput), "\(first.standardOutput)")
        // `goto 3` goes to state 3 as it was made: " world" was typed after it (at the start of
        // the group's redo step, which stays at 2 where it was made; before issue 32 state 3
        // took " world" in). The group's step waited above 4 unnumbered (a pending step, no
        // state) and went with that branch.
        #expect(first.standardOutput.contains("untitled (Text Editor)\n  Hello[]\n") && first.standardOutput.contains("[abcd]"),
                "\(first.standardOutput)")
        #expect(first.standardOutput.contains("History tree (4 steps, 2 branches, at state 3)\n"), "\(first.standardOutput)")
        #expect(first.standardOutput.contains("├─o 4  Typing \" world\"  (untitled)\n@ 3  Edit  (b.txt, saved, current)"),
                "\(first.standardOutput)")

        let second = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal], input: Self.questions)
        #expect(second.standardError == "undo-host: journal \(journal): 12 changes restored\n", "\(second.standardError)")
        #expect(second.standardOutput == first.standardOutput)
        #expect(try journalRows(journal, "SELECT time FROM changes ORDER BY sequence;")
                == Self.formatOneEntries.map { String($0.time) })
    }

    @Test("A format-1 journal that cannot be upgraded (a plugin missing, the old file's new name taken) is refused and left byte for byte")
    func aFailedUpgradeChangesNothing() throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("old.undojournal").path
        try FileManager.default.copyItem(atPath: SourceTree.path("Tests/UndoHostJournalTests/Fixtures/format-1.undojournal"), toPath: journal)
        let before = try Data(contentsOf: URL(fileURLWithPath: journal))
        let canvasOnly = ["--plugins", UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginCanvas.so").path]
        let refused = try UndoHostProcess.run(canvasOnly + ["--journal", journal], input: "canvas.add 1 \"circle\" 0 0 10 10 0xff\n")
        #expect(refused.status == 1)
        #expect(refused.standardError == """
            undo-host: UNDO_ESTATE: journal \(journal): change 1 (org.undohost.text/insert 0 "Dear Ann") cannot be replayed: unknown action org.undohost.text/insert
              hint: open it with the plugins it was made with; the journal was not changed

            """, "\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["old.undojournal"])

        // A file of the name the old one would be kept under is never overwritten.
        try Data("mine".utf8).write(to: URL(fileURLWithPath: journal + ".format-1"))
        let blocked = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal], input: "show\n")
        #expect(blocked.status == 1)
        #expect(blocked.standardError == """
            undo-host: UNDO_ESTATE: journal \(journal): cannot upgrade it from format 1 (session lines): \(journal).format-1 exists already: move it away first
              hint: the journal was not changed

            """, "\(blocked.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal + ".format-1")) == Data("mine".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
                == ["old.undojournal", "old.undojournal.format-1"])
    }

    @Test("--durability takes full or normal", arguments: ["full", "normal", "fast"])
    func durabilityIsChecked(mode: String) throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("j.undojournal").path
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", journal, "--durability", mode],
                                          input: "text.insert 0 \"Hi\"\n")
        if mode == "fast" {
            #expect(run.status == 2 && run.standardError.contains("--durability fast: use full or normal"))
        } else {
            #expect(run.status == 0)
            #expect(try Self.answers(journal: journal).contains("Hi"))
        }
    }

    /// The crash test: the session is killed with SIGKILL right after a line is sent, at many
    /// points; each time the journal reopens to the session after the last acknowledged line, or
    /// after the line being run when it was killed — never anything else. In `normal`
    /// durability (group commit) it may also reopen to an older session, but only to one after
    /// a line acknowledged at most the commit window (100 ms, plus 150 ms for the scheduler of
    /// a loaded machine) before the kill; lines are sent 1 ms apart there, so a run spans
    /// several windows.
    @Test("SIGKILL at many points loses no acknowledged change and leaves no half change",
          arguments: [("full", 3 as UInt64), ("normal", 5 as UInt64)])
    func killedAtAnyPoint(durability: String, seed: UInt64) throws {
        try Self.kill(durability: durability, seed: seed, every: 2)
    }

    /// Runs the script of 240 lines from `seed` and kills undo-host after every `every` lines
    /// sent (with `options` added), comparing each reopened journal with reference runs of as
    /// many lines, made without `options`.
    /// `reopened` sees each killed journal once it was reopened.
    static func kill(durability: String, seed: UInt64, every: Int, options: [String] = [],
                     questions: String = questions, reopened: (String) throws -> Void = { _ in }) throws {
        let lines = Self.script(count: 240, seed: seed)
        let folder = try TemporaryFolder()
        var references: [Int: String] = [:]
        func reference(_ count: Int) throws -> String {
            if let known = references[count] { return known }
            let journal = folder.url.appendingPathComponent("reference-\(count).undojournal").path
            let input = lines.prefix(count).map { $0 + "\n" }.joined()
            _ = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--keep-going", "--journal", journal], input: input)
            let answer = try Self.answers(journal: journal, questions: questions)
            references[count] = answer
            return answer
        }
        // Kill points spread over the session (every 2 lines: 120 points per mode).
        for killAt in stride(from: 1, through: lines.count, by: every) {
            let journal = folder.url.appendingPathComponent("killed-\(killAt).undojournal").path
            let live = try LiveUndoHost(UndoHostProcess.samplePlugins
                + ["--json", "--keep-going", "--journal", journal, "--durability", durability] + options)
            var acknowledged = 0
            var acknowledgedAt: [ContinuousClock.Instant] = []
            for (index, line) in lines.prefix(killAt).enumerated() {
                live.send(line)
                if index + 1 == killAt { break }       // killed while it runs this one
                guard live.readLine() != nil else { break }
                acknowledged += 1
                acknowledgedAt.append(.now)
                if durability == "normal" { usleep(1000) }
            }
            let killedAt = ContinuousClock.now
            live.kill()
            let restored = try Self.answers(journal: journal, questions: questions)
            try reopened(journal)
            // The fewest lines the journal may hold: full, every acknowledged one; normal, those
            // acknowledged before the window (and the scheduler's slack) that ended at the kill.
            let oldest = durability == "full"
                ? acknowledged : acknowledgedAt.filter { $0 < killedAt - .milliseconds(250) }.count
            let held = try (oldest...(acknowledged + 1)).reversed().first { try reference($0) == restored }
            #expect(held != nil,
                    "killed at line \(killAt) (\(lines[killAt - 1])): the journal holds none of the states after lines \(oldest)...\(acknowledged + 1)")
        }
    }
}

/// undo-host running with pipes: lines in, one JSON line out per command.
final class LiveUndoHost {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    init(_ arguments: [String]) throws {
        process.executableURL = UndoHostProcess.executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// The next line of output, or `nil` when it ended.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
    }
}
