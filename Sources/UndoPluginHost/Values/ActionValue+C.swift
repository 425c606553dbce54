import UndoPluginABI

extension ActionValue {
    /// Reads a value a C caller gave (a plugin's `record` or `set_inverse_arg`, a C client),
    /// copying what it points to.
    /// - Throws: an unknown type tag, NULL data with a size, a size over the limit, invalid
    ///   UTF-8 (checked before anything is read past the limit).
    init(reading value: undo_value) throws(ActionArgumentError.Kind) {
        guard let type = ActionValueType(rawValue: value.type) else { throw .unknownType(value.type) }
        switch type {
        case .i32: self = .i32(value.as.i32)
        case .u32: self = .u32(value.as.u32)
        case .i64: self = .i64(value.as.i64)
        case .u64: self = .u64(value.as.u64)
        case .f64: self = .f64(value.as.f64)
        case .string:
            // Decoded from the caller's memory (checked as for bytes first), not from a copy.
            let text = try Self.withBytes(UnsafeRawPointer(value.as.string.data), size: value.as.string.size) {
                CStrings.validated($0)
            }
            guard let text else { throw .invalidUTF8 }
            self = .string(text)
        case .bytes:
            self = .bytes(try Self.readBytes(value.as.bytes.data, size: value.as.bytes.size))
        }
    }

    private static func readBytes(_ data: UnsafeRawPointer?, size: UInt64) throws(ActionArgumentError.Kind) -> [UInt8] {
        try withBytes(data, size: size) { Array($0) }
    }

    /// Runs `body` with the `size` bytes at `data`, once they are checked: at most
    /// ``ActionArguments/maximumValueSize``, and not NULL unless empty.
    private static func withBytes<R>(_ data: UnsafeRawPointer?, size: UInt64,
                                     _ body: (UnsafeRawBufferPointer) -> R) throws(ActionArgumentError.Kind) -> R {
        guard size <= UInt64(ActionArguments.maximumValueSize) else {
            throw .tooLarge(size: Int(clamping: size), limit: ActionArguments.maximumValueSize)
        }
        guard size > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let data else { throw .invalidValue("data is NULL but size is \(size)") }
        return body(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// Runs `body` with these values as C `undo_value`s; strings are NUL-terminated copies.
    /// The pointers are valid only inside `body`.
    /// - Complexity: O(bytes of the string and bytes values); the array and the copies are on
    ///   the stack when small (``CValueScratch``).
    static func withCValues<Values: Collection, R>(_ values: Values, _ body: (UnsafePointer<undo_value>) -> R) -> R
        where Values.Element == ActionValue
    {
        var copyBytes = 0
        for value in values {
            switch value {
            case .string(let s): copyBytes += s.utf8.count + 1
            case .bytes(let b): copyBytes += b.count + 1
            default: break
            }
        }
        let count = max(values.count, 1) // never hand out a NULL array
        let size = CValueScratch.byteCount(values: count, copies: copyBytes)
        return withUnsafeTemporaryAllocation(byteCount: size, alignment: MemoryLayout<undo_value>.alignment) { buffer in
            var scratch = CValueScratch(buffer, values: count)
            for value in values {
                var c = undo_value()
                c.type = value.type.rawValue
                switch value {
                case .i32(let v): c.as.i32 = v
                case .u32(let v): c.as.u32 = v
                case .i64(let v): c.as.i64 = v
                case .u64(let v): c.as.u64 = v
                case .f64(let v): c.as.f64 = v
                case .string(var s):
                    let size = s.utf8.count
                    c.as.string.data = s.withUTF8 { scratch.copyString(UnsafeRawBufferPointer($0)) }
                    c.as.string.size = UInt64(size)
                case .bytes(let b):
                    c.as.bytes.data = b.withUnsafeBytes { scratch.copyBytes($0) }
                    c.as.bytes.size = UInt64(b.count)
                }
                scratch.append(c)
            }
            return body(scratch.values)
        }
    }
}

/// The storage of C values handed to a plugin (the argument arrays of a merge call): the only
/// place their memory is handled.
///
/// Layout of the buffer (``byteCount(values:copies:)`` bytes, aligned for `undo_value`): the
/// array of `values` `undo_value`s (all initialized: zero values until appended), then the
/// copies of string and bytes values, each followed by a NUL.
///
/// Invariants (checked with preconditions): at most `values` values are appended; the copies
/// stay inside the buffer. The buffer must outlive every use of the pointers (a
/// `withUnsafeTemporaryAllocation` around the call).
struct CValueScratch {
    private let base: UnsafeMutableRawPointer
    private let size: Int
    private let capacity: Int
    private var count = 0
    private var copyOffset: Int
    /// The array (valid while the buffer is).
    let values: UnsafePointer<undo_value>

    static func byteCount(values: Int, copies: Int) -> Int { values * MemoryLayout<undo_value>.stride + copies }

    init(_ buffer: UnsafeMutableRawBufferPointer, values: Int) {
        base = buffer.baseAddress!
        size = buffer.count
        capacity = values
        copyOffset = Self.byteCount(values: values, copies: 0)
        precondition(copyOffset <= size, "the scratch is too small")
        let array = base.bindMemory(to: undo_value.self, capacity: values)
        array.initialize(repeating: undo_value(), count: values)
        self.values = UnsafePointer(array)
    }

    /// Stores the next value in the array.
    mutating func append(_ value: undo_value) {
        precondition(count < capacity, "more values than the array holds")
        UnsafeMutablePointer(mutating: values)[count] = value
        count += 1
    }

    /// Copies `bytes` and a NUL after them into the scratch, as C characters.
    mutating func copyString(_ bytes: UnsafeRawBufferPointer) -> UnsafePointer<CChar> {
        UnsafePointer(copy(bytes).bindMemory(to: CChar.self, capacity: bytes.count + 1))
    }

    /// Copies `bytes` and a NUL after them into the scratch.
    mutating func copyBytes(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer { UnsafeRawPointer(copy(bytes)) }

    private mutating func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
        precondition(copyOffset + bytes.count + 1 <= size, "the copies overrun the scratch")
        let destination = base + copyOffset
        copyTerminated(bytes, to: destination)
        copyOffset += bytes.count + 1
        return destination
    }
}

/// Copies `bytes` to `destination` with a NUL after them (a C string's or a bytes value's copy
/// for a call); `destination` has room for `bytes.count + 1` bytes.
func copyTerminated(_ bytes: UnsafeRawBufferPointer, to destination: UnsafeMutableRawPointer) {
    if let source = bytes.baseAddress, bytes.count > 0 {
        destination.copyMemory(from: source, byteCount: bytes.count)
    }
    destination.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
}

extension ActionArguments {
    /// Checks C values (from a C client or a plugin) against `signature`, with the same rules
    /// as ``check(_:against:)``, plus invalid UTF-8 and malformed values.
    /// - Parameter values: `count` values; may be NULL when `count` is 0.
    public static func check(_ values: UnsafePointer<undo_value>?, count: Int, against signature: ActionSignature)
        throws(ActionArgumentError) -> [ActionValue]
    {
        guard count == signature.parameters.count else {
            throw ActionArgumentError(.wrongCount(expected: signature.parameters.count, given: count))
        }
        guard count > 0 else { return [] }
        guard let values else { throw ActionArgumentError(.invalidValue("the argument array is NULL")) }
        var read: [ActionValue] = []
        for index in 0..<count {
            do throws(ActionArgumentError.Kind) {
                read.append(try ActionValue(reading: values[index]))
            } catch {
                throw ActionArgumentError(error, index: index, parameter: signature.parameters[index].name)
            }
        }
        return try check(read, against: signature)
    }
}
