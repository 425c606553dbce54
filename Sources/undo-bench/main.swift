import Glibc

// undo-bench: UndoHost on the workloads of the undo/redo performance anchors
// (the reference benchmarks, docs/performance.md), printing the anchors' line format so run_all.sh can compare
// UndoCore, the plugin path, Qt's QUndoStack and the plain-C limit side by side.
//
//   undo-bench WORKLOAD [N]            N defaults to 1000000
//   undo-bench scaling [MAX_EXPONENT] [REPS]
//                                      pushundoredo at 10^4 ... 10^MAX_EXPONENT (default 7) steps,
//                                      then the host paths of HostScaling
//   undo-bench floors [REPS]           first touch of fresh memory, a libffi call vs a direct one
//   undo-bench journal [N]             journaled changes per second, normal and full, beside memory;
//                                      then reopening, checkpointing and reopening from the checkpoint
//   undo-bench text [N]                a generated editing trace of the automerge-paper shape (N edits,
//                                      default 259,778) through the text editor plugin

let usage = """
    usage: undo-bench pushundoredo|typing|macro|labels [N]
           undo-bench plugin-pushundoredo|plugin-typing|plugin-macro|plugin-labels [N]
           undo-bench pushundoredo-doc|plugin-pushundoredo-doc [N]
           undo-bench plugin-isolated-pushundoredo|plugin-isolated-typing [N]
           undo-bench branching|branching1 [N]
           undo-bench codable-journal [N]
           undo-bench scaling [MAX_EXPONENT] [REPS]
           undo-bench floors [REPS]
           undo-bench journal [N]
           undo-bench text [N]
    """

func fail(_ message: String, status: Int32 = 2) -> Never {
    var line = message + "\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(status)
}

/// Reads argument `index` as a non-negative integer up to `limit`, or `fallback` when absent.
func integerArgument(_ index: Int, default fallback: Int, limit: Int) -> Int {
    guard CommandLine.arguments.count > index else { return fallback }
    let text = CommandLine.arguments[index]
    guard let value = Int(text), value >= 0, value <= limit else { fail("bad number: \(text)") }
    return value
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail(usage) }
let workload = arguments[1]

do {
    if workload == "scaling" {
        let maxExponent = integerArgument(2, default: 7, limit: 8)
        let repetitions = max(1, integerArgument(3, default: 3, limit: 100))
        exit(try Scaling.run(maxExponent: maxExponent, repetitions: repetitions) ? 0 : 1)
    }
    if workload == "floors" {
        exit(Floors.run(repetitions: max(1, integerArgument(2, default: 5, limit: 100))) ? 0 : 1)
    }
    if workload == "journal" {
        exit(try JournalWorkloads.run(integerArgument(2, default: 100_000, limit: 10_000_000)) ? 0 : 1)
    }
    let n = integerArgument(2, default: 1_000_000, limit: 2_000_000_000)
    let argumentsGiven = arguments.count > 2
    let result: BenchResult
    switch workload {
    case "pushundoredo": result = try CoreWorkloads.pushUndoRedo(n)
    case "typing": result = try CoreWorkloads.typing(n)
    case "macro": result = try CoreWorkloads.macro(n)
    case "labels": result = try CoreWorkloads.labels(n)
    case "plugin-pushundoredo": result = try PluginWorkloads.pushUndoRedo(n)
    case "plugin-typing": result = try PluginWorkloads.typing(n)
    case "plugin-macro": result = try PluginWorkloads.macro(n)
    case "plugin-labels": result = try PluginWorkloads.labels(n)
    case "pushundoredo-doc": result = try CoreWorkloads.pushUndoRedoInDocument(n)
    case "plugin-pushundoredo-doc": result = try PluginWorkloads.pushUndoRedo(n, in: CoreWorkloads.documentContext)
    case "plugin-isolated-pushundoredo": result = try PluginWorkloads.pushUndoRedo(n, isolated: true)
    case "plugin-isolated-typing": result = try PluginWorkloads.typing(n, isolated: true)
    case "branching": result = try TreeWorkloads.branching(n, depth: 4)
    case "branching1": result = try TreeWorkloads.branching(n, depth: 1)
    case "codable-journal": result = try CodableJournalWorkloads.run(n)
    case "text": result = try TextWorkloads.run(argumentsGiven ? n : TextWorkloads.paperEdits)
    default: fail("unknown workload: \(workload)\n\(usage)")
    }
    print(result.line)
    exit(result.ok ? 0 : 1)
} catch {
    fail("\(workload): \(error)", status: 1)
}
