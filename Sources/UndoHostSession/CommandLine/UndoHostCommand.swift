import ArgumentParser
import UndoPluginABI
import UndoPluginHost

/// undo-host's own command line, read by swift-argument-parser: the options, and the modes as
/// subcommands (`run`, `demo`, `plugins`; `help` is the parser's own). No mode is an
/// interactive session (or commands from standard input). The session's command language is
/// read by ``SessionCommand``, not here.
struct UndoHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo-host",
        abstract: "One undo history for every plugin: an interactive session, scripts, a demo.",
        // Written out so that it fits 80 columns and shows the mode as optional.
        usage: """
            undo-host [--plugins PATH]... [--allow-writable-plugins] [--json]
            [--locale en|ko|FILE] [--keep-going] [--yes]
            [--isolate] [--plugin-watchdog MS]
            [--journal FILE [--durability full|normal] [--checkpoint-every N]]
            [run FILE | demo | plugins | check PLUGIN... | new-plugin NAME |
             journal FILE | help]
            """,
        discussion: """
            With no mode, undo-host is an interactive session when standard input and output are \
            a terminal; otherwise it reads commands from standard input like a script. The session \
            commands are listed after the options.

            Exit status: 0 success, 1 script error, 2 usage error.
            """,
        version: "undo-host \(UndoHostTool.version) (plugin ABI \(UNDO_ABI_VERSION_MAJOR).\(UNDO_ABI_VERSION_MINOR))",
        subcommands: [RunMode.self, DemoMode.self, PluginsMode.self, CheckMode.self, NewPluginMode.self, JournalMode.self])

    @Option(name: .customLong("plugins"),
            help: ArgumentHelp("Load the plugin PATH, or every plugin in the folder PATH (repeatable).",
                               discussion: """
                                   Default: the bundled plugins next to the program, or the folders in \
                                   $UNDOHOST_PLUGIN_PATH (absolute, separated by ':'). A relative PATH is \
                                   taken from the current folder.
                                   """,
                               valueName: "PATH"))
    var pluginPaths: [String] = []

    @Flag(help: ArgumentHelp("Also load plugin files or folders that group or others may change.",
                             discussion: "Refused by default: anyone who can change them runs code here."))
    var allowWritablePlugins = false

    @Flag(help: ArgumentHelp("Run each plugin in a process of its own.",
                             discussion: "A crash or a hang in a plugin then fails only that call; the plugin is started again with its documents."))
    var isolate = false

    @Option(help: ArgumentHelp("How long an isolated plugin's call may take, in milliseconds.", valueName: "MS"))
    var pluginWatchdog = PluginIsolation.defaultWatchdogMilliseconds

    @Flag(help: "Print one JSON object per command, one per line.")
    var json = false

    @Option(help: ArgumentHelp("English (en, the default), Korean (ko), or a locale file.", valueName: "en|ko|FILE"))
    var locale = "en"

    @Flag(help: ArgumentHelp("Scripts and piped input: report an error and go on with the next line.",
                             discussion: "The exit status is still 1 when any line failed."))
    var keepGoing = false

    @Flag(name: [.customShort("y"), .long],
          help: "Never ask before throwing work away (unload, close, quit with unsaved documents).")
    var yes = false

    @Option(help: ArgumentHelp("Keep every change in the SQLite journal FILE; an existing one is restored first.",
                               discussion: "Restoring replays its changes with the same plugins; a change is written before it is acknowledged.",
                               valueName: "FILE"))
    var journal: String?

    @Option(help: ArgumentHelp("With --journal: full syncs each change to disk, normal syncs only now and then (a crash loses at most 100 ms).",
                               discussion: "Default: full. Refused without --journal.",
                               valueName: "full|normal"))
    var durability: String?

    // Unconditional, so that -1 is read as its value (and refused by name) rather than as an option.
    @Option(parsing: .unconditional,
            help: ArgumentHelp("With --journal: a checkpoint once N changes (and as many as its steps) have come, so the journal stays short (0: never).",
                               discussion: "A checkpoint holds the history and the documents as bytes; reopening replays only the changes after it. Default: \(HostSession.defaultCheckpointInterval). Refused without --journal.",
                               valueName: "N"))
    var checkpointEvery: String?
}

/// `run FILE`: the commands in FILE.
struct RunMode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the commands in FILE (- for standard input); stop at the first error unless --keep-going.")

    @ParentCommand var options: UndoHostCommand

    @Argument(help: ArgumentHelp("The script.", valueName: "FILE"))
    var file: String
}

/// `demo`: a short session with the bundled plugins.
struct DemoMode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Play a short session with the bundled plugins.")

    @ParentCommand var options: UndoHostCommand
}

/// `plugins`: the plugins and their actions.
struct PluginsMode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins", abstract: "List the plugins and their actions.")

    @ParentCommand var options: UndoHostCommand
}
