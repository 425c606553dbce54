/// How views mark highlighted and disabled text: ANSI attributes on a terminal, plain
/// characters otherwise (so scripts, logs and tests see the marks too).
public enum TextStyle: Sendable, Equatable {
    /// Highlight in [brackets]; nothing dimmed.
    case plain
    /// Highlight in reverse video; disabled items dimmed.
    case terminal

    /// `text` highlighted as a changed part.
    package func highlighted(_ text: String) -> String {
        switch self {
        case .plain: "[" + text + "]"
        // An empty range (a deletion point) would be invisible in reverse video: show a bar.
        case .terminal: "\u{1B}[7m" + (text.isEmpty ? "|" : text) + "\u{1B}[27m"
        }
    }

    /// `text` shown as unavailable (a disabled menu item).
    package func dimmed(_ text: String) -> String {
        switch self {
        case .plain: text
        case .terminal: "\u{1B}[2m" + text + "\u{1B}[22m"
        }
    }

    /// `text` emphasized (headings).
    package func bold(_ text: String) -> String {
        switch self {
        case .plain: text
        case .terminal: "\u{1B}[1m" + text + "\u{1B}[22m"
        }
    }
}

extension String {
    /// `self` padded with spaces to `width` terminal columns.
    package func padded(to width: Int) -> String {
        let missing = width - terminalWidth
        return missing > 0 ? self + String(repeating: " ", count: missing) : self
    }
}
