/// The tokenizer behind ``ActionArguments/parse(_:for:)``: one value per token, with the
/// column it started at. Columns count Unicode scalars.
///
/// It reads the text's UTF-8 bytes in place (an array of its scalars took four bytes a
/// character: 67 MB for an argument of 16 MiB), and copies a string's runs between escapes
/// whole; a string without escapes is made from its bytes at once. Every byte it compares is ASCII,
/// which never occurs inside a multi-byte character, so the tokens are those scalars gave.
///
/// Invariant (checked in debug builds): `index` is at the start of a character (never on a
/// continuation byte) between calls; `scalarsCounted` is the number of scalars before
/// `bytesCounted`.
struct ArgumentTextScanner {
    struct Token {
        var value: ActionValue
        var column: Int
    }

    /// The text's UTF-8 bytes, read in place.
    private let bytes: UTF8Bytes
    /// A byte offset into `bytes`.
    private var index = 0
    /// Where the column count has reached (tokens come in order, so counting is linear).
    private var bytesCounted = 0
    private var scalarsCounted = 0

    init(_ text: String) { bytes = UTF8Bytes(text) }

    /// The bytes the scanner holds beside the text: none, it reads the text's own (for tests
    /// that count; an array of the text's scalars took four bytes a character).
    var bytesHeld: Int { 0 }

    /// A string's UTF-8 bytes by offset, in place: a native string's UTF-8 view moves an index
    /// by an offset in O(1), so no copy of the text is made (a copy of 16 MiB, freed at once
    /// after each line, also left the allocator holding about as much again, at rest).
    private struct UTF8Bytes {
        let view: String.UTF8View
        let count: Int
        init(_ text: String) {
            view = text.utf8
            count = view.count
        }
        private func at(_ offset: Int) -> String.UTF8View.Index { view.index(view.startIndex, offsetBy: offset) }
        subscript(offset: Int) -> UInt8 { view[at(offset)] }
        subscript(range: Range<Int>) -> Substring.UTF8View { view[at(range.lowerBound)..<at(range.upperBound)] }
    }

    /// Scans every token.
    /// - Complexity: O(bytes of the text).
    mutating func scanAll() throws(ActionArgumentError) -> [Token] {
        var tokens: [Token] = []
        while true {
            skipSpace()
            guard index < bytes.count else { return tokens }
            let start = index
            let value = try parseToken(number: tokens.count)
            tokens.append(Token(value: value, column: column(of: start)))
            if index < bytes.count && !isSpace(bytes[index]) {
                throw error("expected a space after argument \(tokens.count)", at: index)
            }
        }
    }

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    private mutating func skipSpace() {
        while index < bytes.count && isSpace(bytes[index]) { index += 1 }
    }

    /// The column (from 1, in scalars) of the character starting at byte `offset`, counted on
    /// from the last one asked (tokens are asked in order).
    private mutating func column(of offset: Int) -> Int {
        assert(offset >= bytesCounted && (offset == bytes.count || !Self.isContinuation(bytes[offset])))
        while bytesCounted < offset {
            if !Self.isContinuation(bytes[bytesCounted]) { scalarsCounted += 1 }
            bytesCounted += 1
        }
        return scalarsCounted + 1
    }

    /// An error at the character starting at byte `position`.
    private func error(_ message: String, at position: Int) -> ActionArgumentError {
        ActionArgumentError(.syntax(message), column: errorColumn(position))
    }

    /// The column of the character starting at byte `offset`, counted from the start (for an
    /// error: once).
    private func errorColumn(_ offset: Int) -> Int {
        bytes[0..<offset].reduce(1) { $0 + (Self.isContinuation($1) ? 0 : 1) }
    }

    /// The character starting at byte `offset` (the text is valid UTF-8: it came from a String).
    private func scalar(at offset: Int) -> Unicode.Scalar {
        var end = offset + 1
        while end < bytes.count && Self.isContinuation(bytes[end]) { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first!
    }

    /// The text from byte `start` to `end`.
    private func text(_ start: Int, _ end: Int) -> String { String(decoding: bytes[start..<end], as: UTF8.self) }

    private mutating func parseToken(number: Int) throws(ActionArgumentError) -> ActionValue {
        let first = bytes[index]
        if first == Self.quote { return .string(try parseString()) }
        if (first == UInt8(ascii: "x") || first == UInt8(ascii: "X")) && index + 1 < bytes.count && bytes[index + 1] == Self.quote {
            return .bytes(try parseBytes())
        }
        if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: ".")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        {
            return try parseNumber()
        }
        let start = index
        while index < bytes.count && !isSpace(bytes[index]) { index += 1 }
        let word = text(start, index)
        throw error("unexpected \(word.prefix(40)): strings need double quotes (\(ActionValue.quoted(String(word.prefix(40))))) and bytes x\"...\"", at: start)
    }

    /// A string: the runs between escapes copied whole; without escapes, made from its bytes.
    private mutating func parseString() throws(ActionArgumentError) -> String {
        let start = index
        index += 1 // the opening quote
        var run = index
        var result: [UInt8]? = nil // only once an escape comes
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.quote {
                let end = index
                index += 1
                guard var built = result.take() else { return text(run, end) }
                built.append(contentsOf: bytes[run..<end])
                return String(decoding: built, as: UTF8.self)
            }
            guard byte == Self.backslash else {
                index += 1
                continue
            }
            var built = result.take() ?? [] // the one reference while it grows
            built.append(contentsOf: bytes[run..<index])
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case Self.quote: built.append(Self.quote)
            case Self.backslash: built.append(Self.backslash)
            case UInt8(ascii: "n"): built.append(0x0A)
            case UInt8(ascii: "t"): built.append(0x09)
            case UInt8(ascii: "r"): built.append(0x0D)
            case UInt8(ascii: "0"): built.append(0)
            case UInt8(ascii: "u"):
                built.append(contentsOf: String(try parseUnicodeEscape(escapeStart: index - 2)).utf8)
            default:
                throw error("unknown escape \\\(scalar(at: index - 1)) in a string", at: index - 2)
            }
            result = built
            run = index
        }
        throw error("the string has no closing quote", at: start)
    }

    /// Parses `{HEX}` after `\u`.
    private mutating func parseUnicodeEscape(escapeStart: Int) throws(ActionArgumentError) -> Unicode.Scalar {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            throw error("expected \\u{HEX}", at: escapeStart)
        }
        index += 1
        var value: UInt32 = 0
        var digits = 0
        while index < bytes.count, let digit = Self.hexDigit(bytes[index]) {
            guard digits < 8 else { throw error("expected \\u{HEX} with at most 8 digits", at: escapeStart) }
            value = value << 4 | UInt32(digit)
            digits += 1
            index += 1
        }
        guard digits > 0, index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
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
        var values: [UInt8] = []
        var high: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.quote {
                index += 1
                guard high == nil else { throw error("bytes need an even number of hex digits", at: start) }
                return values
            }
            guard let digit = Self.hexDigit(byte) else {
                throw error("expected a hex digit in bytes, got \(ActionValue.quoted(String(scalar(at: index))))", at: index)
            }
            index += 1
            if let h = high {
                values.append(h << 4 | digit)
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
        while index < bytes.count && !isSpace(bytes[index]) && bytes[index] != Self.quote { index += 1 }
        let text = self.text(start, index)
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
            throw ActionArgumentError(.outOfRange(expected: .f64, value: String(text.prefix(40))), column: errorColumn(start))
        }
        return .f64(value)
    }

    /// The common case read in place: an optional sign and decimal digits that fit, ended by a
    /// space, a quote or the end. `nil` (the index unchanged) for anything else, which
    /// ``parseNumber()`` reads (and words the errors of) the general way.
    private mutating func parseDecimalInteger() -> ActionValue? {
        var at = index
        var negative = false
        if bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
            negative = bytes[at] == UInt8(ascii: "-")
            at += 1
        }
        var magnitude: UInt64 = 0
        let first = at
        while at < bytes.count, case let value = bytes[at], value >= 48 && value <= 57 {
            let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(UInt64(value - 48))
            if overflowTimes || overflowSum { return nil }
            magnitude = sum
            at += 1
        }
        guard at > first, at == bytes.count || isSpace(bytes[at]) || bytes[at] == Self.quote else { return nil }
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
                                      column: errorColumn(start))
        }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return .i64(.min) }
            guard let v = Int64(exactly: magnitude) else {
                throw ActionArgumentError(.outOfRange(expected: .i64, value: String(text.prefix(40))), column: errorColumn(start))
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

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 97...102: byte - 87
        case 65...70: byte - 55
        default: nil
        }
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
