/// The report of `undo-host check`, as text or JSON.
public struct CheckReport {
    public var plugins: [PluginChecker.PluginReport]
    public var seed: UInt64
    /// Only the failed tests are shown (the counts are of all).
    public var onlyFailed: Bool

    public init(plugins: [PluginChecker.PluginReport], seed: UInt64, onlyFailed: Bool) {
        self.plugins = plugins
        self.seed = seed
        self.onlyFailed = onlyFailed
    }

    var all: [CheckResult] { plugins.flatMap(\.results) }
    public var failedCount: Int { all.count { $0.status == .failed } }
    /// Tests whose subject never ran: not passes, so they fail the run as failures do.
    public var notRunCount: Int { all.count { $0.status == .notRun } }
    public var warningCount: Int { all.reduce(0) { $0 + $1.warnings.count } }

    private func shown(_ results: [CheckResult]) -> [CheckResult] {
        onlyFailed ? results.filter { $0.status == .failed || $0.status == .notRun } : results
    }

    /// One block per plugin, one line per test (with its messages and notes indented), and a
    /// summary line with the seed that reproduces the run.
    public var text: String {
        var lines: [String] = []
        for plugin in plugins {
            lines.append((plugin.plugin.map { "\($0) " } ?? "") + "(\(plugin.path))")
            for result in shown(plugin.results) {
                let label = switch result.status {
                case .passed: "pass"
                case .failed: "FAIL"
                case .skipped: "skip"
                case .notRun: "NOT RUN"
                }
                lines.append("  \(label)  \(result.test)")
                for message in result.messages {
                    lines += message.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }
                }
                for warning in result.warnings {
                    lines += ("warning: " + warning).split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }
                }
                for note in result.notes { lines.append("        note: " + note) }
            }
        }
        let results = all
        let passed = results.count { $0.status == .passed }
        let skipped = results.count { $0.status == .skipped }
        lines.append("\(results.count) tests: \(passed) passed, \(failedCount) failed, \(skipped) skipped"
                     + (notRunCount > 0 ? ", \(notRunCount) NOT RUN" : "")
                     + (warningCount > 0 ? ", \(warningCount) warning\(warningCount == 1 ? "" : "s")" : "") + " (seed \(seed))")
        if let failed = plugins.lazy.compactMap({ plugin in plugin.results.first { ($0.status == .failed || $0.status == .notRun) && $0.test != "load" && $0.test != "selection" }.map { (plugin.path, $0.test) } }).first {
            lines.append("Again, alone: undo-host check --seed \(seed) --in-process --only \(failed.1) \(failed.0)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One JSON object: {"seed", "passed", "failed", "skipped", "notRun", "warnings", "plugins":
    /// [{"path", "plugin", "tests": [{"name", "status", "messages", "notes", "warnings"}]}]};
    /// a status is "passed", "failed", "skipped" or "not-run".
    public var json: String {
        let results = all
        func string(_ text: String) -> String {
            var result = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                case "\n": result += "\\n"
                case "\t": result += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result + "\""
        }
        let pluginObjects = plugins.map { plugin in
            let tests = shown(plugin.results).map { result in
                "{\"name\":\(string(result.test)),\"status\":\(string(result.status.rawValue)),"
                    + "\"messages\":[\(result.messages.map(string).joined(separator: ","))],"
                    + "\"notes\":[\(result.notes.map(string).joined(separator: ","))],"
                    + "\"warnings\":[\(result.warnings.map(string).joined(separator: ","))]}"
            }
            return "{\"path\":\(string(plugin.path)),\"plugin\":\(plugin.plugin.map(string) ?? "null"),"
                + "\"tests\":[\(tests.joined(separator: ","))]}"
        }
        return "{\"seed\":\(seed),\"passed\":\(results.count { $0.status == .passed }),\"failed\":\(failedCount),"
            + "\"skipped\":\(results.count { $0.status == .skipped }),\"notRun\":\(notRunCount),\"warnings\":\(warningCount),\"plugins\":[\(pluginObjects.joined(separator: ","))]}\n"
    }
}
