#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoPluginABI
import UndoPluginHost

/// The `undo-host` program: reads its arguments, loads the plugins and runs the mode asked for.
/// The executable only calls ``main(_:output:)`` and exits with what it returns.
///
/// Exit status: 0 success; 1 a script error (the first failing line, or a plugin that
/// refused); 2 a usage error (unknown option or mode, missing or unreadable file or folder).
public enum UndoHostTool {
    public static let version = "1.0.0"

    public enum ExitStatus {
        public static let success: Int32 = 0
        public static let scriptError: Int32 = 1
        public static let usageError: Int32 = 2
    }

    static let usage = """
        usage: undo-host [--plugins PATH]... [--allow-writable-plugins] [--json] [--locale en|ko|FILE] [MODE]

        Modes:
          (none)       an interactive session on a terminal; otherwise commands from standard input
          run FILE     run the commands in FILE (- for standard input); stop at the first error
          demo         play a short session with the bundled plugins
          plugins      list the plugins and their actions
          help         show this help and the session commands

        Options:
          --plugins PATH   load the plugin PATH, or every plugin in the folder PATH (repeatable);
                           default: the bundled plugins next to the program, or the folders in
                           $UNDOHOST_PLUGIN_PATH (separated by ':'); a relative PATH is taken
                           from the current folder
          --allow-writable-plugins
                           also load plugin files or folders that group or others may change
                           (refused by default: anyone who can change them runs code here)
          --json           print one JSON object per command, one per line
          --locale ID      menu titles in English (en, the default), Korean (ko), or a locale file
          --version        print the version
          -h, --help       print this help

        Exit status: 0 success, 1 script error, 2 usage error.
        """

    /// What the command line asks for.
    struct Invocation: Equatable {
        enum Mode: Equatable { case session, run(String), demo, plugins, help, version }
        var mode: Mode = .session
        var pluginPaths: [String] = []
        var allowWritablePlugins = false
        var json = false
        var locale = "en"
    }

    struct UsageError: Error {
        var message: String
    }

    static let options = ["--plugins", "--allow-writable-plugins", "--json", "--locale", "--version", "--help"]
    static let modes = ["run", "demo", "plugins", "help"]

    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var invocation = Invocation()
        var positionals: [String] = []
        var index = 0
        func value(for option: String, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            let (name, inline): (String, String?) = {
                guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
                return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
            }()
            switch name {
            case "--plugins": invocation.pluginPaths.append(try value(for: name, inline: inline))
            case "--allow-writable-plugins": invocation.allowWritablePlugins = true
            case "--json": invocation.json = true
            case "--locale": invocation.locale = try value(for: name, inline: inline)
            case "--version": invocation.mode = .version
            case "-h", "--help": invocation.mode = .help
            case "-": positionals.append(argument)
            default:
                if argument.hasPrefix("-") {
                    let hint = Suggestion.closest(to: name, among: options).map { " (did you mean \($0)?)" } ?? ""
                    throw UsageError(message: "unknown option \(name)" + hint)
                }
                positionals.append(argument)
            }
            index += 1
        }
        if invocation.mode == .version || invocation.mode == .help { return invocation }
        guard let mode = positionals.first else { return invocation }
        switch mode {
        case "run":
            guard positionals.count == 2 else {
                throw UsageError(message: positionals.count < 2 ? "run needs a FILE" : "run takes one FILE")
            }
            invocation.mode = .run(positionals[1])
        case "demo", "plugins", "help":
            guard positionals.count == 1 else { throw UsageError(message: "\(mode) takes no arguments") }
            invocation.mode = mode == "demo" ? .demo : mode == "plugins" ? .plugins : .help
        default:
            let hint = Suggestion.closest(to: mode, among: modes).map { " (did you mean \($0)?)" } ?? ""
            throw UsageError(message: "unknown mode \(mode)" + hint)
        }
        return invocation
    }

    /// Runs the program. - Returns: the exit status.
    public static func main(_ arguments: [String], output: ToolOutput = StandardStreams()) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try parse(arguments)
        } catch {
            return usageFailure(error.message, output: output)
        }
        switch invocation.mode {
        case .version:
            output.write("undo-host \(version) (plugin ABI \(UNDO_ABI_VERSION_MAJOR).\(UNDO_ABI_VERSION_MINOR))\n", error: false)
            return ExitStatus.success
        case .help:
            output.write(usage + "\n\n" + HostSession.commandReference + "\n", error: false)
            return ExitStatus.success
        default:
            break
        }

        let locale: UndoLocale
        switch loadLocale(invocation.locale) {
        case .success(let loaded): locale = loaded
        case .failure(let error): return usageFailure(error.message, output: output)
        }
        let host = HostSession.makeHost(locale: locale)
        if invocation.allowWritablePlugins { host.trustPolicy.allowWritable = true }
        if let failure = loadPlugins(invocation.pluginPaths, into: host, output: output) {
            return usageFailure(failure, output: output)
        }
        let session = HostSession(host: host)
        let style: TextStyle = isatty(STDOUT_FILENO) == 1 && getenv("NO_COLOR") == nil ? .terminal : .plain
        let presenter = OutcomePresenter(output: output, json: invocation.json, style: style)

        switch invocation.mode {
        case .plugins:
            presenter.present(session.run(.plugins), at: .prompt)
            return ExitStatus.success
        case .demo:
            let status = ScriptRunner(session: session, presenter: presenter, echo: true).run(named: "demo", text: DemoScript.text)
            if status == ExitStatus.success && !invocation.json {
                presenter.note("\nThat was the demo. Try your own session: undo-host (help lists the commands).")
            }
            return status
        case .run(let file):
            let runner = ScriptRunner(session: session, presenter: presenter)
            if file == "-" { return runner.run(named: "<stdin>") { Swift.readLine(strippingNewline: true) } }
            switch FileSystem.readText(file) {
            case .success(let text): return runner.run(named: file, text: text)
            case .failure(let error): return usageFailure("cannot read \(file): \(error.reason)", output: output)
            }
        default:
            if RawTerminal.isInteractive {
                return InteractiveSession(session: session, presenter: presenter).run()
            }
            return ScriptRunner(session: session, presenter: presenter).run(named: "<stdin>") { Swift.readLine(strippingNewline: true) }
        }
    }

    private static func usageFailure(_ message: String, output: ToolOutput) -> Int32 {
        output.write("undo-host: \(message)\nRun undo-host --help for the usage.\n", error: true)
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
    /// - Returns: a usage error when a path given does not exist.
    private static func loadPlugins(_ paths: [String], into host: PluginHost, output: ToolOutput) -> String? {
        var failures: [PluginLoadError] = []
        if paths.isEmpty {
            failures = host.loadBundledPlugins().failures
        } else {
            for given in paths {
                // Named on the command line, so taken from the current folder on purpose.
                let path = PluginHost.absolutePath(fromCurrentDirectory: given)
                var isFolder = false
                guard FileSystem.exists(path, isFolder: &isFolder) else {
                    return "--plugins \(given): no such file or folder"
                }
                if isFolder {
                    failures += host.load(folder: path).failures
                } else {
                    do throws(PluginLoadError) { try host.load(file: path) } catch { failures.append(error) }
                }
            }
        }
        for failure in failures {
            output.write("undo-host: warning: cannot load \(failure.path): \(failure.explanation)\n"
                         + "  hint: \(HostSession.hint(for: failure)); the other plugins are loaded\n", error: true)
        }
        return nil
    }
}
