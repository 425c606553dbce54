/// The tokenizer behind ``ActionArguments/parse(_:for:)``: one value per token, with the
/// column it started at. It works on Unicode scalars, so columns count scalars.
struct ArgumentTextScanner {
    struct Token {
        var value: ActionValue
        var column: Int
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// Scans every token.
    mutating func scanAll() throws(ActionArgumentError) -> [Token] {
        var tokens: [Token] = []
        while true {
            skipSpace()
            guard index < scalars.count else { return tokens }
            let start = index
            let value = try parseToken(number: tokens.count)
            tokens.append(Token(value: value, column: start + 1))
            if index < scalars.count && !isSpace(scalars[index]) {
                throw error("expected a space after argument \(tokens.count)", at: index)
            }
        }
    }

    private func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private mutating func skipSpace() {
        while index < scalars.count && isSpace(scalars[index]) { index += 1 }
    }

    private func error(_ message: String, at position: Int) -> ActionArgumentError {
        ActionArgumentError(.syntax(message), column: position + 1)
    }

    private mutating func parseToken(number: Int) throws(ActionArgumentError) -> ActionValue {
        let first = scalars[index]
        if first == "\"" { return .string(try parseString()) }
        if (first == "x" || first == "X") && index + 1 < scalars.count && scalars[index + 1] == "\"" {
            return .bytes(try parseBytes())
        }
        if first == "+" || first == "-" || first == "." || ("0"..."9").contains(first) {
            return try parseNumber()
        }
        let start = index
        while index < scalars.count && !isSpace(scalars[index]) { index += 1 }
        let word = String(String.UnicodeScalarView(scalars[start..<index]))
        throw error("unexpected \(word.prefix(40)): strings need double quotes (\(ActionValue.quoted(String(word.prefix(40))))) and bytes x\"...\"", at: start)
    }

    private mutating func parseString() throws(ActionArgumentError) -> String {
        let start = index
        index += 1 // the opening quote
        var result = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\"":
                return String(result)
            case "\\":
                guard index < scalars.count else { break }
                let escape = scalars[index]
                index += 1
                switch escape {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "0": result.append("\0")
                case "u": result.append(try parseUnicodeEscape(escapeStart: index - 2))
                default:
                    throw error("unknown escape \\\(escape) in a string", at: index - 2)
                }
            default:
                result.append(scalar)
            }
        }
        throw error("the string has no closing quote", at: start)
    }

    /// Parses `{HEX}` after `\u`.
    private mutating func parseUnicodeEscape(escapeStart: Int) throws(ActionArgumentError) -> Unicode.Scalar {
        guard index < scalars.count, scalars[index] == "{" else {
            throw error("expected \\u{HEX}", at: escapeStart)
        }
        index += 1
        var value: UInt32 = 0
        var digits = 0
        while index < scalars.count, let digit = Self.hexDigit(scalars[index]) {
            guard digits < 8 else { throw error("expected \\u{HEX} with at most 8 digits", at: escapeStart) }
            value = value << 4 | UInt32(digit)
            digits += 1
            index += 1
        }
        guard digits > 0, index < scalars.count, scalars[index] == "}" else {
            throw error("expected \\u{HEX}", at: escapeStart)
        }
        index += 1
        guard let scalar = Unicode.Scalar(value) else {
            throw error("\\u{\(String(value, radix: 16))} is not a Unicode scalar value", at: escapeStart)
        }
        return scalar
    }

    private mutating func parseBytes() throws(ActionArgumentError) -> [UInt8] {
        let start = index
        index += 2 // x"
        var bytes: [UInt8] = []
        var high: UInt8?
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\"" {
                guard high == nil else { throw error("bytes need an even number of hex digits", at: start) }
                return bytes
            }
            guard let digit = Self.hexDigit(scalar) else {
                throw error("expected a hex digit in bytes, got \(ActionValue.quoted(String(scalar)))", at: index - 1)
            }
            if let h = high {
                bytes.append(h << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        throw error("the bytes have no closing quote", at: start)
    }

    private mutating func parseNumber() throws(ActionArgumentError) -> ActionValue {
        if let value = parseDecimalInteger() { return value }
        let start = index
        while index < scalars.count && !isSpace(scalars[index]) && scalars[index] != "\"" { index += 1 }
        let text = String(String.UnicodeScalarView(scalars[start..<index]))
        var body = Substring(text)
        var negative = false
        if body.first == "+" || body.first == "-" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        if body.hasPrefix("0x") || body.hasPrefix("0X") {
            let digits = body.dropFirst(2)
            guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ Self.hexDigit($0) != nil }) else {
                throw error("malformed hex number \(text.prefix(40))", at: start)
            }
            return try integer(digits, radix: 16, negative: negative, text: text, start: start)
        }
        let allowed = Set<Unicode.Scalar>(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"])
        if !body.isEmpty && body.unicodeScalars.allSatisfy(allowed.contains) {
            return try integer(body, radix: 10, negative: negative, text: text, start: start)
        }
        // A double: digits with one '.', an exponent or both; no inf, nan or hex floats.
        guard Self.isDecimalDouble(body), let value = Double(text) else {
            throw error("malformed number \(text.prefix(40))", at: start)
        }
        guard value.isFinite else {
            throw ActionArgumentError(.outOfRange(expected: .f64, value: String(text.prefix(40))), column: start + 1)
        }
        return .f64(value)
    }

    /// The common case read in place: an optional sign and decimal digits that fit, ended by a
    /// space, a quote or the end. `nil` (the index unchanged) for anything else, which
    /// ``parseNumber()`` reads (and words the errors of) the general way.
    private mutating func parseDecimalInteger() -> ActionValue? {
        var at = index
        var negative = false
        if scalars[at] == "+" || scalars[at] == "-" {
            negative = scalars[at] == "-"
            at += 1
        }
        var magnitude: UInt64 = 0
        let first = at
        while at < scalars.count, case let value = scalars[at].value, value >= 48 && value <= 57 {
            let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(UInt64(value - 48))
            if overflowTimes || overflowSum { return nil }
            magnitude = sum
            at += 1
        }
        guard at > first, at == scalars.count || isSpace(scalars[at]) || scalars[at] == "\"" else { return nil }
        let value: ActionValue
        if negative {
            if magnitude == UInt64(Int64.max) + 1 {
                value = .i64(.min)
            } else if let small = Int64(exactly: magnitude) {
                value = .i64(-small)
            } else {
                return nil
            }
        } else {
            value = Int64(exactly: magnitude).map { .i64($0) } ?? .u64(magnitude)
        }
        index = at
        return value
    }

    private func integer(_ digits: Substring, radix: Int, negative: Bool, text: String, start: Int)
        throws(ActionArgumentError) -> ActionValue
    {
        guard let magnitude = UInt64(digits, radix: radix) else {
            throw ActionArgumentError(.outOfRange(expected: negative ? .i64 : .u64, value: String(text.prefix(40))),
                                      column: start + 1)
        }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return .i64(.min) }
            guard let v = Int64(exactly: magnitude) else {
                throw ActionArgumentError(.outOfRange(expected: .i64, value: String(text.prefix(40))), column: start + 1)
            }
            return .i64(-v)
        }
        if let v = Int64(exactly: magnitude) { return .i64(v) }
        return .u64(magnitude)
    }

    /// digits [. digits] [e [+-] digits], with digits on at least one side of the '.'.
    private static func isDecimalDouble(_ text: Substring) -> Bool {
        let s = Array(text.unicodeScalars)
        var i = 0
        func digits() -> Int {
            let begin = i
            while i < s.count && ("0"..."9").contains(s[i]) { i += 1 }
            return i - begin
        }
        var mantissa = digits()
        if i < s.count && s[i] == "." {
            i += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if i < s.count && (s[i] == "e" || s[i] == "E") {
            i += 1
            if i < s.count && (s[i] == "+" || s[i] == "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == s.count
    }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": UInt8(scalar.value - 48)
        case "a"..."f": UInt8(scalar.value - 87)
        case "A"..."F": UInt8(scalar.value - 55)
        default: nil
        }
    }
}
