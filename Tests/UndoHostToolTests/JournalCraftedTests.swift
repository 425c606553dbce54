import Foundation
import Testing
import UndoHostJournal
import UndoJournal
import UndoTestSupport

/// A crafted journal given to undo-host --journal: a checkpoint whose sequence is 2^63 - 1
/// (sealed with the checksum the journal's own code computes) crashed the process with an
/// arithmetic overflow; it is refused as damaged, naming the value, and the file is unchanged.
@Suite struct JournalCraftedTests {
    static let plugins = ["libUndoPluginTextEditor.so"].flatMap {
        ["--plugins", UndoHostProcess.productsFolder.appendingPathComponent($0).path]
    }

    @Test("undo-host refuses a checkpoint sequence of 2^63 - 1 instead of crashing")
    func aCheckpointSequenceAtTheTopIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("crafted.undojournal").path
        let written = try UndoHostProcess.run(Self.plugins + ["--journal", path],
                                              input: "text.insert 0 \"Dear Ann\"\ncheckpoint\ntext.insert 0 \"!\"\n")
        #expect(written.status == 0, "\(written.standardError)")
        let connection = try SQLiteConnection(path: path, create: false)
        var records: [[SQLiteConnection.Value]] = []
        try connection.query("SELECT * FROM checkpoint;") { records.append($0) }
        var values = Array(try #require(records.first).dropLast())
        values[0] = .integer(Int64.max)
        try connection.query("UPDATE checkpoint SET sequence = ?, checksum = ?;",
                             [values[0], try #require(JournalRows.sealed(values).last)])
        connection.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let opened = try UndoHostProcess.run(Self.plugins + ["--journal", path], input: "")
        #expect(opened.status != 0)
        #expect(opened.standardError.contains("damaged") && opened.standardError.contains("sequence \(Int64.max)"),
                "\(opened.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "a refused open changed the journal")
    }
}
