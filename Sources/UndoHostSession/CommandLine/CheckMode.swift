import ArgumentParser
import UndoPluginCheck
import UndoPluginHost

/// `check PLUGIN...`: the plugin validator (docs/validating-a-plugin.md).
struct CheckMode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Test plugin files: descriptor, round trips, merges, failing calls, documents, reloading.",
        discussion: """
            Each test runs in a child process, so a plugin that crashes or hangs is reported. \
            Random choices come from the seed: the same seed, the same arguments and steps. \
            Style notes (a lower-case action name) are warnings: shown, not failing. \
            Exit status: 0 every test passed (or was skipped), 1 a test failed or did not run \
            (an action that never succeeded), 2 usage error.

            Two options of undo-host apply too, before or after check: --json prints the report \
            as one JSON object; --allow-writable-plugins checks a plugin file that group or \
            others may change.
            """)

    @ParentCommand var options: UndoHostCommand

    @Argument(help: ArgumentHelp("The plugin files (.so).", valueName: "PLUGIN"))
    var plugins: [String] = []

    @Flag(help: "List the tests each plugin gets, without running them.")
    var list = false

    @Option(help: ArgumentHelp("Only the tests whose name contains TEXT.", valueName: "TEXT"))
    var filter: String?

    @Option(help: ArgumentHelp("Only the test named NAME (round-trip/move).", valueName: "NAME"))
    var only: String?

    @Flag(help: "Show only the failed tests.")
    var onlyFailed = false

    @Flag(help: "Run the tests in this process (for a debugger); a crash or hang then stops check.")
    var inProcess = false

    @Option(help: ArgumentHelp("The seed of every random choice (default: a new one, printed).", valueName: "N"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Steps in each random walk.", valueName: "N"))
    var steps = 200

    @Option(help: ArgumentHelp("Seconds a test may take before it counts as hung.", valueName: "SECONDS"))
    var timeout = 30.0

    /// The child's side: run one test in this process and print its result for the parent.
    @Flag(help: .private) var child = false
    /// The child's side: load the plugin and print its tests.
    @Flag(help: .private) var childList = false

    func validate() throws {
        guard !plugins.isEmpty else { throw ValidationError("name at least one plugin file to check") }
        guard steps >= 1, steps <= 100_000 else { throw ValidationError("--steps must be 1 to 100000") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be more than 0 seconds, at most a day") }
        if child && only == nil { throw ValidationError("--child needs --only") }
    }

    /// Runs the mode. - Returns: the exit status.
    func execute(output: ToolOutput) -> Int32 {
        var checkOptions = PluginChecker.Options()
        checkOptions.paths = plugins
        checkOptions.inProcess = inProcess || child || childList
        checkOptions.filter = filter
        checkOptions.only = only
        var generator = SystemRandomNumberGenerator()
        checkOptions.seed = seed ?? UInt64.random(in: 1...999_999, using: &generator)
        checkOptions.steps = steps
        checkOptions.timeout = timeout
        checkOptions.allowWritable = options.allowWritablePlugins
        if options.isolate { checkOptions.isolation = PluginIsolation(watchdogMilliseconds: options.pluginWatchdog) }
        let checker = PluginChecker(options: checkOptions)

        if childList {
            for report in checker.list() {
                if let plugin = report.plugin {
                    output.write(ChildProtocol.listing(plugin: plugin, tests: report.results.map(\.test)), error: false)
                } else {
                    report.results.forEach { output.write(ChildProtocol.lines($0), error: false) }
                }
            }
            return UndoHostTool.ExitStatus.success
        }
        if child, let only {
            let result = checker.runInProcess(only, plugins[0])
            output.write(ChildProtocol.lines(result), error: false)
            return result.status == .failed || result.status == .notRun ? UndoHostTool.ExitStatus.scriptError : UndoHostTool.ExitStatus.success
        }
        if list {
            let reports = checker.list()
            for report in reports {
                output.write((report.plugin.map { "\($0) " } ?? "") + "(\(report.path))\n", error: false)
                for result in report.results {
                    output.write("  " + result.test + (result.messages.isEmpty ? "" : ": " + result.messages.joined(separator: "; ")) + "\n", error: false)
                }
            }
            return reports.contains { $0.plugin == nil } ? UndoHostTool.ExitStatus.scriptError : UndoHostTool.ExitStatus.success
        }
        let report = CheckReport(plugins: checker.run(), seed: checkOptions.seed, onlyFailed: onlyFailed)
        output.write(options.json ? report.json : report.text, error: false)
        return report.failedCount + report.notRunCount > 0 ? UndoHostTool.ExitStatus.scriptError : UndoHostTool.ExitStatus.success
    }
}
