import CUndoBenchSupport
import Glibc

/// What one workload run measured, printed as the anchors' one-line format
/// (the reference benchmarks' output line; docs/performance.md).
struct BenchResult {
    var workload: String
    var n: Int
    /// Operations in the timed part, by the workload's definition.
    var ops: Int
    var pushMs = 0.0
    var undoMs = 0.0
    var redoMs = 0.0
    var freeMs = 0.0
    /// The timed part; for most workloads push + undo + redo.
    var totalMs = 0.0
    var heapBytesPerN = 0.0
    var ok = false
    /// Extra `key=value` fields after `check=` (scaling rows, configuration notes).
    var extra: [(String, String)] = []
    /// The `impl=` field: `undohost`, or `undohost-libffi` for the plugin path with every call
    /// through `ffi_call` (so run_all.sh keeps the two apart).
    var impl = "undohost"

    init(workload: String, n: Int, ops: Int) {
        self.workload = workload
        self.n = n
        self.ops = ops
    }

    var nsPerOp: Double { ops > 0 ? totalMs * 1e6 / Double(ops) : 0 }

    /// The anchors' line, field for field, with `impl=undohost` (or ``impl``).
    var line: String {
        var fields = [
            "workload=\(workload)", "n=\(n)", "ops=\(ops)",
            "total_ms=\(fixed(totalMs, 3))", "ns_per_op=\(fixed(nsPerOp, 2))",
            "rss_kib=\(peakRSSKiB())", "heap_bytes_per_n=\(fixed(heapBytesPerN, 1))",
            "push_ms=\(fixed(pushMs, 3))", "undo_ms=\(fixed(undoMs, 3))",
            "redo_ms=\(fixed(redoMs, 3))", "free_ms=\(fixed(freeMs, 3))",
            "impl=\(impl)", "check=\(ok ? "ok" : "FAIL")",
        ]
        fields += extra.map { "\($0.0)=\($0.1)" }
        return fields.joined(separator: " ")
    }
}

/// A stopwatch on the monotonic clock (the anchors use CLOCK_MONOTONIC / steady_clock too).
struct Stopwatch {
    private var start = Stopwatch.nowNanoseconds()

    static func nowNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Milliseconds since the start or the last lap, and starts the next lap.
    mutating func lap() -> Double {
        let now = Stopwatch.nowNanoseconds()
        defer { start = now }
        return Double(now &- start) / 1e6
    }
}

/// Bytes malloc has handed out (arena chunks + mmapped chunks, with malloc's own per-chunk
/// overhead), measured exactly as the anchors do.
func heapInUse() -> Int {
    Int(undo_bench_heap_in_use())
}

/// Peak resident set size of this process, KiB.
func peakRSSKiB() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss
}

/// `value` with `decimals` digits after the point, like printf's `%.Nf` (no Foundation needed).
func fixed(_ value: Double, _ decimals: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let length = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.\(decimals)f", $0) }
    return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Σ (i % modulus + 1) for i in 0..<n: the counter's value after the add-k workloads.
func expectedSum(_ n: Int, modulus: Int) -> Int64 {
    let full = Int64(n / modulus), rest = Int64(n % modulus), m = Int64(modulus)
    return full * (m * (m + 1) / 2) + rest * (rest + 1) / 2
}
