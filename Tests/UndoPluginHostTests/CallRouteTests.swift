import Testing
@testable import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// The two ways the host calls plugin functions (FFIFunction): directly, through a C prototype of
/// exactly the declared parameters (DirectCall), or through libffi's `ffi_call`. Both must hand
/// every parameter type over intact, to perform, to the inverse and on redo.
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
        try host.perform("calls.nothing", [], in: doc)
        try host.perform("calls.one_string", [.string("héllo wörld")], in: doc)
        try host.perform("calls.pair", [.i64(.min), .i64(.max)], in: doc)
        try host.perform("calls.at", [.i64(-3), .string("")], in: doc)
        seen.append(try log(host))
        try host.undo(count: 14)
        seen.append(try log(host))
        try host.redo(count: 14)
        seen.append(try log(host))
        try host.undo(count: 3)
        seen.append(try log(host))
        return seen
    }

    @Test func bothRoutesPassTheSameValues() throws {
        let direct = try run(try host(.direct))
        let libffi = try run(try host(.libffi))
        #expect(direct == libffi)
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
            nothing
            one_string "héllo wörld"
            pair -9223372036854775808 9223372036854775807
            at -3 ""

            """
        #expect(direct.first == all)
        #expect(direct[1] == "value=0\n")
        #expect(direct[2] == all)
        #expect(direct[3].hasPrefix("value=-9\nints"))
        #expect(direct[3].hasSuffix("wide -1000000007 -2000000014 -3000000021 -4000000028 -5000000035 -6000000042\nnothing\n"))
    }

    /// Steps of one number (direct prototypes of one number): every number type at its edges, in
    /// the global context and in another one, performed, undone and redone on both routes.
    @Test func numbersReachThePluginIntact() throws {
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
                #expect(steps.map { $0.arguments } == values.map { [$0.1] })
                #expect(steps.allSatisfy { $0.context == context && $0.cost == $0.action.fixedStepCost })
                try host.undo(count: values.count)
                #expect(try log(host) == "value=0\n", "\(route) \(context)")
                try host.redo(count: values.count)
                #expect(try log(host) == expected, "\(route) \(context)")
            }
        }
    }

    /// A function goes direct only when its declared parameters are exactly a direct prototype's;
    /// with the libffi route, none does.
    @Test func onlyFunctionsDeclaredWithADirectPrototypeGoDirect() throws {
        let direct = try host(.direct)
        let libffi = try host(.libffi)
        let expected: [(String, Bool)] = [
            ("calls.ints", false), ("calls.texts", false), ("calls.doubles", false), ("calls.mixed", false),
            ("calls.wide", false), ("calls.set", true), ("calls.one_i32", true), ("calls.one_u32", true),
            ("calls.one_i64", true), ("calls.one_u64", true), ("calls.one_f64", true), ("calls.nothing", true),
            ("calls.one_string", true), ("calls.pair", true), ("calls.at", true),
        ]
        for (id, goesDirect) in expected {
            let action = try direct.actionType(id)
            #expect(action.performFunction.callsDirectly == goesDirect, "\(id)")
            #expect(action.inverseFunction.callsDirectly == goesDirect, "\(id)")
            if let prototype = action.performFunction.direct {
                #expect(prototype.parameterTypes == action.signature.types, "\(id)")
            }
            let viaLibffi = try libffi.actionType(id)
            #expect(!viaLibffi.performFunction.callsDirectly && !viaLibffi.inverseFunction.callsDirectly, "\(id)")
        }
    }

    /// Hosts share the prepared libffi interfaces: one per list of parameter types, whichever
    /// host and function it serves, so a plugin loaded into a second history prepares no call
    /// again (a C host making many histories, the C API fuzz target, paid it each time).
    @Test func hostsShareOnePreparedInterfacePerParameterList() throws {
        let first = try host(.libffi)
        let second = try host(.libffi)
        for id in ["calls.ints", "calls.texts", "calls.doubles", "calls.mixed", "calls.wide", "calls.pair"] {
            let mine = try first.actionType(id)
            let theirs = try second.actionType(id)
            #expect(mine.performFunction !== theirs.performFunction, "\(id): each host has its own functions")
            #expect(mine.performFunction.interface != nil, "\(id)")
            #expect(mine.performFunction.interface === theirs.performFunction.interface, "\(id)")
            #expect(mine.inverseFunction.interface === theirs.inverseFunction.interface, "\(id)")
        }
        let ints = try first.actionType("calls.ints").performFunction.interface
        let texts = try first.actionType("calls.texts").performFunction.interface
        #expect(ints !== texts)
        #expect(ints?.parameterTypes != texts?.parameterTypes)
    }

    /// Each direct prototype against the libffi call of the same function with the same values:
    /// the plugin writes the same line for both, and the inverse removes it through either.
    @Test func everyDirectPrototypeMatchesTheLibffiCall() throws {
        let host = try host(.direct)
        let cases: [(String, [ActionValue])] = [
            ("calls.nothing", []), ("calls.one_i32", [.i32(.min)]), ("calls.one_u32", [.u32(.max)]),
            ("calls.one_i64", [.i64(.min)]), ("calls.one_u64", [.u64(.max)]), ("calls.one_f64", [.f64(-.pi)]),
            ("calls.one_string", [.string("héllo wörld")]), ("calls.pair", [.i64(-1), .i64(.max)]),
            ("calls.at", [.i64(42), .string("")]),
        ]
        var prototypes = Set<String>()
        for (id, values) in cases {
            let action = try host.actionType(id)
            let function: FFIFunction = action.performFunction
            let prototype = try #require(function.direct, "\(id)")
            prototypes.insert("\(prototype.parameterTypes)")
            var call = undo_call()
            call.struct_size = UInt32(MemoryLayout<undo_call>.size)
            call.phase = UInt32(UNDO_PHASE_PERFORM)
            call.host = UnsafePointer(action.plugin.hostTable)
            call.plugin_data = action.plugin.pluginData
            let before = try log(host)
            let directStatus = withUnsafeMutablePointer(to: &call) { function.call($0, values) }
            let afterDirect = try log(host)
            let ffiStatus = withUnsafeMutablePointer(to: &call) { function.callThroughFFI($0, values) }
            let afterFFI = try log(host)
            #expect(directStatus == UNDO_OK && ffiStatus == UNDO_OK, "\(id)")
            let line = String(afterDirect.dropFirst(before.count))
            #expect(!line.isEmpty && afterFFI == afterDirect + line, "\(id)")
            // The inverse, through each, removes one of the two lines.
            let inverse: FFIFunction = action.inverseFunction
            #expect(withUnsafeMutablePointer(to: &call) { inverse.callThroughFFI($0, values) } == UNDO_OK)
            #expect(try log(host) == afterDirect, "\(id)")
            #expect(withUnsafeMutablePointer(to: &call) { inverse.call($0, values) } == UNDO_OK)
            #expect(try log(host) == before, "\(id)")
        }
        #expect(prototypes.count == 9)  // every direct prototype
    }

    /// `ffi_call`'s arguments are read by the collection's own indices: a slice that does not
    /// start at 0 (values inside a longer list) passes the same values as a list of its own,
    /// strings and bytes copied into the call's scratch included.
    @Test func theLibffiCallReadsASliceByItsOwnIndices() throws {
        let host = try host(.libffi)
        let action = try host.actionType("calls.mixed")
        let function: FFIFunction = action.performFunction
        #expect(function.direct == nil)
        let mixed: [ActionValue] = [.i32(-7), .f64(2.5), .string("slice"), .u64(42), .f64(-0.125)]
        let longer: [ActionValue] = [.i64(99), .string("before")] + mixed + [.string("after")]
        var call = undo_call()
        call.struct_size = UInt32(MemoryLayout<undo_call>.size)
        call.phase = UInt32(UNDO_PHASE_PERFORM)
        call.host = UnsafePointer(action.plugin.hostTable)
        call.plugin_data = action.plugin.pluginData
        let before = try log(host)
        #expect(withUnsafeMutablePointer(to: &call) { function.call($0, longer[2..<7]) } == UNDO_OK)
        let afterSlice = try log(host)
        #expect(withUnsafeMutablePointer(to: &call) { function.call($0, mixed) } == UNDO_OK)
        let line = String(afterSlice.dropFirst(before.count))
        #expect(line == "mixed -7 2.5 \"slice\" 42 -0.125\n")
        #expect(try log(host) == afterSlice + line)
    }

    @Test func theRouteComesFromTheEnvironmentByName() {
        #expect(PluginCallRoute.environmentVariable == "UNDOHOST_PLUGIN_CALLS")
        #expect(PluginCallRoute.parse("direct") == (.direct, nil))
        #expect(PluginCallRoute.allCases == [.direct, .libffi])
        #expect(PluginCallRoute.parse("libffi") == (.libffi, nil))
        #expect(PluginCallRoute.parse(nil) == (.direct, nil))
        #expect(PluginCallRoute.parse("") == (.direct, nil))
        // A value naming neither route is not silently taken: the host logs what is wrong.
        let (route, problem) = PluginCallRoute.parse("ffi")
        #expect(route == .direct)
        #expect(problem == "UNDOHOST_PLUGIN_CALLS=ffi is not direct or libffi; plugin calls go direct where they can")
        #expect(PluginCallRoute.parse("registers").problem != nil)  // the register route is gone
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
            // Through the history itself: the plugin's error is thrown, and travels inside the
            // history's error as its underlying error.
            do {
                _ = try host.history.withStack { try $0.undo() }
                Issue.record("expected the inverse to fail (\(route))")
            } catch let error as UndoError {
                let underlying = try #require(error.underlying as? PluginActionError)
                #expect(underlying == failure)
            }
        }
    }
}
