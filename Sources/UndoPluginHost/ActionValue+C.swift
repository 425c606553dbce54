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
            let bytes = try Self.readBytes(UnsafeRawPointer(value.as.string.data), size: value.as.string.size)
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
            self = .string(text)
        case .bytes:
            self = .bytes(try Self.readBytes(value.as.bytes.data, size: value.as.bytes.size))
        }
    }

    private static func readBytes(_ data: UnsafeRawPointer?, size: UInt64) throws(ActionArgumentError.Kind) -> [UInt8] {
        guard size <= UInt64(ActionArguments.maximumValueSize) else {
            throw .tooLarge(size: Int(clamping: size), limit: ActionArguments.maximumValueSize)
        }
        guard size > 0 else { return [] }
        guard let data else { throw .invalidValue("data is NULL but size is \(size)") }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// Runs `body` with these values as C `undo_value`s; strings are NUL-terminated copies.
    /// The pointers are valid only inside `body`.
    /// - Complexity: O(bytes of the string and bytes values); the array and the copies are on
    ///   the stack when small.
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
        let arrayBytes = count * MemoryLayout<undo_value>.stride
        return withUnsafeTemporaryAllocation(byteCount: arrayBytes + copyBytes,
                                             alignment: MemoryLayout<undo_value>.alignment) { scratch in
            let cValues = scratch.baseAddress!.bindMemory(to: undo_value.self, capacity: count)
            var copies = scratch.baseAddress! + arrayBytes
            func copy(_ source: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
                let destination = copies
                if let from = source.baseAddress, source.count > 0 {
                    destination.copyMemory(from: from, byteCount: source.count)
                }
                destination.storeBytes(of: 0, toByteOffset: source.count, as: UInt8.self)
                copies += source.count + 1
                return destination
            }
            cValues.initialize(to: undo_value())
            var index = 0
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
                    let pointer = s.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
                    c.as.string.data = UnsafePointer(pointer.assumingMemoryBound(to: CChar.self))
                    c.as.string.size = UInt64(size)
                case .bytes(let b):
                    c.as.bytes.data = UnsafeRawPointer(b.withUnsafeBytes { copy($0) })
                    c.as.bytes.size = UInt64(b.count)
                }
                (cValues + index).initialize(to: c)
                index += 1
            }
            return body(UnsafePointer(cValues))
        }
    }
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
