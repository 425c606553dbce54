/// The scaling run: pushundoredo at 10^4 ... 10^7 steps, unlimited and with each kind of limit,
/// to show that the cost of a step does not grow with the history; then the host paths of
/// HostScaling (undo all of 10^5 plugin steps, 10^4 documents, 10^4 action types).
///
/// With a limit, the history keeps a tenth of the steps: once full, every push also trims the
/// oldest step, so the push phase measures the trimming path at every size.
enum Scaling {
    enum Mode: String, CaseIterable {
        case unlimited = "unlimited"
        case countLimit = "count-limit"
        case memoryLimit = "memory-limit"

        /// The history's limits for `n` steps.
        func limits(_ n: Int) -> (count: Int?, memory: Int?) {
            switch self {
            case .unlimited: (nil, nil)
            case .countLimit: (max(1, n / 10), nil)
            // The memory limit counts the commands' own cost (16 bytes for *add k*).
            case .memoryLimit: (nil, max(1, n / 10) * MemoryLayout<AddCommand>.size)
            }
        }
    }

    /// Runs every size and mode `repetitions` times (median kept), prints each run's line and
    /// then a Markdown table.
    static func run(maxExponent: Int, repetitions: Int) throws -> Bool {
        var rows: [(mode: String, result: BenchResult)] = []
        var allOK = true
        for mode in Mode.allCases {
            var exponent = 4
            while exponent <= maxExponent {
                let n = power(10, exponent)
                let (countLimit, memoryLimit) = mode.limits(n)
                var runs: [BenchResult] = []
                for _ in 0..<repetitions {
                    var result = try CoreWorkloads.pushUndoRedo(n, countLimit: countLimit, memoryLimit: memoryLimit)
                    result.workload = "scaling-\(mode.rawValue)"
                    result.extra = [("kept", "\(countLimit ?? memoryLimit.map { $0 / MemoryLayout<AddCommand>.size } ?? n)")]
                    print(result.line)
                    allOK = allOK && result.ok
                    runs.append(result)
                }
                rows.append((mode.rawValue, runs.sorted { $0.nsPerOp < $1.nsPerOp }[runs.count / 2]))
                exponent += 1
            }
        }
        print()
        print("| mode | steps pushed | steps kept | ns/op | push ns/step | undo ns/step | redo ns/step | heap B/kept step |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for (mode, r) in rows {
            let kept = (r.ops - r.n) / 2
            print("| \(mode) | \(r.n) | \(kept) | \(fixed(r.nsPerOp, 2)) | \(fixed(r.pushMs * 1e6 / Double(r.n), 2))"
                  + " | \(fixed(r.undoMs * 1e6 / Double(kept), 2)) | \(fixed(r.redoMs * 1e6 / Double(kept), 2))"
                  + " | \(fixed(r.heapBytesPerN * Double(r.n) / Double(kept), 1)) |")
        }
        try HostScaling.run(repetitions: repetitions)
        return allOK
    }

    private static func power(_ base: Int, _ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { product, _ in product * base }
    }
}
