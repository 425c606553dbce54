import Foundation
import Testing
@testable import UndoHostSession
import UndoTestSupport

/// `--locale ko`: everything undo-host itself prints is Korean, and the sample plugins' action
/// names are Korean too (undo_host.register_action_name, ABI 1.5).
@Suite("Korean sessions")
struct KoreanSessionTests {
    func korean(_ script: String) throws -> UndoHostProcess.Outcome {
        try UndoHostProcess.runScript(script, extraArguments: ["--locale", "ko", "--keep-going"])
    }

    @Test("The menu titles a plugin action by its Korean name: 입력 실행 취소")
    func menuWithAPluginAction() throws {
        let run = try korean("doc letter\ntext.insert 0 \"Hi\"\nmenu\nundo\nmenu\n")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == """
            편집 (letter)
              입력 실행 취소    Ctrl+Z
              실행 복귀         Ctrl+Y  (비활성)
            입력 실행 취소
            letter (Text Editor): 비어 있음
            편집 (letter)
              실행 취소         Ctrl+Z  (비활성)
              입력 실행 복귀    Ctrl+Y

            """)
    }

    @Test("Errors and their hints are Korean; the code names stay")
    func errorMessages() throws {
        let run = try korean("bogus\nundo\nundo to 7\nsave\n")
        #expect(run.status == 1)
        #expect(run.standardError == """
            session.undo:1: UNDO_ENOTFOUND: 알 수 없는 명령: bogus
              도움말: 동작 목록은 plugins, 명령 목록은 help를 입력하세요
            session.undo:2: UNDO_EEMPTY: untitled에 실행 취소할 것이 없습니다
              도움말: 실행 취소 항목이 비활성입니다. 모든 단계는 history로 보세요
            session.undo:3: UNDO_ENOTFOUND: undo to 7: 기록에 7단계가 없습니다
              도움말: 있는 단계는 history로 보세요 (닫히거나 내려졌거나 바뀐 단계의 번호는 다시 쓰지 않습니다)

            """)
        #expect(run.standardOutput == "untitled 저장됨\n")
    }

    @Test("The history listing's labels are Korean")
    func historyLabels() throws {
        let script = """
            doc a
            text.insert 0 "x"
            save
            group begin "Paste"
            text.insert 1 "y"
            text.bold 0 2
            group end
            undo
            history
            """
        let run = try korean(script)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("""
            실행 기록 (2개 중 1개 실행됨)
                 처음
            > 1  "x" 입력  a  저장됨
              2  Paste     a  동작 2개의 그룹, 실행 취소됨

            """), "\(run.standardOutput)")
    }

    @Test("help is Korean; the command words and usages stay as typed")
    func help() throws {
        let run = try korean("help\nhelp undo\nhelp text.insert\n")
        #expect(run.status == 0, "\(run.standardError)")
        let output = run.standardOutput
        for expected in ["명령:", "  undo [N] | undo to N    이 문서의 가장 최근 단계를 실행 취소합니다",
                         "동작 (ACTION ARGUMENTS.", "  text.insert(position: i64, text: string)      입력",
                         "사용법: undo [N] | undo to N\n  이 문서의 가장 최근 단계를 실행 취소합니다",
                         "text.insert(position: i64, text: string)  \"입력\"  (org.undohost.text/insert)\n  합쳐짐: 한 문서에서 잇따르는 단계가"] {
            #expect(output.contains(expected), "missing: \(expected)\nin: \(output)")
        }
        #expect(!output.contains("Commands:"))
    }

    /// The English fragments of the session's table (the text between values, four characters
    /// or more with a letter), except those the Korean table has too (command words such as
    /// `group end`, `undo-host`, `Ctrl+Z`).
    static var englishOnlyFragments: [String] {
        func fragments(_ catalog: [String]) -> Set<String> {
            Set(catalog.flatMap { $0.split(separator: Character(SessionText.catalogArgument)) }
                .flatMap { $0.split(separator: "\n") }
                .map { $0.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters)) }
                .filter { $0.count > 3 && $0.contains { $0.isASCII && $0.isLetter } })
        }
        let korean = SessionText.korean.catalog.joined(separator: "\n")
        return fragments(SessionText.english.catalog).filter { !korean.contains($0) }.sorted()
    }

    /// Whether `fragment` is in `text` as whole words (not "Edit" inside "Editor").
    static func containsWords(_ text: String, _ fragment: String) -> Bool {
        var searchStart = text.startIndex
        while let range = text.range(of: fragment, range: searchStart..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !(before?.isLetter ?? false) && !(after?.isLetter ?? false) { return true }
            searchStart = range.upperBound
        }
        return false
    }

    @Test("No English word of the session's table is left in the Korean demo")
    func noEnglishInTheKoreanDemo() throws {
        let fragments = Self.englishOnlyFragments
        #expect(fragments.count > 100)  // the table is really there
        #expect(fragments.contains("Nothing") == false)  // titles come from UndoLocale, not this table
        let run = try UndoHostProcess.run(["--locale", "ko", "demo"])
        #expect(run.status == 0)
        #expect(run.standardError == "")
        // The English demo does show them: the check can fail.
        let english = try UndoHostProcess.run(["demo"]).standardOutput
        #expect(fragments.filter { Self.containsWords(english, $0) }.count >= 8)
        let leaked = fragments.filter { Self.containsWords(run.standardOutput, $0) }
        #expect(leaked.isEmpty, "English in the Korean demo: \(leaked)")
        #expect(run.standardOutput.contains("데모가 끝났습니다"))
        #expect(run.standardOutput.contains("> 6  저장된 상태로 되돌리기                      letter.txt  동작 1개의 그룹, 저장됨"))
    }

    @Test("Every message of the session's table has a Korean form that is not the English one")
    func everyStringIsTranslated() {
        let english = SessionText.english.catalog
        let korean = SessionText.korean.catalog
        #expect(english.count == korean.count)
        // Only the answer keys are the same in both.
        let same = zip(english, korean).filter { $0 == $1 }.map(\.0)
        #expect(same == ["[y/N]"])
    }

    @Test("A locale file supplies the titles; the session's words are English unless the file is Korean")
    func localeFileFallsBackToEnglish() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("ja.locale")
        try Data("""
            identifier = ja
            undo = 取り消す
            redo = やり直す
            undo.named = %@を取り消す
            redo.named = %@をやり直す
            cancel = キャンセル
            alert.nothing = 取り消せる操作はありません
            """.utf8).write(to: file)
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--locale", file.path, "run", "-"],
                                          input: "text.insert 0 \"a\"\nmenu\n")
        #expect(run.standardOutput == "Edit (untitled)\n  Typingを取り消す    Ctrl+Z\n  やり直す            Ctrl+Y  (disabled)\n")
        #expect(SessionText.forLocale("ko_KR") == .korean)
        #expect(SessionText.forLocale("ja") == .english)
    }
}
