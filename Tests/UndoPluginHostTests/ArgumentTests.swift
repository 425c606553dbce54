import Testing
import UndoPluginABI
@testable import UndoPluginHost

/// Checking values against signatures, and parsing script argument text.
@Suite struct ArgumentTests {
    let all = ActionSignature([
        ActionParameter("a", .i32), ActionParameter("b", .u32), ActionParameter("c", .i64),
        ActionParameter("d", .u64), ActionParameter("e", .f64), ActionParameter("s", .string),
        ActionParameter("bytes", .bytes),
    ])

    func kind(_ values: [ActionValue], _ signature: ActionSignature) -> ActionArgumentError? {
        do {
            _ = try ActionArguments.check(values, against: signature)
            return nil
        } catch {
            return error
        }
    }

    func parseError(_ text: String, _ signature: ActionSignature) -> ActionArgumentError? {
        do {
            _ = try ActionArguments.parse(text, for: signature)
            return nil
        } catch {
            return error
        }
    }

    @Test func integersConvertWhenTheyFit() throws {
        let values = try ActionArguments.check([.i64(-5), .i64(7), .u64(9), .i64(9), .i64(3), .string("x"), .bytes([1])],
                                               against: all)
        #expect(values == [.i32(-5), .u32(7), .i64(9), .u64(9), .f64(3), .string("x"), .bytes([1])])
        #expect(try ActionArguments.check([.i64(Int64(Int32.min))], against: ActionSignature([ActionParameter("a", .i32)]))
            == [.i32(.min)])
        #expect(try ActionArguments.check([.u64(UInt64(UInt32.max))], against: ActionSignature([ActionParameter("b", .u32)]))
            == [.u32(.max)])
    }

    @Test func wrongCountIsRefused() {
        let error = kind([.i64(1)], all)
        #expect(error?.kind == .wrongCount(expected: 7, given: 1))
        #expect(error?.code == UNDO_ECOUNT)
    }

    @Test func wrongTypesAreRefused() {
        let i32 = ActionSignature([ActionParameter("n", .i32)])
        #expect(kind([.f64(3)], i32) == ActionArgumentError(.wrongType(expected: .i32, given: .f64), index: 0, parameter: "n"))
        #expect(kind([.string("3")], i32)?.kind == .wrongType(expected: .i32, given: .string))
        #expect(kind([.bytes([1])], ActionSignature([ActionParameter("s", .string)]))?.kind == .wrongType(expected: .string, given: .bytes))
        #expect(kind([.string("x")], ActionSignature([ActionParameter("b", .bytes)]))?.kind == .wrongType(expected: .bytes, given: .string))
        #expect(kind([.f64(3)], i32)?.code == UNDO_ETYPE)
    }

    @Test func outOfRangeNumbersAreRefused() {
        let i32 = ActionSignature([ActionParameter("n", .i32)])
        let u32 = ActionSignature([ActionParameter("n", .u32)])
        let i64 = ActionSignature([ActionParameter("n", .i64)])
        let u64 = ActionSignature([ActionParameter("n", .u64)])
        let f64 = ActionSignature([ActionParameter("n", .f64)])
        #expect(kind([.i64(Int64(Int32.max) + 1)], i32)?.kind == .outOfRange(expected: .i32, value: "2147483648"))
        #expect(kind([.i64(Int64(Int32.min) - 1)], i32)?.kind == .outOfRange(expected: .i32, value: "-2147483649"))
        #expect(kind([.i64(-1)], u32)?.kind == .outOfRange(expected: .u32, value: "-1"))
        #expect(kind([.i64(-1)], u64)?.kind == .outOfRange(expected: .u64, value: "-1"))
        #expect(kind([.u64(.max)], i64)?.kind == .outOfRange(expected: .i64, value: "18446744073709551615"))
        #expect(kind([.u64((1 << 53) + 1)], f64)?.kind == .outOfRange(expected: .f64, value: "9007199254740993"))
        #expect(kind([.f64(.nan)], f64)?.kind == .notFinite)
        #expect(kind([.f64(.infinity)], f64)?.code == UNDO_ERANGE)
    }

    @Test func stringsMustHaveNoNULAndBeSmallEnough() {
        let s = ActionSignature([ActionParameter("s", .string)])
        #expect(kind([.string("a\0b")], s)?.kind == .embeddedNUL)
        #expect(kind([.string("a\0b")], s)?.code == UNDO_EUTF8)
        let big = [UInt8](repeating: 1, count: ActionArguments.maximumValueSize + 1)
        #expect(kind([.bytes(big)], ActionSignature([ActionParameter("b", .bytes)]))?.kind
            == .tooLarge(size: big.count, limit: ActionArguments.maximumValueSize))
    }

    @Test func cValuesAreCheckedForUTF8AndShape() throws {
        let s = ActionSignature([ActionParameter("s", .string)])
        let invalid: [UInt8] = [0x68, 0xFF, 0x69]
        let error = invalid.withUnsafeBufferPointer { buffer -> ActionArgumentError? in
            var value = undo_value()
            value.type = UInt32(UNDO_TYPE_STRING)
            value.as.string.data = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            value.as.string.size = 3
            do throws(ActionArgumentError) {
                _ = try ActionArguments.check(&value, count: 1, against: s)
                return nil
            } catch {
                return error
            }
        }
        #expect(error == ActionArgumentError(.invalidUTF8, index: 0, parameter: "s"))

        var unknown = undo_value()
        unknown.type = 42
        #expect(throws: ActionArgumentError(.unknownType(42), index: 0, parameter: "s")) {
            try ActionArguments.check(&unknown, count: 1, against: s)
        }
        var nullData = undo_value()
        nullData.type = UInt32(UNDO_TYPE_BYTES)
        nullData.as.bytes.size = 4
        #expect(throws: ActionArgumentError.self) {
            try ActionArguments.check(&nullData, count: 1, against: ActionSignature([ActionParameter("b", .bytes)]))
        }
        // Valid C values convert like Swift ones.
        var number = undo_value()
        number.type = UInt32(UNDO_TYPE_I64)
        number.as.i64 = 12
        #expect(try ActionArguments.check(&number, count: 1, against: ActionSignature([ActionParameter("n", .u32)])) == [.u32(12)])
    }

    @Test func parsesTheScriptSyntax() throws {
        let signature = ActionSignature([ActionParameter("n", .i32), ActionParameter("text", .string),
                                         ActionParameter("x", .f64), ActionParameter("data", .bytes)])
        #expect(try ActionArguments.parse(#"12 "hello world" 3.5 x"00ff""#, for: signature)
            == [.i32(12), .string("hello world"), .f64(3.5), .bytes([0x00, 0xFF])])
        #expect(try ActionArguments.parse("  -0x10\t\"\"  -1e-3  x\"\"  ", for: signature)
            == [.i32(-16), .string(""), .f64(-0.001), .bytes([])])
        #expect(try ActionArguments.parseValues(#""a\"b\\c\n\t\u{1F600}" +7 2. .5 18446744073709551615 -9223372036854775808"#)
            == [.string("a\"b\\c\n\t😀"), .i64(7), .f64(2), .f64(0.5), .u64(.max), .i64(.min)])
    }

    @Test func syntaxErrorsHaveColumns() {
        let one = ActionSignature([ActionParameter("s", .string)])
        let two = ActionSignature([ActionParameter("a", .string), ActionParameter("b", .string)])
        #expect(parseError(#""abc"#, one) == ActionArgumentError(.syntax("the string has no closing quote"), column: 1))
        #expect(parseError(#"  hello"#, one)?.column == 3)
        #expect(parseError(#"  hello"#, one)?.reason.contains(#"strings need double quotes ("hello")"#) == true)
        #expect(parseError(#""a""b""#, two) == ActionArgumentError(.syntax("expected a space after argument 1"), column: 4))
        #expect(parseError(#""\q""#, one)?.kind == .syntax("unknown escape \\q in a string"))
        #expect(parseError(#""\u{D800}""#, one)?.kind == .syntax("\\u{d800} is not a Unicode scalar value"))
        #expect(parseError(#"x"0""#, ActionSignature([ActionParameter("b", .bytes)]))?.kind
            == .syntax("bytes need an even number of hex digits"))
        #expect(parseError(#"x"zz""#, ActionSignature([ActionParameter("b", .bytes)]))?.column == 3)
        #expect(parseError("1.2.3", ActionSignature([ActionParameter("x", .f64)]))?.kind == .syntax("malformed number 1.2.3"))
        #expect(parseError("inf", ActionSignature([ActionParameter("x", .f64)])) != nil)
        #expect(parseError("1e999", ActionSignature([ActionParameter("x", .f64)]))?.kind == .outOfRange(expected: .f64, value: "1e999"))
        #expect(parseError("99999999999999999999", ActionSignature([ActionParameter("x", .u64)]))?.kind
            == .outOfRange(expected: .u64, value: "99999999999999999999"))
    }

    /// The scanner reads the text's UTF-8 bytes in place, not an array of scalars (four bytes a
    /// character: 67 MB for an argument of 16 MiB), and a string without escapes is made from
    /// its bytes at once. Columns still count scalars, escapes still
    /// decode, and a non-ASCII character is named whole in an error. Counted, not timed.
    @Test func theScannerReadsTheTextInPlaceAndCountsColumnsInScalars() throws {
        let long = String(repeating: "a", count: 1 << 20)
        let text = "12 \"" + long + "\""
        let scanner = ArgumentTextScanner(text)
        #expect(scanner.bytesHeld == 0, "the text's own bytes are read: no copy, not 4 bytes a scalar")
        #expect(try ActionArguments.parseValues(text) == [.i64(12), .string(long)])
        let one = ActionSignature([ActionParameter("s", .string)])
        let two = ActionSignature([ActionParameter("a", .string), ActionParameter("b", .string)])
        // é (2 bytes), 😀 (4 bytes): columns count them as one each.
        #expect(parseError("\"é😀\"x", two) == ActionArgumentError(.syntax("expected a space after argument 1"), column: 5))
        #expect(parseError("\"é😀\" \"ü", two) == ActionArgumentError(.syntax("the string has no closing quote"), column: 6))
        #expect(parseError("\"é\\ü\"", one) == ActionArgumentError(.syntax("unknown escape \\ü in a string"), column: 3))
        #expect(parseError("x\"0ä\"", ActionSignature([ActionParameter("b", .bytes)]))
            == ActionArgumentError(.syntax("expected a hex digit in bytes, got \"ä\""), column: 4))
        #expect(parseError("\"é\" 2ö", ActionSignature([ActionParameter("s", .string), ActionParameter("n", .i64)]))?.column == 5)
        #expect(parseError("\"é\" 1 é", ActionSignature([ActionParameter("s", .string), ActionParameter("n", .i64)]))
            == ActionArgumentError(.syntax("unexpected é: strings need double quotes (\"é\") and bytes x\"...\""), column: 7))
        // Escapes between runs of UTF-8, and a run after the last escape.
        #expect(try ActionArguments.parseValues("\"é\\n😀\\u{e9}\\\"ü\\\\\" \"\\t\"")
            == [.string("é\n😀é\"ü\\"), .string("\t")])
    }

    @Test func checkingErrorsOfParsedTextPointAtTheArgument() {
        let signature = ActionSignature([ActionParameter("position", .i64), ActionParameter("count", .i32)])
        #expect(parseError("1 2147483648", signature)
            == ActionArgumentError(.outOfRange(expected: .i32, value: "2147483648"), index: 1, parameter: "count", column: 3))
        #expect(parseError("1 2.5", signature)?.kind == .wrongType(expected: .i32, given: .f64))
        #expect(parseError(#"1 "2""#, signature)?.description == "argument 2 (count), column 3: expected i32, got string")
        #expect(parseError("1", signature)?.kind == .wrongCount(expected: 2, given: 1))
        #expect(parseError(#""a\0b""#, ActionSignature([ActionParameter("s", .string)]))?.kind == .embeddedNUL)
    }

    /// What `format` writes, `parse` reads back to the same values.
    @Test func formatAndParseRoundTrip() throws {
        var generator = SplitMix(seed: 7)
        for _ in 0..<300 {
            let values: [ActionValue] = [
                .i32(Int32(truncatingIfNeeded: generator.next())),
                .u32(UInt32(truncatingIfNeeded: generator.next())),
                .i64(Int64(bitPattern: generator.next())),
                .u64(generator.next()),
                .f64(Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF) * (generator.next() % 2 == 0 ? 1 : -1)),
                .string(String(decoding: (0..<(generator.next() % 12)).map { _ in UInt8(1 + generator.next() % 126) }, as: UTF8.self) + "é\"\\\u{1}"),
                .bytes((0..<(generator.next() % 9)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }),
            ]
            let text = ActionArguments.format(values)
            #expect(try ActionArguments.parse(text, for: all) == values, "\(text)")
        }
    }
}

/// A small deterministic generator for the round-trip test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
