import UndoCore

/// Fuzzes menu-title formatting and locale files.
///
/// Input: a byte for `maximumNameLength` (as Int8, so 0 and negative limits occur), a byte
/// choosing the locale (English, Korean, or parsed from the input), then the raw name; with a
/// parsed locale, a NUL byte separates the name from the locale text.
///
/// Checked: a shown name is non-empty, has no whitespace at its ends and only single spaces
/// inside, does not end in punctuation, has at most `max(1, limit)` Characters, and is the
/// whole name or a Character-prefix of it followed by "…" (so no grapheme is split); shaping
/// is idempotent and never adds or removes words; titles are the template filled with the
/// shown name; a parsed locale is well-formed and reads back from its own text.
enum TitlesFuzzing {
    static func run(_ data: UnsafeRawBufferPointer) throws(FuzzInvariantViolation) {
        var input = FuzzInput(data)
        let limit = Int(Int8(bitPattern: input.byte()))
        let localeChoice = input.choice(4)
        let rest = input.rest()

        var nameBytes = rest[...]
        var locale = localeChoice == 1 ? UndoLocale.korean : UndoLocale.english
        if localeChoice >= 2 {
            let separator = rest.firstIndex(of: 0) ?? rest.endIndex
            nameBytes = rest[..<separator]
            let localeText = String(decoding: rest[min(separator + 1, rest.endIndex)...], as: UTF8.self)
            if let parsed = try checkLocaleParsing(localeText) { locale = parsed }
        }
        try checkName(String(decoding: nameBytes, as: UTF8.self), locale: locale, limit: limit)
    }

    /// What a shown name may not end with (the formatter's trailing punctuation, restated).
    private static let trailingPunctuation: Set<Character> = [
        ".", "…", "!", "?", ":", ";", ",", "。", "．", "！", "？", "：", "；", "，", "、",
    ]

    private static func checkName(_ raw: String, locale: UndoLocale, limit: Int) throws(FuzzInvariantViolation) {
        let formatter = UndoTitleFormatter(locale: locale, maximumNameLength: limit)
        let unlimited = UndoTitleFormatter(locale: locale, maximumNameLength: .max)
        let shown = formatter.displayName(raw)
        let whole = unlimited.displayName(raw)
        let context = "name \(raw.debugDescription) limit \(limit) locale \(locale.identifier.debugDescription)"

        try require((shown == nil) == (whole == nil), "\(context): shown \(String(describing: shown)), whole \(String(describing: whole))")
        try checkTitles(raw, shown: shown, formatter: formatter, context: context)
        guard let shown, let whole else { return }

        try checkShape(whole, context: context)
        let effectiveLimit = max(1, limit)
        try require(shown.count <= effectiveLimit, "\(context): \(shown.debugDescription) has \(shown.count) Characters")
        if whole.count <= effectiveLimit {
            try require(shown == whole, "\(context): \(shown.debugDescription) shortened although \(whole.debugDescription) fits")
        } else {
            // A prefix of whole Characters, then the ellipsis: the cut never splits a grapheme.
            try require(shown.last == "…", "\(context): shortened \(shown.debugDescription) lacks the ellipsis")
            let kept = String(shown.dropLast())
            try require(Array(whole.prefix(kept.count)) == Array(kept),
                        "\(context): \(shown.debugDescription) is not a Character prefix of \(whole.debugDescription)")
            if !kept.isEmpty { try checkShape(kept, context: context + " (kept before the ellipsis)") }
        }

        // Shaping a shaped name changes nothing, and title case keeps the words.
        try require(unlimited.displayName(whole) == whole,
                    "\(context): shaping \(whole.debugDescription) again gives \(String(describing: unlimited.displayName(whole)))")
        if locale.capitalizesNames {
            let uncapitalized = try uncapitalizedLocale(locale)
            if let plain = UndoTitleFormatter(locale: uncapitalized, maximumNameLength: .max).displayName(raw) {
                try require(plain.split(separator: " ").count == whole.split(separator: " ").count,
                            "\(context): title case turned \(plain.debugDescription) into \(whole.debugDescription)")
            }
        }
    }

    /// Non-empty; no whitespace at either end; inside, whitespace only as single U+0020 spaces;
    /// not ending in punctuation. Checked on scalars: a combining mark that followed a
    /// collapsed whitespace run joins the space into one Character, but the space is still one
    /// U+0020 scalar.
    private static func checkShape(_ name: String, context: String) throws(FuzzInvariantViolation) {
        let scalars = Array(name.unicodeScalars)
        try require(!scalars.isEmpty, "\(context): empty name")
        try require(!scalars[0].properties.isWhitespace && !scalars[scalars.count - 1].properties.isWhitespace,
                    "\(context): \(name.debugDescription) has whitespace at an end")
        for (index, scalar) in scalars.enumerated() where scalar.properties.isWhitespace {
            try require(scalar == " " && scalars[index - 1] != " ",
                        "\(context): \(name.debugDescription) has whitespace \(scalar.escaped(asASCII: true)) not collapsed to one space")
        }
        try require(name.last.map(trailingPunctuation.contains) == false, "\(context): \(name.debugDescription) ends in punctuation")
    }

    /// The titles are the locale's templates with the shown name put in place of `%@`.
    private static func checkTitles(_ raw: String, shown: String?, formatter: UndoTitleFormatter,
                                    context: String) throws(FuzzInvariantViolation) {
        let locale = formatter.locale
        let expectedUndo = shown.map { filled(locale.undoNamedTemplate, with: $0) } ?? locale.undoTitle
        let expectedRedo = shown.map { filled(locale.redoNamedTemplate, with: $0) } ?? locale.redoTitle
        try require(formatter.undoTitle(for: raw) == expectedUndo, "\(context): undo title \(formatter.undoTitle(for: raw).debugDescription)")
        try require(formatter.redoTitle(for: raw) == expectedRedo, "\(context): redo title \(formatter.redoTitle(for: raw).debugDescription)")
        try require(formatter.undoTitle(for: nil) == locale.undoTitle, "\(context): unnamed undo title")

        let alert = formatter.alert(undoName: .some(raw), redoName: .some(nil))
        try require(alert.title == expectedUndo && alert.actions.map(\.title) == [expectedUndo, locale.redoTitle, locale.cancelTitle],
                    "\(context): alert \(alert)")
        let empty = formatter.alert(undoName: nil, redoName: nil)
        try require(empty.title == locale.nothingToUndoTitle && empty.actions.map(\.title) == [locale.cancelTitle],
                    "\(context): empty alert \(empty)")
    }

    /// `template` with its first `%@` (found byte by byte, as the locale format counts them)
    /// replaced by `name`.
    private static func filled(_ template: String, with name: String) -> String {
        let bytes = Array(template.utf8)
        guard let at = bytes.indices.dropLast().first(where: { bytes[$0] == UInt8(ascii: "%") && bytes[$0 + 1] == UInt8(ascii: "@") })
        else { return template }
        return String(decoding: bytes[..<at] + Array(name.utf8) + bytes[(at + 2)...], as: UTF8.self)
    }

    // MARK: Locales

    /// Parses `text`; a parsed locale must be well-formed and read back from its own text.
    private static func checkLocaleParsing(_ text: String) throws(FuzzInvariantViolation) -> UndoLocale? {
        let parsed = Result { () throws(UndoLocale.ParseError) in try UndoLocale(parsing: text) }
        switch parsed {
        case .failure(let error):
            try require(!error.description.isEmpty, "empty parse error message")
            let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
            switch error {
            case .malformedLine(let line, _), .unknownKey(let line, _), .emptyValue(let line, _),
                 .placeholderCount(let line, _, _, _), .invalidBoolean(let line, _, _):
                try require((1...lineCount).contains(line), "\(error) names line \(line) of \(lineCount)")
            case .duplicateKey(let line, _, let firstLine):
                try require(1 <= firstLine && firstLine < line && line <= lineCount, "\(error): lines out of order or range")
            case .missingKeys(let keys):
                try require(!keys.isEmpty, "missingKeys without keys")
            }
            return nil
        case .success(let locale):
            let titles = [locale.undoTitle, locale.redoTitle, locale.cancelTitle, locale.nothingToUndoTitle]
            for value in [locale.identifier] + titles + [locale.undoNamedTemplate, locale.redoNamedTemplate] {
                try require(!value.isEmpty && value.first?.isWhitespace == false && value.last?.isWhitespace == false,
                            "locale value \(value.debugDescription) is empty or untrimmed")
                try require(!value.contains(where: \.isNewline), "locale value \(value.debugDescription) spans lines")
            }
            for title in titles {
                try require(placeholders(in: title) == 0, "title \(title.debugDescription) holds a placeholder")
            }
            for template in [locale.undoNamedTemplate, locale.redoNamedTemplate] {
                try require(placeholders(in: template) == 1, "template \(template.debugDescription) needs exactly one placeholder")
            }
            let reread = Result { () throws(UndoLocale.ParseError) in try UndoLocale(parsing: localeText(locale)) }
            try require(reread == .success(locale), "locale \(locale) reads back from its text as \(reread)")
            return locale
        }
    }

    /// Non-overlapping `%@` in `text`, counted byte by byte.
    private static func placeholders(in text: String) -> Int {
        var count = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "%") && byte == UInt8(ascii: "@") {
                count += 1
                previous = 0
            } else {
                previous = byte
            }
        }
        return count
    }

    /// The locale file for `locale`, in the documented format.
    private static func localeText(_ locale: UndoLocale, capitalize: Bool? = nil) -> String {
        """
        identifier = \(locale.identifier)
        undo = \(locale.undoTitle)
        redo = \(locale.redoTitle)
        undo.named = \(locale.undoNamedTemplate)
        redo.named = \(locale.redoNamedTemplate)
        cancel = \(locale.cancelTitle)
        alert.nothing = \(locale.nothingToUndoTitle)
        capitalize = \(capitalize ?? locale.capitalizesNames)
        """
    }

    /// `locale` without title case (the initializer is internal, so through the text format).
    private static func uncapitalizedLocale(_ locale: UndoLocale) throws(FuzzInvariantViolation) -> UndoLocale {
        do {
            return try UndoLocale(parsing: localeText(locale, capitalize: false))
        } catch {
            throw FuzzInvariantViolation("locale \(locale) does not read back from its text: \(error)")
        }
    }
}
