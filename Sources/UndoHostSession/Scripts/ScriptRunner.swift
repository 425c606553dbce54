import UndoHostTerminal

/// Runs commands from a script (a file, or standard input that is not a terminal) line by line.
/// By default it stops at the first error: it prints `FILE:LINE: CODE: reason` and the run fails
/// (exit status 1), with the history as it was before the failing line. With `keepGoing` it
/// reports each error and goes on; the run still fails if any line did.
public struct ScriptRunner {
    public let session: HostSession
    public let presenter: OutcomePresenter
    /// Print each command before its output, and `## ...` comments as headings (the demo).
    public var echo = false
    /// Report an error and go on with the next line (`--keep-going`).
    public var keepGoing = false

    public init(session: HostSession, presenter: OutcomePresenter, echo: Bool = false, keepGoing: Bool = false) {
        self.session = session
        self.presenter = presenter
        self.echo = echo
        self.keepGoing = keepGoing
    }

    /// Runs the lines of `reader` until its end, `quit`, or (unless keeping going) an error.
    /// A line that cannot be read (too long, not UTF-8) ends the run with an error, also when
    /// keeping going: what follows it was not read.
    /// - Returns: the exit status: 0, or 1 when a line failed.
    public func run(named name: String, reader: ScriptLineReader) -> Int32 {
        var number = 0
        var failed = false
        // The lines that began the groups still open; 0 for a group a journal left open.
        var openGroups = [Int](repeating: 0, count: session.openGroupNames.count)
        while let next = reader.next() {
            let line: String
            switch next {
            case .success(let text): line = text
            case .failure(let failure):
                presenter.presentError(failure.sessionError, at: .script(file: name, line: failure.line), state: session.state)
                return 1
            }
            number += 1
            if echo && !presenter.json { announce(line) }
            guard let outcome = session.run(line) else { continue }
            presenter.present(outcome, at: .script(file: name, line: number))
            if !outcome.succeeded {
                failed = true
                if keepGoing { continue }
                return 1
            }
            switch outcome.command {
            case "group begin": openGroups.append(number)
            case "group end", "group cancel": _ = openGroups.popLast()
            default: break
            }
            if outcome.endsSession {
                // quit with a group open: the group's steps are not in the history as one.
                if let begun = openGroups.last, !session.openGroupNames.isEmpty {
                    reportOpenGroup(begun, named: name, at: number)
                    return 1
                }
                return failed ? 1 : 0
            }
        }
        if let begun = openGroups.last, !session.openGroupNames.isEmpty {
            reportOpenGroup(begun, named: name, at: number)
            return 1
        }
        return failed ? 1 : 0
    }

    /// A group still open at the end: at the line that began it, or (begun before the script,
    /// in the journal) at the last line.
    private func reportOpenGroup(_ begun: Int, named name: String, at last: Int) {
        let words = session.words
        let group = session.openGroupNames.last.flatMap { $0 }
        let error = begun == 0
            ? SessionError(.history, words.neverEndedFromJournal(group), hint: words.endOrCancelGroupHint)
            : SessionError(.history, words.neverEnded(group), hint: words.endGroupAfterHint)
        presenter.presentError(error, at: .script(file: name, line: begun == 0 ? max(last, 1) : begun), state: session.state)
    }

    /// Runs a whole text (lines end at LF, CRLF or CR).
    public func run(named name: String, text: String) -> Int32 {
        run(named: name, reader: ScriptLineReader(text: text))
    }

    private func announce(_ line: String) {
        let trimmed = line.trimmingWhitespace
        if trimmed.hasPrefix("##") {
            presenter.note("\n" + presenter.style.bold("== " + trimmed.dropFirst(2).trimmingWhitespace + " =="))
        } else if !trimmed.isEmpty && !trimmed.hasPrefix("#") {
            presenter.note(presenter.style.bold("undo-host>") + " " + trimmed)
        }
    }
}
