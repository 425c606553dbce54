import UndoFuzzTargets

// The fuzz-journal executable. Built with -DUNDO_LIBFUZZER and -sanitize=fuzzer (scripts/fuzz.sh)
// it is a libFuzzer target; otherwise it replays saved inputs given on the command line. Not
// main.swift: a fuzzer build compiles executables as libraries, so libFuzzer's main is used.
#if UNDO_LIBFUZZER
@c(LLVMFuzzerTestOneInput)
public func fuzzJournalOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.journal.runOrTrap(data, size)
}
#else
@main
enum FuzzJournalReplay {
    static func main() { FuzzTarget.journal.replayCommandLine() }
}
#endif
