/// The values a plugin function is called with (a step's list, or an array of them): a
/// random-access collection of ``ActionValue`` that reads a number (``int64(at:)``) and a string
/// (``withCString(at:_:)``) in place, so a direct call does not copy each value out of its list
/// first (for a number an outlined copy and its check, about 15 instructions a call; for a
/// string, a retain and a release besides).
protocol ActionValueCollection: RandomAccessCollection where Element == ActionValue, Index == Int {
    /// The number of the value at `index` when it is an `i64`, else `nil`.
    func int64(at index: Int) -> Int64?
    /// Calls `body` with the value at `index` as a C string when it is a string (`nil` when it
    /// is not): a keystroke's direct call reads its text where it is held.
    func withCString<R>(at index: Int, _ body: (UnsafePointer<CChar>) -> R) -> R?
}

extension ActionValueCollection {
    @inline(__always)
    func int64(at index: Int) -> Int64? {
        if case .i64(let value) = self[index] { return value }
        return nil
    }

    @inline(__always)
    func withCString<R>(at index: Int, _ body: (UnsafePointer<CChar>) -> R) -> R? {
        guard case .string(let text) = self[index] else { return nil }
        return text.withCString(body)
    }
}

extension Array: ActionValueCollection where Element == ActionValue {}
extension ArraySlice: ActionValueCollection where Element == ActionValue {}

/// The perform arguments of a plugin step: one value held inline, so a step of an action type
/// with one parameter (a number, a keystroke) allocates no array for it, or an array.
///
/// A one-string step that grows by appends (a typing run, ``appendToOnlyString(_:limit:)``) keeps
/// its text as UTF-8 bytes, which grow by a byte copy per keystroke; the `String` is made only
/// when the value is read (an undo, a listing), not for every keystroke.
///
/// A random-access collection of ``ActionValue``; ``update(at:_:)`` changes a value in place.
struct ActionValueList: ActionValueCollection, Equatable, Sendable {
    /// Two cases, the common one first: a one-value list is told apart from the others by one
    /// tag, as when there were only two kinds (a third case at this level made every read of a
    /// one-number step's value, three per step, about 14 instructions dearer).
    private enum Storage: Sendable {
        case one(ActionValue)
        case other(Other)
    }

    private enum Other: Sendable {
        case many([ActionValue])
        /// One string value, as its UTF-8 bytes (valid UTF-8 without NUL bytes: the joined
        /// pieces of strings each checked as such).
        case text([UInt8])
    }

    private var storage: Storage

    init(_ values: [ActionValue]) {
        storage = values.count == 1 ? .one(values[0]) : .other(.many(values))
    }

    init(one value: ActionValue) { storage = .one(value) }

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .one: 1
        case .other(.many(let values)): values.count
        case .other(.text): 1
        }
    }

    /// Read by every call (the values handed to the plugin): the collection's own `count`
    /// measures the distance between the indices through a generic call.
    var count: Int { endIndex }

    static func == (left: ActionValueList, right: ActionValueList) -> Bool {
        switch (left.storage, right.storage) {
        case (.one(let a), .one(let b)): a == b
        case (.other(.many(let a)), .other(.many(let b))): a == b
        case (.other(.text(let a)), .other(.text(let b))): a == b
        default: left.elementsEqual(right)
        }
    }

    subscript(index: Int) -> ActionValue {
        switch storage {
        case .one(let value):
            precondition(index == 0, "Index out of range")
            return value
        case .other(.many(let values)):
            return values[index]
        case .other(.text(let bytes)):
            precondition(index == 0, "Index out of range")
            return .string(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The number at `index` when it is an `i64`, read in place (see ``ActionValueCollection``).
    @inline(__always)
    func int64(at index: Int) -> Int64? {
        switch storage {
        case .one(.i64(let value)):
            precondition(index == 0, "Index out of range")
            return value
        case .other(.many(let values)):
            if case .i64(let value) = values[index] { return value }
            return nil
        default:
            precondition(index == 0, "Index out of range")
            return nil
        }
    }

    /// The string at `index` as a C string, read in place (see ``ActionValueCollection``): the
    /// subscript's copy of the value cost a keystroke's direct call an outlined copy and
    /// destroy, and a retain and a release (about 50 instructions).
    @inline(__always)
    func withCString<R>(at index: Int, _ body: (UnsafePointer<CChar>) -> R) -> R? {
        switch storage {
        case .one(.string(let text)):
            precondition(index == 0, "Index out of range")
            return text.withCString(body)
        case .other(.many(let values)):
            guard case .string(let text) = values[index] else { return nil }
            return text.withCString(body)
        case .other(.text(let bytes)):
            precondition(index == 0, "Index out of range")
            return String(decoding: bytes, as: UTF8.self).withCString(body)
        default:
            precondition(index == 0, "Index out of range")
            return nil
        }
    }

    /// The bytes the values keep alive (the sum of their ``ActionValue/storageSize``), read in
    /// place.
    var storageSize: Int {
        switch storage {
        case .one(let value): value.storageSize
        case .other(.many(let values)): values.reduce(0) { $0 + $1.storageSize }
        case .other(.text(let bytes)): 16 + bytes.count
        }
    }

    /// The values as an array.
    var array: [ActionValue] {
        switch storage {
        case .one(let value): [value]
        case .other(.many(let values)): values
        case .other(.text): [self[0]]
        }
    }

    /// Changes the value at `index` in place: while `body` runs, the list holds no reference to
    /// it, so a string or bytes value it appends to grows in its own buffer.
    mutating func update(at index: Int, _ body: (inout ActionValue) -> Void) {
        switch storage {
        case .one(var value):
            precondition(index == 0, "Index out of range")
            storage = .other(.many([]))
            body(&value)
            storage = .one(value)
        case .other(.many(var values)):
            storage = .other(.many([]))
            body(&values[index])
            storage = .other(.many(values))
        case .other(.text):
            precondition(index == 0, "Index out of range")
            var value = self[0]
            storage = .other(.many([]))
            body(&value)
            storage = .one(value)
        }
    }

    /// Appends `tail` to the list's one value when that is a string, in place, if the joined
    /// text stays within `limit` bytes.
    /// - Returns: the bytes appended, or `nil` (nothing changed) when the list is not one string
    ///   value or the text would grow past `limit`.
    /// - Complexity: amortized O(bytes of `tail`); the first append to a step copies its text
    ///   once into the byte buffer.
    mutating func appendToOnlyString(_ tail: String, limit: Int) -> Int? {
        let size = tail.utf8.count
        switch storage {
        case .other(.text(let bytes)):
            guard bytes.count + size <= limit else { return nil }
        case .one(.string(let text)):
            guard text.utf8.count + size <= limit else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Swift.max(2 * (text.utf8.count + size), 32))
            bytes.append(contentsOf: text.utf8)
            storage = .other(.text(bytes))
        default:
            return nil
        }
        var bytes = takeText()
        Self.append(tail, to: &bytes)
        storage = .other(.text(bytes))
        return size
    }

    /// ``appendToOnlyString(_:limit:)`` with the text of `other`, a list of one string value
    /// kept as a value (a keystroke), read where it is held.
    /// - Returns: the bytes appended, or `nil` (nothing changed), also when `other` is not such
    ///   a list.
    mutating func appendOnlyString(of other: borrowing ActionValueList, limit: Int) -> Int? {
        guard case .one(.string(let tail)) = other.storage else { return nil }
        return appendToOnlyString(tail, limit: limit)
    }

    /// Whether this is a list of one string value kept as a value (a keystroke), told without
    /// a copy of the text.
    var isOneString: Bool {
        if case .one(.string) = storage { return true }
        return false
    }

    /// Where a one-string list that grew by appends keeps its bytes (`nil`: the list is not
    /// kept as bytes): for tests that check a run grows in place.
    var textBufferAddress: UInt? {
        guard case .other(.text(let bytes)) = storage else { return nil }
        return bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// The bytes of a `.text` list, moved out: the list is left empty, so the caller holds the
    /// only reference to them and they grow in their own buffer. A separate scope, so the
    /// storage taken out is gone before the caller changes the bytes (a payload bound in a
    /// switch on the storage kept a second reference until after the append in optimized
    /// builds, so every append copied the whole text).
    private mutating func takeText() -> [UInt8] {
        var taken = Storage.other(.many([]))
        swap(&taken, &storage)
        guard case .other(.text(let bytes)) = taken else { preconditionFailure("takeText of a list that is not text") }
        return bytes
    }

    /// Appends the UTF-8 bytes of `tail` to `bytes`, read from its contiguous UTF-8 (a
    /// keystroke's small string in place, not iterated through its view): a keystroke's few
    /// bytes one by one (about 18 instructions a keystroke less than the sequence append,
    /// measured), a longer text as one copy.
    private static func append(_ tail: String, to bytes: inout [UInt8]) {
        // One byte (an ASCII keystroke) read in place, without the copy `withUTF8` reads.
        let utf8 = tail.utf8
        if utf8.count == 1 {
            var tailBytes = utf8.makeIterator()
            if let byte = tailBytes.next() {
                bytes.append(byte)
                return
            }
        }
        var tail = tail
        tail.withUTF8 { utf8 in
            if utf8.count <= 4 {
                for byte in utf8 { bytes.append(byte) }
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
    }
}
