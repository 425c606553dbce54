#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which sanitizer the tests run under (scripts/sanitizers.sh), found by its runtime's entry.
public enum Sanitizers {
    public static let isAddressSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
    public static let isThreadSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

    /// A watchdog for an isolated plugin's calls that a test expects only hangs to reach: under
    /// ThreadSanitizer the runner starts and exits about ten times slower (its instrumented
    /// runtime), so a plain crash would otherwise be reported as a hang.
    public static func watchdog(_ milliseconds: Int) -> Int {
        isThreadSanitized ? milliseconds * 10 : milliseconds
    }
}
