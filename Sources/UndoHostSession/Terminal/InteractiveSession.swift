/// The session at a terminal: a prompt naming the document (with "*" when it has unsaved
/// changes), a line editor with history, Tab completion of commands and action ids, and the
/// alert's choice picked with one key. Errors are shown and the session goes on.
public final class InteractiveSession {
    let session: HostSession
    let presenter: OutcomePresenter
    let terminal: RawTerminal
    var editor = LineEditor()
    private var decoder = TerminalKeyDecoder()
    /// Keys read past the end of a line (typed ahead or pasted), for the next prompt.
    private var pendingKeys: [TerminalKey] = []

    public init(session: HostSession, presenter: OutcomePresenter, terminal: RawTerminal = RawTerminal()) {
        self.session = session
        self.presenter = presenter
        self.terminal = terminal
    }

    /// Runs until `quit` or Ctrl+D. - Returns: the exit status (0).
    public func run() -> Int32 {
        if !presenter.json {
            let plugins = session.host.plugins.map { "\($0.shortName) (\($0.name))" }.joined(separator: ", ")
            presenter.note("undo-host \(UndoHostTool.version): one undo history for every plugin. "
                           + "Plugins: \(plugins.isEmpty ? "none" : plugins).")
            presenter.note("Type help for the commands, quit or Ctrl+D to leave.")
        }
        while let line = readLine(prompt: prompt) {
            guard var outcome = session.run(line) else { continue }
            if case .alert(let alert, picked: nil) = outcome.body, outcome.succeeded, !presenter.json {
                presenter.present(outcome, at: .prompt)
                outcome = pick(from: alert)
                if case .alert(_, let picked?) = outcome.body {
                    switch picked {
                    case .cancelled: presenter.note("Cancelled")
                    case .moved(let moved): presenter.present(moved, at: .prompt)
                    }
                } else {
                    presenter.present(outcome, at: .prompt)
                }
                continue
            }
            presenter.present(outcome, at: .prompt)
            if outcome.endsSession { break }
        }
        return 0
    }

    /// "letter.txt*> ": the document, "*" when it has unsaved changes, "+" per open group.
    var prompt: String {
        let state = session.state
        let groups = String(repeating: "+", count: state.openGroups)
        return state.document + (state.isDirty ? "*" : "") + groups + "> "
    }

    // MARK: Reading a line

    /// Reads one line with editing; `nil` at end of input.
    func readLine(prompt: String) -> String? {
        terminal.withRawMode {
            terminal.write(editor.rendering(prompt: prompt))
            while true {
                if pendingKeys.isEmpty {
                    guard let keys = readKeys() else { return nil }
                    pendingKeys = keys
                }
                while !pendingKeys.isEmpty {
                    let key = pendingKeys.removeFirst()
                    switch editor.apply(key) {
                    case .editing:
                        terminal.write(editor.rendering(prompt: prompt))
                    case .submitted(let line):
                        terminal.write("\r\n")
                        return line
                    case .cancelled:
                        terminal.write("^C\r\n" + editor.rendering(prompt: prompt))
                    case .endOfInput:
                        terminal.write("\r\n")
                        return nil
                    case .clearScreen:
                        terminal.write("\u{1B}[H\u{1B}[2J" + editor.rendering(prompt: prompt))
                    case .complete:
                        complete(prompt: prompt)
                    }
                }
            }
        }
    }

    /// The next keys from the terminal; a lone Escape (no sequence after it soon) is dropped.
    private func readKeys() -> [TerminalKey]? {
        while true {
            guard let bytes = terminal.readBytes() else { return nil }
            var keys = decoder.decode(bytes)
            if decoder.hasPending && !terminal.hasInput(within: 50) { keys += decoder.flush() }
            if !keys.isEmpty { return keys }
        }
    }

    /// Tab: completes the command or action id being typed; with several candidates, completes
    /// what they share and lists them.
    private func complete(prompt: String) {
        let (word, isFirst) = editor.wordBeforeCursor
        guard isFirst else { return }
        let candidates = (SessionCommand.names + session.host.actionTypes.map(\.shortID)).filter { $0.hasPrefix(word) }
        guard let first = candidates.first else { return }
        if candidates.count == 1 {
            editor.replaceWordBeforeCursor(with: first + " ")
        } else {
            let shared = candidates.dropFirst().reduce(first) { common, next in String(zip(common, next).prefix { $0 == $1 }.map(\.0)) }
            if shared.count > word.count {
                editor.replaceWordBeforeCursor(with: shared)
            } else {
                terminal.write("\r\n" + candidates.joined(separator: "  ") + "\r\n")
            }
        }
        terminal.write(editor.rendering(prompt: prompt))
    }

    // MARK: The alert

    /// Asks for one of the alert's choices (its number or letter; Enter or Escape cancels) and
    /// picks it.
    private func pick(from alert: AlertView) -> CommandOutcome {
        let answer: String = terminal.withRawMode {
            terminal.write(alert.choicePrompt)
            while true {
                if pendingKeys.isEmpty {
                    guard let keys = readKeys() else { return "c" }
                    pendingKeys = keys
                }
                let key = pendingKeys.removeFirst()
                switch key {
                case .character(let character) where alert.choice(for: String(character)) != nil:
                    terminal.write(String(character) + "\r\n")
                    return String(character)
                case .enter, .interrupt, .endOfInput, .ignored:
                    terminal.write("\r\n")
                    return "c"
                default:
                    continue
                }
            }
        }
        return session.run(.alert(choice: answer))
    }
}
