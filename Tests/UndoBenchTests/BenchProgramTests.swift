import Foundation
import Testing
import UndoTestSupport

/// Runs the built `undo-bench` the way scripts/bench.sh does, at small sizes: every workload
/// must pass its own checks and print the anchors' line, field for field, so run_all.sh can
/// put it beside Qt's and plain C's. (Speed is not asserted here: that is the benchmark's job.)
@Suite struct BenchProgramTests {
    /// The anchors' fields, in their order (docs/performance.md).
    static let anchorFields = ["workload", "n", "ops", "total_ms", "ns_per_op", "rss_kib", "heap_bytes_per_n",
                               "push_ms", "undo_ms", "redo_ms", "free_ms", "impl", "check"]

    @Test(arguments: ["pushundoredo", "typing", "macro", "labels",
                      "plugin-pushundoredo", "plugin-typing", "plugin-macro", "plugin-labels",
                      "pushundoredo-doc", "plugin-pushundoredo-doc"])
    func aWorkloadPassesItsChecksAndPrintsTheAnchorsLine(_ workload: String) throws {
        let run = try BenchProcess.run([workload, "2000"])
        #expect(run.status == 0, "\(run.standardError)")
        let fields = try #require(run.lines.first.map(BenchProcess.fields))
        #expect(fields.map(\.key).prefix(Self.anchorFields.count).elementsEqual(Self.anchorFields))
        let values = Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(values["workload"] == workload)
        #expect(values["impl"] == "undohost")
        #expect(values["check"] == "ok")
        let n = try #require(values["n"].flatMap { Int($0) })
        let ops = try #require(values["ops"].flatMap { Int($0) })
        // The anchors' operation counts: 3N for the push/undo/redo workloads, N for labels.
        #expect(ops == (workload.hasSuffix("labels") ? n : 3 * n))
        #expect(n == 2000)
    }

    /// A step the history keeps has no heap block of its own: a plugin step (64 bytes) sits in a
    /// wide slot of 80 bytes, an UndoCore step in a slot of 40; their serials, costs and times
    /// share runs. Boxed, a plugin step cost 136 bytes. A group's member is held the same way
    /// in its group's block, each group of ten adding its own object, fields and block header:
    /// boxed, a plugin macro cost 156 bytes a member. mallinfo2 reads 0 under
    /// AddressSanitizer, whose allocator is not glibc's: the figures are checked where it reads.
    @Test(arguments: [("plugin-pushundoredo", 80.0, 96.0), ("pushundoredo", 40.0, 48.0),
                      ("plugin-macro", 80.0, 110.0), ("macro", 40.0, 64.0)])
    func aKeptStepHasNoHeapBlockOfItsOwn(_ workload: String, slot: Double, ceiling: Double) throws {
        let run = try BenchProcess.run([workload, "20000"])
        #expect(run.status == 0, "\(run.standardError)")
        let values = Dictionary(try #require(run.lines.first.map(BenchProcess.fields)).map { ($0.key, $0.value) },
                                uniquingKeysWith: { a, _ in a })
        let heapPerStep = try #require(values["heap_bytes_per_n"].flatMap(Double.init))
        guard heapPerStep > 0 else { return }
        #expect(heapPerStep >= slot && heapPerStep <= ceiling, "\(workload): \(heapPerStep) bytes a step")
    }

    /// The plugin path with every call through ffi_call, as scripts/bench.sh runs it beside the
    /// default route: its own impl= so run_all.sh keeps the rows apart, and the route named.
    @Test(arguments: ["plugin-pushundoredo", "plugin-typing"])
    func thePluginPathRunsThroughLibffiOnRequest(_ workload: String) throws {
        let run = try BenchProcess.run([workload, "2000"], environment: ["UNDOHOST_PLUGIN_CALLS": "libffi"])
        #expect(run.status == 0, "\(run.standardError)")
        let values = Dictionary(try #require(run.lines.first.map(BenchProcess.fields)).map { ($0.key, $0.value) },
                                uniquingKeysWith: { a, _ in a })
        #expect(values["impl"] == "undohost-libffi")
        #expect(values["calls"] == "libffi")
        #expect(values["check"] == "ok")
        let direct = try BenchProcess.run([workload, "2000"])
        #expect(direct.lines.first?.contains("calls=direct") == true)
    }

    /// The real-text row: a generated trace of the automerge-paper shape through the text
    /// editor plugin, checked against the text the trace leaves (after the edits, after undoing
    /// every step, after redoing them), with its per-edit, per-undo and memory figures.
    @Test func theRealTextRowReplaysItsTraceAndReportsItsFigures() throws {
        let run = try BenchProcess.run(["text", "3000"])
        #expect(run.status == 0, "\(run.standardError)")
        let fields = try #require(run.lines.first.map(BenchProcess.fields))
        #expect(fields.map(\.key).prefix(Self.anchorFields.count).elementsEqual(Self.anchorFields))
        let values = Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(values["workload"] == "text" && values["check"] == "ok" && values["n"] == "3000")
        let steps = try #require(values["steps"].flatMap { Int($0) })
        let chars = try #require(values["chars"].flatMap { Int($0) })
        // Typing runs coalesce: fewer steps than edits; about 70% of the edits insert.
        #expect(steps > 0 && steps < 3000)
        #expect(chars > 3000 / 4 && chars < 3000 / 2)
        #expect(values["ops"] == String(3000 + 2 * steps))
        for figure in ["ns_per_edit", "ns_per_undo", "ns_per_redo"] {
            #expect(values[figure].flatMap(Double.init).map { $0 > 0 } == true, "\(figure)")
        }
        // The heap is read with mallinfo2, which reads 0 under AddressSanitizer (its allocator
        // is not glibc's): the per-step figure is above 0 wherever the per-n one is.
        let heapPerStep = try #require(values["heap_bytes_per_step"].flatMap(Double.init))
        let heapPerN = try #require(values["heap_bytes_per_n"].flatMap(Double.init))
        #expect(heapPerStep >= 0 && (heapPerN <= 0 || heapPerStep > 0), "heap_bytes_per_step \(heapPerStep)")
    }

    @Test func theScalingRunChecksEveryRow() throws {
        let run = try BenchProcess.run(["scaling", "4", "1"])
        #expect(run.status == 0, "\(run.standardError)")
        let rows = run.lines.filter { $0.hasPrefix("workload=") }
        // unlimited, count-limit and memory-limit at 10^4 steps.
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { $0.contains("check=ok") })
    }

    @Test func theFloorsAreMeasuredAndChecked() throws {
        let run = try BenchProcess.run(["floors", "1"])
        #expect(run.status == 0, "\(run.standardError)")
        let floors = run.lines.map(BenchProcess.fields).map { Dictionary($0.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }) }
        #expect(floors.map { $0["floor"] } == ["first-touch", "call"])
        #expect(floors.allSatisfy { $0["check"] == "ok" })
        let perPage = try #require(floors.first?["ns_per_page"].flatMap { Double($0) })
        let direct = try #require(floors.last?["direct_ns_per_call"].flatMap { Double($0) })
        let ffi = try #require(floors.last?["ffi_ns_per_call"].flatMap { Double($0) })
        #expect(perPage > 0 && direct > 0 && ffi > 0)
    }

    @Test func theJournalIsMeasuredInEachModeAndReopened() throws {
        let run = try BenchProcess.run(["journal", "300"])
        #expect(run.status == 0, "\(run.standardError)")
        let rows = run.lines.map(BenchProcess.fields).map { Dictionary($0.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }) }
        #expect(rows.map { $0["mode"] } == ["memory", "normal", "checkpoint", "full"])
        #expect(rows.filter { $0["mode"] != "checkpoint" }.allSatisfy { ($0["changes_per_s"].flatMap { Int($0) } ?? 0) > 0 })
        #expect(rows[1]["restored"] == "300")
        // Checkpointed, it reopens with the 300 steps and no change to replay.
        #expect(rows[2]["steps"] == "300" && rows[2]["replayed"] == "0")
    }

    /// The history journal's workload: the journal written in both modes and reopened, the
    /// reopened total checked against the one written.
    @Test func theCodableJournalIsWrittenAndReopened() throws {
        let run = try BenchProcess.run(["codable-journal", "500"])
        #expect(run.status == 0, "\(run.standardError)")
        let values = Dictionary(try #require(run.lines.first.map(BenchProcess.fields)).map { ($0.key, $0.value) },
                                uniquingKeysWith: { a, _ in a })
        #expect(values["workload"] == "codable-journal")
        #expect(values["check"] == "ok")
        #expect(values["full_changes"] == "500")
        #expect(values["reopen_ms"].flatMap { Double($0) } != nil)
        #expect(values["normal_changes_per_s"].flatMap { Int($0) } != nil)
        #expect(values["full_changes_per_s"].flatMap { Int($0) } != nil)
    }

    @Test func anUnknownWorkloadIsNamedInTheError() throws {
        let run = try BenchProcess.run(["pushundo"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("unknown workload: pushundo"))
        #expect(run.standardOutput.isEmpty)
    }
}

/// The built `undo-bench`, found in the build products folder.
enum BenchProcess {
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var lines: [String] { standardOutput.split(separator: "\n").map(String.init) }
    }

    static func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Outcome {
        let binary = BuildProducts.url("undo-bench")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                     "undo-bench is not built next to the tests (\(binary.path)): run swift build first")
        let folder = try TemporaryFolder("undo-bench-test")
        defer { withExtendedLifetime(folder) {} }  // removed only once the output is read
        let outputFile = folder.url.appendingPathComponent("stdout"), errorFile = folder.url.appendingPathComponent("stderr")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["UNDOHOST_PLUGIN_PATH"] = nil  // the benchmark's plugin next to the program
        environment["UNDOHOST_PLUGIN_CALLS"] = nil  // the default route unless asked
        environment.merge(extra) { _, new in new }
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "undo-bench was killed by a signal")
        return Outcome(status: process.terminationStatus,
                       standardOutput: try String(contentsOf: outputFile, encoding: .utf8),
                       standardError: try String(contentsOf: errorFile, encoding: .utf8))
    }

    /// `key=value key=value ...` as pairs, in order.
    static func fields(_ line: String) -> [(key: String, value: String)] {
        line.split(separator: " ").map { field in
            let parts = field.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }
}
