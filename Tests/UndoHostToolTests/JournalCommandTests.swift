import Foundation
import Testing
import UndoJournal
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

    /// Format 5: a document over 4 MiB keeps its state in pieces (checkpoint_pieces); the reader
    /// counts, checks and shows them, and names a damaged, missing or stray piece.
    @Test func aFormatFiveJournalShowsAndChecksItsPieces() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("format-5.undojournal")
        try FileManager.default.copyItem(atPath: SourceTree.path("Tests/UndoHostJournalTests/Fixtures/format-5.undojournal"), toPath: path)
        let before = Self.files(path)

        let info = try UndoHostProcess.run(["journal", "--verify", path])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.lines.contains { $0.hasPrefix("  format       5 (identity ") }, "\(info.standardOutput)")
        #expect(info.lines.contains("               \"big\" (org.undohost.text): 0 performs; its state in the checkpoint"), "\(info.standardOutput)")
        #expect(info.lines.contains { $0.hasPrefix("  checkpoint   after change 17, ")
            && $0.hasSuffix(" UTC: 6 steps, 3 documents (4500056 bytes), 1 further piece of 4 MiB") }, "\(info.standardOutput)")
        // 15 rows in the format-4 tables and the one piece.
        #expect(info.standardOutput.contains("  verified     every row checked: 8 changes and 16 checkpoint rows"), "\(info.standardOutput)")

        let json = try UndoHostProcess.run(["--json", "journal", "--verify", "--changes", path])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["format"] as? Int == 5)
        let checkpoint = try #require(object["checkpoint"] as? [String: Any])
        #expect(checkpoint["pieces"] as? Int == 1)
        #expect(checkpoint["rows"] as? Int == 16)
        #expect(checkpoint["documentBytes"] as? Int == 4_500_056)
        #expect((object["changeList"] as? [[String: Any]])?.count == 8)
        #expect(Self.files(path) == before)

        /// A copy of the fixture changed by `sql`, read with --verify: its error.
        func damaged(_ name: String, _ sql: String) throws -> String {
            let copy = folder.path(name)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            let connection = try SQLiteConnection(path: copy, create: false)
            try connection.execute(sql)
            connection.close()
            let run = try UndoHostProcess.run(["journal", "--verify", copy])
            #expect(run.status == 1, "\(name): \(run.standardOutput)")
            return run.standardError
        }
        let bytes = try damaged("bytes.undojournal", "UPDATE checkpoint_pieces SET bytes = zeroblob(length(bytes));")
        #expect(bytes.contains("the file is damaged (the checkpoint is damaged: a row of checkpoint_pieces fails its checksum)"), "\(bytes)")
        let gone = try damaged("gone.undojournal", "DELETE FROM checkpoint_pieces;")
        #expect(gone.contains("the checkpoint is damaged: document 3's 1 further piece is missing from checkpoint_pieces"), "\(gone)")
        // Moved to a document the checkpoint does not hold: document 3 lost its piece.
        let moved = try damaged("moved.undojournal", "UPDATE checkpoint_pieces SET document = 9;")
        #expect(moved.contains("the checkpoint is damaged: document 3's 1 further piece is missing from checkpoint_pieces"), "\(moved)")
        let first = try damaged("first.undojournal", "UPDATE checkpoint_documents SET state = zeroblob(length(state)) WHERE ordinal = 3;")
        #expect(first.contains("a row of checkpoint_documents fails its checksum"), "\(first)")
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
