import Foundation
import Testing
import UndoTestSupport

/// `goto --doc`, `earlier --doc`, `later --doc` at undo-host: one document moves, the other
/// stays; a group over both on the way is refused by name; in both locales (issue 32).
@Suite("Scripts: moves of one document")
struct DocumentMoveSessionTests {
    static let twoDocuments = """
        doc a
        text.insert 0 "x"
        group begin "Both"
        text.insert 1 "y"
        doc b
        text.insert 0 "z"
        group end
        doc a
        text.insert 2 "w"
        """

    @Test("One document moves through its own states; the other stays")
    func oneDocumentMoves() throws {
        let run = try UndoHostProcess.runScript(Self.twoDocuments + """

            earlier --doc
            show b
            later --doc
            show b
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Go to state 2 of a\na (Text Editor)\n  xy[]"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("Go to state 3 of a\na (Text Editor)\n  xy[w]"), "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("b (Text Editor): empty"), "\(run.standardOutput)")
    }

    @Test("A group over both documents on the way is refused by name; a time is not a count", arguments: ["en", "ko"])
    func refusals(locale: String) throws {
        let run = try UndoHostProcess.runScript(Self.twoDocuments + """

            goto --doc 1
            earlier --doc 10s
            later --doc
            """, extraArguments: ["--locale", locale, "--keep-going"])
        let expected = locale == "en"
            ? ["session.undo:10: UNDO_ESTATE: the way of a to that state passes \"Both\", a step that also changed other documents",
               "session.undo:11: UNDO_EINVAL: earlier --doc: \"10s\" is not a count of states", "session.undo:12: UNDO_EEMPTY: a is at its newest state"]
            : ["session.undo:10: UNDO_ESTATE: a이(가) 그 상태로 가는 길에 다른 문서도 바꾼 단계 \"Both\"이(가) 있습니다",
               "session.undo:11: UNDO_EINVAL: earlier --doc: \"10s\"은(는) 상태 수가 아닙니다", "session.undo:12: UNDO_EEMPTY: a은(는) 가장 새로운 상태에 있습니다"]
        for line in expected { #expect(run.standardError.contains(line), "\(run.standardError)") }
    }

    /// A checkpoint keeps where each document's own moves count from: after reopening, the
    /// next `earlier --doc` goes on from the state the last move went to, as it would have
    /// without the checkpoint (it used to count from the move's own step).
    @Test("A document's move survives a checkpoint and a reopen", arguments: [false, true])
    func documentMovesSurviveACheckpoint(checkpoint: Bool) throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent("moves.undojournal").path
        let first = try UndoHostProcess.run(["--journal", journal], input: """
            doc a
            text.insert 0 "x"
            text.insert 0 "y"
            text.insert 0 "z"
            earlier --doc 2
            \(checkpoint ? "checkpoint" : "")

            """)
        #expect(first.status == 0, "\(first.standardError)")
        let reopened = try UndoHostProcess.run(["--journal", journal], input: "earlier --doc\nshow a\nlater --doc\nshow a\n")
        #expect(reopened.status == 0, "\(reopened.standardError)")
        #expect(reopened.standardOutput.contains("Go to state 0 of a"), "\(reopened.standardOutput)")
        #expect(reopened.standardOutput.contains("Go to state 1 of a\na (Text Editor)\n  [x]"), "\(reopened.standardOutput)")
    }

    @Test("diff's \"not a state number\" is in the session's language")
    func diffStateNumberInKorean() throws {
        let run = try UndoHostProcess.runScript("diff x\n", extraArguments: ["--locale", "ko", "--keep-going"])
        #expect(run.standardError.contains("diff: \"x\"은(는) 상태 번호가 아닙니다"), "\(run.standardError)")
        #expect(!run.standardError.contains("is not a state number") && !run.standardError.contains("0 is the start"),
                "\(run.standardError)")
    }
}
