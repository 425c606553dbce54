/// The line being typed at the prompt, its cursor, and the lines typed before (history): the
/// editing logic of the interactive mode, with no terminal in it, so it can be tested alone.
public struct LineEditor: Sendable {
    /// What a key did to the line.
    public enum Outcome: Equatable, Sendable {
        /// Keep editing (redraw the line).
        case editing
        /// The person pressed Enter: here is the line.
        case submitted(String)
        /// Ctrl+C: the line is dropped, a new prompt follows.
        case cancelled
        /// Ctrl+D on an empty line: no more input.
        case endOfInput
        /// Ctrl+L: clear the screen, then redraw.
        case clearScreen
        /// Tab: the caller may complete the word before the cursor.
        case complete
        /// Ctrl+Z or Ctrl+Y (Shift+Ctrl+Z) at an empty prompt: run this command as if typed.
        case shortcut(String)
    }

    /// The text, by grapheme, so the cursor never lands inside a character.
    public private(set) var characters: [Character] = []
    /// Where the cursor is: 0 is before the first character.
    public private(set) var cursor = 0
    /// Lines submitted before, oldest first (no empty lines, no repeats in a row).
    public private(set) var history: [String] = []
    /// The most lines kept in ``history``.
    public var historyLimit = 500
    /// While browsing the history with up/down: the index shown, and the line being typed
    /// before browsing started (restored when moving down past the newest).
    private var browsing: (index: Int, draft: [Character])?

    public init(history: [String] = []) { self.history = history }

    public var text: String { String(characters) }

    /// Applies one key.
    public mutating func apply(_ key: TerminalKey) -> Outcome {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .backspace:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .eraseToStart:
            characters.removeFirst(cursor)
            cursor = 0
        case .eraseToEnd:
            characters.removeLast(characters.count - cursor)
        case .up: showHistory(offset: -1)
        case .down: showHistory(offset: 1)
        case .enter:
            let line = text
            remember(line)
            reset()
            return .submitted(line)
        case .interrupt:
            reset()
            return .cancelled
        case .endOfInput:
            if characters.isEmpty { return .endOfInput }
            if cursor < characters.count { characters.remove(at: cursor) }
        case .clearScreen: return .clearScreen
        case .tab: return .complete
        // The Edit menu's keys, at an empty prompt (in a line being typed they do nothing).
        case .undo: if characters.isEmpty { return .shortcut("undo") }
        case .redo: if characters.isEmpty { return .shortcut("redo") }
        case .ignored: break
        }
        return .editing
    }

    /// Replaces the word before the cursor (completion).
    public mutating func replaceWordBeforeCursor(with word: String) {
        var start = cursor
        while start > 0 && characters[start - 1] != " " { start -= 1 }
        characters.replaceSubrange(start..<cursor, with: Array(word))
        cursor = start + word.count
    }

    /// The word before the cursor, and whether it is the first word of the line.
    public var wordBeforeCursor: (word: String, isFirst: Bool) {
        var start = cursor
        while start > 0 && characters[start - 1] != " " { start -= 1 }
        let isFirst = !characters[..<start].contains { $0 != " " }
        return (String(characters[start..<cursor]), isFirst)
    }

    private mutating func reset() {
        characters = []
        cursor = 0
        browsing = nil
    }

    private mutating func remember(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace), history.last != line else { return }
        history.append(line)
        if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
    }

    /// Up shows older lines, down newer ones and finally the line typed before browsing.
    private mutating func showHistory(offset: Int) {
        guard !history.isEmpty else { return }
        let current = browsing?.index ?? history.count
        let target = min(max(current + offset, 0), history.count)
        guard target != current else { return }
        let draft = browsing?.draft ?? characters
        if target == history.count {
            characters = draft
            browsing = nil
        } else {
            characters = Array(history[target])
            browsing = (target, draft)
        }
        cursor = characters.count
    }
}
