/// Splits a session command line into words: bare words, or "quoted strings" for names with
/// spaces (`group begin "Paste Style"`), with the escapes an action's string arguments take
/// (`\"`, `\\`, `\n`, `\t`, `\r`, `\0`, `\u{HEX}`), so a name means what the same text means
/// as an argument. Each word keeps its column.
struct CommandWords {
    struct Word: Equatable {
        var text: String
        /// 1-based, in Characters.
        var column: Int
    }

    static func split(_ line: Substring, startColumn: Int = 1, words language: SessionText = .english) throws(SessionError) -> [Word] {
        let characters = Array(line)
        var words: [Word] = []
        var index = 0
        while index < characters.count {
            if characters[index].isWhitespace {
                index += 1
                continue
            }
            let start = index
            var text = ""
            if characters[index] == "\"" {
                index += 1
                var closed = false
                while index < characters.count {
                    let character = characters[index]
                    index += 1
                    if character == "\"" { closed = true; break }
                    if character == "\\" && index < characters.count {
                        text.append(try escaped(characters, &index, column: startColumn + index - 1, language))
                    } else {
                        text.append(character)
                    }
                }
                guard closed else {
                    throw SessionError(.syntax, language.unclosedQuote, hint: language.quoteHint, column: startColumn + start)
                }
            } else {
                while index < characters.count && !characters[index].isWhitespace {
                    text.append(characters[index])
                    index += 1
                }
            }
            words.append(Word(text: text, column: startColumn + start))
        }
        return words
    }

    /// The character an escape after a backslash stands for; `index` is on the character after
    /// the backslash and moves past the escape. An unknown escape is an error naming it (a
    /// backslash dropped in silence changed the name).
    private static func escaped(_ characters: [Character], _ index: inout Int, column: Int,
                                _ language: SessionText) throws(SessionError) -> Character {
        let escape = characters[index]
        index += 1
        switch escape {
        case "\"", "\\": return escape
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "0": return "\0"
        case "u":
            // \u{HEX}: one to eight hex digits naming a Unicode scalar.
            var digits = ""
            if index < characters.count, characters[index] == "{" {
                var end = index + 1
                while end < characters.count, characters[end].isHexDigit, digits.count < 9 {
                    digits.append(characters[end])
                    end += 1
                }
                if end < characters.count, characters[end] == "}", (1...8).contains(digits.count),
                   let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) {
                    index = end + 1
                    return Character(scalar)
                }
            }
            throw SessionError(.syntax, language.unknownEscape("\\u" + (index < characters.count && characters[index] == "{" ? "{\(digits)" : "")),
                               hint: language.escapeHint, column: column)
        default:
            throw SessionError(.syntax, language.unknownEscape("\\" + String(escape)), hint: language.escapeHint, column: column)
        }
    }
}
