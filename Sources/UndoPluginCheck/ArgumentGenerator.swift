import UndoPluginHost

/// Makes argument lists for an action type from its declared parameter types, with the edge
/// values plugins get wrong: 0, -1, the extremes of every integer type, 1e16 (where adding and
/// subtracting again loses the low digits), NaN and the infinities, empty, long and non-ASCII
/// strings, empty bytes. Small numbers come often, so that ids and positions meet objects
/// that exist.
struct ArgumentGenerator {
    /// A long string: past the short-string paths of hosts and plugins.
    static let longText = String(repeating: "long text ", count: 60)
    static let strings = ["", "a", "ab", "Hello", "x y", "\u{E9}t\u{E9} \u{D55C}\u{AE00} \u{1F600}", "e\u{301}",
                          "line\nbreak", "tab\there", longText]
    static let doubles: [Double] = [0, 1, -1, 0.5, 3.25, 1e16, -1e16, 1e308, -0.0, .nan, .infinity, -.infinity,
                                    .leastNonzeroMagnitude]

    /// An argument list for `signature`; a third of the values come from `used` (values of
    /// calls that succeeded), so that steps meet the objects earlier steps made.
    static func arguments(for signature: ActionSignature, using random: inout CheckRandom,
                          used: [ActionValueType: [ActionValue]] = [:]) -> [ActionValue] {
        signature.parameters.map { parameter in
            if let values = used[parameter.type], !values.isEmpty, random.chance(35) { return random.pick(values) }
            return value(of: parameter.type, using: &random)
        }
    }

    /// A list like `previous` (same leading values, usually the object it is about) with the
    /// others new: what a run of steps that coalesce looks like.
    static func following(_ previous: [ActionValue], for signature: ActionSignature,
                          using random: inout CheckRandom) -> [ActionValue] {
        var values = previous
        for index in values.indices.dropFirst() where random.chance(70) {
            values[index] = value(of: signature.parameters[index].type, using: &random)
        }
        if values.isEmpty == false, random.chance(20) { values[0] = value(of: signature.parameters[0].type, using: &random) }
        return values
    }

    static func value(of type: ActionValueType, using random: inout CheckRandom) -> ActionValue {
        let small = random.chance(55)
        let smallValue = Int.random(in: 0...3, using: &random)
        switch type {
        case .i32: return .i32(small ? Int32(smallValue) : random.pick([0, 1, -1, 2, 100, .max, .min]))
        case .u32: return .u32(small ? UInt32(smallValue) : random.pick([0, 1, 2, 100, .max, .max - 1]))
        case .i64: return .i64(small ? Int64(smallValue) : random.pick([0, 1, -1, 2, 100, .max, .min]))
        case .u64: return .u64(small ? UInt64(smallValue) : random.pick([0, 1, 2, 100, .max, .max - 1]))
        case .f64:
            // 1 and 1e16 often: together they find an inverse that subtracts what perform added.
            return .f64(random.chance(40) ? random.pick([1, 1e16, -1e16, 0.5]) : random.pick(doubles))
        case .string: return .string(random.pick(strings))
        case .bytes:
            if random.chance(30) { return .bytes([]) }
            return .bytes((0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
    }
}
