import Glibc
import Testing
import UndoCodableJournal
import UndoCore
import UndoJournal

/// `Fixtures/format-N.sqlite`: the sample session journaled by each format, read by every later
/// version. The newest is written again only on purpose:
/// `UNDOHOST_WRITE_CODABLE_FIXTURE=1 swift test --filter FixtureTests`.
@Suite("A journal of every format is read by this version")
struct FixtureTests {
    @Test("each committed fixture reopens to its documents and its tree, and becomes the newest format",
          arguments: [1, 2] as [Int64])
    func readsEveryFormat(format: Int64) throws {
        let expectedTimes = format == 1 ? Self.format1Times : Self.format2Times
        let fixture = JournalFiles.fixture("format-\(format).sqlite")
        if getenv("UNDOHOST_WRITE_CODABLE_FIXTURE") != nil && format == UndoStackJournal.formatVersion {
            unlink(fixture)
            let documents = Documents()
            let journal = try UndoStackJournal(path: fixture, commands: JournalFiles.commands, model: documents)
            try SampleSession.run(journal, documents)
            journal.close()
        }
        // Read a copy: opening makes the WAL's side files beside it.
        let path = JournalFiles.newPath()
        JournalFiles.write(JournalFiles.bytes(fixture), to: path)
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: documents)
        let stack = journal.stack
        #expect(journal.restoredCount == Self.expectedChanges)
        #expect(documents.texts == Self.expectedTexts)
        #expect(stack.tree.map(Self.describe) == Self.expectedTree)
        #expect(stack.tree.map(\.time) == expectedTimes)
        #expect(stack.position == Self.expectedPosition && stack.currentState == Self.expectedState)
        #expect(stack.groupDepth == 1 && stack.currentContext == UndoContext("b") && stack.countLimit == 40)
        #expect(stack.isDirty(UndoContext("a")) && stack.isDirty(UndoContext("b")))
        journal.close()
        let connection = try SQLiteConnection(path: path, create: false)
        defer { connection.close() }
        #expect(try connection.integer("PRAGMA user_version;") == UndoStackJournal.formatVersion)
    }

    static func describe(_ node: UndoTreeNode) -> String {
        "\(node.id)<\(node.parent) \(node.name ?? "-") [\(node.context)] b\(node.branch)"
            + (node.isApplied ? " applied" : "") + (node.isCurrent ? " current" : "")
            + (node.wasSaved ? " wasSaved" : "") + (node.isSavePoint ? " savePoint" : "")
    }

    static let expectedChanges = 37
    static let expectedTexts = ["a": "#>ello, world", "scratch": "not a step", "b": "Notes."]
    /// In the order the steps were made: a revert no longer moves the steps it takes back (before
    /// issue 32 the replayed revert of "a" put 5 above 4), and a's undone revert, a redo step when
    /// b's step 7 was made, stays at 5 where it was made (it hung at 7, a newer state). Above 7
    /// it waited unnumbered (a pending step, no state), and a's step (8) dropped it (before, it
    /// came back as a copy 8, hung at 7 by a's step, then 9).
    static let expectedTree = [
        "1<0 Typing [a] b0 applied", "2<1 Typing [a] b0 applied wasSaved savePoint", "4<2 Delete [a] b0 applied",
        "5<4 Typing [b] b0 applied wasSaved", "7<5 Typing [b] b0 applied", "8<7 Typing [a] b0 applied current",
        "3<2 Paste Twice [a] b1", "6<5 Revert to Saved [a] b2 savePoint",
    ]
    /// Nanoseconds since 1970, as the session made them on 2026-11-25 (format 1).
    static let format1Times: [UInt64] = [
        1_795_639_473_922_355_869, 1_795_639_473_923_933_077, 1_795_639_473_932_209_466, 1_795_639_473_937_172_503,
        1_795_639_473_948_435_048, 1_795_639_473_954_288_435, 1_795_639_473_930_289_259, 1_795_639_473_944_787_161,
    ]
    /// As the session made them for format 2, on 2026-11-28.
    static let format2Times: [UInt64] = [
        1_795_836_474_583_214_544, 1_795_836_474_591_215_407, 1_795_836_474_611_608_854, 1_795_836_474_627_383_932,
        1_795_836_474_655_227_630, 1_795_836_474_677_428_393, 1_795_836_474_607_213_077, 1_795_836_474_644_105_071,
    ]
    static let expectedPosition = 6
    static let expectedState: UInt32 = 8
}
