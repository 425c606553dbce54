/// Text on its way to a terminal: a control character from a script, a document, a plugin or
/// an error (an ESC that starts an OSC or cursor sequence, a CR, a BEL, a C1 control) is shown
/// as `\xHH` instead of being obeyed. The tool's own styles (SGR 1, 2, 7, 22, 27; ``TextStyle``)
/// are the only escape sequences that pass; newlines and tabs are kept.
package enum TerminalText {
    /// The sequences ``TextStyle`` writes, without their ESC.
    private static let ownStyles: [[UInt8]] = ["[1m", "[2m", "[7m", "[22m", "[27m"].map { Array($0.utf8) }

    /// - Complexity: O(text's length).
    package static func escapingControls(_ text: String) -> String {
        // The common case, nothing to escape, costs one pass and no copy.
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", let style = ownStyles.first(where: { startsWith($0, scalars, at: index + 1) }) {
                result.append(contentsOf: scalars[index...(index + style.count)])
                index += style.count + 1
                continue
            }
            if isControl(scalar) {
                let digits = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: ("\\x" + (digits.count < 2 ? "0" : "") + digits).unicodeScalars)
            } else {
                result.append(scalar)
            }
            index += 1
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F, 0x80...0x9F: true
        default: false
        }
    }

    private static func startsWith(_ style: [UInt8], _ scalars: [Unicode.Scalar], at start: Int) -> Bool {
        guard start + style.count <= scalars.count else { return false }
        return style.indices.allSatisfy { scalars[start + $0].value == UInt32(style[$0]) }
    }
}
