import UndoPluginHost

/// The difference between the state a document must be in and the state it is in, as a person
/// reads it: the lines both share at the start and at the end are left out (counted), the lines
/// between are shown, expected ones with `-` and actual ones with `+`; one line that differs is
/// shown around its first differing character, with that character's column. Instead of both
/// documents cut at some length, which hides a difference past the cut.
enum StateDifference {
    /// The most lines of each side shown; the rest are counted.
    static let maximumLines = 12
    /// Characters shown on either side of the first difference within a line.
    static let lineContext = 60

    /// The difference of `actual` from `expected`, in indented lines (no trailing newline).
    /// - Complexity: O(*n*) in the length of the two states.
    static func text(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let removed = old[prefix..<(old.count - suffix)]
        let added = new[prefix..<(new.count - suffix)]
        var lines: [String] = []
        if old.count > 1 || new.count > 1 {
            lines.append("    (- expected, + actual; \(old.count) line\(old.count == 1 ? "" : "s") expected, \(new.count) actual"
                         + (prefix > 0 ? "; the first \(prefix) alike" : "") + (suffix > 0 ? "; the last \(suffix) alike" : "") + ")")
        }
        if removed.count == 1, added.count == 1 {
            let (column, expectedPart, actualPart) = around(String(removed.first!), String(added.first!))
            lines.append("    line \(prefix + 1), from character \(column):")
            lines.append("    - " + expectedPart)
            lines.append("    + " + actualPart)
            return lines.joined(separator: "\n")
        }
        func show(_ side: ArraySlice<Substring>, _ mark: String) {
            for line in side.prefix(maximumLines) { lines.append("    \(mark) " + shown(String(line))) }
            if side.count > maximumLines { lines.append("    \(mark) … \(side.count - maximumLines) more line\(side.count - maximumLines == 1 ? "" : "s")") }
        }
        if prefix > 0 { lines.append("    line \(prefix + 1):") }
        show(removed, "-")
        show(added, "+")
        return lines.joined(separator: "\n")
    }

    /// The column (from 1) of the first character where `a` and `b` differ, and each around it.
    private static func around(_ a: String, _ b: String) -> (Int, String, String) {
        let left = Array(a), right = Array(b)
        var first = 0
        while first < left.count, first < right.count, left[first] == right[first] { first += 1 }
        func window(_ characters: [Character]) -> String {
            let start = max(0, first - lineContext)
            let end = min(characters.count, first + lineContext)
            return (start > 0 ? "…" : "") + shown(String(characters[start..<end]), limit: nil)
                + (end < characters.count ? "… (\(characters.count) characters)" : "")
        }
        return (first + 1, window(left), window(right))
    }

    /// A line as a quoted string (escapes visible), cut at 120 characters.
    private static func shown(_ line: String, limit: Int? = 120) -> String {
        let text = ActionValue.string(line).description
        guard let limit, text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(line.count) characters)"
    }
}
