import Testing
@testable import UndoCore

/// One row of a formatting table: a raw name and the display name it must become.
struct NameCase: Sendable, CustomTestStringConvertible {
    var raw: String
    var expected: String?
    var limit = 40

    init(_ raw: String, _ expected: String?, limit: Int = 40) {
        self.raw = raw
        self.expected = expected
        self.limit = limit
    }

    var testDescription: String { "\(raw.debugDescription) (limit \(limit))" }
}

@Suite("TitleFormatting")
struct TitleFormattingTests {
    static let titleCaseCases: [NameCase] = [
        // Minor words lowercase in the middle; first and last word always capitalized.
        NameCase("change of address", "Change of Address"),
        NameCase("bring to front", "Bring to Front"),
        NameCase("move into", "Move Into"),
        NameCase("the end", "The End"),
        NameCase("cut and paste", "Cut and Paste"),
        NameCase("paste as plain text", "Paste as Plain Text"),
        NameCase("save a copy for the web", "Save a Copy for the Web"),
        NameCase("flip by the edge on the page", "Flip by the Edge on the Page"),
        NameCase("send to back or front", "Send to Back or Front"),
        NameCase("Change Of Address", "Change of Address"),
        NameCase("of", "Of"),
        NameCase("a", "A"),
        // Prepositions longer than four letters are capitalized.
        NameCase("search through files", "Search Through Files"),
        NameCase("move between layers", "Move Between Layers"),
        NameCase("align along the grid", "Align Along the Grid"),
        // Deliberate capitals keep their case, wherever the word is.
        NameCase("convert to URL", "Convert to URL"),
        NameCase("sync with iPhone", "Sync with iPhone"),
        NameCase("iPhone backup", "iPhone Backup"),
        NameCase("macOS settings", "macOS Settings"),
        NameCase("rename the OF node", "Rename the OF Node"),
        // Hyphenated compounds: outer parts capitalized, minor inner parts lowercase.
        NameCase("built-in style", "Built-In Style"),
        NameCase("mark as up-to-date", "Mark as Up-to-Date"),
        NameCase("drag-and-drop items", "Drag-and-Drop Items"),
        NameCase("non-iPhone layout", "Non-iPhone Layout"),
        // Words that do not start with a letter.
        NameCase("2nd draft", "2nd Draft"),
        NameCase("don't save", "Don't Save"),
        NameCase("(draft) copy", "(Draft) Copy"),
        // Trailing punctuation and whitespace.
        NameCase("Typing...", "Typing"),
        NameCase("Paste!", "Paste"),
        NameCase("save as…", "Save As"),
        NameCase("really delete?!", "Really Delete"),
        NameCase("rename ...", "Rename"),
        NameCase("  delete   selected \t rows \n", "Delete Selected Rows"),
        // Beyond ASCII.
        NameCase("café au lait", "Café au Lait"),
        NameCase("à la carte", "À la Carte"),
        NameCase("éditer le texte", "Éditer le Texte"),
        NameCase("e\u{301}diter", "\u{C9}diter"),  // decomposed é
        NameCase("ǆungla", "ǅungla"),  // titlecase, not uppercase "Ǆ"
        NameCase("“quoted” text", "“Quoted” Text"),
        NameCase("글자 입력", "글자 입력"),
        NameCase("글자 입력。", "글자 입력"),
        NameCase("add 👍🏽 reaction", "Add 👍🏽 Reaction"),
        // Nothing left.
        NameCase("", nil),
        NameCase("   ", nil),
        NameCase("\n\t ", nil),
        NameCase("...", nil),
        NameCase("…", nil),
    ]

    @Test("Title case and cleanup", arguments: titleCaseCases)
    func titleCase(_ row: NameCase) {
        let formatter = UndoTitleFormatter()
        #expect(formatter.displayName(row.raw) == row.expected)
        #expect(formatter.undoTitle(for: row.raw) == row.expected.map { "Undo \($0)" } ?? "Undo")
    }

    @Test("ASCII fast path agrees with the Character path", arguments: titleCaseCases)
    func fastPathAgrees(_ row: NameCase) {
        #expect(TitleCase.apply(row.raw) == TitleCase.characterApply(row.raw))
    }

    @Test("ASCII cleanup agrees with the Character cleanup",
          arguments: titleCaseCases.map(\.raw) + ["a\r\nb", "\u{1C}x\u{1F} y\u{7F}", "\u{0B}a\u{0C}b ,;:!?. "])
    func cleanupAgrees(_ raw: String) throws {
        var bytes = raw
        let ascii = bytes.withUTF8 { UndoTitleFormatter.cleanedASCII($0) }
        if raw.utf8.allSatisfy({ $0 < 0x80 }) {
            #expect(try #require(ascii) == UndoTitleFormatter.cleaned(raw))
        } else {
            #expect(ascii == nil)
        }
    }

    @Test("Names from a non-capitalizing locale are left as written")
    func noCapitalization() {
        let formatter = UndoTitleFormatter(locale: .korean)
        #expect(formatter.displayName("change of address...") == "change of address")
    }

    static let truncationCases: [NameCase] = [
        NameCase("select all the paragraphs in the document", "Select All the Para…", limit: 20),
        // The cut lands right after a space: the space is dropped before the ellipsis.
        NameCase("select all the paragraphs", "Select All…", limit: 12),
        // ...or right after punctuation.
        NameCase("paste, match style", "Paste…", limit: 8),
        // Exactly at the limit: not cut.
        NameCase("select all", "Select All", limit: 10),
        NameCase("select all.", "Select All", limit: 10),
        NameCase("가나다라마바사아자차카타파하", "가나다라마바사아자…", limit: 10),
        NameCase("가나다라마바사아자차", "가나다라마바사아자차", limit: 10),
        NameCase("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", "👨‍👩‍👧‍👦👨‍👩‍👧‍👦…", limit: 3),
        NameCase("👍🏽👍🏿👍🏻👍", "👍🏽👍🏿…", limit: 3),
        NameCase("typing", "…", limit: 1),
        NameCase("typing", "…", limit: 0),
    ]

    @Test("Truncation by whole Characters", arguments: truncationCases)
    func truncation(_ row: NameCase) {
        let formatter = UndoTitleFormatter(maximumNameLength: row.limit)
        let shown = formatter.displayName(row.raw)
        #expect(shown == row.expected)
        // Compare scalars too: String equality is canonical, this checks nothing was recomposed.
        #expect(shown.map { Array($0.unicodeScalars) } == row.expected.map { Array($0.unicodeScalars) })
    }

    /// A name dense with multi-scalar graphemes: ZWJ family, skin tones, a flag, a decomposed
    /// letter, conjoining Hangul jamo (one syllable), and a ZWJ profession with a skin tone.
    static let graphemeDenseName =
        "hi 👨‍👩‍👧‍👦👍🏽👍🏿🇰🇷 e\u{301}\u{1100}\u{1161}\u{11A8} 👩🏽‍💻 done and more 👨‍👩‍👧‍👦 text"

    @Test("The cut never splits a grapheme", arguments: 1...30)
    func cutKeepsGraphemesWhole(limit: Int) throws {
        let full = try #require(UndoTitleFormatter(maximumNameLength: 1000).displayName(Self.graphemeDenseName))
        let shown = try #require(UndoTitleFormatter(maximumNameLength: limit).displayName(Self.graphemeDenseName))
        #expect(shown.count <= limit)
        guard shown != full else { return }

        #expect(shown.last == "…")
        let kept = Array(shown.dropLast())
        // Every kept Character is a whole Character of the input, in order, with the same scalars.
        let fullCharacters = Array(full)
        #expect(fullCharacters.starts(with: kept))
        #expect(full.unicodeScalars.starts(with: String(kept).unicodeScalars))
        #expect(kept.allSatisfy { fullCharacters.contains($0) })
        #expect(kept.last != " ")
    }

    @Test("Conjoining jamo stay together as syllables")
    func conjoiningJamo() throws {
        let syllable = "\u{1100}\u{1161}\u{11A8}"  // 각, spelled with three jamo
        let name = String(repeating: syllable, count: 12)
        let shown = try #require(UndoTitleFormatter(maximumNameLength: 5).displayName(name))
        #expect(shown.count == 5)
        #expect(shown.unicodeScalars.count == 4 * 3 + 1)
        #expect(shown.dropLast().allSatisfy { $0 == Character(syllable) })
    }

    @Test("A prepended mark at the cut does not swallow the ellipsis")
    func prependedMarkAtCut() throws {
        // U+0601 joins the Character after it: "h\u{601}" + "…" would be the last Character.
        let shown = try #require(UndoTitleFormatter(maximumNameLength: 10).displayName("abcdefgh\u{0601}\u{10}ijklmnop"))
        #expect(shown.last == "…")
        #expect(shown.count <= 10)
        #expect(shown == "Abcdefgh…")
    }

    @Test("Whitespace joined to a prepended mark is collapsed like any other",
          arguments: ["sel\u{604}\u{2000}ed", "sel\u{604}\u{2000}\u{2000}ed", "sel\u{604}\u{2000}"])
    func whitespaceAfterPrependedMark(_ raw: String) throws {
        // U+0604 is a prepended mark: "\u{604}\u{2000}" is one Character whose first scalar is
        // not whitespace, so Character.isWhitespace does not see the space inside it.
        let formatter = UndoTitleFormatter(maximumNameLength: .max)
        let shown = try #require(formatter.displayName(raw))
        #expect(!shown.unicodeScalars.contains("\u{2000}"))
        #expect(shown.unicodeScalars.last != " ")
        #expect(formatter.displayName(shown) == shown)
    }

    @Test("Unnamed and blank steps get the plain titles", arguments: [nil, "", "   ", "\t\n", ". . ."])
    func plainTitles(_ name: String?) {
        let formatter = UndoTitleFormatter()
        #expect(formatter.undoTitle(for: name) == "Undo")
        #expect(formatter.redoTitle(for: name) == "Redo")
    }

    @Test("A name containing %@ is inserted literally")
    func placeholderInName() {
        #expect(UndoTitleFormatter().undoTitle(for: "replace %@ text") == "Undo Replace %@ Text")
    }
}
