import UndoPluginHost

/// Makes argument lists for an action type from its declared parameter types, with the edge
/// values plugins get wrong: 0, -1, the extremes of every integer type, 1e16 (where adding and
/// subtracting again loses the low digits), NaN and the infinities, empty, long and non-ASCII
/// strings, empty bytes. Small numbers come often, so that ids and positions meet objects
/// that exist.
struct ArgumentGenerator {
    /// A long string: past the short-string paths of hosts and plugins.
    static let longText = String(repeating: "long text ", count: 60)
    /// Strings at the host's limits (UNDO_MAX_DESCRIPTION_LENGTH, UNDO_MAX_CONTEXT_LENGTH:
    /// 4,096 bytes) and past them: a plugin that puts an argument in its step's description
    /// meets the limit there. One of them ends in a character of 3 bytes across the limit.
    static let limitTexts = [4095, 4096, 4097, 8193].map { String(repeating: "x", count: $0) }
        + [String(repeating: "x", count: 4094) + "\u{D55C}"]
    static let strings = ["", "a", "ab", "Hello", "x y", "\u{E9}t\u{E9} \u{D55C}\u{AE00} \u{1F600}", "e\u{301}",
                          "line\nbreak", "tab\there", longText]
    static let doubles: [Double] = [0, 1, -1, 0.5, 3.25, 1e16, -1e16, 1e308, -0.0, .nan, .infinity, -.infinity,
                                    .leastNonzeroMagnitude]

    /// An argument list for `signature`; `percent` of the values come from `used` (values of
    /// calls that succeeded, and values read from the documents), so that steps meet the
    /// objects earlier steps made.
    static func arguments(for signature: ActionSignature, using random: inout CheckRandom,
                          used: [ActionValueType: [ActionValue]] = [:], percent: Int = 35) -> [ActionValue] {
        signature.parameters.map { parameter in
            if let values = used[parameter.type], !values.isEmpty, random.chance(percent) { return random.pick(values) }
            return value(of: parameter.type, using: &random)
        }
    }

    /// The values a document's description offers as arguments: its whole numbers (an id
    /// "#1042" or "id 7", a position; not the digits of "1.5" or "1e+16"), each number of lines
    /// less one (the last position), and its words, as values of each type they fit; at most
    /// 32 of each kind, the last ones shown. A number after "#" or "id" looks like an id, and
    /// comes four times.
    /// - Complexity: O(*n*) in the length of `state`.
    static func values(in state: String?) -> [ActionValueType: [ActionValue]] {
        guard let state, !state.isEmpty else { return [:] }
        var numbers: [(value: Int64, isID: Bool)] = []
        var words: [String] = []
        var lines = 1
        var digits: Int64? = nil
        var negative = false
        var skipped = false
        var isID = false
        var before: [Character] = [" ", " ", " "]
        var word = ""
        func endNumber() {
            if let value = digits, !skipped { numbers.append((negative ? -value : value, isID)) }
            digits = nil
        }
        func endWord() {
            if !word.isEmpty { words.append(word) }
            word = ""
        }
        for character in state {
            if character == "\n" { lines += 1 }
            if let digit = character.wholeNumberValue, character.isASCII {
                if digits == nil {
                    let previous = before[2]
                    negative = previous == "-"
                    // A fraction's or an exponent's digits, or a word's ("x2"): not a number of its own.
                    skipped = previous == "." || previous.isLetter
                        || ((previous == "-" || previous == "+") && (before[1] == "e" || before[1] == "E"))
                    isID = previous == "#" || (previous == " " && String(before[0...1]).lowercased() == "id")
                        || (previous == "=" && String(before[0...1]).lowercased() == "id")
                }
                let (times, overflow1) = (digits ?? 0).multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int64(digit))
                digits = overflow1 || overflow2 ? digits : sum
                if !(character.isLetter || character.isNumber || character == "_") { endWord() } else { word.append(character) }
                before = [before[1], before[2], character]
                continue
            }
            endNumber()
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                endWord()
            }
            before = [before[1], before[2], character]
        }
        endNumber()
        endWord()
        numbers += [(Int64(lines - 1), false), (Int64(lines), false)]
        var seen: Set<Int64> = []
        let distinct = numbers.reversed().filter { seen.insert($0.value).inserted }.prefix(32)
        var seenWords: Set<String> = []
        let distinctWords = words.reversed().filter { seenWords.insert($0).inserted }.prefix(32)
        var result: [ActionValueType: [ActionValue]] = [:]
        for (number, isID) in distinct {
            for _ in 0..<(isID ? 4 : 1) {
                result[.i64, default: []].append(.i64(number))
                if let value = Int32(exactly: number) { result[.i32, default: []].append(.i32(value)) }
                if let value = UInt32(exactly: number) { result[.u32, default: []].append(.u32(value)) }
                if let value = UInt64(exactly: number) { result[.u64, default: []].append(.u64(value)) }
            }
            result[.f64, default: []].append(.f64(Double(number)))
        }
        if !distinctWords.isEmpty { result[.string] = distinctWords.map { .string($0) } }
        return result
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
        // The limits now and then: long strings make every later call slower.
        case .string: return .string(random.chance(5) ? random.pick(limitTexts) : random.pick(strings))
        case .bytes:
            if random.chance(30) { return .bytes([]) }
            return .bytes((0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
    }
}
