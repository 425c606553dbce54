import UndoPluginABI
import UndoPluginHost

/// Fuzzes script argument text and C-style values against signatures.
///
/// Input: a mode byte (bit 0: 0 = argument text, 1 = binary values), a signature selector,
/// then the text (UTF-8, repaired where invalid) or the encoded values.
///
/// Checked, beyond "no crash": `parse(_:for:)` agrees with `parseValues` followed by `check`;
/// `check` agrees with an independent model of the conversion rules (integers compared as
/// Int128); checked values have exactly the signature's types and check again unchanged; and
/// `format` reads back to the same values. Errors carry a column inside the text.
enum ArgumentsFuzzing {
    static func run(_ data: UnsafeRawBufferPointer) throws(FuzzInvariantViolation) {
        var input = FuzzInput(data)
        let mode = input.byte()
        let signature = readSignature(&input)
        if mode & 1 == 0 {
            try checkText(String(decoding: input.rest(), as: UTF8.self), against: signature)
        } else {
            let values = readValues(&input)
            try checkValues(values, against: signature)
        }
    }

    // MARK: Inputs

    /// The signatures of the sample plugins' actions and inverses, and a few edge cases.
    static let sampleSignatures: [ActionSignature] = [
        signature(.i64, .string),                                 // text.insert
        signature(.i64, .i64),                                    // text.delete, text.bold
        signature(.i64, .string, .bytes),                         // text.delete's inverse
        signature(.u64, .string, .f64, .f64, .f64, .f64, .u32),  // canvas.add
        signature(.u64, .f64, .f64),                              // canvas.move
        signature(.u64, .u32),                                    // canvas.recolor
        signature(.string, .i32),                                 // notes.write
        signature(.u32, .string, .i32),                           // notes.erase's inverse
        signature(),
        signature(.i32, .u32, .i64, .u64, .f64, .string, .bytes),
        signature(.bytes),
        signature(.f64),
    ]

    private static func signature(_ types: ActionValueType...) -> ActionSignature {
        ActionSignature(types.enumerated().map { ActionParameter("p\($0.offset)", $0.element) })
    }

    /// Selector bit 7 clear: a sample signature; set: up to UNDO_MAX_PARAMS parameters of
    /// types read from the input.
    private static func readSignature(_ input: inout FuzzInput) -> ActionSignature {
        let selector = input.byte()
        if selector & 0x80 == 0 { return sampleSignatures[Int(selector) % sampleSignatures.count] }
        let count = Int(selector & 0x7F) % (Int(UNDO_MAX_PARAMS) + 1)
        let types = (0..<count).map { _ in ActionValueType.allCases[input.choice(ActionValueType.allCases.count)] }
        return ActionSignature(types.enumerated().map { ActionParameter("p\($0.offset)", $0.element) })
    }

    /// Edge integers a fuzzer would take long to find by mutation alone.
    private static let edgeIntegers: [ActionValue] = [
        .i64(0), .i64(-1), .i64(Int64(Int32.min)), .i64(Int64(Int32.min) - 1), .i64(Int64(Int32.max)),
        .i64(Int64(Int32.max) + 1), .i64(Int64(UInt32.max)), .i64(Int64(UInt32.max) + 1), .i64(.min),
        .i64(.max), .u64(UInt64(Int64.max) + 1), .u64(.max), .i64(1 << 53), .i64(1 << 53 + 1),
        .i64(-(1 << 53) - 1), .u64(1 << 63 | 1), .i32(.min), .u32(.max),
    ]

    private static let edgeDoubles: [Double] = [
        .nan, .infinity, -.infinity, -0.0, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
        9007199254740992, 9007199254740994, 1e300, -1e-300, 0.1,
    ]

    /// A count byte, then per value a tag and its payload.
    private static func readValues(_ input: inout FuzzInput) -> [ActionValue] {
        let count = input.choice(Int(UNDO_MAX_PARAMS) + 2)
        return (0..<count).map { _ -> ActionValue in
            switch input.choice(10) {
            case 0: return .i32(Int32(bitPattern: input.integer(UInt32.self)))
            case 1: return .u32(input.integer(UInt32.self))
            case 2: return .i64(Int64(bitPattern: input.integer(UInt64.self)))
            case 3: return .u64(input.integer(UInt64.self))
            case 4: return .f64(Double(bitPattern: input.integer(UInt64.self)))
            case 5: return .string(String(decoding: input.shortBytes(), as: UTF8.self))  // may hold NUL
            case 6: return .bytes(input.shortBytes())
            case 7: return edgeIntegers[input.choice(edgeIntegers.count)]
            case 8: return .f64(edgeDoubles[input.choice(edgeDoubles.count)])
            default:
                // Around the size limit: one below, at, and one over. Behind a magic byte: 16 MiB
                // values are slow, and most runs should be spent elsewhere.
                guard input.byte() == 0xA5 else { return .string(String(decoding: input.shortBytes(), as: UTF8.self)) }
                let size = ActionArguments.maximumValueSize - 1 + input.choice(3)
                return input.bool() ? .bytes([UInt8](repeating: 0x61, count: size))
                                    : .string(String(repeating: "a", count: size))
            }
        }
    }

    // MARK: Checks

    private static func checkText(_ text: String, against signature: ActionSignature) throws(FuzzInvariantViolation) {
        let parsed = Result { () throws(ActionArgumentError) in try ActionArguments.parse(text, for: signature) }
        let written = Result { () throws(ActionArgumentError) in try ActionArguments.parseValues(text) }
        let columns = 1...(text.unicodeScalars.count + 1)
        switch written {
        case .failure(let error):
            // Text that does not tokenize fails the same way whatever the signature.
            try require(parsed == .failure(error), "parse(for:) gave \(parsed), parseValues \(error)")
            try require(error.column.map(columns.contains) == true, "error column outside the text: \(error)")
            switch error.kind {
            case .syntax, .outOfRange: break
            default: throw FuzzInvariantViolation("unexpected parse error kind: \(error)")
            }
        case .success(let values):
            let reread = Result { () throws(ActionArgumentError) in
                try ActionArguments.parseValues(ActionArguments.format(values))
            }
            try require(reread == .success(values), "format \(ActionArguments.format(values)) reads back as \(reread)")
            let checked = Result { () throws(ActionArgumentError) in try ActionArguments.check(values, against: signature) }
            try checkAgainstModel(values, signature, checked)
            switch (parsed, checked) {
            case (.success(let a), .success(let b)):
                try require(a == b, "parse(for:) \(a) differs from check \(b)")
            case (.failure(let a), .failure(let b)):
                // The same error, located at its argument's column.
                try require(a.kind == b.kind && a.index == b.index && a.parameter == b.parameter,
                            "parse(for:) error \(a) differs from check error \(b)")
                if a.index != nil {
                    try require(a.column.map(columns.contains) == true, "error column outside the text: \(a)")
                }
            default:
                throw FuzzInvariantViolation("parse(for:) gave \(parsed) but check gave \(checked)")
            }
        }
    }

    private static func checkValues(_ values: [ActionValue], against signature: ActionSignature) throws(FuzzInvariantViolation) {
        let checked = Result { () throws(ActionArgumentError) in try ActionArguments.check(values, against: signature) }
        try checkAgainstModel(values, signature, checked)
    }

    /// Compares `check`'s result with what the conversion rules say it must be, and checks
    /// the properties of a successful result.
    private static func checkAgainstModel(_ values: [ActionValue], _ signature: ActionSignature,
                                          _ checked: Result<[ActionValue], ActionArgumentError>) throws(FuzzInvariantViolation) {
        let parameters = signature.parameters
        guard values.count == parameters.count else {
            let expected = ActionArgumentError.Kind.wrongCount(expected: parameters.count, given: values.count)
            guard case .failure(let error) = checked, error.kind == expected, error.index == nil else {
                throw FuzzInvariantViolation("\(values.count) values for \(signature): expected \(expected), got \(checked)")
            }
            return
        }
        var expectedValues: [ActionValue] = []
        for (index, (value, parameter)) in zip(values, parameters).enumerated() {
            switch ConversionModel.convert(value, to: parameter.type) {
            case .success(let converted):
                expectedValues.append(converted)
            case .failure(let refusal):
                guard case .failure(let error) = checked, error.index == index, error.parameter == parameter.name,
                      refusal.matches(error.kind)
                else {
                    throw FuzzInvariantViolation("\(brief(value)) as \(parameter.type) (argument \(index)): "
                                                 + "expected \(refusal), got \(summary(checked))")
                }
                return
            }
        }
        guard case .success(let result) = checked else {
            throw FuzzInvariantViolation("\(values.map(brief)) against \(signature) refused: \(checked)")
        }
        try require(result == expectedValues, "checked \(result.map(brief)), expected \(expectedValues.map(brief))")
        try require(result.map(\.type) == signature.types, "checked types \(result.map(\.type)) for \(signature)")
        let again = Result { () throws(ActionArgumentError) in try ActionArguments.check(result, against: signature) }
        try require(again == .success(result), "checking checked values again gave \(summary(again))")
        // The script text of checked values reads back to them (values near the 16 MiB limit
        // are skipped: parsing that much text on every run would starve the fuzzer).
        if result.allSatisfy({ $0.description.utf8.count < 4096 }) {
            let text = ActionArguments.format(result)
            let reread = Result { () throws(ActionArgumentError) in try ActionArguments.parse(text, for: signature) }
            try require(reread == .success(result), "format \(text) reads back as \(summary(reread))")
        }
    }

    /// A value shortened for messages (values near the size limit are 16 MiB).
    private static func brief(_ value: ActionValue) -> String {
        let text = value.description
        return text.utf8.count <= 80 ? text : "\(value.type) of \(text.utf8.count) characters"
    }

    private static func summary(_ result: Result<[ActionValue], ActionArgumentError>) -> String {
        switch result {
        case .success(let values): "success \(values.map(brief))"
        case .failure(let error): "error \(error)"
        }
    }
}

/// The conversion rules of `ActionArguments`, restated independently: integers are compared
/// as Int128, which holds every value of all four integer types.
enum ConversionModel {
    enum Refusal: Error, CustomStringConvertible {
        case wrongType, outOfRange, notFinite, embeddedNUL, tooLarge

        func matches(_ kind: ActionArgumentError.Kind) -> Bool {
            switch (self, kind) {
            case (.wrongType, .wrongType), (.outOfRange, .outOfRange), (.notFinite, .notFinite),
                 (.embeddedNUL, .embeddedNUL), (.tooLarge, .tooLarge):
                true
            default:
                false
            }
        }

        var description: String {
            switch self {
            case .wrongType: "a wrong-type refusal"
            case .outOfRange: "an out-of-range refusal"
            case .notFinite: "a not-finite refusal"
            case .embeddedNUL: "an embedded-NUL refusal"
            case .tooLarge: "a too-large refusal"
            }
        }
    }

    static func convert(_ value: ActionValue, to type: ActionValueType) -> Result<ActionValue, Refusal> {
        let limit = ActionArguments.maximumValueSize
        switch (value, type) {
        case (.string(let text), .string):
            if text.utf8.contains(0) { return .failure(.embeddedNUL) }
            return text.utf8.count > limit ? .failure(.tooLarge) : .success(value)
        case (.bytes(let bytes), .bytes):
            return bytes.count > limit ? .failure(.tooLarge) : .success(value)
        case (.f64(let number), .f64):
            return number.isFinite ? .success(value) : .failure(.notFinite)
        default:
            break
        }
        guard let integer = integerValue(value), type != .string, type != .bytes else { return .failure(.wrongType) }
        let converted: ActionValue? = switch type {
        case .i32: Int32(exactly: integer).map(ActionValue.i32)
        case .u32: UInt32(exactly: integer).map(ActionValue.u32)
        case .i64: Int64(exactly: integer).map(ActionValue.i64)
        case .u64: UInt64(exactly: integer).map(ActionValue.u64)
        case .f64: Double(exactly: integer).map(ActionValue.f64)
        case .string, .bytes: nil
        }
        return converted.map { .success($0) } ?? .failure(.outOfRange)
    }

    private static func integerValue(_ value: ActionValue) -> Int128? {
        switch value {
        case .i32(let v): Int128(v)
        case .u32(let v): Int128(v)
        case .i64(let v): Int128(v)
        case .u64(let v): Int128(v)
        default: nil
        }
    }
}
