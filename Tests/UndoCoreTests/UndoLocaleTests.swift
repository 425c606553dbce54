import Foundation
import Testing
@testable import UndoCore
import UndoTestSupport

@Suite("UndoLocale")
struct UndoLocaleTests {
    // MARK: Built-in locales

    @Test func englishTitles() {
        let formatter = UndoTitleFormatter(locale: .english)
        #expect(formatter.undoTitle(for: "typing") == "Undo Typing")
        #expect(formatter.redoTitle(for: "bold") == "Redo Bold")
        #expect(formatter.undoTitle(for: "bring to front") == "Undo Bring to Front")
        #expect(formatter.undoTitle(for: nil) == "Undo")
        #expect(formatter.redoTitle(for: nil) == "Redo")
    }

    @Test func koreanTitles() {
        let formatter = UndoTitleFormatter(locale: .korean)
        #expect(formatter.undoTitle(for: "글자 입력") == "글자 입력 실행 취소")
        #expect(formatter.redoTitle(for: "굵게") == "굵게 실행 복귀")
        #expect(formatter.undoTitle(for: nil) == "실행 취소")
        #expect(formatter.redoTitle(for: "  ") == "실행 복귀")
        // Korean does not title-case, even a Latin name.
        #expect(formatter.undoTitle(for: "paste as text") == "paste as text 실행 취소")
        #expect(!UndoLocale.korean.capitalizesNames)
        #expect(UndoLocale.english.capitalizesNames)
    }

    @Test(arguments: [
        ("en", "en"), ("EN", "en"), ("en-US", "en"), ("en_GB", "en"),
        ("ko", "ko"), ("ko-KR", "ko"), ("ko_Kore_KR", "ko"),
    ])
    func builtInLookup(_ query: String, _ identifier: String) throws {
        let locale = try #require(UndoLocale.builtIn(query))
        #expect(locale.identifier == identifier)
    }

    @Test(arguments: ["fr", "", "eng", "-en", "kor"])
    func builtInUnknown(_ query: String) {
        #expect(UndoLocale.builtIn(query) == nil)
    }

    // MARK: User locales

    /// German puts the name first ("Eingabe widerrufen"); written with comments, blank lines,
    /// CRLF endings, odd spacing and a `#` and `=` inside values.
    static let german = """
        # Deutsch\r
        \r
        identifier = de\r
          undo=Widerrufen\r
        redo   =   Wiederholen\r
        undo.named = %@ widerrufen\r
        redo.named = %@ wiederholen\r
        cancel = Abbrechen\r
        alert.nothing = Nichts zu widerrufen (#0 = leer)\r
        capitalize = false\r
        """

    @Test func parsedGermanLocale() throws {
        let locale = try UndoLocale(parsing: Self.german)
        #expect(locale.identifier == "de")
        #expect(locale.undoTitle == "Widerrufen")
        #expect(locale.redoTitle == "Wiederholen")
        #expect(locale.nothingToUndoTitle == "Nichts zu widerrufen (#0 = leer)")
        #expect(!locale.capitalizesNames)

        let formatter = UndoTitleFormatter(locale: locale)
        #expect(formatter.undoTitle(for: "Eingabe") == "Eingabe widerrufen")
        #expect(formatter.redoTitle(for: "Fett...") == "Fett wiederholen")
        #expect(formatter.undoTitle(for: nil) == "Widerrufen")
        let alert = formatter.alert(undoName: nil, redoName: nil)
        #expect(alert.title == "Nichts zu widerrufen (#0 = leer)")
        #expect(alert.actions.map(\.title) == ["Abbrechen"])
    }

    static let japanese = """
        \u{FEFF}# Japanese: the name comes first, with a particle.
        identifier = ja
        undo = 取り消す
        redo = やり直す
        undo.named = %@を取り消す
        redo.named = %@をやり直す
        cancel = キャンセル
        alert.nothing = 取り消せる操作はありません
        """

    @Test func loadedFromFile() throws {
        let folder = try TemporaryFolder("undo-locale")
        defer { withExtendedLifetime(folder) {} }  // removed at the end
        let url = folder.url.appendingPathComponent("ja.txt")
        try Self.japanese.write(to: url, atomically: true, encoding: .utf8)

        let locale = try UndoLocale.load(contentsOfFile: url.path)
        #expect(locale.identifier == "ja")
        #expect(!locale.capitalizesNames)  // default when `capitalize` is absent
        let formatter = UndoTitleFormatter(locale: locale)
        #expect(formatter.undoTitle(for: "入力") == "入力を取り消す")
        #expect(formatter.redoTitle(for: "太字") == "太字をやり直す")
        #expect(formatter.redoTitle(for: nil) == "やり直す")
    }

    @Test func loadingAMissingFileThrows() {
        #expect(throws: (any Error).self) {
            try UndoLocale.load(contentsOfFile: "/nonexistent/undo-locale-\(UInt64.random(in: 0 ... .max))")
        }
    }

    @Test func capitalizeCanBeTurnedOn() throws {
        let text = Self.japanese.replacingOccurrences(of: "identifier = ja", with: "identifier = en-x\ncapitalize = YES")
        let locale = try UndoLocale(parsing: text)
        #expect(locale.capitalizesNames)
        #expect(UndoTitleFormatter(locale: locale).undoTitle(for: "change of address") == "Change of Addressを取り消す")
    }

    // MARK: Errors

    /// A valid locale with line `line` (1-based) replaced by `replacement`, or removed when nil.
    static func english(replacingLine line: Int, with replacement: String?) -> String {
        var lines = [
            "identifier = en",  // 1
            "undo = Undo",  // 2
            "redo = Redo",  // 3
            "undo.named = Undo %@",  // 4
            "redo.named = Redo %@",  // 5
            "cancel = Cancel",  // 6
            "alert.nothing = Nothing to Undo",  // 7
            "capitalize = true",  // 8
        ]
        if let replacement { lines[line - 1] = replacement } else { lines[line - 1] = "# removed" }
        return lines.joined(separator: "\n")
    }

    @Test func validBaselineParses() throws {
        #expect(try UndoLocale(parsing: Self.english(replacingLine: 1, with: "identifier = en")) == .english)
    }

    @Test(arguments: [
        (4, "undo.named = Undo", UndoLocale.ParseError.placeholderCount(line: 4, key: "undo.named", found: 0, expected: 1)),
        (5, "redo.named = %@ Redo %@", .placeholderCount(line: 5, key: "redo.named", found: 2, expected: 1)),
        (2, "undo = Undo %@", .placeholderCount(line: 2, key: "undo", found: 1, expected: 0)),
        (3, "redo.name = Redo %@", .unknownKey(line: 3, key: "redo.name")),
        (6, "cancel Cancel", .malformedLine(line: 6, text: "cancel Cancel")),
        (6, "= Cancel", .malformedLine(line: 6, text: "= Cancel")),
        (7, "alert.nothing =  ", .emptyValue(line: 7, key: "alert.nothing")),
        (8, "capitalize = maybe", .invalidBoolean(line: 8, key: "capitalize", value: "maybe")),
        (8, "undo = Again", .duplicateKey(line: 8, key: "undo", firstLine: 2)),
    ])
    func invalidLine(_ line: Int, _ text: String, _ error: UndoLocale.ParseError) {
        #expect(throws: error) {
            try UndoLocale(parsing: Self.english(replacingLine: line, with: text))
        }
    }

    @Test func missingKeysAreAllNamed() {
        let text = Self.english(replacingLine: 5, with: nil)
            .replacingOccurrences(of: "cancel = Cancel", with: "")
        #expect(throws: UndoLocale.ParseError.missingKeys(["redo.named", "cancel"])) {
            try UndoLocale(parsing: text)
        }
        // capitalize is optional.
        #expect(throws: Never.self) {
            try UndoLocale(parsing: Self.english(replacingLine: 8, with: nil))
        }
    }

    @Test func errorMessagesNameLineAndKey() {
        let missing = UndoLocale.ParseError.placeholderCount(line: 4, key: "undo.named", found: 0, expected: 1)
        #expect(missing.description == "line 4: key 'undo.named' must contain %@ exactly once (found 0)")
        let unknown = UndoLocale.ParseError.unknownKey(line: 3, key: "redo.name").description
        #expect(unknown.hasPrefix("line 3: unknown key 'redo.name'"))
        #expect(unknown.contains("redo.named"))
        #expect(UndoLocale.ParseError.missingKeys(["cancel", "redo"]).description
            == "missing required keys: cancel, redo")
    }

    // MARK: Alert

    struct AlertCase: Sendable, CustomTestStringConvertible {
        var undo: String??
        var redo: String??
        var title: String
        var actions: [UndoAlert.Action.Kind]
        var actionTitles: [String]
        var testDescription: String { "undo \(String(describing: undo)), redo \(String(describing: redo))" }
    }

    static let alertCases: [AlertCase] = [
        AlertCase(undo: nil, redo: nil, title: "Nothing to Undo", actions: [.cancel], actionTitles: ["Cancel"]),
        AlertCase(undo: "typing", redo: nil, title: "Undo Typing",
                  actions: [.undo, .cancel], actionTitles: ["Undo Typing", "Cancel"]),
        AlertCase(undo: nil, redo: "bold", title: "Redo Bold",
                  actions: [.redo, .cancel], actionTitles: ["Redo Bold", "Cancel"]),
        AlertCase(undo: "typing", redo: "bold", title: "Undo Typing",
                  actions: [.undo, .redo, .cancel], actionTitles: ["Undo Typing", "Redo Bold", "Cancel"]),
        AlertCase(undo: .some(nil), redo: .some(nil), title: "Undo",
                  actions: [.undo, .redo, .cancel], actionTitles: ["Undo", "Redo", "Cancel"]),
        AlertCase(undo: nil, redo: .some(nil), title: "Redo",
                  actions: [.redo, .cancel], actionTitles: ["Redo", "Cancel"]),
    ]

    @Test(arguments: alertCases)
    func alert(_ row: AlertCase) {
        let alert = UndoTitleFormatter().alert(undoName: row.undo, redoName: row.redo)
        #expect(alert.title == row.title)
        #expect(alert.actions.map(\.kind) == row.actions)
        #expect(alert.actions.map(\.title) == row.actionTitles)
        #expect(alert.actions.last?.kind == .cancel)
        #expect((alert.undoAction != nil) == (row.undo != nil))
        #expect((alert.redoAction != nil) == (row.redo != nil))
    }

    @Test func koreanAlert() {
        let formatter = UndoTitleFormatter(locale: .korean)
        let both = formatter.alert(undoName: "글자 입력", redoName: "굵게")
        #expect(both.title == "글자 입력 실행 취소")
        #expect(both.actions.map(\.title) == ["글자 입력 실행 취소", "굵게 실행 복귀", "취소"])
        let nothing = formatter.alert(undoName: nil, redoName: nil)
        #expect(nothing.title == "실행 취소할 항목 없음")
        #expect(nothing.actions.map(\.title) == ["취소"])
    }
}
