import CUndoBenchSupport
import Glibc

/// `undo-bench floors`: the two costs below every workload's figure that no undo framework
/// can remove, measured on this machine (README "Performance", "Where the time goes"):
///
/// - the first write to a page of freshly allocated memory (the kernel maps it: a page fault),
///   which a push phase pays for every byte of heap it grows by;
/// - one call of a plugin-shaped C function through `ffi_call` against the same call made
///   directly, which the plugin path pays for every perform, undo and redo.
///
/// Each is the median of `repetitions` runs.
enum Floors {
    static func run(repetitions: Int) -> Bool {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bytes = 256 << 20
        let fresh = median(repetitions) { undo_bench_first_touch_ns_per_page(bytes, page, 0) }
        let touched = median(repetitions) { undo_bench_first_touch_ns_per_page(bytes, page, 1) }
        let faultOK = fresh > 0 && touched >= 0
        print("floor=first-touch bytes=\(bytes) page=\(page) ns_per_page=\(fixed(fresh, 1))"
            + " ns_per_page_touched_before=\(fixed(touched, 1)) ns_per_byte=\(fixed(fresh / Double(page), 3))"
            + " check=\(faultOK ? "ok" : "FAIL")")

        let calls = 10_000_000
        let expected = (0..<7).reduce(0) { $0 + Int64($1 + 1) } * Int64(calls / 7)
            + (0..<(calls % 7)).reduce(0) { $0 + Int64($1 + 1) }
        var callsOK = true
        func time(_ throughFFI: Int32) -> Double {
            median(repetitions) {
                var sum: Int64 = 0
                let ns = undo_bench_call_ns(calls, throughFFI, &sum)
                if ns < 0 || sum != expected { callsOK = false }
                return ns
            }
        }
        let direct = time(0)
        let ffi = time(1)
        print("floor=call calls=\(calls) direct_ns_per_call=\(fixed(direct, 2)) ffi_ns_per_call=\(fixed(ffi, 2))"
            + " check=\(callsOK ? "ok" : "FAIL")")
        return faultOK && callsOK
    }

    private static func median(_ repetitions: Int, _ measure: () -> Double) -> Double {
        let values = (0..<max(1, repetitions)).map { _ in measure() }.sorted()
        return values[values.count / 2]
    }
}
