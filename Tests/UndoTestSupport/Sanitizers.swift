#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which sanitizer the tests run under (scripts/sanitizers.sh), found by its runtime's entry.
public enum Sanitizers {
    public static let isAddressSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
    public static let isThreadSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

    /// The time a test may take before `undo-host check` reports it hung, for a run a test
    /// expects to pass: under a sanitizer every call is several times slower, and a check test
    /// that takes 5 s in a debug build (the text editor's merge/insert, which reads the whole
    /// document after each step) took over 30 s under AddressSanitizer on a loaded machine. A
    /// real hang is still reported, later.
    public static func checkTimeout(_ seconds: Int) -> Int {
        isAddressSanitized || isThreadSanitized ? seconds * 10 : seconds
    }

    /// A watchdog for an isolated plugin's calls that a test expects only hangs to reach: under
    /// ThreadSanitizer the runner starts and exits about ten times slower (its instrumented
    /// runtime), so a plain crash would otherwise be reported as a hang.
    public static func watchdog(_ milliseconds: Int) -> Int {
        isThreadSanitized ? milliseconds * 10 : milliseconds
    }
}
