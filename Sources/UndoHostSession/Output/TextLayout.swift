#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoHostTerminal

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
