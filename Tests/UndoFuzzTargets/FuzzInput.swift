/// Reads a fuzzer's bytes as a stream of small decisions. Past the end every read returns
/// zero or empty, so any input, however short, is a complete run.
struct FuzzInput {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A number in `0..<count` (0 when `count` is 0), from one byte: enough for the short
    /// menus of choices the targets make.
    mutating func choice(_ count: Int) -> Int {
        count <= 0 ? 0 : Int(byte()) % count
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// `size` bytes in little-endian order as an unsigned integer.
    mutating func integer<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type) -> T {
        var value: T = 0
        for shift in stride(from: 0, to: T.bitWidth, by: 8) { value |= T(byte()) << shift }
        return value
    }

    /// Up to `count` bytes (fewer at the end of the input).
    mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = max(offset, end) }
        return offset < end ? Array(bytes[offset..<end]) : []
    }

    /// A length byte, then that many bytes.
    mutating func shortBytes() -> [UInt8] { bytes(Int(byte())) }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] { bytes(bytes.count - offset) }
}
