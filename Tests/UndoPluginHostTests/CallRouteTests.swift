import Testing
@testable import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// The two ways the host calls plugin functions (FFIFunction): in registers, with the calling
/// convention's classification made once at registration, or through libffi's `ffi_call`.
/// Both must hand every parameter type over intact, to perform, to the inverse and on redo.
@Suite struct CallRouteTests {
    let doc = UndoContext("doc")

    func host(_ route: PluginCallRoute) throws -> PluginHost {
        let (host, _) = makeHost()
        host.callRoute = route
        try host.load(file: try Fixtures.buildPlugin("calls.c"))
        return host
    }

    func log(_ host: PluginHost) throws -> String { try host.describe(doc, plugin: "org.undohost.test.calls") }

    /// Values at the edges of every type, each action performed, undone and redone.
    func run(_ host: PluginHost) throws -> [String] {
        var seen: [String] = []
        try host.perform("calls.ints", [.i32(.min), .u32(.max), .i64(.min), .u64(.max)], in: doc)
        try host.perform("calls.ints", [.i32(-1), .u32(0), .i64(-2), .u64(1 << 63)], in: doc)
        try host.perform("calls.texts", [.string("héllo"), .bytes([0, 255, 16]), .string("")], in: doc)
        try host.perform("calls.texts", [.string(String(repeating: "long text ", count: 20)), .bytes([]), .string("t")],
                         in: doc)
        try host.perform("calls.doubles", (1...8).map { .f64(Double($0) / 3) }, in: doc)
        try host.perform("calls.doubles", [.f64(-0.0), .f64(1e308), .f64(-1e-308), .f64(0.1), .f64(2), .f64(3),
                                           .f64(4), .f64(-5.5)], in: doc)
        try host.perform("calls.mixed", [.i32(-7), .f64(2.5), .string("s"), .u64(42), .f64(-0.125)], in: doc)
        try host.perform("calls.wide", (1...6).map { .i64(Int64($0) * -1_000_000_007) }, in: doc)
        try host.perform("calls.set", [.i64(5)], in: doc)
        try host.perform("calls.set", [.i64(-9)], in: doc)
        seen.append(try log(host))
        try host.undo(count: 10)
        seen.append(try log(host))
        try host.redo(count: 10)
        seen.append(try log(host))
        try host.undo(count: 3)
        seen.append(try log(host))
        return seen
    }

    @Test func bothRoutesPassTheSameValues() throws {
        let registers = try run(try host(.registers))
        let libffi = try run(try host(.libffi))
        #expect(registers == libffi)
        let all = """
            value=-9
            ints -2147483648 4294967295 -9223372036854775808 18446744073709551615
            ints -1 0 -2 9223372036854775808
            texts "héllo" x00ff10 ""
            texts "\(String(repeating: "long text ", count: 20))" x "t"
            doubles 0.33333333333333331 0.66666666666666663 1 1.3333333333333333 1.6666666666666667 2 2.3333333333333335 2.6666666666666665
            doubles -0 1e+308 -9.9999999999999991e-309 0.10000000000000001 2 3 4 -5.5
            mixed -7 2.5 "s" 42 -0.125
            wide -1000000007 -2000000014 -3000000021 -4000000028 -5000000035 -6000000042

            """
        #expect(registers.first == all)
        #expect(registers[1] == "value=0\n")
        #expect(registers[2] == all)
        #expect(registers[3].hasPrefix("value=0\nints"))
        #expect(registers[3].hasSuffix("mixed -7 2.5 \"s\" 42 -0.125\n"))
    }

    /// Steps of one number are kept inside their command (no heap block) and called with the
    /// number in one register: every number type at its edges, in the global context and in
    /// another one, performed, undone and redone on both routes.
    @Test func numbersStoredInlineReachThePluginIntact() throws {
        let values: [(String, ActionValue)] = [
            ("one_i32", .i32(.min)), ("one_i32", .i32(-1)), ("one_i32", .i32(.max)),
            ("one_u32", .u32(.max)), ("one_u32", .u32(0)),
            ("one_i64", .i64(.min)), ("one_i64", .i64(-1)),
            ("one_u64", .u64(.max)), ("one_u64", .u64(1 << 63)),
            ("one_f64", .f64(-0.0)), ("one_f64", .f64(1e308)), ("one_f64", .f64(-.pi)),
        ]
        let expected = """
            value=0
            one_i32 -2147483648
            one_i32 -1
            one_i32 2147483647
            one_u32 4294967295
            one_u32 0
            one_i64 -9223372036854775808
            one_i64 -1
            one_u64 18446744073709551615
            one_u64 9223372036854775808
            one_f64 -0
            one_f64 1e+308
            one_f64 -3.1415926535897931

            """
        for route in PluginCallRoute.allCases {
            for context in [UndoContext.global, doc] {
                let host = try host(route)
                for (index, (id, value)) in values.enumerated() {
                    // Both ways in: by id with an array, and resolved with one argument.
                    if index.isMultiple(of: 2) {
                        try host.perform("calls." + id, [value], in: context)
                    } else {
                        try host.perform(try host.actionType("calls." + id), argument: value, in: context)
                    }
                }
                #expect(try log(host) == expected, "\(route) \(context)")
                let steps = host.history.withStack { stack in
                    (0..<stack.count).compactMap { stack.command(at: $0) as? PluginCommand }
                }
                #expect(steps.count == values.count)
                #expect(steps.allSatisfy { $0.isStoredInline })
                #expect(steps.map { $0.arguments } == values.map { [$0.1] })
                #expect(steps.allSatisfy { $0.context == context && $0.cost == $0.action.fixedStepCost })
                try host.undo(count: values.count)
                #expect(try log(host) == "value=0\n", "\(route) \(context)")
                try host.redo(count: values.count)
                #expect(try log(host) == expected, "\(route) \(context)")
            }
        }
    }

    @Test func eachFunctionTakesTheRouteItsArgumentsAllow() throws {
        let registers = try host(.registers)
        let libffi = try host(.libffi)
        func route(_ host: PluginHost, _ id: String) throws -> (perform: Bool, inverse: Bool) {
            let action = try host.actionType(id)
            return (action.performFunction.callsInRegisters, action.inverseFunction.callsInRegisters)
        }
        // How many integer and floating-point argument registers this platform's convention has
        // (x86-64: 6 and 8, AArch64: 8 and 8; 0 where register calls are not made).
        let general = FFIFunction.generalRegisters
        let float = FFIFunction.floatRegisters
        let expected: [(String, Int, Int)] = [  // id, integer and floating-point C arguments
            ("calls.ints", 5, 0), ("calls.texts", 5, 0), ("calls.doubles", 1, 8), ("calls.mixed", 4, 2),
            ("calls.wide", 7, 0), ("calls.set", 2, 0), ("calls.one_i32", 2, 0), ("calls.one_u64", 2, 0),
            ("calls.one_f64", 1, 1),
        ]
        for (id, integers, doubles) in expected {
            let fits = integers <= general && doubles <= float
            #expect(try route(registers, id) == (fits, fits), "\(id)")
            #expect(try route(libffi, id) == (false, false), "\(id)")
        }
        #if arch(x86_64)
        #expect(general == 6 && float == 8)
        #expect(try route(registers, "calls.wide") == (false, false))
        #endif
    }

    @Test func theRouteComesFromTheEnvironmentByName() {
        #expect(PluginCallRoute.environmentVariable == "UNDOHOST_PLUGIN_CALLS")
        #expect(PluginCallRoute.parse("registers") == (.registers, nil))
        #expect(PluginCallRoute.parse("libffi") == (.libffi, nil))
        #expect(PluginCallRoute.parse(nil) == (.registers, nil))
        #expect(PluginCallRoute.parse("") == (.registers, nil))
        // A value naming neither route is not silently taken: the host logs what is wrong.
        let (route, problem) = PluginCallRoute.parse("ffi")
        #expect(route == .registers)
        #expect(problem == "UNDOHOST_PLUGIN_CALLS=ffi is not registers or libffi; plugin calls go in registers")
        // A host takes the route of its time; changing it affects plugins loaded later only.
        let (host, _) = makeHost()
        host.callRoute = .libffi
        #expect(host.callRoute == .libffi)
    }

    @Test func aFailureReportedInEitherRouteKeepsThePluginsMessage() throws {
        for route in PluginCallRoute.allCases {
            let host = try host(route)
            try host.perform("calls.ints", [.i32(13), .u32(2), .i64(3), .u64(4)], in: doc)
            let before = try log(host)
            guard case .actionFailed(let failure)? = hostError({ try host.undo() }) else {
                Issue.record("expected the inverse to fail (\(route))")
                continue
            }
            #expect(failure.message == "the inverse refuses 13")
            #expect(failure.code == UNDO_ERANGE)
            #expect(failure.phase == .undo)
            // Nothing changed: the step is still there to undo, the plugin's state is as it was.
            #expect(host.history.withStack { $0.undoCount } == 1)
            #expect(try log(host) == before)
        }
    }
}
