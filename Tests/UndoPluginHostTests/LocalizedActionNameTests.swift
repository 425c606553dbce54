import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// Action names per locale (undo_host.register_action_name, ABI 1.5). Fixture: Fixtures/names.c.
@Suite struct LocalizedActionNameTests {
    static let id = "org.undohost.test.names"

    /// A host whose titles are in `locale`.
    func host(_ locale: UndoLocale, defines: [String] = []) throws -> PluginHost {
        let stack = UndoStack(coalescingWindow: nil, formatter: UndoTitleFormatter(locale: locale))
        let host = PluginHost(history: SharedUndoHistory(stack), log: { _ in })
        try host.load(file: try Fixtures.buildPlugin("names.c", defines: defines))
        return host
    }

    @Test func aKoreanHostShowsTheKoreanName() throws {
        let host = try host(.korean)
        #expect(host.locale == "ko")
        try host.perform("names.greet", [.i64(1)])
        #expect(host.undoTitle == "인사 실행 취소")
        let greet = try host.actionType("names.greet")
        #expect(greet.name == "Greeting")
        #expect(greet.displayName == "인사")
        #expect(greet.localizedNames.map(\.locale) == ["ko", "pt-BR", "pt"])
        try host.undo()
        #expect(host.redoTitle == "인사 실행 복귀")
    }

    /// No name for the locale: the default name; an English host shows it title-cased as before.
    @Test func anUnknownLocaleFallsBackToTheDefaultName() throws {
        let host = try host(.english)
        try host.perform("names.greet", [.i64(1)])
        #expect(host.undoTitle == "Undo Greeting")
        host.locale = "fr"
        #expect(try host.actionType("names.greet").displayName == "Greeting")
        // An action type with no names at all keeps its own in every locale.
        host.locale = "ko"
        #expect(try host.actionType("names.wave").displayName == "Wave")
    }

    /// The exact locale first, then the language alone, then another region of the language;
    /// case and '-' / '_' do not matter. Setting the host's locale chooses again.
    @Test func theClosestLocaleWins() throws {
        let host = try host(.english)
        let greet = try host.actionType("names.greet")
        for (locale, expected) in [("pt_br", "Saudação"), ("PT", "Olá"), ("pt-PT", "Olá"), ("ko-KR", "인사"),
                                   ("ko_kp", "인사"), ("en", "Greeting"), ("e", "Greeting")] {
            host.locale = locale
            #expect(greet.displayName == expected, "\(locale)")
        }
        host.locale = "pt-BR"
        try host.perform("names.greet", [.i64(1)])
        #expect(host.undoTitle == "Undo Saudação")
    }

    /// A plugin built for ABI 1.4 (no register_action_name) still loads, with its names.
    @Test func aPluginBuiltForOneFourStillLoads() throws {
        let host = try host(.korean, defines: ["NAMES_MINOR=4"])
        #expect(host.plugins.count == 1)
        try host.perform("names.greet", [.i64(1)])
        #expect(host.undoTitle == "Greeting 실행 취소")
        #expect(try host.actionType("names.greet").localizedNames.isEmpty)
    }

    /// Outside init the callback is refused with UNDO_ESTATE and changes nothing.
    @Test func outsideInitTheCallbackIsRefused() throws {
        let host = try host(.korean)
        try host.perform("names.wave", [.i64(1)])
        #expect(try host.show("", Self.id) == "wave_rc=\(UNDO_ESTATE)")
        #expect(try host.actionType("names.wave").displayName == "Wave")
    }

    /// Each wrong call fails the load with its code and a message naming the problem.
    @Test(arguments: [
        (1, UNDO_ENOTFOUND, "no action type \"jump\" was registered"),
        (2, UNDO_EINVAL, "locale \"k o\" is not a language identifier"),
        (3, UNDO_EEXIST, "greet already has a name in locale KO"),
        (4, UNDO_EINVAL, "the name is empty"),
        (5, UNDO_EUTF8, "the name is not valid UTF-8"),
    ])
    func aWrongCallFailsTheLoad(mistake: Int, code: Int32, message: String) throws {
        let (host, _) = makeHost()
        let path = try Fixtures.buildPlugin("names.c", defines: ["NAMES_MISTAKE=\(mistake)"])
        do {
            try host.load(file: path)
            Issue.record("mistake \(mistake) loaded")
        } catch {
            guard case .actionRefused(_, let refusedCode, let refusal) = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(refusedCode == code)
            #expect(refusal.contains(message), "\(refusal)")
        }
        #expect(host.plugins.isEmpty)
    }

    /// Locales are compared lower case with '_' as '-'; an ASCII one is mapped byte by byte,
    /// any other through the Unicode case mapping, with the same result as before.
    @Test func localesAreNormalizedAsCharactersAre() {
        for locale in ["ko_KR", "pt-BR", "EN", "zh_Hant_TW", "a-_Z09", "", "ÀB_c", "TR_İ", "ß_X", "文書_A"] {
            #expect(LocalizedActionNames.normalized(locale) == String(locale.lowercased().map { $0 == "_" ? "-" : $0 }), "\(locale)")
        }
        #expect(LocalizedActionNames.normalized("Ko_kR") == "ko-kr")
    }
}
