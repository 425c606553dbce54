/// The perform arguments of a plugin step: one value held inline, so a step of an action type
/// with one parameter (a number, a keystroke) allocates no array for it, or an array.
///
/// A one-string step that grows by appends (a typing run, ``appendToOnlyString(_:)``) keeps
/// its text as UTF-8 bytes, which grow by a byte copy per keystroke; the `String` is made only
/// when the value is read (an undo, a listing), not for every keystroke.
///
/// A random-access collection of ``ActionValue``; ``update(at:_:)`` changes a value in place.
struct ActionValueList: RandomAccessCollection, Equatable, Sendable {
    private enum Storage: Sendable {
        case one(ActionValue)
        case many([ActionValue])
        /// One string value, as its UTF-8 bytes (valid UTF-8 without NUL bytes: the joined
        /// pieces of strings each checked as such).
        case text([UInt8])
    }

    private var storage: Storage

    init(_ values: [ActionValue]) {
        storage = values.count == 1 ? .one(values[0]) : .many(values)
    }

    init(one value: ActionValue) { storage = .one(value) }

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .one: 1
        case .many(let values): values.count
        case .text: 1
        }
    }

    static func == (left: ActionValueList, right: ActionValueList) -> Bool {
        switch (left.storage, right.storage) {
        case (.one(let a), .one(let b)): a == b
        case (.many(let a), .many(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        default: left.elementsEqual(right)
        }
    }

    subscript(index: Int) -> ActionValue {
        switch storage {
        case .one(let value):
            precondition(index == 0, "Index out of range")
            return value
        case .many(let values):
            return values[index]
        case .text(let bytes):
            precondition(index == 0, "Index out of range")
            return .string(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The bytes the values keep alive (the sum of their ``ActionValue/storageSize``), read in
    /// place.
    var storageSize: Int {
        switch storage {
        case .one(let value): value.storageSize
        case .many(let values): values.reduce(0) { $0 + $1.storageSize }
        case .text(let bytes): 16 + bytes.count
        }
    }

    /// The values as an array.
    var array: [ActionValue] {
        switch storage {
        case .one(let value): [value]
        case .many(let values): values
        case .text: [self[0]]
        }
    }

    /// Changes the value at `index` in place: while `body` runs, the list holds no reference to
    /// it, so a string or bytes value it appends to grows in its own buffer.
    mutating func update(at index: Int, _ body: (inout ActionValue) -> Void) {
        switch storage {
        case .one(var value):
            precondition(index == 0, "Index out of range")
            storage = .many([])
            body(&value)
            storage = .one(value)
        case .many(var values):
            storage = .many([])
            body(&values[index])
            storage = .many(values)
        case .text:
            precondition(index == 0, "Index out of range")
            var value = self[0]
            storage = .many([])
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
        case .text(let bytes):
            guard bytes.count + size <= limit else { return nil }
        case .one(.string(let text)):
            guard text.utf8.count + size <= limit else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Swift.max(2 * (text.utf8.count + size), 32))
            bytes.append(contentsOf: text.utf8)
            storage = .text(bytes)
        default:
            return nil
        }
        var bytes = takeText()
        Self.append(tail, to: &bytes)
        storage = .text(bytes)
        return size
    }

    /// Where a one-string list that grew by appends keeps its bytes (`nil`: the list is not
    /// kept as bytes): for tests that check a run grows in place.
    var textBufferAddress: UInt? {
        guard case .text(let bytes) = storage else { return nil }
        return bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// The bytes of a `.text` list, moved out: the list is left empty, so the caller holds the
    /// only reference to them and they grow in their own buffer. A separate scope, so the
    /// storage taken out is gone before the caller changes the bytes (a payload bound in a
    /// switch on the storage kept a second reference until after the append in optimized
    /// builds, so every append copied the whole text).
    private mutating func takeText() -> [UInt8] {
        var taken = Storage.many([])
        swap(&taken, &storage)
        guard case .text(let bytes) = taken else { preconditionFailure("takeText of a list that is not text") }
        return bytes
    }

    /// Appends the UTF-8 bytes of `tail` to `bytes`, as one copy from its contiguous UTF-8 (a
    /// keystroke's small string is read in place, not iterated through its view).
    private static func append(_ tail: String, to bytes: inout [UInt8]) {
        var tail = tail
        tail.withUTF8 { bytes.append(contentsOf: $0) }
    }
}
