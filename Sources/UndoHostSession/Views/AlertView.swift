import UndoCore
import UndoHostTerminal

/// The shake-to-undo alert: its title and its numbered choices (Undo X, Redo Y, Cancel), each
/// also chosen by its letter (u, r, c).
public struct AlertView: Sendable, Equatable {
    public struct Choice: Sendable, Equatable {
        public var number: Int
        public var key: Character
        public var title: String
        public var kind: UndoAlert.Action.Kind
    }

    public var title: String
    public var choices: [Choice]

    public init(alert: UndoAlert) {
        title = alert.title
        choices = alert.actions.enumerated().map { index, action in
            let key: Character = switch action.kind {
            case .undo: "u"
            case .redo: "r"
            case .cancel: "c"
            }
            return Choice(number: index + 1, key: key, title: action.title, kind: action.kind)
        }
    }

    /// The choice that `answer` names: its number, its letter, or its kind ("undo").
    public func choice(for answer: String) -> Choice? {
        let answer = answer.trimmingWhitespace.lowercased()
        return choices.first { choice in
            answer == String(choice.number) || answer == String(choice.key) || answer == Self.word(for: choice.kind)
        }
    }

    /// How a script names a kind of choice.
    static func word(for kind: UndoAlert.Action.Kind) -> String {
        switch kind {
        case .undo: "undo"
        case .redo: "redo"
        case .cancel: "cancel"
        }
    }

    /// What to ask for: "1-3 or u/r/c".
    public func choicePrompt(words: SessionText = .english) -> String {
        words.choose(choices.count, keys: choices.map { String($0.key) }.joined(separator: "/"))
    }

    public func rendered(style: TextStyle, words: SessionText = .english) -> String {
        var lines = [style.bold(words.alert) + ": " + title]
        let width = choices.map(\.title.terminalWidth).max() ?? 0
        for choice in choices {
            lines.append("  \(choice.number)) " + choice.title.padded(to: width) + "  [\(choice.key)]")
        }
        return lines.joined(separator: "\n")
    }

    var json: JSONValue {
        .object([
            ("title", .string(title)),
            ("choices", .array(choices.map { choice in
                .object([("number", .integer(choice.number)), ("key", .string(String(choice.key))),
                         ("kind", .string(Self.word(for: choice.kind))), ("title", .string(choice.title))])
            })),
        ])
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
