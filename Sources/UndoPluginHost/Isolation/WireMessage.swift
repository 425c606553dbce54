import UndoCore

/// The bytes of one message between the host and an isolated plugin's process
/// (``IsolatedPluginProcess``, ``IsolatedPluginServer``): C-typed values, little-endian, one
/// after another. Both ends are this module, so the format needs no version: the runner is
/// always the one built with the host.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    init(_ kind: UInt8) {
        // The first four bytes are the length, filled in by ``framed``.
        bytes.reserveCapacity(64)
        bytes.append(contentsOf: [0, 0, 0, 0, kind])
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func u32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) } }
    mutating func u64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    mutating func raw(_ value: [UInt8]) {
        u64(UInt64(value.count))
        bytes.append(contentsOf: value)
    }
    mutating func string(_ value: String) {
        u64(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }
    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }
    mutating func value(_ value: ActionValue) {
        u8(UInt8(value.type.rawValue))
        switch value {
        case .i32(let v): i32(v)
        case .u32(let v): u32(v)
        case .i64(let v): i64(v)
        case .u64(let v): u64(v)
        case .f64(let v): u64(v.bitPattern)
        case .string(let s): string(s)
        case .bytes(let b): raw(b)
        }
    }
    mutating func values(_ values: [ActionValue]) {
        u32(UInt32(values.count))
        for item in values { value(item) }
    }
    mutating func optionalValues(_ values: [ActionValue]?) {
        bool(values != nil)
        if let values { self.values(values) }
    }

    /// The message with its length in front.
    var framed: [UInt8] {
        var result = bytes
        let length = UInt32(result.count - 4)
        for index in 0..<4 { result[index] = UInt8(truncatingIfNeeded: length >> UInt32(8 * index)) }
        return result
    }
}

/// Reads a message ``WireWriter`` wrote. A message that ends early or holds a value of an
/// unknown type throws: the other end is then not the runner it should be.
struct WireReader {
    struct Malformed: Error {}

    private let bytes: [UInt8]
    private var offset: Int
    let kind: UInt8

    /// Reads the body of one message (without its length).
    init(_ body: [UInt8]) throws(Malformed) {
        guard !body.isEmpty else { throw Malformed() }
        bytes = body
        kind = body[0]
        offset = 1
    }

    var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ count: Int) throws(Malformed) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - offset >= count else { throw Malformed() }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func u8() throws(Malformed) -> UInt8 { try take(1).first! }
    mutating func bool() throws(Malformed) -> Bool { try u8() != 0 }
    mutating func u32() throws(Malformed) -> UInt32 {
        var value: UInt32 = 0
        for (index, byte) in try take(4).enumerated() { value |= UInt32(byte) << UInt32(8 * index) }
        return value
    }
    mutating func u64() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        for (index, byte) in try take(8).enumerated() { value |= UInt64(byte) << UInt64(8 * index) }
        return value
    }
    mutating func i32() throws(Malformed) -> Int32 { Int32(bitPattern: try u32()) }
    mutating func i64() throws(Malformed) -> Int64 { Int64(bitPattern: try u64()) }
    mutating func raw() throws(Malformed) -> [UInt8] {
        let count = try u64()
        guard count <= UInt64(bytes.count - offset) else { throw Malformed() }
        return Array(try take(Int(count)))
    }
    mutating func string() throws(Malformed) -> String { String(decoding: try raw(), as: UTF8.self) }
    mutating func optionalString() throws(Malformed) -> String? { try bool() ? try string() : nil }
    mutating func value() throws(Malformed) -> ActionValue {
        guard let type = ActionValueType(rawValue: UInt32(try u8())) else { throw Malformed() }
        switch type {
        case .i32: return .i32(try i32())
        case .u32: return .u32(try u32())
        case .i64: return .i64(try i64())
        case .u64: return .u64(try u64())
        case .f64: return .f64(Double(bitPattern: try u64()))
        case .string: return .string(try string())
        case .bytes: return .bytes(try raw())
        }
    }
    mutating func values() throws(Malformed) -> [ActionValue] {
        let count = try u32()
        guard count <= UInt32(bytes.count - offset) else { throw Malformed() }
        var result: [ActionValue] = []
        result.reserveCapacity(Int(count))
        for _ in 0..<count { result.append(try value()) }
        return result
    }
    mutating func optionalValues() throws(Malformed) -> [ActionValue]? { try bool() ? try values() : nil }
}

/// What one side asks of the other (the first byte of a request) and how it answers.
enum WireKind {
    // Requests, host to runner.
    static let open: UInt8 = 1
    static let initialize: UInt8 = 2
    static let perform: UInt8 = 3
    static let inverse: UInt8 = 4
    static let merge: UInt8 = 5
    static let describe: UInt8 = 6
    static let save: UInt8 = 7
    static let load: UInt8 = 8
    static let close: UInt8 = 9
    static let keptDocuments: UInt8 = 10
    static let deinitialize: UInt8 = 11
    /// The runner's answer to a step the plugin recorded on its own (``recordRequest``).
    static let recordAnswer: UInt8 = 12

    // Answers and messages, runner to host.
    static let ok: UInt8 = 100
    static let actionFailed: UInt8 = 101
    static let loadFailed: UInt8 = 102
    /// A log message of the plugin, sent before the answer of the call it came in.
    static let log: UInt8 = 103
    /// The plugin recorded a step on its own (`undo_host.record`): the host answers with
    /// ``recordAnswer`` before it goes on.
    static let recordRequest: UInt8 = 104
}
