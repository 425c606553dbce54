extension String {
    /// The text wrapped at spaces so that no line is wider than `width` columns; lines after
    /// the first of each paragraph start with `indent` spaces. Spaces between words on a line
    /// are kept as written (columns stay aligned); a word wider than the room is kept whole on
    /// a line of its own.
    /// - Complexity: O(length).
    package func wrapped(to width: Int, indent: Int = 0) -> String {
        var lines: [String] = []
        for paragraph in split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            var spaces = 0
            var word = ""
            var hasWord = false
            func place() {
                let wordWidth = word.terminalWidth
                if hasWord && lineWidth + spaces + wordWidth > width {
                    lines.append(line)
                    line = String(repeating: " ", count: indent) + word
                    lineWidth = indent + wordWidth
                } else {
                    line += String(repeating: " ", count: spaces) + word
                    lineWidth += spaces + wordWidth
                }
                hasWord = true
                spaces = 0
                word = ""
            }
            for character in paragraph {
                if character == " " {
                    if !word.isEmpty { place() }
                    spaces += 1
                } else {
                    word.append(character)
                }
            }
            if !word.isEmpty { place() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The text with each "\n" written as `separator` (a raw terminal needs "\r\n").
    package func replacingNewlines(with separator: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: separator)
    }
}
