#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoPluginABI

/// Checks argument values against a signature, and parses script argument text.
///
/// **Conversion rules.** A value of the parameter's own type is taken as it is (strings must
/// not contain NUL, doubles must be finite, strings and bytes at most ``maximumValueSize``).
/// Integers convert between the four integer types when the value fits (scripts write every
/// integer as i64, or u64 above `Int64.max`), and to f64 when the double holds it exactly.
/// Nothing else converts: a double is never an integer, a string never bytes.
public enum ActionArguments {
    /// The largest string or bytes value, in bytes (`UNDO_MAX_VALUE_SIZE`).
    public static let maximumValueSize = Int(UNDO_MAX_VALUE_SIZE)

    /// Checks `values` against `signature` and converts each to its parameter's type.
    /// - Returns: values with exactly the signature's types.
    /// - Throws: the first problem: wrong count, wrong type, out of range, NUL in a string,
    ///   too large.
    public static func check(_ values: [ActionValue], against signature: ActionSignature)
        throws(ActionArgumentError) -> [ActionValue]
    {
        let parameters = signature.parameters
        guard values.count == parameters.count else {
            throw ActionArgumentError(.wrongCount(expected: parameters.count, given: values.count))
        }
        // Values that already have their parameters' types are returned as they are (no new
        // array); the first one that converts starts a copy.
        var checked: [ActionValue]?
        for (index, (value, parameter)) in zip(values, parameters).enumerated() {
            do throws(ActionArgumentError.Kind) {
                let converted = try value.converted(to: parameter.type)
                if checked == nil && converted.type != value.type {
                    checked = Array(values[..<index])
                    checked!.reserveCapacity(values.count)
                }
                checked?.append(converted)
            } catch {
                throw ActionArgumentError(error, index: index, parameter: parameter.name)
            }
        }
        return checked ?? values
    }

    /// Parses script argument text (`12 "hello world" 3.5 x"00ff"`) and checks the values
    /// against `signature`.
    ///
    /// Syntax, arguments separated by spaces or tabs:
    /// - integers: `42`, `-7`, `+3`, `0x1F` (hex, with an optional sign);
    /// - doubles: `3.5`, `-0.25`, `1e-3`, `2.` (a `.` or an exponent makes a double);
    /// - strings: `"..."` with the escapes `\"` `\\` `\n` `\t` `\r` `\0` and `\u{1F600}`;
    /// - bytes: `x"00ff"` (pairs of hex digits).
    /// - Throws: a syntax error with its column, or the first checking error (with the column
    ///   of the argument at fault).
    public static func parse(_ text: String, for signature: ActionSignature)
        throws(ActionArgumentError) -> [ActionValue]
    {
        var scanner = ArgumentTextScanner(text)
        let tokens = try scanner.scanAll()
        do throws(ActionArgumentError) {
            return try check(tokens.map(\.value), against: signature)
        } catch {
            var located = error
            if let index = error.index, index < tokens.count { located.column = tokens[index].column }
            throw located
        }
    }

    /// Parses script argument text into values as written (integers as i64 or u64), without a
    /// signature to check them against.
    public static func parseValues(_ text: String) throws(ActionArgumentError) -> [ActionValue] {
        var scanner = ArgumentTextScanner(text)
        return try scanner.scanAll().map(\.value)
    }

    /// The script text of `values`, which ``parse(_:for:)`` reads back to the same values.
    public static func format(_ values: [ActionValue]) -> String {
        values.map(\.description).joined(separator: " ")
    }
}

extension ActionValue {
    /// This value as a value of `type`, following the conversion rules of ``ActionArguments``.
    func converted(to type: ActionValueType) throws(ActionArgumentError.Kind) -> ActionValue {
        switch (self, type) {
        case (.i64, .i64), (.i32, .i32), (.u64, .u64), (.u32, .u32):
            return self
        case (.string(let s), .string):
            if Self.containsNUL(s) { throw .embeddedNUL }
            try Self.checkSize(s.utf8.count)
            return self
        case (.bytes(let b), .bytes):
            try Self.checkSize(b.count)
            return self
        case (.f64(let v), .f64):
            guard v.isFinite else { throw .notFinite }
            return self
        default:
            break
        }
        if let integer = integerValue {
            switch type {
            case .i32: if let v = Int32(exactly: integer) { return .i32(v) }
            case .u32: if let v = UInt32(exactly: integer) { return .u32(v) }
            case .i64: if let v = Int64(exactly: integer) { return .i64(v) }
            case .u64: if let v = UInt64(exactly: integer) { return .u64(v) }
            case .f64: if let v = integer.exactDouble { return .f64(v) }
            case .string, .bytes: throw .wrongType(expected: type, given: self.type)
            }
            throw .outOfRange(expected: type, value: description)
        }
        throw .wrongType(expected: type, given: self.type)
    }

    /// Whether `text` has a NUL byte: one memchr over its UTF-8, read in place when it is
    /// contiguous (a native string), else (a small string) over a copy on the stack.
    static func containsNUL(_ text: String) -> Bool {
        // A keystroke of one byte is read in place (memchr on a copy cost about 35 instructions).
        let utf8 = text.utf8
        if utf8.count == 1 {
            var bytes = utf8.makeIterator()
            return bytes.next() == 0
        }
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
        if let found = text.utf8.withContiguousStorageIfAvailable(scan) { return found }
        var copy = text
        return copy.withUTF8(scan)
    }

    /// The value of an integer of any of the four types, in a type that holds them all.
    private var integerValue: WideInteger? {
        switch self {
        case .i32(let v): WideInteger(Int64(v))
        case .u32(let v): WideInteger(Int64(v))
        case .i64(let v): WideInteger(v)
        case .u64(let v): WideInteger(unsigned: v)
        default: nil
        }
    }

    private static func checkSize(_ size: Int) throws(ActionArgumentError.Kind) {
        if size > ActionArguments.maximumValueSize {
            throw .tooLarge(size: size, limit: ActionArguments.maximumValueSize)
        }
    }
}

/// An integer in `Int64.min ... UInt64.max`: a sign and a magnitude.
private struct WideInteger {
    var negative: Bool
    var magnitude: UInt64

    init(_ value: Int64) {
        negative = value < 0
        magnitude = value.magnitude
    }
    init(unsigned value: UInt64) {
        negative = false
        magnitude = value
    }

    var exactDouble: Double? {
        guard let d = Double(exactly: magnitude) else { return nil }
        return negative ? -d : d
    }
}

extension Int32 {
    fileprivate init?(exactly value: WideInteger) {
        guard let v = Int64(exactly: value), let n = Int32(exactly: v) else { return nil }
        self = n
    }
}

extension UInt32 {
    fileprivate init?(exactly value: WideInteger) {
        guard !value.negative, let n = UInt32(exactly: value.magnitude) else { return nil }
        self = n
    }
}

extension Int64 {
    fileprivate init?(exactly value: WideInteger) {
        if value.negative {
            guard value.magnitude <= UInt64(Int64.max) + 1 else { return nil }
            self = value.magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(value.magnitude)
        } else {
            guard let n = Int64(exactly: value.magnitude) else { return nil }
            self = n
        }
    }
}

extension UInt64 {
    fileprivate init?(exactly value: WideInteger) {
        guard !value.negative || value.magnitude == 0 else { return nil }
        self = value.magnitude
    }
}
