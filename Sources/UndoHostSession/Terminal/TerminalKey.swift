/// One key press as the line editor understands it.
public enum TerminalKey: Equatable, Sendable {
    case character(Character)
    case enter
    case left, right, up, down
    case home, end
    case backspace, delete
    /// Ctrl+U: erase from the start of the line to the cursor.
    case eraseToStart
    /// Ctrl+K: erase from the cursor to the end of the line.
    case eraseToEnd
    /// Ctrl+C: drop the line being typed.
    case interrupt
    /// Ctrl+D: end of input on an empty line, else delete.
    case endOfInput
    /// Ctrl+L: clear the screen.
    case clearScreen
    /// Tab: complete a command or action id.
    case tab
    /// A sequence the editor ignores (function keys, Ctrl+Z, ...).
    case ignored
}

/// Turns the bytes a terminal sends into keys, across reads: an escape sequence or a UTF-8
/// character split between two reads is kept until it is complete.
public struct TerminalKeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Decodes what `bytes` complete; an unfinished sequence waits for the next call.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [TerminalKey] {
        pending.append(contentsOf: bytes)
        var keys: [TerminalKey] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.key(at: index, in: pending) else { break }
            keys.append(key)
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// Whether bytes of an unfinished sequence are waiting (a lone Escape, say).
    public var hasPending: Bool { !pending.isEmpty }

    /// Gives up on an unfinished sequence (a lone Escape key press): it is ignored.
    public mutating func flush() -> [TerminalKey] {
        defer { pending.removeAll() }
        return pending.isEmpty ? [] : [.ignored]
    }

    /// The key starting at `index`, and how many bytes it took; `nil` if it is not complete.
    static func key(at index: Int, in bytes: [UInt8]) -> (TerminalKey, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01: return (.home, 1)
        case 0x05: return (.end, 1)
        case 0x02: return (.left, 1)
        case 0x06: return (.right, 1)
        case 0x10: return (.up, 1)
        case 0x0E: return (.down, 1)
        case 0x15: return (.eraseToStart, 1)
        case 0x0B: return (.eraseToEnd, 1)
        case 0x03: return (.interrupt, 1)
        case 0x04: return (.endOfInput, 1)
        case 0x0C: return (.clearScreen, 1)
        case 0x09: return (.tab, 1)
        case 0x1B: return escapeSequence(at: index, in: bytes)
        case 0x00..<0x20: return (.ignored, 1)
        default: return utf8Character(at: index, in: bytes)
        }
    }

    /// ESC [ ... final, or ESC O final (what xterm-like terminals send for arrows and the like).
    private static func escapeSequence(at index: Int, in bytes: [UInt8]) -> (TerminalKey, Int)? {
        guard index + 1 < bytes.count else { return nil }
        let introducer = bytes[index + 1]
        if introducer == UInt8(ascii: "O") {
            guard index + 2 < bytes.count else { return nil }
            return (finalKey(bytes[index + 2], parameter: nil), 3)
        }
        guard introducer == UInt8(ascii: "[") else { return (.ignored, 2) }
        var cursor = index + 2
        var parameter = 0
        var inFirstParameter = true
        // Parameter bytes are 0x30...0x3F ("1;5" = key 1 with a modifier, which is ignored);
        // the final byte is 0x40...0x7E.
        while cursor < bytes.count {
            let b = bytes[cursor]
            if b >= 0x30 && b <= 0x3F {
                if b == UInt8(ascii: ";") { inFirstParameter = false }
                if inFirstParameter && b <= 0x39 && parameter < 1000 { parameter = parameter * 10 + Int(b - 0x30) }
                cursor += 1
                continue
            }
            return (finalKey(b, parameter: parameter == 0 ? nil : parameter), cursor - index + 1)
        }
        return nil
    }

    private static func finalKey(_ final: UInt8, parameter: Int?) -> TerminalKey {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch parameter {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            default: return .ignored
            }
        default: return .ignored
        }
    }

    private static func utf8Character(at index: Int, in bytes: [UInt8]) -> (TerminalKey, Int)? {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard index + length <= bytes.count else { return nil }
        let slice = bytes[index..<index + length]
        guard let text = String(validating: slice, as: UTF8.self), let character = text.first else {
            return (.ignored, length)
        }
        return (.character(character), length)
    }
}
