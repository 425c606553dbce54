import Synchronization
import UndoCore

/// The names an action type has in other languages (`undo_host.register_action_name`, ABI 1.5);
/// the one its steps show in the host's locale is `ActionType.chosenName`.
struct LocalizedActionNames: Sendable {
    /// (locale as the plugin gave it, name), in the order given.
    var names: [(locale: String, name: String)] = []

    /// The name given for `locale`: the exact locale first ("pt-BR" for "pt_br"), then the
    /// language alone ("ko" for "ko-KR"), then the first name of the same language; `nil` when
    /// none fits.
    /// - Complexity: O(*n*) in the number of names given.
    func name(for locale: String) -> String? { index(for: locale).map { names[$0].name } }

    /// The place in ``names`` of the name ``name(for:)`` gives.
    /// - Complexity: O(*n*) in the number of names given.
    func index(for locale: String) -> Int? {
        let wanted = Self.normalized(locale)
        let language = Self.language(of: wanted)
        var sameLanguage: Int?
        var languageAlone: Int?
        for (index, entry) in names.enumerated() {
            let given = Self.normalized(entry.locale)
            if given == wanted { return index }
            if given == language, languageAlone == nil { languageAlone = index }
            if Self.language(of: given) == language, sameLanguage == nil { sameLanguage = index }
        }
        return languageAlone ?? sameLanguage
    }

    /// Lower case, with '_' as '-': "ko_KR" and "ko-kr" are the same locale.
    /// - Complexity: O(*n*) in the bytes of `locale`; an ASCII one (every locale a plugin may
    ///   register) is mapped byte by byte, without the Unicode case mapping of characters.
    static func normalized(_ locale: String) -> String {
        let utf8 = locale.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return String(locale.lowercased().map { $0 == "_" ? "-" : $0 }) }
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            var count = 0
            for byte in utf8 {
                buffer[count] = byte == 0x5F ? 0x2D : (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                count += 1
            }
            return count
        }
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
    ///
    /// Read on every undo, redo and title of a plugin step, so without a lock: two atomic loads
    /// (the chosen name's place, and the names as they were when the plugin was added).
    /// - Complexity: O(1).
    public var displayName: String {
        let index = chosenName.load(ordering: .acquiring)
        guard index >= 0, let names = frozenNames.load() else { return name }
        return names.names[index]
    }

    /// Adds a name for `locale` (during its plugin's init). Refuses a second name for the same
    /// locale.
    func addLocalizedName(_ name: String, for locale: String) -> Bool {
        // Names come from `register_action_name` during the plugin's init only; the names are
        // frozen when the host first chooses one (the plugin added), and `displayName` reads
        // the frozen ones.
        assert(frozenNames.load() == nil, "a name added after the action type's names were frozen")
        return localized.withLock { names in
            let key = LocalizedActionNames.normalized(locale)
            guard !names.names.contains(where: { LocalizedActionNames.normalized($0.locale) == key }) else { return false }
            names.names.append((locale, name))
            return true
        }
    }

    /// Picks the name steps show for the host's `locale` (the first time, once the plugin's init
    /// has given every name, freezes the names `displayName` reads).
    /// - Complexity: O(*n*) in the number of names given.
    func chooseName(for locale: String) {
        localized.withLock { names in
            let chosen = names.index(for: locale)
            let frozen = frozenNames.storeIfNil(FrozenActionNames(names.names.map(\.name)))
            assert(frozen.names.count == names.names.count, "names added after they were frozen")
            // Released after the frozen names: a reader that loads the index finds them.
            chosenName.store(chosen ?? -1, ordering: .releasing)
        }
    }
}

/// An action type's names in other languages, as they stand once its plugin's init is over
/// (they do not change after): what ``ActionType/displayName`` reads without a lock.
final class FrozenActionNames: Sendable {
    let names: [String]
    init(_ names: [String]) { self.names = names }
}
