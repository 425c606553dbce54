import UndoPluginABI

extension UndoValue {
    /// Copies a value the host gave (merge arguments). Strings that are not UTF-8 are repaired
    /// rather than refused: the host has already checked them.
    /// - Throws: an unknown type tag, or NULL data with a size.
    public init(copying value: undo_value) throws(UndoPluginError) {
        guard let type = UndoValueType(rawValue: value.type) else {
            throw UndoPluginError(.wrongType, "unknown value type \(value.type)")
        }
        switch type {
        case .i32: self = .i32(value.as.i32)
        case .u32: self = .u32(value.as.u32)
        case .i64: self = .i64(value.as.i64)
        case .u64: self = .u64(value.as.u64)
        case .f64: self = .f64(value.as.f64)
        case .string:
            let bytes = try Self.copyBytes(UnsafeRawPointer(value.as.string.data), size: value.as.string.size)
            self = .string(String(decoding: bytes, as: UTF8.self))
        case .bytes:
            self = .bytes(try Self.copyBytes(value.as.bytes.data, size: value.as.bytes.size))
        }
    }

    private static func copyBytes(_ data: UnsafeRawPointer?, size: UInt64) throws(UndoPluginError) -> [UInt8] {
        guard size > 0 else { return [] }
        guard let data, size <= UInt64(UNDO_MAX_VALUE_SIZE) else {
            throw UndoPluginError(.invalidArgument, "value data is NULL or larger than the limit (\(size) bytes)")
        }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// Copies `count` values from a C array (NULL only when count is 0).
    static func copyArray(_ values: UnsafePointer<undo_value>?, count: Int) throws(UndoPluginError) -> [UndoValue] {
        guard count > 0 else { return [] }
        guard let values else { throw UndoPluginError(.invalidArgument, "the host gave a NULL value array") }
        var copied: [UndoValue] = []
        copied.reserveCapacity(count)
        for index in 0..<count { copied.append(try UndoValue(copying: values[index])) }
        return copied
    }

    /// Runs `body` with this value as a C `undo_value`. Its pointers are valid only inside
    /// `body`, which is enough for host callbacks: they copy at once.
    public func withCValue<R>(_ body: (UnsafePointer<undo_value>) -> R) -> R {
        var c = undo_value()
        c.type = type.rawValue
        switch self {
        case .i32(let v): c.as.i32 = v
        case .u32(let v): c.as.u32 = v
        case .i64(let v): c.as.i64 = v
        case .u64(let v): c.as.u64 = v
        case .f64(let v): c.as.f64 = v
        case .string(let text):
            var text = text
            return text.withUTF8 { utf8 in
                c.as.string.data = utf8.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
                    ?? Self.emptyString
                c.as.string.size = UInt64(utf8.count)
                return body(&c)
            }
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { raw in
                c.as.bytes.data = raw.baseAddress
                c.as.bytes.size = UInt64(raw.count)
                return body(&c)
            }
        }
        return body(&c)
    }

    /// Runs `body` with several values as a C array (never a NULL pointer, even when empty).
    static func withCArray<R>(_ values: [UndoValue], _ body: (UnsafePointer<undo_value>, UInt32) -> R) -> R {
        var converted: [undo_value] = []
        converted.reserveCapacity(values.count)
        return withCValues(values[...], into: &converted, body)
    }

    /// Nests one withCValue per value so every pointer stays valid while `body` runs.
    private static func withCValues<R>(_ rest: ArraySlice<UndoValue>, into converted: inout [undo_value],
                                       _ body: (UnsafePointer<undo_value>, UInt32) -> R) -> R {
        guard let first = rest.first else {
            let count = UInt32(converted.count)
            if converted.isEmpty { converted.append(undo_value()) }
            return converted.withUnsafeBufferPointer { body($0.baseAddress!, count) }
        }
        return first.withCValue { value in
            converted.append(value.pointee)
            return withCValues(rest.dropFirst(), into: &converted, body)
        }
    }

    /// A NUL byte for empty strings: the ABI never gets NULL string data from us.
    private nonisolated(unsafe) static let emptyString: UnsafePointer<CChar> = {
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()
}

extension String {
    /// A string parameter of a perform or inverse function (`const char *`, valid UTF-8 from the
    /// host, never NULL); NULL gives "".
    public init(undoArgument pointer: UnsafePointer<CChar>?) {
        self = pointer.map { String(cString: $0) } ?? ""
    }
}

extension Array where Element == UInt8 {
    /// A bytes parameter of a perform or inverse function (`const void *data, uint64_t size`).
    public init(undoArgument data: UnsafeRawPointer?, size: UInt64) {
        guard let data, size > 0 else {
            self = []
            return
        }
        self = Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }
}
