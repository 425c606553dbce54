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
    /// Ctrl+Z: undo (at an empty prompt).
    case undo
    /// Ctrl+Y, or Shift+Ctrl+Z where the terminal tells it from Ctrl+Z: redo (at an empty prompt).
    case redo
    /// A sequence the editor ignores (function keys, ...).
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
        case 0x1A: return (.undo, 1)
        case 0x19: return (.redo, 1)
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
        var parameters = [0]
        // Parameter bytes are 0x30...0x3F, numbers separated by ";" ("1;5" = key 1 with Ctrl);
        // the final byte is 0x40...0x7E.
        while cursor < bytes.count {
            let b = bytes[cursor]
            if b >= 0x30 && b <= 0x3F {
                if b == UInt8(ascii: ";") {
                    if parameters.count < 8 { parameters.append(0) }
                } else if b <= 0x39 && parameters[parameters.count - 1] < 100_000 {
                    parameters[parameters.count - 1] = parameters[parameters.count - 1] * 10 + Int(b - 0x30)
                }
                cursor += 1
                continue
            }
            if let key = modifiedKey(final: b, parameters: parameters) { return (key, cursor - index + 1) }
            return (finalKey(b, parameter: parameters[0] == 0 ? nil : parameters[0]), cursor - index + 1)
        }
        return nil
    }

    /// A key with modifiers reported as a number: `CSI code ; modifiers u` (the "CSI u" or
    /// kitty form) or `CSI 27 ; modifiers ; code ~` (xterm's modifyOtherKeys). Modifiers are
    /// 1 + Shift (1) + Alt (2) + Ctrl (4). Only the Edit menu's keys mean something here.
    private static func modifiedKey(final: UInt8, parameters: [Int]) -> TerminalKey? {
        let code: Int
        let modifiers: Int
        if final == UInt8(ascii: "u") && parameters.count >= 2 {
            (code, modifiers) = (parameters[0], parameters[1])
        } else if final == UInt8(ascii: "~") && parameters.count >= 3 && parameters[0] == 27 {
            (code, modifiers) = (parameters[2], parameters[1])
        } else {
            return nil
        }
        let bits = modifiers - 1
        let ctrl = bits & 4 != 0
        let shift = bits & 1 != 0
        guard ctrl, bits & 2 == 0 else { return .ignored }
        switch code {
        case 122, 90: return shift || code == 90 ? .redo : .undo  // z, Z
        case 121, 89: return shift ? .ignored : .redo             // y
        default: return .ignored
        }
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
