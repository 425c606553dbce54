import UndoPluginHost

/// `undo-host check`: runs the tests on plugin files, each test in a child process (the same
/// program with `check --child`) unless ``Options/inProcess`` is set.
public struct PluginChecker {
    public struct Options: Sendable {
        public var paths: [String] = []
        public var inProcess = false
        /// Only tests whose name contains this.
        public var filter: String?
        /// Only the test of exactly this name.
        public var only: String?
        public var seed: UInt64 = 0
        public var steps = 200
        public var timeout: Double = 30
        public var allowWritable = false
        /// Load the plugins isolated (``PluginIsolation``): a call that crashes or hangs fails
        /// with `UNDO_ECRASHED`, and the test reports the action and arguments of that call.
        public var isolation: PluginIsolation?
        public init() {}
    }

    public var options: Options

    public init(options: Options) { self.options = options }

    /// What was checked in one plugin file.
    public struct PluginReport: Sendable {
        /// The path as given.
        public var path: String
        /// "org.undohost.canvas 1.0.0", when it could be loaded.
        public var plugin: String?
        public var results: [CheckResult]
    }

    private func setup(_ path: String) -> CheckSetup {
        CheckSetup(path: PluginHost.absolutePath(fromCurrentDirectory: path), allowWritable: options.allowWritable,
                   isolation: options.isolation, seed: options.seed, steps: options.steps)
    }

    /// The tests for one plugin, loaded in this process.
    func tests(_ path: String) -> Result<(plugin: String, tests: [CheckTest]), CheckFailure> {
        do {
            let plugin = try setup(path).load()
            return .success(("\(plugin.info.id) \(plugin.info.version)", CheckTest.tests(for: plugin.info)))
        } catch {
            return .failure(error)
        }
    }

    private func selected(_ names: [String]) -> [String] {
        names.filter { name in
            (options.only.map { $0 == name } ?? true) && (options.filter.map { name.contains($0) } ?? true)
        }
    }

    /// The test names of each plugin (`--list`): plugin line, then one test per line.
    public func list() -> [PluginReport] {
        options.paths.map { path in
            switch listing(path) {
            case .success(let (plugin, names)):
                return PluginReport(path: path, plugin: plugin,
                                    results: selected(names).map { CheckResult(test: $0, status: .skipped) })
            case .failure(let result):
                return PluginReport(path: path, plugin: nil, results: [result])
            }
        }
    }

    /// The summary of each test, for `--list`.
    public static let summaries: [(String, String)] = [
        CheckTest.descriptor, CheckTest.describe, CheckTest.roundTrip("ID"), CheckTest.merge("ID"),
        CheckTest.badArguments, CheckTest.manyDocuments, CheckTest.saveLoad, CheckTest.describeRange, CheckTest.loadUnload,
        CheckTest.threads,
    ].map { ($0.name, $0.summary) }

    /// Runs the selected tests of every plugin.
    public func run() -> [PluginReport] {
        options.paths.map { path in
            switch listing(path) {
            case .failure(let result):
                return PluginReport(path: path, plugin: nil, results: [result])
            case .success(let (plugin, names)):
                guard !selected(names).isEmpty else {
                    return PluginReport(path: path, plugin: plugin, results: [CheckResult(
                        test: "selection", status: .failed,
                        messages: ["no test matches " + (options.only.map { "--only \($0)" } ?? "--filter \(options.filter ?? "")")
                                   + "; the tests are: " + names.joined(separator: ", ")])])
                }
                let results = selected(names).map { name in
                    options.inProcess ? runInProcess(name, path) : runInChild(name, path)
                }
                return PluginReport(path: path, plugin: plugin, results: results)
            }
        }
    }

    /// The plugin and its test names, from a child process unless in-process: loading runs the
    /// plugin's init, which may crash.
    private func listing(_ path: String) -> Result<(String, [String]), CheckResult> {
        if options.inProcess {
            switch tests(path) {
            case .success(let (plugin, tests)): return .success((plugin, tests.map(\.name)))
            case .failure(let failure): return .failure(CheckResult(test: "load", status: .failed, messages: [failure.message]))
            }
        }
        switch child(["--child-list"], path) {
        case .failure(let result):
            return .failure(CheckResult(test: "load", status: .failed, messages: result.messages))
        case .success(let lines):
            guard let first = lines.first, first.hasPrefix("plugin\t") else {
                return .failure(CheckResult(test: "load", status: .failed,
                                            messages: ChildProtocol.results(lines).first?.messages ?? ["the child gave no test list"]))
            }
            return .success((String(first.dropFirst(7)), lines.dropFirst().filter { $0.hasPrefix("test\t") }.map { String($0.dropFirst(5)) }))
        }
    }

    /// Runs test `name` in this process (`--in-process`, and the child's side).
    public func runInProcess(_ name: String, _ path: String) -> CheckResult {
        switch tests(path) {
        case .failure(let failure):
            return CheckResult(test: name, status: .failed, messages: [failure.message])
        case .success(let (_, tests)):
            guard let test = tests.first(where: { $0.name == name }) else {
                return CheckResult(test: name, status: .failed, messages: ["no test \(name) for this plugin"])
            }
            return test.result(setup(path))
        }
    }

    private func runInChild(_ name: String, _ path: String) -> CheckResult {
        switch child(["--child", "--only", name], path) {
        case .failure(let result):
            return CheckResult(test: name, status: .failed, messages: result.messages)
        case .success(let lines):
            return ChildProtocol.results(lines).first
                ?? CheckResult(test: name, status: .failed, messages: ["the child process gave no result"])
        }
    }

    /// Runs `undo-host check ARGUMENTS… PATH` and returns its output lines, or a failed result
    /// saying how it ended (a signal, the timeout, a status other than 0 or 1).
    private func child(_ arguments: [String], _ path: String) -> Result<[String], CheckResult> {
        guard let executable = ChildProcess.currentExecutable else {
            return .failure(CheckResult(test: "", status: .failed, messages: ["cannot find this program's file to run tests in child processes; use --in-process"]))
        }
        var all = ["check"] + arguments + ["--seed", String(options.seed), "--steps", String(options.steps)]
        if options.allowWritable { all.append("--allow-writable-plugins") }
        if let isolation = options.isolation {
            all += ["--isolate", "--plugin-watchdog", String(isolation.watchdogMilliseconds)]
        }
        all += ["--", path]
        switch ChildProcess.run(executable, all, timeout: options.timeout) {
        case .failure(let error):
            return .failure(CheckResult(test: "", status: .failed, messages: ["cannot start a child process: \(error)"]))
        case .success(let process):
            let lines = process.standardOutput.split(separator: "\n").map(String.init)
            let stderrTail = process.standardError.split(separator: "\n").suffix(5).map { "  stderr: " + $0 }
            switch process.end {
            case .exited(0), .exited(1):
                return .success(lines)
            case .exited(let status):
                return .failure(CheckResult(test: "", status: .failed,
                                            messages: [(["the child process exited with status \(status)"] + stderrTail).joined(separator: "\n")]))
            case .signaled(let signal):
                return .failure(CheckResult(test: "", status: .failed,
                                            messages: [(["crashed: the plugin killed the test's process with \(ChildProcess.describe(signal: signal))"] + stderrTail).joined(separator: "\n")]))
            case .timedOut(let seconds):
                return .failure(CheckResult(test: "", status: .failed,
                                            messages: ["hung: the test did not finish in \(Self.seconds(seconds)) and was killed (--timeout to allow longer)"]))
            }
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// What a child process prints: `plugin\tID VERSION` and `test\tNAME` lines for a listing;
/// `result\tNAME\tSTATUS`, then `message\tTEXT`, `note\tTEXT` and `warning\tTEXT` lines for a test (newlines
/// and backslashes escaped).
public enum ChildProtocol {
    public static func listing(plugin: String, tests: [String]) -> String {
        (["plugin\t" + plugin] + tests.map { "test\t" + $0 }).map { $0 + "\n" }.joined()
    }

    public static func lines(_ result: CheckResult) -> String {
        var lines = ["result\t\(result.test)\t\(result.status.rawValue)"]
        lines += result.messages.map { "message\t" + escaped($0) }
        lines += result.notes.map { "note\t" + escaped($0) }
        lines += result.warnings.map { "warning\t" + escaped($0) }
        return lines.map { $0 + "\n" }.joined()
    }

    static func results(_ lines: [String]) -> [CheckResult] {
        var results: [CheckResult] = []
        for line in lines {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "result" where fields.count == 3:
                results.append(CheckResult(test: fields[1], status: CheckResult.Status(rawValue: fields[2]) ?? .failed))
            case "message" where fields.count >= 2 && !results.isEmpty:
                results[results.count - 1].messages.append(unescaped(fields.dropFirst().joined(separator: "\t")))
            case "note" where fields.count >= 2 && !results.isEmpty:
                results[results.count - 1].notes.append(unescaped(fields.dropFirst().joined(separator: "\t")))
            case "warning" where fields.count >= 2 && !results.isEmpty:
                results[results.count - 1].warnings.append(unescaped(fields.dropFirst().joined(separator: "\t")))
            default: continue
            }
        }
        return results
    }

    static func escaped(_ text: String) -> String {
        text.replacingAll("\\", with: "\\\\").replacingAll("\n", with: "\\n")
    }

    static func unescaped(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
