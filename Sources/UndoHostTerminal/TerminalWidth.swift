extension Character {
    /// Columns the character takes in a terminal: 2 for East Asian wide characters and emoji,
    /// 0 for combining marks alone, else 1. An estimate that is right for common text.
    public var terminalWidth: Int {
        guard let scalar = unicodeScalars.first else { return 0 }
        let value = scalar.value
        if scalar.properties.generalCategory == .nonspacingMark { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}

extension StringProtocol {
    /// Columns the text takes in a terminal (see ``Swift/Character/terminalWidth``).
    public var terminalWidth: Int { reduce(0) { $0 + $1.terminalWidth } }
}
