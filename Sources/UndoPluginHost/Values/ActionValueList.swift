/// The perform arguments of a plugin step: one value held inline, so a step of an action type
/// with one parameter (a number, a keystroke) allocates no array for it, or an array.
///
/// A random-access collection of ``ActionValue``; ``update(at:_:)`` changes a value in place.
struct ActionValueList: RandomAccessCollection, Equatable, Sendable {
    private enum Storage: Equatable, Sendable {
        case one(ActionValue)
        case many([ActionValue])
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
        }
    }

    subscript(index: Int) -> ActionValue {
        switch storage {
        case .one(let value):
            precondition(index == 0, "Index out of range")
            return value
        case .many(let values):
            return values[index]
        }
    }

    /// The bytes the values keep alive (the sum of their ``ActionValue/storageSize``), read in
    /// place.
    var storageSize: Int {
        switch storage {
        case .one(let value): value.storageSize
        case .many(let values): values.reduce(0) { $0 + $1.storageSize }
        }
    }

    /// The values as an array.
    var array: [ActionValue] {
        switch storage {
        case .one(let value): [value]
        case .many(let values): values
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
        }
    }
}
