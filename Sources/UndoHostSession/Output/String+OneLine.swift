extension String {
    /// The text as one line of a view: a tab, a line break or another control character that a
    /// name or a description carries (a C host or a plugin may give any) is shown escaped, as a
    /// script string writes it (`\t`, `\n`, `\r`, `\u{1b}`), so a history row stays one row
    /// and no control sequence reaches the terminal. Other text is returned as it is.
    /// - Complexity: O(*n*) in its length; no copy when it has no control character.
    var escapedForOneLine: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var shown = ""
        shown.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\t": shown += "\\t"
            case "\r": shown += "\\r"
            case _ where Self.isControl(scalar): shown += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// C0 controls, DEL and C1 controls.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
