import CLibFFI
import CUndoBenchSupport
import Glibc

/// `undo-bench floors`: the two costs below every workload's figure that no undo framework
/// can remove, measured on this machine (docs/performance.md):
///
/// - the first write to a page of freshly allocated memory (the kernel maps it: a page fault),
///   which a push phase pays for every byte of heap it grows by;
/// - one call of a plugin-shaped C function through `ffi_call` (as the plugin host calls a
///   function with no direct prototype, or every function with UNDOHOST_PLUGIN_CALLS=libffi),
///   against the same call made directly through a pointer of the function's own type (as the
///   host's direct calls make it).
///
/// Each is the median of `repetitions` runs.
enum Floors {
    static func run(repetitions: Int) -> Bool {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bytes = 256 << 20
        let fresh = median(repetitions) { firstTouchNanosecondsPerPage(bytes: bytes, page: page, touchedBefore: false) }
        let touched = median(repetitions) { firstTouchNanosecondsPerPage(bytes: bytes, page: page, touchedBefore: true) }
        let touchOK = fresh > 0 && touched > 0
        print("floor=first-touch bytes=\(bytes) page=\(page) ns_per_page=\(fixed(fresh, 1))"
            + " ns_per_page_touched_before=\(fixed(touched, 1)) ns_per_byte=\(fixed(fresh / Double(page), 3))"
            + " check=\(touchOK ? "ok" : "FAIL")")

        let calls = 10_000_000
        var callsOK = true
        func time(_ route: CallRoute) -> Double {
            median(repetitions) {
                guard let (ns, sum) = callNanoseconds(calls: calls, route: route) else {
                    callsOK = false
                    return 0
                }
                if sum != expectedSum(calls, modulus: 7) { callsOK = false }
                return ns
            }
        }
        let direct = time(.direct)
        let ffi = time(.ffi)
        print("floor=call calls=\(calls) direct_ns_per_call=\(fixed(direct, 2))"
            + " ffi_ns_per_call=\(fixed(ffi, 2))"
            + " check=\(callsOK ? "ok" : "FAIL")")
        return touchOK && callsOK
    }

    /// Nanoseconds per page to write one byte into every page of a fresh `bytes`-long malloc
    /// block (large enough that malloc maps it from the kernel, untouched); with
    /// `touchedBefore`, of a block whose pages were all written once before (no page faults).
    static func firstTouchNanosecondsPerPage(bytes: Int, page: Int, touchedBefore: Bool) -> Double {
        guard let block = malloc(bytes)?.assumingMemoryBound(to: UInt8.self) else { return -1 }
        defer { free(block) }
        let pages = bytes / page
        if touchedBefore { touch(block, pages: pages, page: page, value: 1) }
        var clock = Stopwatch()
        touch(block, pages: pages, page: page, value: 2)
        return clock.lap() * 1e6 / Double(pages)
    }

    /// Writes through a volatile-like opaque call boundary, so the stores are not removed.
    @inline(never)
    static func touch(_ block: UnsafeMutablePointer<UInt8>, pages: Int, page: Int, value: UInt8) {
        for index in 0..<pages { block[index &* page] = value }
    }

    /// The shape of the benchmark plugin's perform function: a call handle and one int64
    /// argument, an int32 status back (`undo_bench_floor_action`, in C).
    typealias Action = @convention(c) (UnsafeMutablePointer<Int64>?, Int64) -> Int32

    /// Read through an opaque function, so the direct call is a real call through a pointer.
    @inline(never)
    static func action() -> Action { undo_bench_floor_action }

    enum CallRoute { case direct, ffi }

    /// Nanoseconds per call and the sum the calls added up, or `nil` if libffi refused the
    /// signature or a call failed.
    static func callNanoseconds(calls: Int, route: CallRoute) -> (Double, Int64)? {
        var counter: Int64 = 0
        var clock = Stopwatch()
        if route == .direct {
            let function = action()
            for index in 0..<calls where function(&counter, Int64(index % 7 + 1)) != 0 { return nil }
            return (clock.lap() * 1e6 / Double(calls), counter)
        }
        var cif = ffi_cif()
        var parameterTypes: [UnsafeMutablePointer<ffi_type>?] = [undo__ffi_type_pointer(), undo__ffi_type_sint64()]
        let prepared = parameterTypes.withUnsafeMutableBufferPointer {
            ffi_prep_cif(&cif, undo__ffi_default_abi(), 2, undo__ffi_type_sint32(), $0.baseAddress)
        }
        guard prepared == FFI_OK else { return nil }
        let entry = undo_bench_floor_action_erased()
        let nanoseconds: Double? = withUnsafeMutablePointer(to: &counter) { counterPointer in
            var handle: UnsafeMutablePointer<Int64>? = counterPointer
            var amount: Int64 = 0
            // An ffi_arg-sized result slot: libffi widens small integer results.
            var status: UInt64 = 0
            return withUnsafeMutablePointer(to: &handle) { handleSlot in
                withUnsafeMutablePointer(to: &amount) { amountSlot in
                    var values: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(handleSlot), UnsafeMutableRawPointer(amountSlot)]
                    return values.withUnsafeMutableBufferPointer { values -> Double? in
                        clock = Stopwatch()
                        for index in 0..<calls {
                            amountSlot.pointee = Int64(index % 7 + 1)
                            ffi_call(&cif, entry, &status, values.baseAddress)
                            if Int32(truncatingIfNeeded: status) != 0 { return nil }
                        }
                        return clock.lap() * 1e6 / Double(calls)
                    }
                }
            }
        }
        return nanoseconds.map { ($0, counter) }
    }

    private static func median(_ repetitions: Int, _ measure: () -> Double) -> Double {
        let values = (0..<max(1, repetitions)).map { _ in measure() }.sorted()
        return values[values.count / 2]
    }
}
