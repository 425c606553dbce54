import UndoCore

/// What one row of a history journal did: a command performed or recorded (the command goes
/// beside it, in its own columns), or a history operation in the form that replays it.
///
/// Its JSON is the file format: `{"perform":{}}`, `{"record":{}}`, or the operation's own
/// (``UndoCore/UndoOperation``'s synthesized form). Format 1 also wrote the two limits apart
/// (`{"countLimit":{"_0":5}}`); they are read as ``legacyCountLimit(_:)`` and
/// ``legacyMemoryLimit(_:)``.
enum JournalOperation: Codable, Hashable {
    case perform
    case record
    case history(UndoOperation)
    /// Format 1's count limit, which left the memory limit as it was.
    case legacyCountLimit(Int?)
    /// Format 1's memory limit, which left the count limit as it was.
    case legacyMemoryLimit(Int?)

    private enum Key: String, CodingKey {
        case perform, record, countLimit, memoryLimit
        case value = "_0"
    }
    private struct Empty: Codable {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if container.contains(.perform) {
            self = .perform
        } else if container.contains(.record) {
            self = .record
        } else if container.contains(.countLimit) {
            let limit = try container.nestedContainer(keyedBy: Key.self, forKey: .countLimit)
            self = .legacyCountLimit(try limit.decodeIfPresent(Int.self, forKey: .value))
        } else if container.contains(.memoryLimit) {
            let limit = try container.nestedContainer(keyedBy: Key.self, forKey: .memoryLimit)
            self = .legacyMemoryLimit(try limit.decodeIfPresent(Int.self, forKey: .value))
        } else {
            self = .history(try UndoOperation(from: decoder))
        }
    }

    func encode(to encoder: any Encoder) throws {
        if case .history(let operation) = self { return try operation.encode(to: encoder) }
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .perform: try container.encode(Empty(), forKey: .perform)
        case .record: try container.encode(Empty(), forKey: .record)
        case .history: break
        case .legacyCountLimit(let limit):
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .countLimit)
            try nested.encodeIfPresent(limit, forKey: .value)
        case .legacyMemoryLimit(let limit):
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .memoryLimit)
            try nested.encodeIfPresent(limit, forKey: .value)
        }
    }

    /// Whether a command goes with it.
    var carriesCommand: Bool { self == .perform || self == .record }

    /// The operation that replays it on `stack` (a legacy limit keeps the other limit as it is).
    func operation(on stack: UndoStack) -> UndoOperation? {
        switch self {
        case .perform, .record: nil
        case .history(let operation): operation
        case .legacyCountLimit(let limit): .limits(count: limit, memory: stack.memoryLimit)
        case .legacyMemoryLimit(let limit): .limits(count: stack.countLimit, memory: limit)
        }
    }
}
