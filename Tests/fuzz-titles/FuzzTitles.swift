import UndoFuzzTargets

// The fuzz-titles executable. Built with -DUNDO_LIBFUZZER and -sanitize=fuzzer (scripts/fuzz.sh)
// it is a libFuzzer target; otherwise it replays saved inputs given on the command line. Not
// main.swift: a fuzzer build compiles executables as libraries, so libFuzzer's main is used.
#if UNDO_LIBFUZZER
@c(LLVMFuzzerTestOneInput)
public func fuzzTitlesOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.titles.runOrTrap(data, size)
}
#else
@main
enum FuzzTitlesReplay {
    static func main() { FuzzTarget.titles.replayCommandLine() }
}
#endif
