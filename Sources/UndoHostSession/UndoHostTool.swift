#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import UndoCore
import UndoHostAPI
import UndoPluginABI
import UndoPluginHost
import UndoHostJournal
import UndoJournal
import UndoHostTerminal

/// The `undo-host` program: reads its arguments, loads the plugins and runs the mode asked for.
/// The executable only calls ``main(_:output:)`` and exits with what it returns.
///
/// Exit status: 0 success; 1 a script error (the first failing line, or a plugin that
/// refused); 2 a usage error (unknown option or mode, missing or unreadable file or folder).
public enum UndoHostTool {
    /// The release, the same as libundohost's (`UNDO_LIBRARY_RELEASE`): one number for the project.
    public static let version = UNDO_LIBRARY_RELEASE

    public enum ExitStatus {
        public static let success: Int32 = 0
        public static let scriptError: Int32 = 1
        public static let usageError: Int32 = 2
    }

    /// The mode asked for, with the options that apply to every mode.
    enum Mode: Equatable { case session, run(String), demo, plugins }

    /// A mistake on the command line that the parser does not see (an unknown locale).
    struct UsageError: Error {
        var message: String
    }

    /// The modes, for "did you mean" when a mode is mistyped.
    static let modes = ["run", "demo", "plugins", "check", "new-plugin", "journal", "help"]

    /// Runs the program. - Returns: the exit status.
    public static func main(_ arguments: [String], output: ToolOutput = StandardStreams()) -> Int32 {
        let options: UndoHostCommand
        let mode: Mode
        do {
            switch try UndoHostCommand.parseAsRoot(arguments) {
            case let run as RunMode: (options, mode) = (run.options, .run(run.file))
            case let demo as DemoMode: (options, mode) = (demo.options, .demo)
            case let plugins as PluginsMode: (options, mode) = (plugins.options, .plugins)
            // The validator loads its plugins its own way (one host per test).
            case let check as CheckMode: return check.execute(output: output)
            case let newPlugin as NewPluginMode: return newPlugin.execute(output: output)
            // Reads a journal's files only: no host, no plugins.
            case let journal as JournalMode: return journal.execute(output: output)
            case let root as UndoHostCommand: (options, mode) = (root, .session)
            case var parserCommand:
                // The parser's own (help): running it gives the help as a "clean exit".
                try parserCommand.run()
                return ExitStatus.success
            }
        } catch {
            return commandLineFailure(error, arguments: arguments, output: output)
        }

        let locale: UndoLocale
        switch loadLocale(options.locale) {
        case .success(let loaded): locale = loaded
        case .failure(let error): return usageFailure(error.message, output: output)
        }
        let words = SessionText.forLocale(locale.identifier)
        // Options of the journal say nothing without one: refused rather than ignored.
        if options.journal == nil {
            for (given, name) in [(options.durability, "--durability"), (options.checkpointEvery, "--checkpoint-every")] where given != nil {
                return usageFailure(words.needsJournal(name), output: output, words: words)
            }
        }
        let durabilityText = options.durability ?? JournalDurability.full.rawValue
        guard let durability = JournalDurability(rawValue: durabilityText) else {
            return usageFailure(words.badDurability(durabilityText), output: output, words: words)
        }
        let checkpointText = options.checkpointEvery ?? String(HostSession.defaultCheckpointInterval)
        guard let checkpointInterval = Int(checkpointText), checkpointInterval >= 0 else {
            return usageFailure(words.badCheckpointInterval(checkpointText), output: output, words: words)
        }
        // A journaled history keeps wall-clock times, which mean the same after a restart.
        let journalClock = options.journal == nil ? nil : JournalClock()
        let host = HostSession.makeHost(locale: locale, clock: journalClock ?? SystemUndoClock())
        if options.allowWritablePlugins { host.trustPolicy.allowWritable = true }
        guard options.pluginWatchdog > 0 else {
            return usageFailure(words.badPluginWatchdog(options.pluginWatchdog), output: output, words: words)
        }
        if options.isolate { host.isolation = PluginIsolation(watchdogMilliseconds: options.pluginWatchdog) }
        let pluginsRefused: Bool
        switch loadPlugins(options.pluginPaths, into: host, output: output, words: words, json: options.json) {
        case .failure(let failure): return usageFailure(failure.message, output: output, words: words)
        case .success(let refused): pluginsRefused = refused
        }
        let session = HostSession(host: host)
        session.layout = .current
        session.checkpointInterval = checkpointInterval
        session.isolationWatchdog = options.pluginWatchdog
        session.checkpointWarningHandler = { failure in
            if options.json {
                let members: [(String, JSONValue)] = [("warning", "automatic checkpoint failed"),
                                                      ("code", .string(failure.codeName)), ("message", .string(failure.message))]
                    + (failure.hint.map { [("hint", .string($0))] } ?? [])
                output.write(JSONValue.object(members).serialized + "\n", error: true)
            } else {
                output.write("undo-host: " + words.warning(words.automaticCheckpointFailed(failure.message), hint: failure.hint) + "\n",
                             error: true)
            }
        }
        if let path = options.journal {
            do {
                if !HostJournal.isHostJournal(path) {
                    // Format 1 (session lines, before the journal moved below the session): replayed
                    // once into a journal of the current format, which takes its place.
                    let upgrade = try HostSession.upgradeFormatOneJournal(at: path, locale: locale, like: host)
                    output.write("undo-host: " + words.journalUpgraded(path, to: HostJournal.formatVersion, keptAt: upgrade.keptAt) + "\n",
                                 error: true)
                }
                let journal = try session.openJournal(path: path, durability: durability, clock: journalClock)
                if let checkpoint = journal.restoredCheckpoint {
                    output.write("undo-host: " + words.journalRestored(path, checkpointAfter: checkpoint.sequence, then: journal.restoredCount)
                                 + "\n", error: true)
                } else if journal.restoredCount > 0 {
                    output.write("undo-host: " + words.journalRestored(path, changes: journal.restoredCount) + "\n", error: true)
                }
                for warning in journal.openWarnings {
                    output.write("undo-host: " + words.journalWarning(path, warning) + "\n", error: true)
                }
                // A session that ended inside a group left it open: said, so the person ends it.
                if let open = session.openGroupNames.last {
                    output.write("undo-host: " + words.journalGroupOpen(path, open) + "\n", error: true)
                }
            } catch {
                output.write("undo-host: \(error)\n", error: true)
                // What would open it (the bundled file that has a missing plugin, say).
                if let hint = error.hint { output.write("  hint: \(hint)\n", error: true) }
                return ExitStatus.scriptError
            }
        }
        let style: TextStyle = isatty(STDOUT_FILENO) == 1 && getenv("NO_COLOR") == nil ? .terminal : .plain
        let presenter = OutcomePresenter(output: output, json: options.json, style: style, layout: .current, words: words)
        let runner = ScriptRunner(session: session, presenter: presenter, keepGoing: options.keepGoing)

        let status = { () -> Int32 in switch mode {
        case .plugins:
            presenter.present(session.run(.plugins), at: .prompt)
            return ExitStatus.success
        case .demo:
            var demo = runner
            demo.echo = true
            let status = demo.run(named: "demo", text: DemoScript.text(in: words))
            if status == ExitStatus.success && !options.json {
                presenter.note("\n" + words.demoEnd)
            }
            return status
        case .run(let file):
            if file == "-" { return runner.run(named: "<stdin>", reader: ScriptLineReader(descriptor: STDIN_FILENO, closing: false)) }
            switch ScriptLineReader.opening(file) {
            // Not a mistake in the arguments, so no advice about --help.
            case .success(let reader): return runner.run(named: file, reader: reader)
            case .failure(let error): return usageFailure(words.cannotRead(file, error.reason), output: output, adviseHelp: false, words: words)
            }
        case .session:
            if RawTerminal.isInteractive {
                return InteractiveSession(session: session, presenter: presenter, askBeforeDiscarding: !options.yes).run()
            }
            return runner.run(named: "<stdin>", reader: ScriptLineReader(descriptor: STDIN_FILENO, closing: false))
        } }()
        // Commits what waits in normal durability; a commit that fails is said, and fails the run.
        if let failure = session.closeJournal() {
            output.write("undo-host: \(failure)\n", error: true)
            return status == ExitStatus.success ? ExitStatus.scriptError : status
        }
        // A plugin the person named and did not get: the run went on with the others, and its
        // status says that not everything asked for was done.
        return pluginsRefused && status == ExitStatus.success ? ExitStatus.scriptError : status
    }

    /// The parser's answer when it did not give a command: the help or the version (status 0),
    /// or a usage error (status 2) with the parser's message, or "unknown mode" with the
    /// closest mode.
    private static func commandLineFailure(_ error: any Error, arguments: [String], output: ToolOutput) -> Int32 {
        let width = TextLayout.current.width
        if UndoHostCommand.exitCode(for: error) == .success {
            var text = UndoHostCommand.fullMessage(for: error, columns: width)
            // The whole program's help ends with the session's commands.
            if text == UndoHostCommand.helpMessage(columns: width) {
                text += "\n\n" + HostSession.commandReference(width: width)
            }
            output.write(text + "\n", error: false)
            return ExitStatus.success
        }
        if let mode = unknownMode(in: arguments) {
            let hint = Suggestion.closest(to: mode, among: modes).map { " (did you mean \($0)?)" } ?? ""
            return usageFailure("unknown mode \(mode)" + hint, output: output)
        }
        return usageFailure(UndoHostCommand.message(for: error), output: output)
    }

    /// The first word that is neither an option nor an option's value, when it is not a mode.
    static func unknownMode(in arguments: [String]) -> String? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if ["--plugins", "--locale", "--journal", "--durability", "--checkpoint-every"].contains(argument) {
                index += 2
                continue
            }
            if argument.hasPrefix("-") && argument != "-" {
                index += 1
                continue
            }
            return modes.contains(argument) ? nil : argument
        }
        return nil
    }

    private static func usageFailure(_ message: String, output: ToolOutput, adviseHelp: Bool = true,
                                     words: SessionText = .english) -> Int32 {
        output.write("undo-host: \(message)\n" + (adviseHelp ? words.helpAdvice + "\n" : ""), error: true)
        return ExitStatus.usageError
    }

    private static func loadLocale(_ identifier: String) -> Result<UndoLocale, UsageError> {
        if let builtIn = UndoLocale.builtIn(identifier) { return .success(builtIn) }
        var isFolder = false
        guard FileSystem.exists(identifier, isFolder: &isFolder), !isFolder else {
            return .failure(UsageError(message: "unknown locale \(identifier): use en, ko or the path of a locale file"))
        }
        do {
            return .success(try UndoLocale.load(contentsOfFile: identifier))
        } catch {
            return .failure(UsageError(message: "locale file \(identifier): \(error)"))
        }
    }

    /// Loads the plugins asked for, or the bundled ones. A plugin that fails is reported and
    /// skipped (the others load as if it were not there).
    /// - Returns: whether a plugin `--plugins` named (or one in a folder it named) was refused,
    ///   or a usage error when a path given does not exist.
    /// Under `--json` each warning is one JSON object on standard error.
    private static func loadPlugins(_ paths: [String], into host: PluginHost, output: ToolOutput,
                                    words: SessionText, json: Bool) -> Result<Bool, UsageError> {
        var failures: [PluginLoadError] = []
        if paths.isEmpty {
            failures = host.loadBundledPlugins().failures
        } else {
            for given in paths {
                // Named on the command line, so taken from the current folder on purpose.
                let path = PluginHost.absolutePath(fromCurrentDirectory: given)
                var isFolder = false
                guard FileSystem.exists(path, isFolder: &isFolder) else {
                    return .failure(UsageError(message: words.noSuchPluginsPath(given)))
                }
                if isFolder {
                    failures += host.load(folder: path).failures
                } else {
                    do throws(PluginLoadError) { try host.load(file: path) } catch { failures.append(error) }
                }
            }
        }
        for failure in failures {
            if json {
                let hint = HostSession.hint(for: failure, words: words).map { $0 + "; " } ?? ""
                let warning = JSONValue.object([("warning", .string("cannot load")), ("path", .string(failure.path)),
                                                ("code", .string(ErrorReport(failure).codeName)),
                                                ("message", .string(failure.explanation)),
                                                ("hint", .string(hint + words.otherPluginsLoaded))])
                output.write(warning.serialized + "\n", error: true)
                continue
            }
            output.write("undo-host: " + words.warningCannotLoad(failure.path, failure.explanation,
                                                                hint: HostSession.hint(for: failure, words: words)) + "\n",
                         error: true)
        }
        return .success(!paths.isEmpty && !failures.isEmpty)
    }
}
