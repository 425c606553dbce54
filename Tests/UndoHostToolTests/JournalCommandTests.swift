import Foundation
import Testing
import UndoTestSupport

/// `undo-host journal FILE`: what a journal holds, as a person reads it and as JSON, read
/// without writing a byte of its files; and what an open that fails says (the process that
/// holds the journal, why a path cannot be opened, which --plugins has a missing plugin).
@Suite struct JournalCommandTests {
    static let script = """
        text.insert 0 "Dear Ann"
        text.insert 8 ", thanks"
        undo
        save
        canvas.add 1 "rect" 0 0 10 10 255
        """

    /// The files of the journal and their bytes.
    static func files(_ path: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm", "-journal", "-replay", "-save"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { result[suffix] = data }
        }
        return result
    }

    static func journal(in folder: TemporaryFolder, _ name: String = "letter.undojournal") throws -> String {
        let path = folder.path(name)
        let made = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", path], input: script + "\n")
        try #require(made.status == 0, "\(made.standardError)")
        return path
    }

    @Test func theSummaryTheChangesAndTheVerificationLeaveTheFilesAsTheyWere() throws {
        let folder = try TemporaryFolder()
        let path = try Self.journal(in: folder)
        let before = Self.files(path)
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

        let info = try UndoHostProcess.run(["journal", path])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.lines.first == "journal \(path)")
        #expect(info.lines.contains { $0.hasPrefix("  format       5 (identity ") })
        #expect(info.lines.contains("  plugins      org.undohost.text 1.0.0: 2 performs"), "\(info.standardOutput)")
        #expect(info.lines.contains("               org.undohost.canvas 1.0.0: 1 perform"), "\(info.standardOutput)")
        #expect(info.lines.contains("  documents    \"untitled\" (org.undohost.text, org.undohost.canvas): 3 performs"), "\(info.standardOutput)")
        #expect(info.lines.contains { $0.hasPrefix("  changes      5 (1 to 5), ") && $0.hasSuffix(" UTC") }, "\(info.standardOutput)")
        #expect(info.lines.contains("               3 perform, 1 undo, 1 save"), "\(info.standardOutput)")
        #expect(info.lines.contains("  checkpoint   none"), "\(info.standardOutput)")

        let changes = try UndoHostProcess.run(["journal", "--changes", "--verify", path])
        #expect(changes.status == 0, "\(changes.standardError)")
        #expect(changes.standardOutput.contains("  verified     every row checked: 5 changes and 0 checkpoint rows"), "\(changes.standardOutput)")
        let rows = changes.lines.suffix(5)
        #expect(rows.first?.hasSuffix("  perform org.undohost.text/insert 0 \"Dear Ann\" in \"untitled\"  (\"Typing \\\"Dear Ann\\\"\")") == true,
                "\(changes.standardOutput)")
        #expect(rows.dropFirst(2).first?.hasSuffix("  undo 1 in \"untitled\"") == true, "\(changes.standardOutput)")
        #expect(rows.dropFirst(3).first?.hasSuffix("  save in \"untitled\"") == true, "\(changes.standardOutput)")

        let json = try UndoHostProcess.run(["--json", "journal", "--changes", "--verify", path])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["format"] as? Int == 5)
        #expect(object["verified"] as? Bool == true)
        #expect((object["plugins"] as? [[String: Any]])?.map { $0["id"] as? String } == ["org.undohost.text", "org.undohost.canvas"])
        #expect(((object["changes"] as? [String: Any])?["kinds"] as? [String: Int]) == ["perform": 3, "undo": 1, "save": 1])
        #expect((object["changeList"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["perform", "perform", "undo", "save", "perform"])
        #expect(object["openBy"] is NSNull)

        // Read-only: the same bytes, no new file (no -wal, no -shm).
        #expect(Self.files(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == listing)

        let korean = try UndoHostProcess.run(["--locale", "ko", "journal", path])
        #expect(korean.lines.contains { $0.hasPrefix("  형식") }, "\(korean.standardOutput)")
        #expect(korean.lines.contains { $0.hasPrefix("  체크포인트") && $0.hasSuffix("없음") }, "\(korean.standardOutput)")
    }

    /// A journal its writer holds open: read as a copy, naming the writer's process; a second
    /// writer is refused naming it too. Neither touches the writer's files.
    @Test func aJournalOpenInAnotherProcessIsReadAndItsProcessNamed() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("held.undojournal")
        let writer = try LiveUndoHost(UndoHostProcess.samplePlugins + ["--json", "--journal", path])
        defer { writer.kill() }
        writer.send("text.insert 0 \"held\"")
        _ = writer.readLine()
        let pid = writer.process.processIdentifier
        let before = Self.files(path)

        let info = try UndoHostProcess.run(["journal", path])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.lines.contains("  open         in process \(pid) (its writer; this is a copy read now)"), "\(info.standardOutput)")
        #expect(info.standardOutput.contains("  changes      1 (1 to 1)"), "\(info.standardOutput)")
        let second = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--journal", path], input: "")
        #expect(second.status == 1)
        #expect(second.standardError.contains("it is already open (in process \(pid)): a journal has one writer at a time"), "\(second.standardError)")
        #expect(Self.files(path) == before)
    }

    @Test func whatCannotBeReadSaysWhy() throws {
        let folder = try TemporaryFolder()
        let missing = try UndoHostProcess.run(["journal", folder.path("none.undojournal")])
        #expect(missing.status == 1)
        #expect(missing.standardError == "undo-host: journal \(folder.path("none.undojournal")): cannot read it: no such file\n")
        let asFolder = try UndoHostProcess.run(["journal", folder.path])
        #expect(asFolder.standardError.contains("it is a folder, not a journal"))
        let text = folder.path("notes.txt")
        try Data("just text".utf8).write(to: URL(fileURLWithPath: text))
        let notJournal = try UndoHostProcess.run(["journal", "--verify", text])
        #expect(notJournal.status == 1)
        #expect(notJournal.standardError.contains("the file is damaged (file is not a database)"), "\(notJournal.standardError)")
        let json = try UndoHostProcess.run(["--json", "journal", "--verify", text])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["verified"] as? Bool == false)
        #expect((object["error"] as? String)?.contains("damaged") == true)
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "just text")
    }

    /// Opening with --journal: a folder that does not exist is named as the reason (SQLite says
    /// only "unable to open database file"); a missing plugin is found among the bundled ones.
    @Test func anOpenThatFailsSaysWhatWouldOpenIt() throws {
        let folder = try TemporaryFolder()
        let nowhere = try UndoHostProcess.run(["--journal", folder.path("missing/j.undojournal")], input: "")
        #expect(nowhere.status == 1)
        #expect(nowhere.standardError.contains("cannot open it: its folder \(folder.path("missing")) cannot be reached (No such file or directory)"),
                "\(nowhere.standardError)")

        let path = try Self.journal(in: folder)
        let textOnly = ["--plugins", UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginTextEditor.so").path]
        let before = Self.files(path)
        let refused = try UndoHostProcess.run(textOnly + ["--journal", path], input: "")
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("it needs plugin org.undohost.canvas 1.x (written with 1.0.0); it is not loaded"), "\(refused.standardError)")
        #expect(refused.standardError.contains("  hint: the bundled plugins have org.undohost.canvas in "), "\(refused.standardError)")
        #expect(refused.standardError.contains("libUndoPluginCanvas.so: undo-host --plugins "), "\(refused.standardError)")
        #expect(Self.files(path) == before)
    }
}
