/// The text of a keystroke appended to a typing run: up to 15 bytes of UTF-8, free of NUL
/// bytes, kept in the value itself with a NUL after them (the C string a plugin reads).
///
/// The in-place path of ``PluginHost/perform(_:argument:in:)`` reads a typed string into one
/// of these once and hands the same bytes to the plugin and to the run's pending bytes, where
/// the general path copies an ``ActionValue`` through each layer. A longer text (a paste) goes
/// the general way: made a step, performed and merged.
struct AppendedText {
    /// The bytes, zero after them (so the NUL is always there).
    private var words: (UInt64, UInt64) = (0, 0)
    private(set) var count = 0

    /// The longest text kept (one byte of the 16 is the NUL).
    static let capacity = 15

    /// `text`, or `nil` when it is longer than ``capacity`` bytes or contains a NUL byte (not
    /// a C string: the general path reports it).
    /// - Complexity: O(1): at most 15 bytes are read.
    @inline(__always)
    init?(_ text: String) {
        // A small string's UTF-8 is handed over from a copy on the stack: no call, no counting.
        let short: (words: (UInt64, UInt64), count: Int)? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.count <= Self.capacity else { return nil }
            // Shifted into the words, checked for NUL on the way: a keystroke is a byte or a
            // few, where a copy is a call.
            var words: (UInt64, UInt64) = (0, 0)
            var hasNUL = false
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                hasNUL = hasNUL || byte == 0
                if index < 8 {
                    words.0 |= UInt64(byte) &<< (8 &* index)
                } else {
                    words.1 |= UInt64(byte) &<< (8 &* (index &- 8))
                }
                index &+= 1
            }
            return hasNUL ? nil : (words, utf8.count)
        } ?? nil
        guard let short else { return nil }
        words = short.words
        count = short.count
    }

    /// Stores the 16 bytes (the text, its NUL and zeros) at `offset` in `destination`, which
    /// must have room for them.
    @inline(__always)
    func store(to destination: UnsafeMutableRawPointer, at offset: Int) {
        destination.storeBytes(of: words, toByteOffset: offset, as: (UInt64, UInt64).self)
    }

    /// How many bytes ``store(to:at:)`` writes.
    static let storeWidth = 16

    /// Runs `body` with the bytes (`count` of them, a NUL after them), valid only inside.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeBytes(of: words) { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
}
