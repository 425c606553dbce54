/// Title-style capitalization of action names, as the Human Interface Guidelines ask for menu
/// items: "change of address" becomes "Change of Address".
///
/// The rules, applied word by word (words are separated by whitespace):
/// - Every word is capitalized except articles (a, an, the), coordinating conjunctions (and, but,
///   for, nor, or, so, yet), prepositions of four or fewer letters (as, at, by, from, in, into, of,
///   on, onto, over, to, up, via, with, …) and a few particles common in borrowed phrases ("café
///   au lait"). Those are lowercased.
/// - The first and the last word are always capitalized ("Move Into").
/// - A word with an uppercase letter after its first letter ("iPhone", "URL", "macOS") is an
///   intentional spelling and keeps its case.
/// - Each part of a hyphenated compound is treated like a word of its own, with the compound's
///   first and last parts always capitalized ("Up-to-Date", "Built-In").
/// - Only the first letter of a word changes; a word that starts with a digit ("2nd") or a
///   letter without case (Hangul, kana, CJK) is left alone. Leading punctuation is skipped
///   ("“quoted”" becomes "“Quoted”").
///
/// Phrasal verbs ("Set Up", "Log In") cannot be told apart from prepositions without grammar;
/// when such a particle is the last word it is capitalized by the last-word rule.
enum TitleCase {
    /// Returns `text` in title-style capitalization.
    ///
    /// - Complexity: O(*n*) in the length of `text`. An all-ASCII name takes a byte-level path
    ///   with no grapheme breaking; a name of up to 15 bytes is built without heap allocation.
    static func apply(_ text: String) -> String {
        var text = text
        // withUTF8 may make the string contiguous; that is a no-op for native strings.
        if let fast = text.withUTF8({ asciiApply($0) }) {
            return fast
        }
        return characterApply(text)
    }

    /// The ASCII path: `nil` when `bytes` contains anything outside ASCII.
    private static func asciiApply(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // A word-at-a-time check would be faster for long input, but names are short.
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return String(unsafeUninitializedCapacity: bytes.count) { out in
            _ = out.initialize(from: bytes)
            plan(bytes, ASCIIClassifier.self) { index, change in
                // ASCII letters differ from their other case only in bit 0x20.
                switch change {
                case .capitalize: out[index] &= ~0x20
                case .lowercase: out[index] |= 0x20
                }
            }
            return bytes.count
        }
    }

    /// The general path over Characters, for any Unicode text. Internal so tests can check that
    /// both paths agree on ASCII input.
    static func characterApply(_ text: String) -> String {
        let characters = Array(text)
        var changes: [(index: Int, change: Change)] = []
        plan(characters, CharacterClassifier.self) { changes.append(($0, $1)) }
        if changes.isEmpty { return text }

        var result = ""
        result.reserveCapacity(text.utf8.count + 4)
        var nextChange = 0
        for (index, character) in characters.enumerated() {
            guard nextChange < changes.count, changes[nextChange].index == index else {
                result.append(character)
                continue
            }
            switch changes[nextChange].change {
            case .capitalize: result += titlecased(character)
            case .lowercase: result += character.lowercased()
            }
            nextChange += 1
        }
        return result
    }

    /// Capitalizes one Character by the titlecase mapping of its first scalar, keeping any
    /// combining marks. Titlecase rather than uppercase so that "ǆ" becomes "ǅ", not "Ǆ".
    private static func titlecased(_ character: Character) -> String {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return String(character) }
        var result = first.properties.titlecaseMapping
        result.unicodeScalars.append(contentsOf: scalars.dropFirst())
        return result
    }

    // MARK: - The rules, shared by both paths

    /// A change of case to one letter.
    enum Change {
        case capitalize
        case lowercase
    }

    /// The classes of text unit that the rules distinguish.
    enum UnitKind {
        case space
        case hyphen
        case upper
        case lower
        /// A letter without case (Hangul, CJK) or in titlecase ("ǅ"): never changed.
        case caseless
        case digit
        /// Punctuation, symbols, emoji: skipped when looking for a word's first letter.
        case other
    }

    /// Classifies the units (bytes or Characters) that the rules run over.
    protocol Classifier {
        associatedtype Unit
        static func kind(of unit: Unit) -> UnitKind
        /// The lowercase ASCII byte of a letter a–z or A–Z; `nil` for anything else.
        static func asciiLowercaseLetter(_ unit: Unit) -> UInt8?
    }

    /// Decides which first letters change case, reporting each change in increasing order of index.
    private static func plan<C: Classifier, Units: RandomAccessCollection<C.Unit>>(
        _ units: Units, _ classifier: C.Type, change: (Int, Change) -> Void
    ) where Units.Index == Int {
        let start = units.startIndex
        // Find the last word first, so the forward pass knows when it reaches it.
        var end = units.endIndex
        while end > start, C.kind(of: units[end - 1]) == .space { end -= 1 }
        var lastWordStart = end
        while lastWordStart > start, C.kind(of: units[lastWordStart - 1]) != .space {
            lastWordStart -= 1
        }

        var index = start
        var isFirstWord = true
        while index < end {
            // units[end - 1] is not a space, so this stops before `end`.
            while C.kind(of: units[index]) == .space { index += 1 }
            let wordStart = index
            var isHyphenated = false
            while index < end {
                let kind = C.kind(of: units[index])
                if kind == .space { break }
                if kind == .hyphen { isHyphenated = true }
                index += 1
            }
            let wordEnd = index
            let isEdgeWord = isFirstWord || wordStart == lastWordStart
            isFirstWord = false

            guard isHyphenated else {
                recase(units, wordStart..<wordEnd, C.self, alwaysCapitalize: isEdgeWord, change: change)
                continue
            }
            // A compound is never a minor word as a whole: its first and last parts are capitalized.
            var partStart = wordStart
            while true {
                var partEnd = partStart
                while partEnd < wordEnd, C.kind(of: units[partEnd]) != .hyphen { partEnd += 1 }
                let isOuterPart = partStart == wordStart || partEnd == wordEnd
                recase(units, partStart..<partEnd, C.self, alwaysCapitalize: isOuterPart, change: change)
                if partEnd >= wordEnd { break }
                partStart = partEnd + 1
            }
        }
    }

    /// Applies the rules to one word, or one part of a hyphenated compound.
    private static func recase<C: Classifier, Units: RandomAccessCollection<C.Unit>>(
        _ units: Units, _ range: Range<Int>, _ classifier: C.Type, alwaysCapitalize: Bool,
        change: (Int, Change) -> Void
    ) where Units.Index == Int {
        var firstAlphanumeric: Int?
        var lastAlphanumeric = range.lowerBound
        for index in range {
            switch C.kind(of: units[index]) {
            case .upper:
                // An uppercase letter after the first one marks a deliberate spelling.
                if firstAlphanumeric != nil { return }
                firstAlphanumeric = index
                lastAlphanumeric = index
            case .lower, .caseless, .digit:
                if firstAlphanumeric == nil { firstAlphanumeric = index }
                lastAlphanumeric = index
            case .space, .hyphen, .other:
                break
            }
        }
        guard let first = firstAlphanumeric else { return }
        let firstKind = C.kind(of: units[first])
        if alwaysCapitalize || !isMinorWord(units, first...lastAlphanumeric, C.self) {
            if firstKind == .lower { change(first, .capitalize) }
        } else if firstKind == .upper {
            // Minor words are all ASCII letters and had no other capital, so one letter suffices.
            change(first, .lowercase)
        }
    }

    private static func isMinorWord<C: Classifier, Units: RandomAccessCollection<C.Unit>>(
        _ units: Units, _ range: ClosedRange<Int>, _ classifier: C.Type
    ) -> Bool where Units.Index == Int {
        guard range.count <= maximumMinorWordLength else { return false }
        var key: UInt32 = 0
        for index in range {
            guard let letter = C.asciiLowercaseLetter(units[index]) else { return false }
            key = key << 8 | UInt32(letter)
        }
        return minorWords.contains(key)
    }

    private static let maximumMinorWordLength = 4

    /// The words kept lowercase inside a title, each packed into an integer (one byte per
    /// letter) so a lookup needs neither a String nor an allocation.
    private static let minorWords: Set<UInt32> = {
        let articles = ["a", "an", "the"]
        let conjunctions = ["and", "but", "for", "nor", "or", "so", "yet"]
        // Four letters or fewer. "off", "out" and "down" are left out on purpose: in command
        // names they are nearly always part of a verb ("Turn Off Wrapping", "Fill Down").
        let prepositions = [
            "amid", "as", "at", "atop", "by", "from", "in", "into", "near", "of", "on", "onto",
            "over", "past", "per", "than", "till", "to", "up", "upon", "via", "with",
        ]
        // Particles of phrases English borrows ("café au lait", "pièce de résistance").
        let particles = ["au", "aux", "de", "del", "des", "du", "la", "le", "les", "van", "von"]
        var keys = Set<UInt32>()
        for word in articles + conjunctions + prepositions + particles {
            precondition(word.utf8.count <= maximumMinorWordLength)
            keys.insert(word.utf8.reduce(0) { $0 << 8 | UInt32($1) })
        }
        return keys
    }()
}

extension TitleCase {
    /// Classifies ASCII bytes (the fast path only runs on all-ASCII text).
    enum ASCIIClassifier: Classifier {
        static func kind(of byte: UInt8) -> UnitKind {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): .lower
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): .upper
            case UInt8(ascii: "0")...UInt8(ascii: "9"): .digit
            case UInt8(ascii: " "), 0x09...0x0D: .space
            case UInt8(ascii: "-"): .hyphen
            default: .other
            }
        }

        static func asciiLowercaseLetter(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): byte
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte | 0x20
            default: nil
            }
        }
    }

    /// Classifies Characters, for text beyond ASCII.
    enum CharacterClassifier: Classifier {
        static func kind(of character: Character) -> UnitKind {
            // The Character properties below are costly; ASCII is common even in other text.
            if let byte = character.asciiValue { return ASCIIClassifier.kind(of: byte) }
            if character.isWhitespace { return .space }
            // Hyphen-minus, hyphen, non-breaking hyphen.
            if character == "-" || character == "\u{2010}" || character == "\u{2011}" { return .hyphen }
            if character.isUppercase { return .upper }
            if character.isLowercase { return .lower }
            if character.isLetter { return .caseless }
            if character.isNumber { return .digit }
            return .other
        }

        static func asciiLowercaseLetter(_ character: Character) -> UInt8? {
            guard let byte = character.asciiValue else { return nil }
            return ASCIIClassifier.asciiLowercaseLetter(byte)
        }
    }
}
