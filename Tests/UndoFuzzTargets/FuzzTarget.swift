#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The fuzz targets. Each is a function of arbitrary bytes that must neither crash nor break an
/// invariant, whatever the bytes. The executables `fuzz-<name>` run one under libFuzzer (built
/// with `-D UNDO_LIBFUZZER`) or replay saved inputs, and the regression tests replay the inputs
/// under Tests/FuzzRegressions/<name>/ through the same function.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `ActionArguments.parse` / `check` / `format` against assorted signatures.
    case arguments
    /// `UndoTitleFormatter` names and titles, `UndoLocale(parsing:)`, title case.
    case titles
    /// A random sequence of C API calls (`undo_history_*`) including stale handles.
    case cAPI = "c-api"
    /// A small journal file built from fuzzed rows (changes, a checkpoint), opened by a host
    /// with the bundled plugins: refused, or a consistent history.
    case journal

    /// Runs the target on one input.
    public func run(_ data: UnsafeRawBufferPointer) throws(FuzzInvariantViolation) {
        switch self {
        case .arguments: try ArgumentsFuzzing.run(data)
        case .titles: try TitlesFuzzing.run(data)
        case .cAPI: try CAPIFuzzing.run(data)
        case .journal: try JournalFuzzing.run(data)
        }
    }

    /// Runs the target on one input and traps on a violated invariant, so that libFuzzer saves
    /// the input. The return value is what `LLVMFuzzerTestOneInput` returns.
    public func runOrTrap(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        do {
            try run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
        } catch {
            fatalError("fuzz-\(rawValue): \(error)")
        }
        return 0
    }

    /// Without libFuzzer: runs the target on every file named in the arguments (folders: every
    /// file inside), reports failures, and exits 1 if there was one.
    public func replayCommandLine() -> Never {
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty || paths.contains(where: { $0 == "-h" || $0 == "--help" }) {
            print("""
                usage: fuzz-\(rawValue) FILE|FOLDER...
                Replays saved inputs through the \(rawValue) fuzz target (this build has no libFuzzer;
                scripts/fuzz.sh builds the fuzzing one).
                """)
            exit(paths.isEmpty ? 2 : 0)
        }
        var failures = 0
        var replayed = 0
        for path in paths {
            for file in FuzzFiles.inputs(at: path) {
                replayed += 1
                do throws(FuzzInvariantViolation) {
                    try FuzzFiles.withContents(of: file) { data throws(FuzzInvariantViolation) in try run(data) }
                } catch {
                    failures += 1
                    print("FAIL \(file): \(error)")
                }
            }
        }
        print("fuzz-\(rawValue): replayed \(replayed) input\(replayed == 1 ? "" : "s"), \(failures) failed")
        exit(failures == 0 && replayed > 0 ? 0 : 1)
    }
}
