#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading strings that plugins hand to the host, without trusting their length or encoding.
enum CStrings {
    enum Failure: Error, Equatable {
        case null, empty, tooLong(limit: Int), invalidUTF8
    }

    /// Reads a NUL-terminated UTF-8 string of at most `limit` bytes (looking no further than
    /// `limit + 1` bytes for the NUL).
    static func read(_ pointer: UnsafePointer<CChar>?, limit: Int, allowEmpty: Bool = false) throws(Failure) -> String {
        guard let pointer else { throw .null }
        let length = strnlen(pointer, limit + 1)
        guard length <= limit else { throw .tooLong(limit: limit) }
        guard length > 0 || allowEmpty else { throw .empty }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        guard let text = validated(bytes) else { throw .invalidUTF8 }
        return text
    }

    /// `bytes` as a string when they are valid UTF-8, else `nil`.
    ///
    /// Decoded by the standard library's repairing decoder and kept only when the string's UTF-8
    /// is `bytes` itself: a decoded string is always valid UTF-8, so equal bytes were valid, and
    /// valid bytes decode to themselves. (`String(validating:as:)`, generic over the encoding,
    /// looked up generic metadata on every call: about 1,000 instructions for a short string.)
    /// - Complexity: O(bytes).
    static func validated(_ bytes: UnsafeRawBufferPointer) -> String? {
        var text = String(decoding: bytes, as: UTF8.self)
        let same = text.withUTF8 { utf8 in
            utf8.count == bytes.count
                && (bytes.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        return same ? text : nil
    }

    /// Reads a message (log, error): cut at `limit` bytes, invalid UTF-8 repaired.
    static func message(_ pointer: UnsafePointer<CChar>?, limit: Int) -> String {
        guard let pointer else { return "" }
        let length = strnlen(pointer, limit)
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func describe(_ failure: Failure, _ what: String) -> String {
        switch failure {
        case .null: "\(what) is NULL"
        case .empty: "\(what) is empty"
        case .tooLong(let limit): "\(what) is longer than \(limit) bytes"
        case .invalidUTF8: "\(what) is not valid UTF-8"
        }
    }

    /// Whether `id` is a plugin id: two or more labels of ASCII letters, digits, '_' and '-'
    /// joined by '.'.
    static func isPluginID(_ id: String) -> Bool {
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isIDByte) }
    }

    /// Whether `id` is a local action id (or a parameter name, with `allowDash: false`).
    static func isLocalID(_ id: String, allowDash: Bool = true) -> Bool {
        !id.isEmpty && id.utf8.allSatisfy { isIDByte($0) && (allowDash || $0 != UInt8(ascii: "-")) }
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
