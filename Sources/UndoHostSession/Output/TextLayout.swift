#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How much room text output has: the terminal's size when standard output is one, else 80
/// columns (or `$COLUMNS`) and 24 rows, so help and views fit a classic terminal or a log.
public struct TextLayout: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(20, width)
        self.height = max(4, height)
    }

    /// The room of a script's or a pipe's output: 80 columns and room for a document of
    /// 12 lines.
    public static let standard = TextLayout(width: 80, height: 17)

    /// The room standard output has now.
    public static var current: TextLayout {
        if let size = RawTerminal.size { return TextLayout(width: size.columns, height: size.rows) }
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }) {
            return TextLayout(width: columns, height: standard.height)
        }
        return standard
    }

    /// Rows of a document `show` may use: the height less the heading, the scroll notes and
    /// the prompt.
    var documentRows: Int { max(3, height - 5) }
}

extension String {
    /// The text wrapped at spaces so that no line is wider than `width` columns; lines after
    /// the first of each paragraph start with `indent` spaces. Spaces between words on a line
    /// are kept as written (columns stay aligned); a word wider than the room is kept whole on
    /// a line of its own.
    /// - Complexity: O(length).
    func wrapped(to width: Int, indent: Int = 0) -> String {
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
    func replacingNewlines(with separator: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: separator)
    }
}
