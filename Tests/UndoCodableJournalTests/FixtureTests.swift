import Glibc
import Testing
import UndoCodableJournal
import UndoCore

/// `Fixtures/format-1.sqlite`: the sample session journaled by format 1, read by every later
/// version. Written again only on purpose: `UNDOHOST_WRITE_CODABLE_FIXTURE=1 swift test --filter FixtureTests`.
@Suite("A journal of format 1 is read by this version")
struct FixtureTests {
    static let name = "format-1.sqlite"

    @Test("the committed fixture reopens to its documents and its tree")
    func readsFormat1() throws {
        let fixture = JournalFiles.fixture(Self.name)
        if getenv("UNDOHOST_WRITE_CODABLE_FIXTURE") != nil {
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
        #expect(stack.tree.map(\.time) == Self.expectedTimes)
        #expect(stack.position == Self.expectedPosition && stack.currentState == Self.expectedState)
        #expect(stack.groupDepth == 1 && stack.currentContext == UndoContext("b") && stack.countLimit == 40)
        #expect(stack.isDirty(UndoContext("a")) && stack.isDirty(UndoContext("b")))
    }

    static func describe(_ node: UndoTreeNode) -> String {
        "\(node.id)<\(node.parent) \(node.name ?? "-") [\(node.context)] b\(node.branch)"
            + (node.isApplied ? " applied" : "") + (node.isCurrent ? " current" : "")
            + (node.wasSaved ? " wasSaved" : "") + (node.isSavePoint ? " savePoint" : "")
    }

    static let expectedChanges = 37
    static let expectedTexts = ["a": "#>ello, world", "scratch": "not a step", "b": "Notes."]
    static let expectedTree = [
        "1<0 Typing [a] b0 applied", "2<1 Typing [a] b0 applied wasSaved savePoint", "5<2 Typing [b] b0 applied wasSaved",
        "4<5 Delete [a] b0 applied", "7<4 Typing [b] b0 applied", "8<7 Typing [a] b0 applied current",
        "3<2 Paste Twice [a] b1", "6<7 Revert to Saved [a] b2 savePoint",
    ]
    /// Nanoseconds since 1970, as the session made them on 2026-11-25.
    static let expectedTimes: [UInt64] = [
        1_795_639_473_922_355_869, 1_795_639_473_923_933_077, 1_795_639_473_937_172_503, 1_795_639_473_932_209_466,
        1_795_639_473_948_435_048, 1_795_639_473_954_288_435, 1_795_639_473_930_289_259, 1_795_639_473_944_787_161,
    ]
    static let expectedPosition = 6
    static let expectedState: UInt32 = 8
}
