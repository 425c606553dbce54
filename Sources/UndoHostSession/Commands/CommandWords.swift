/// Splits a session command line into words: bare words, or "quoted strings" (with \" and \\)
/// for names with spaces (`group begin "Paste Style"`). Each word keeps its column.
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
                        text.append(characters[index])
                        index += 1
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
}
