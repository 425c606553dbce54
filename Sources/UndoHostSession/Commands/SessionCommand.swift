import UndoPluginHost

/// One line of a session, parsed: a command of the host, or an action of a plugin.
public enum SessionCommand: Equatable, Sendable {
    /// A plugin action by id, with its argument text (checked against the signature when run).
    /// `argumentColumn` is where that text starts in the line, for error columns.
    case perform(action: String, arguments: String, argumentColumn: Int)
    case undo(UndoAmount)
    case redo(UndoAmount)
    /// `group begin ["Name"] [--description "Text"]`: the group's name and its longer text for
    /// history lists.
    case groupBegin(name: String?, description: String? = nil)
    case groupEnd
    /// `group cancel`: take back the changes of the innermost open group and close it, no step left.
    case groupCancel
    case breakCoalescing
    case save
    /// `save --forget`: no state of the document is the saved one any more.
    case forgetSave
    case revert
    /// `limit N`: keep at most N steps (0: unlimited); `limit`: say what is kept.
    case limit(Int?)
    /// Switch to a document, or (no name) list the documents.
    case document(String?)
    /// Close a document (the current one when no name is given): its steps leave the history.
    case close(String?)
    case menu
    /// `history`: every step; `history --values`: with each plugin step's action type and
    /// arguments.
    case history(values: Bool)
    /// Show the alert; with a choice (number, letter or kind), also pick it.
    case alert(choice: String?)
    /// Show a document; `whole`: all of it, not scrolled or cut to the terminal (`show --all`).
    case show(String?, whole: Bool = false)
    case plugins
    /// Load a plugin file or folder; `allowWritable` loads one others may change
    /// (`load --allow-writable-plugins PATH`); `isolated` runs each plugin in a process of its
    /// own (`load --isolated PATH`, issue 31).
    case load(path: String, allowWritable: Bool = false, isolated: Bool = false)
    case unload(id: String)
    case help(topic: String?)
    case quit
    /// `expect CODE COMMAND`: run the command line `command`, which must fail with the error
    /// `code` (`UNDO_ERANGE`); that it fails so is a success, anything else an error.
    case expect(code: Int32, command: String)
    /// `earlier`, `later`, `goto`, `tree`: across the branches of the history.
    case tree(TreeCommand)
    /// `checkpoint`: write a checkpoint of the open journal and drop the changes it holds.
    case checkpoint

    /// How far an undo or redo goes.
    public enum UndoAmount: Equatable, Sendable {
        case steps(Int)
        /// To the state after step N of the history listing (0: before any).
        case to(Int)
    }

    /// The command words a session knows, for help, completion and hints.
    public static let names = ["undo", "redo", "group", "break", "save", "revert", "limit", "doc", "close", "menu",
                               "history", "alert", "show", "plugins", "load", "unload", "expect", "checkpoint", "help", "quit", "exit"]
        + TreeCommand.words

    /// How each command is written, for help and usage hints.
    static let usages: [String: String] = [
        "undo": "undo [N] | undo to N", "redo": "redo [N] | redo to N",
        "group": "group begin [\"Name\"] [--description \"Text\"] | group end | group cancel", "break": "break", "save": "save [--forget]", "revert": "revert", "limit": "limit [N]",
        "doc": "doc [NAME]", "close": "close [NAME]", "menu": "menu", "history": "history [--values]",
        "alert": "alert [1|2|3|u|r|c]", "show": "show [--all] [--at N] [NAME]", "plugins": "plugins",
        "load": "load [--allow-writable-plugins] [--isolated] PATH", "expect": "expect CODE COMMAND",
        "unload": "unload PLUGIN-ID", "checkpoint": "checkpoint", "help": "help [COMMAND|ACTION]", "quit": "quit", "exit": "exit",
    ].merging(TreeCommand.usages) { first, _ in first }

    /// The name of the command in `--json` output.
    public var jsonName: String {
        switch self {
        case .perform: "perform"
        case .undo: "undo"
        case .redo: "redo"
        case .groupBegin: "group begin"
        case .groupEnd: "group end"
        case .groupCancel: "group cancel"
        case .breakCoalescing: "break"
        case .save: "save"
        case .forgetSave: "save --forget"
        case .revert: "revert"
        case .limit: "limit"
        case .document: "doc"
        case .close: "close"
        case .menu: "menu"
        case .history(let values): values ? "history --values" : "history"
        case .alert: "alert"
        case .show: "show"
        case .plugins: "plugins"
        case .load: "load"
        case .unload: "unload"
        case .help: "help"
        case .quit: "quit"
        case .expect: "expect"
        case .tree(let command): command.jsonName
        case .checkpoint: "checkpoint"
        }
    }
}

extension SessionCommand {
    /// Parses one line. Blank lines and comments give `nil`: `#` starts a comment anywhere
    /// outside a quoted string.
    /// - Throws: an unknown command word, or wrong words after a known one. Action ids and
    ///   their arguments are checked when the command runs (they depend on the loaded plugins).
    /// - Parameter words: the language of the errors.
    public static func parse(_ line: String, words text: SessionText = .english) throws(SessionError) -> SessionCommand? {
        let line = withoutComment(line)
        let trimmed = line.drop { $0.isWhitespace }
        guard !trimmed.isEmpty else { return nil }
        let wordEnd = trimmed.firstIndex(where: \.isWhitespace) ?? trimmed.endIndex
        let word = String(trimmed[..<wordEnd])
        let wordColumn = line.distance(from: line.startIndex, to: trimmed.startIndex) + 1
        let rest = trimmed[wordEnd...]
        let restColumn = wordColumn + word.count

        guard names.contains(word) else {
            // Anything else is an action id; the host resolves it (or says it is unknown).
            let argumentStart = rest.firstIndex { !$0.isWhitespace } ?? rest.endIndex
            let column = restColumn + rest.distance(from: rest.startIndex, to: argumentStart)
            return .perform(action: word, arguments: String(rest[argumentStart...]), argumentColumn: column)
        }
        if word == "expect" { return try expectation(rest, column: restColumn, words: text) }
        let words: [CommandWords.Word]
        do throws(SessionError) {
            words = try CommandWords.split(rest, startColumn: restColumn, words: text)
        } catch {
            var located = error
            located.message = word + ": " + error.message
            throw located
        }
        if TreeCommand.words.contains(word) { return .tree(try TreeCommand.parse(word, words, text: text)) }
        let parser = WordParser(command: word, words: words, text: text)
        switch word {
        case "undo": return .undo(try parser.amount())
        case "redo": return .redo(try parser.amount())
        case "group":
            switch words.first?.text {
            case "begin":
                var rest = Array(words.dropFirst())
                var description: String?
                if let option = rest.firstIndex(where: { $0.text == "--description" }) {
                    guard option + 1 < rest.count else {
                        throw SessionError(.syntax, text.missingArgument("group begin --description"),
                                           hint: text.usage(SessionCommand.usages["group"] ?? "group"), column: rest[option].column)
                    }
                    description = rest[option + 1].text
                    rest.removeSubrange(option...option + 1)
                }
                if rest.count > 1 { throw parser.usageError(at: rest[1]) }
                return .groupBegin(name: rest.first?.text, description: description)
            case "end":
                try parser.expectAtMost(1)
                return .groupEnd
            case "cancel":
                try parser.expectAtMost(1)
                return .groupCancel
            default:
                throw parser.usageError(at: words.first)
            }
        case "break": try parser.expectAtMost(0); return .breakCoalescing
        case "save":
            let (forget, rest) = parser.taking("--forget")
            try rest.expectAtMost(0)
            return forget ? .forgetSave : .save
        case "revert": try parser.expectAtMost(0); return .revert
        case "limit":
            try parser.expectAtMost(1)
            guard let word = words.first else { return .limit(nil) }
            guard let count = Int(word.text), count >= 0 else {
                throw SessionError(.syntax, text.notALimit(word.text), hint: text.usage(usages["limit"] ?? "limit"),
                                   column: word.column)
            }
            return .limit(count)
        case "doc": try parser.expectAtMost(1); return .document(words.first?.text)
        case "close": try parser.expectAtMost(1); return .close(words.first?.text)
        case "menu": try parser.expectAtMost(0); return .menu
        case "history":
            let (values, rest) = parser.taking("--values")
            try rest.expectAtMost(0)
            return .history(values: values)
        case "alert": try parser.expectAtMost(1); return .alert(choice: words.first?.text)
        case "show":
            if let at = words.firstIndex(where: { $0.text == "--at" }) {
                // show --at N [NAME]: a look at state N, without moving.
                guard at + 1 < words.count, let state = UInt32(words[at + 1].text) else {
                    throw SessionError(.syntax, "show: --at needs a state number", hint: "usage: show [--all] [--at N] [NAME]",
                                       column: words[at].column)
                }
                let others = words.enumerated().filter { $0.offset != at && $0.offset != at + 1 && $0.element.text != "--all" }
                if others.count > 1 { throw SessionError(.syntax, "show: unexpected \"\(others[1].element.text)\"", column: others[1].element.column) }
                return .tree(.showAt(state, document: others.first?.element.text))
            }
            let (whole, rest) = parser.taking("--all")
            try rest.expectAtMost(1)
            return .show(rest.words.first?.text, whole: whole)
        case "plugins": try parser.expectAtMost(0); return .plugins
        case "load":
            let (allowWritable, afterWritable) = parser.taking("--allow-writable-plugins")
            let (isolated, rest) = afterWritable.taking("--isolated")
            try rest.expectAtMost(1)
            guard let path = rest.words.first?.text else { throw parser.usageError(at: nil) }
            return .load(path: path, allowWritable: allowWritable, isolated: isolated)
        case "unload":
            try parser.expectAtMost(1)
            guard let id = words.first?.text else { throw parser.usageError(at: nil) }
            return .unload(id: id)
        case "help": try parser.expectAtMost(1); return .help(topic: words.first?.text)
        case "checkpoint": try parser.expectAtMost(0); return .checkpoint
        default: try parser.expectAtMost(0); return .quit
        }
    }
}

extension SessionCommand {
    /// The line up to its first `#` outside a quoted string (a `\"` inside one does not end it).
    /// - Complexity: O(length of the line).
    static func withoutComment(_ line: String) -> String {
        var inQuotes = false
        var escaped = false
        for index in line.indices {
            let character = line[index]
            if inQuotes {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inQuotes = false
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "#" {
                return String(line[..<index])
            }
        }
        return line
    }

    /// `expect CODE COMMAND...`: the code by its name, and the rest of the line as written
    /// (parsed when it runs, so its own mistakes are errors it can expect).
    private static func expectation(_ rest: Substring, column restColumn: Int, words text: SessionText) throws(SessionError) -> SessionCommand {
        let usage = text.usage(usages["expect"] ?? "expect")
        let codeStart = rest.firstIndex { !$0.isWhitespace } ?? rest.endIndex
        let codeEnd = rest[codeStart...].firstIndex(where: \.isWhitespace) ?? rest.endIndex
        let codeText = String(rest[codeStart..<codeEnd])
        let codeColumn = restColumn + rest.distance(from: rest.startIndex, to: codeStart)
        guard !codeText.isEmpty else { throw SessionError(.syntax, text.missingArgument("expect"), hint: usage) }
        guard let code = ErrorReport.code(named: codeText) else {
            let names = ErrorReport.codeNames.map(\.name)
            let hint = Suggestion.closest(to: codeText, among: names).map(text.didYouMean)
                ?? text.codesHint(names.joined(separator: ", "))
            throw SessionError(.syntax, text.notAnErrorCode(codeText), hint: hint, column: codeColumn)
        }
        let command = rest[codeEnd...].drop { $0.isWhitespace }
        guard !command.isEmpty else { throw SessionError(.syntax, text.expectMissingCommand, hint: usage) }
        return .expect(code: code, command: String(command))
    }
}

/// Checks the words after a command word.
private struct WordParser {
    var command: String
    var words: [CommandWords.Word]
    /// The language of the errors.
    var text: SessionText

    func usageError(at word: CommandWords.Word?) -> SessionError {
        let what = word.map { text.unexpectedWord(command, $0.text) } ?? text.missingArgument(command)
        return SessionError(.syntax, what, hint: text.usage(SessionCommand.usages[command] ?? command),
                            column: word?.column)
    }

    /// Whether the option word `option` is among the words, and the parser of the others.
    func taking(_ option: String) -> (Bool, WordParser) {
        let others = words.filter { $0.text != option }
        return (others.count < words.count, WordParser(command: command, words: others, text: text))
    }

    func expectAtMost(_ count: Int) throws(SessionError) {
        if words.count > count { throw usageError(at: words[count]) }
    }

    /// `N`, `to N`, or nothing (1).
    func amount() throws(SessionError) -> SessionCommand.UndoAmount {
        guard let first = words.first else { return .steps(1) }
        if first.text == "to" {
            try expectAtMost(2)
            guard words.count == 2 else { throw usageError(at: nil) }
            guard let target = Int(words[1].text), target >= 0 else {
                throw SessionError(.syntax, text.notAStepNumber(command, words[1].text),
                                   hint: text.stepNumberHint,
                                   column: words[1].column)
            }
            return .to(target)
        }
        try expectAtMost(1)
        guard let count = Int(first.text), count >= 1 else {
            throw SessionError(.syntax, text.notACount(command, first.text),
                               hint: text.usage(SessionCommand.usages[command] ?? command), column: first.column)
        }
        return .steps(count)
    }
}
