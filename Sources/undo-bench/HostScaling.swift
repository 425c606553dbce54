import Glibc
import UndoCore
import UndoPluginHost

/// The host paths that were once quadratic, at the sizes that showed it (issue 20): undo all and
/// redo all of 10^5 plugin steps in one call, one step in each of 10^4 documents, and loading a
/// plugin that registers 10^4 action types (each named in Korean) then resolving every one by
/// id. Each through the PluginHost and the benchmark plugin, with its result checked.
enum HostScaling {
    struct Row {
        var workload: String
        var n: Int
        /// The phases' names and milliseconds.
        var phases: [(String, Double)]
    }

    /// undo all / redo all: `n` bench.add steps, then undo(count: n) and redo(count: n).
    static func undoAll(_ n: Int) throws -> Row {
        let host = try PluginWorkloads.makeHost()
        let add = try host.actionType("bench.add")
        var clock = Stopwatch()
        for _ in 0..<n { try host.perform(add, argument: .i64(1)) }
        let push = clock.lap()
        let undone = try host.undo(count: n)
        let undo = clock.lap()
        guard undone?.stepCount == n, try PluginWorkloads.counter(host) == 0 else { throw BenchError("undo all left the counter") }
        let redone = try host.redo(count: n)
        let redo = clock.lap()
        guard redone?.stepCount == n, try PluginWorkloads.counter(host) == Int64(n) else { throw BenchError("redo all lost steps") }
        return Row(workload: "undo all / redo all", n: n, phases: [("perform", push), ("undo all", undo), ("redo all", redo)])
    }

    /// `n` documents, one bench.add step each; each document's undo state read before and after
    /// its step (what a host shows when it switches to it), then each step undone in its document.
    static func documents(_ n: Int) throws -> Row {
        let host = try PluginWorkloads.makeHost()
        let add = try host.actionType("bench.add")
        var clock = Stopwatch()
        for index in 0..<n {
            let document = UndoContext("doc \(index)")
            let before = host.history.withStack { stack in
                stack.currentContext = document
                return stack.canUndo || stack.isDirty()
            }
            try host.perform(add, argument: .i64(1), in: document)
            let after = host.history.withStack { $0.canUndo && $0.isDirty() && !$0.undoMenuTitle.isEmpty }
            guard !before, after else { throw BenchError("document \(index): wrong undo state") }
        }
        let perform = clock.lap()
        for index in stride(from: n - 1, through: 0, by: -1) {
            host.history.withStack { $0.currentContext = UndoContext("doc \(index)") }
            guard try host.undo()?.stepCount == 1 else { throw BenchError("document \(index): nothing undone") }
        }
        let undo = clock.lap()
        guard try PluginWorkloads.counter(host) == 0 else { throw BenchError("documents: counter not back to 0") }
        return Row(workload: "documents, one step each", n: n, phases: [("perform", perform), ("undo each", undo)])
    }

    /// Loading the benchmark plugin with `extra` more action types (UNDO_BENCH_EXTRA_ACTIONS),
    /// then resolving each by its short id.
    static func actionTypes(extra: Int) throws -> Row {
        setenv("UNDO_BENCH_EXTRA_ACTIONS", "\(extra)", 1)
        defer { unsetenv("UNDO_BENCH_EXTRA_ACTIONS") }
        var clock = Stopwatch()
        let host = try PluginWorkloads.makeHost()
        let load = clock.lap()
        for index in 0..<extra {
            guard try host.actionType("bench.extra\(index)").localID == "extra\(index)" else { throw BenchError("extra\(index)") }
        }
        let resolve = clock.lap()
        let total = host.actionTypes.count
        guard total == extra + 5 else { throw BenchError("\(total) action types registered") }
        return Row(workload: "action types registered", n: total, phases: [("load", load), ("resolve each", resolve)])
    }

    /// Runs each `repetitions` times (the median by total time kept) and prints a Markdown table.
    static func run(repetitions: Int) throws {
        let workloads: [() throws -> Row] = [{ try undoAll(100_000) }, { try documents(10_000) }, { try actionTypes(extra: 9_995) }]
        print()
        print("| host path | n | phase | ms | ns per item |")
        print("| --- | ---: | --- | ---: | ---: |")
        for workload in workloads {
            var rows: [Row] = []
            for _ in 0..<repetitions { rows.append(try workload()) }
            let row = rows.sorted { $0.phases.map(\.1).reduce(0, +) < $1.phases.map(\.1).reduce(0, +) }[rows.count / 2]
            for (phase, ms) in row.phases {
                print("| \(row.workload) | \(row.n) | \(phase) | \(fixed(ms, 1)) | \(fixed(ms * 1e6 / Double(row.n), 0)) |")
            }
        }
    }
}
