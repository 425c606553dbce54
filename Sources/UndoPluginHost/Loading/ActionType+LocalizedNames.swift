import UndoCore

/// The names an action type has in other languages (`undo_host.register_action_name`, ABI 1.5)
/// and the one its steps show in the host's locale.
struct LocalizedActionNames: Sendable {
    /// (locale as the plugin gave it, name), in the order given.
    var names: [(locale: String, name: String)] = []
    /// The name for the host's locale, or the action type's default name.
    var chosen: String

    /// The name given for `locale`: the exact locale first ("pt-BR" for "pt_br"), then the
    /// language alone ("ko" for "ko-KR"), then the first name of the same language; `nil` when
    /// none fits.
    /// - Complexity: O(*n*) in the number of names given.
    func name(for locale: String) -> String? {
        let wanted = Self.normalized(locale)
        let language = Self.language(of: wanted)
        var sameLanguage: String?
        var languageAlone: String?
        for entry in names {
            let given = Self.normalized(entry.locale)
            if given == wanted { return entry.name }
            if given == language, languageAlone == nil { languageAlone = entry.name }
            if Self.language(of: given) == language, sameLanguage == nil { sameLanguage = entry.name }
        }
        return languageAlone ?? sameLanguage
    }

    /// Lower case, with '_' as '-': "ko_KR" and "ko-kr" are the same locale.
    static func normalized(_ locale: String) -> String {
        String(locale.lowercased().map { $0 == "_" ? "-" : $0 })
    }

    static func language(of normalized: String) -> Substring {
        normalized.prefix { $0 != "-" }
    }

    /// Whether `locale` is a usable identifier: 1 to 32 ASCII letters, digits, '-' and '_',
    /// starting with a letter.
    static func isValidLocale(_ locale: String) -> Bool {
        let bytes = Array(locale.utf8)
        guard let first = bytes.first, bytes.count <= 32, isLetter(first) else { return false }
        return bytes.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
}

extension ActionType {
    /// The names the plugin gave in other languages, as (locale, name) in the order given;
    /// empty for a plugin older than ABI 1.5 or one that gave none.
    public var localizedNames: [(locale: String, name: String)] { localized.withLock { $0.names } }

    /// The brief name steps of this type show in titles: the one the plugin gave for the host's
    /// locale (``PluginHost/locale``), else ``name``.
    public var displayName: String { localized.withLock { $0.chosen } }

    /// Adds a name for `locale` (during its plugin's init). Refuses a second name for the same
    /// locale.
    func addLocalizedName(_ name: String, for locale: String) -> Bool {
        localized.withLock { names in
            let key = LocalizedActionNames.normalized(locale)
            guard !names.names.contains(where: { LocalizedActionNames.normalized($0.locale) == key }) else { return false }
            names.names.append((locale, name))
            return true
        }
    }

    /// Picks the name steps show for the host's `locale`.
    func chooseName(for locale: String) {
        localized.withLock { $0.chosen = $0.name(for: locale) ?? name }
    }
}
