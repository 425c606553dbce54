import UndoHostTerminal

/// The session at a terminal: a prompt naming the document (with "*" when it has unsaved
/// changes), a line editor with history, Tab completion of commands and action ids, and the
/// alert's choice picked with one key. Errors are shown and the session goes on.
public final class InteractiveSession {
    let session: HostSession
    let presenter: OutcomePresenter
    let terminal: RawTerminal
    var editor = LineEditor()
    private var decoder = TerminalKeyDecoder()
    private var renderer = LineRenderer()
    /// Keys read past the end of a line (typed ahead or pasted), for the next prompt.
    private var pendingKeys: [TerminalKey] = []

    /// Ask before a command throws work away (`--yes` turns it off).
    let askBeforeDiscarding: Bool

    public init(session: HostSession, presenter: OutcomePresenter, terminal: RawTerminal = RawTerminal(),
                askBeforeDiscarding: Bool = true) {
        self.session = session
        self.presenter = presenter
        self.terminal = terminal
        self.askBeforeDiscarding = askBeforeDiscarding
    }

    /// Runs until `quit` or Ctrl+D. - Returns: the exit status (0).
    public func run() -> Int32 {
        if !presenter.json {
            let plugins = session.host.plugins.map { "\($0.shortName) (\($0.name))" }.joined(separator: ", ")
            let width = terminalWidth
            presenter.note(words.banner(version: UndoHostTool.version, plugins: plugins.isEmpty ? nil : plugins).wrapped(to: width))
            presenter.note(words.bannerHelp.wrapped(to: width))
        }
        var endOfInputRefused = false
        while true {
            guard let line = readLine(prompt: prompt) else {
                // Ctrl+D with a group open is refused like quit; twice in a row (or input that
                // has ended) leaves with status 1, the group reported as never ended.
                if !session.openGroupNames.isEmpty {
                    if endOfInputRefused {
                        // The second: leaving, and saying so (not "not quitting").
                        presenter.presentError(SessionError(.history, words.leavingWithOpenGroup(session.openGroupNames.last ?? nil)),
                                               at: .prompt, state: session.state)
                        return 1
                    }
                    refuseLeavingWithOpenGroup(hint: words.endGroupOrCtrlDHint)
                    endOfInputRefused = true
                    continue
                }
                // Ctrl+D: leaving like quit, so the same question about unsaved documents, and
                // the same answer to "no".
                if confirmLeaving() { break }
                presenter.note(words.kept)
                continue
            }
            endOfInputRefused = false
            // quit with a group open would leave its steps out of the history as one: refused
            // (scripts exit 1 instead), so the person can end the group first.
            if case .quit? = try? SessionCommand.parse(line), !session.openGroupNames.isEmpty {
                refuseLeavingWithOpenGroup()
                continue
            }
            if let question = discardQuestion(for: line), !confirm(question) {
                presenter.note(words.kept)
                continue
            }
            guard var outcome = session.run(line) else { continue }
            if case .alert(let alert, picked: nil) = outcome.body, outcome.succeeded, !presenter.json {
                presenter.present(outcome, at: .prompt)
                outcome = pick(from: alert)
                if case .alert(_, let picked?) = outcome.body {
                    switch picked {
                    case .cancelled: presenter.note(words.cancelled)
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

    /// The terminal's width now (it may have been resized since the last line).
    private var terminalWidth: Int { RawTerminal.columns ?? 80 }

    private func redraw(_ prompt: String) {
        terminal.write(renderer.render(prompt: prompt, editor: editor, width: terminalWidth))
    }

    /// Reads one line with editing; `nil` at end of input.
    func readLine(prompt: String) -> String? {
        terminal.withRawMode {
            renderer.reset()
            redraw(prompt)
            while true {
                if pendingKeys.isEmpty {
                    guard let keys = readKeys() else { return nil }
                    pendingKeys = keys
                }
                while !pendingKeys.isEmpty {
                    let key = pendingKeys.removeFirst()
                    switch editor.apply(key) {
                    case .editing:
                        redraw(prompt)
                    case .submitted(let line):
                        terminal.write(renderer.leave())
                        return line
                    case .shortcut(let command):
                        // Shown as if typed, so the screen says what the key did.
                        terminal.write(command + renderer.leave())
                        return command
                    case .cancelled:
                        terminal.write("^C" + renderer.leave())
                        redraw(prompt)
                    case .endOfInput:
                        terminal.write(renderer.leave())
                        return nil
                    case .clearScreen:
                        terminal.write("\u{1B}[H\u{1B}[2J")
                        renderer.reset()
                        redraw(prompt)
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
                terminal.write(renderer.leave() + candidates.joined(separator: "  ").wrapped(to: terminalWidth)
                               .replacingNewlines(with: "\r\n") + "\r\n")
            }
        }
        redraw(prompt)
    }

    /// The language of what the session says.
    private var words: SessionText { session.words }

    // MARK: Asking before throwing work away

    /// The question to ask before running `line`, when it would throw work away: unloading a
    /// plugin whose steps are in the history, closing a document with unsaved changes,
    /// quitting with unsaved documents. `nil`: run it without asking.
    func discardQuestion(for line: String) -> String? {
        guard askBeforeDiscarding, let command = try? SessionCommand.parse(line) else { return nil }
        switch command {
        case .unload(let id):
            let steps = session.steps(ofPlugin: id)
            guard steps > 0 else { return nil }
            return words.askUnload(id, steps: steps)
        case .close(let name):
            let document = name ?? session.currentDocument
            guard session.unsavedDocuments.contains(document) else { return nil }
            return words.askClose(document)
        case .quit:
            return quitQuestion
        default:
            return nil
        }
    }

    /// Says a group is open and that `group end` comes first.
    private func refuseLeavingWithOpenGroup(hint: String? = nil) {
        presenter.presentError(SessionError(.history, words.groupOpen(session.openGroupNames.last ?? nil) + ": " + words.notLeaving,
                                            hint: hint ?? words.endGroupHint),
                               at: .prompt, state: session.state)
    }

    private var quitQuestion: String? {
        let unsaved = session.unsavedDocuments
        guard askBeforeDiscarding, !unsaved.isEmpty else { return nil }
        // With a journal the changes are not lost by quitting: the question says so.
        if let path = session.hostJournal?.path { return words.askQuit(unsaved, journal: path) }
        return words.askQuit(unsaved)
    }

    /// Ctrl+D: whether to leave (no question, or yes to it).
    private func confirmLeaving() -> Bool {
        guard let question = quitQuestion else { return true }
        return confirm(question)
    }

    /// Asks a yes/no question; one key answers (y, or n, Enter, Escape, Ctrl+C, Ctrl+D for no).
    private func confirm(_ question: String) -> Bool {
        terminal.withRawMode {
            terminal.write((question + " " + words.yesNo).wrapped(to: terminalWidth).replacingNewlines(with: "\r\n") + " ")
            while true {
                if pendingKeys.isEmpty {
                    guard let keys = readKeys() else { return false }
                    pendingKeys = keys
                }
                switch pendingKeys.removeFirst() {
                case .character("y"), .character("Y"):
                    terminal.write("y\r\n")
                    return true
                case .character("n"), .character("N"), .enter, .interrupt, .endOfInput, .ignored:
                    terminal.write("n\r\n")
                    return false
                default:
                    continue
                }
            }
        }
    }

    // MARK: The alert

    /// Asks for one of the alert's choices (its number or letter; Enter or Escape cancels) and
    /// picks it.
    private func pick(from alert: AlertView) -> CommandOutcome {
        let answer: String = terminal.withRawMode {
            terminal.write(alert.choicePrompt(words: words))
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
