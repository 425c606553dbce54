/// Turns the raw names of steps into the titles of the Undo and Redo menu items and of the
/// shake-to-undo alert, in one locale.
///
/// ```swift
/// let formatter = UndoTitleFormatter()
/// formatter.undoTitle(for: "change of address...")  // "Undo Change of Address"
/// formatter.redoTitle(for: nil)                      // "Redo"
/// ```
public struct UndoTitleFormatter: Sendable {
    /// The language of the titles.
    public var locale: UndoLocale

    /// The longest name, in Characters, shown in a title; longer names are cut and end in "…"
    /// (the ellipsis counts toward the limit). Values below 1 behave as 1.
    public var maximumNameLength: Int

    /// Creates a formatter.
    /// - Parameters:
    ///   - locale: the language of the titles; English by default.
    ///   - maximumNameLength: the longest name shown, in Characters; 40 by default, which keeps
    ///     a menu item readable at its usual width.
    public init(locale: UndoLocale = .english, maximumNameLength: Int = 40) {
        self.locale = locale
        self.maximumNameLength = maximumNameLength
    }

    /// The name of a step as it appears in a title, or `nil` when nothing is left of it.
    ///
    /// Trims whitespace at both ends, collapses runs of whitespace inside to one space, drops
    /// trailing punctuation (". … ! ? : ; ," and their full-width forms, so "Typing..." becomes
    /// "Typing"), applies title-style capitalization when the locale asks for it, and shortens a
    /// name longer than ``maximumNameLength`` to whole Characters followed by "…". A Character is a
    /// grapheme cluster, so the cut never separates an emoji from its skin tone or ZWJ partners,
    /// a letter from its combining marks, or the jamo of a Korean syllable.
    ///
    /// - Complexity: O(*n*) in the length of `raw`.
    public func displayName(_ raw: String) -> String? {
        var raw = raw
        // Menu titles are refreshed often and names are mostly ASCII: clean those byte by byte.
        var name = raw.withUTF8 { Self.cleanedASCII($0) } ?? Self.cleaned(raw)
        if name.isEmpty { return nil }

        // Title case before cutting, so the real last word is the one the rules see.
        if locale.capitalizesNames {
            name = TitleCase.apply(name)
        }
        return truncated(name)
    }

    /// The text a history list shows for a step (Qt's text, where the menu shows its action
    /// text): the description with its whitespace collapsed as in ``displayName(_:)`` but kept
    /// as written otherwise (no title case, punctuation and quotes kept, not shortened); or,
    /// when there is no description (`nil`, or only whitespace), the name as ``displayName(_:)``
    /// shows it; `nil` when neither is left.
    /// - Parameters:
    ///   - name: the step's raw brief name (``UndoCommand/name``).
    ///   - description: the step's raw description (``UndoCommand/historyDescription``).
    /// - Complexity: O(*n*) in the length of the texts.
    public func historyText(name: String?, description: String?) -> String? {
        if let description {
            let collapsed = Self.collapsedWhitespace(description)
            if !collapsed.isEmpty { return collapsed }
        }
        return name.flatMap(displayName)
    }

    /// The title of the Undo menu item: "Undo Typing", or the locale's plain "Undo" when the step
    /// is unnamed (`nil`, or nothing left after ``displayName(_:)``).
    public func undoTitle(for name: String?) -> String {
        title(for: name, template: locale.undoNamedTemplate, plain: locale.undoTitle)
    }

    /// The title of the Redo menu item: "Redo Bold", or the locale's plain "Redo" when the step
    /// is unnamed (`nil`, or nothing left after ``displayName(_:)``).
    public func redoTitle(for name: String?) -> String {
        title(for: name, template: locale.redoNamedTemplate, plain: locale.redoTitle)
    }

    /// What the shake-to-undo alert offers now.
    ///
    /// - Parameters:
    ///   - undoName: `nil` when there is nothing to undo; `.some(nil)` for an unnamed step;
    ///     otherwise the raw name of the step that Undo would take back.
    ///   - redoName: likewise for Redo.
    /// - Returns: an alert whose title is the Undo title when there is something to undo, else
    ///   the Redo title when there is something to redo, else the locale's "Nothing to Undo";
    ///   its actions are Undo (if possible), Redo (if possible) and Cancel, in that order.
    public func alert(undoName: String??, redoName: String??) -> UndoAlert {
        var actions: [UndoAlert.Action] = []
        actions.reserveCapacity(3)
        if case .some(let name) = undoName {
            actions.append(UndoAlert.Action(kind: .undo, title: undoTitle(for: name)))
        }
        if case .some(let name) = redoName {
            actions.append(UndoAlert.Action(kind: .redo, title: redoTitle(for: name)))
        }
        let title = actions.first?.title ?? locale.nothingToUndoTitle
        actions.append(UndoAlert.Action(kind: .cancel, title: locale.cancelTitle))
        return UndoAlert(title: title, actions: actions)
    }

    // MARK: - Private

    private func title(for name: String?, template: String, plain: String) -> String {
        guard let name, let shown = displayName(name) else { return plain }
        return UndoLocale.fill(template, with: shown)
    }

    /// Cuts `name` to ``maximumNameLength`` Characters, the last of them "…".
    private func truncated(_ name: String) -> String {
        let limit = max(1, maximumNameLength)
        // Every Character takes at least one byte: short names skip grapheme breaking entirely.
        if name.utf8.count <= limit { return name }
        // More than `limit` Characters exactly when one still follows the first `limit`.
        guard let pastLimit = name.index(name.startIndex, offsetBy: limit, limitedBy: name.endIndex),
              pastLimit < name.endIndex
        else {
            return name
        }
        let keepEnd = name.index(name.startIndex, offsetBy: limit - 1)
        var kept = String(name[..<keepEnd])
        while true {
            // "Paste, Match…" reads better than "Paste, …" or "Paste,…".
            Self.dropTrailingPunctuation(&kept)
            var shown = kept
            shown.append(Self.ellipsis)
            // A prepended mark (U+0600 and kin) at the cut would join the ellipsis into one
            // Character, and the name would not visibly end in "…": cut before it (found by
            // fuzzing). The loop ends: an empty name followed by "…" is just "…".
            if shown.last == Self.ellipsis { return shown }
            kept.removeLast()
        }
    }

    private static let ellipsis: Character = "…"

    /// Collapses whitespace and drops trailing punctuation, for any text. Internal so tests can
    /// check that it agrees with ``cleanedASCII(_:)``.
    static func cleaned(_ raw: String) -> String {
        var name = ""
        name.reserveCapacity(raw.utf8.count)
        var spacePending = false
        func appendVisible(_ character: Character) {
            if spacePending {
                // A combining mark whose base was collapsed whitespace would join the space into
                // one whitespace Character, which shaping again would remove: drop the mark with
                // its base, so a shaped name stays as it is (found by fuzzing).
                if joinsPrecedingSpace(character) { return }
                name.append(" ")
                spacePending = false
            }
            name.append(character)
        }
        for character in raw {
            if character.isWhitespace {
                // Only a space between two visible Characters survives.
                spacePending = !name.isEmpty
            } else if character.unicodeScalars.contains(where: \.properties.isWhitespace) {
                // A prepended mark (U+0600 and kin) joins the whitespace after it into one
                // Character that does not count as whitespace; split it so the whitespace is
                // collapsed like any other (found by fuzzing).
                var piece = String.UnicodeScalarView()
                for scalar in character.unicodeScalars {
                    if scalar.properties.isWhitespace {
                        String(piece).forEach(appendVisible)
                        piece = String.UnicodeScalarView()
                        spacePending = !name.isEmpty
                    } else {
                        piece.append(scalar)
                    }
                }
                String(piece).forEach(appendVisible)
            } else {
                appendVisible(character)
            }
        }
        dropTrailingPunctuation(&name)
        return name
    }

    /// `text` with runs of whitespace made one space and none at either end.
    private static func collapsedWhitespace(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var spacePending = false
        for character in text {
            if character.isWhitespace {
                spacePending = !result.isEmpty
                continue
            }
            if spacePending {
                result.append(" ")
                spacePending = false
            }
            result.append(character)
        }
        return result
    }

    /// Whether `character` would become part of a space written before it (a lone combining
    /// mark, a zero-width joiner, an emoji modifier).
    private static func joinsPrecedingSpace(_ character: Character) -> Bool {
        var probe = " "
        probe.append(character)
        return probe.count == 1
    }

    /// What ``cleaned(_:)`` does, on the UTF-8 of all-ASCII text; `nil` for any other text.
    static func cleanedASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        // The result is never longer than the input.
        return String(unsafeUninitializedCapacity: bytes.count) { out in
            var count = 0
            var spacePending = false
            for byte in bytes {
                // Tab, line feed, vertical tab, form feed, carriage return, space: the ASCII
                // characters that Character.isWhitespace accepts.
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    spacePending = count > 0
                    continue
                }
                if spacePending {
                    out[count] = 0x20
                    count += 1
                    spacePending = false
                }
                out[count] = byte
                count += 1
            }
            while count > 0, out[count - 1] == 0x20 || asciiTrailingPunctuation.contains(out[count - 1]) {
                count -= 1
            }
            return count
        }
    }

    /// The ASCII members of ``trailingPunctuation``.
    private static let asciiTrailingPunctuation: [UInt8] = Array(".!?:;,".utf8)

    /// Removes trailing sentence punctuation and the spaces before it, repeatedly ("Save As ...").
    private static func dropTrailingPunctuation(_ name: inout String) {
        while true {
            // By scalar: a space can sit inside the Character of a prepended mark before it
            // ("\u{604} " is one Character), and must go as well (found by fuzzing).
            while let last = name.unicodeScalars.last, last.properties.isWhitespace {
                name.unicodeScalars.removeLast()
            }
            guard let last = name.last, trailingPunctuation.contains(last) else { return }
            name.removeLast()
        }
    }

    private static let trailingPunctuation: Set<Character> = [
        ".", "…", "!", "?", ":", ";", ",",
        // Full-width and ideographic forms used in Chinese, Japanese and Korean text.
        "。", "．", "！", "？", "：", "；", "，", "、",
    ]
}
