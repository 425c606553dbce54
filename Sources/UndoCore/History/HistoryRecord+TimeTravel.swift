/// One save: the state that was saved (see ``HistoryRecord/saveLog``).
struct SaveRecord {
    var state: UInt32
}

extension HistoryRecord {
    /// Notes a save of the current state, for travel by saves (`1f`). A save of the state
    /// saved last adds nothing.
    mutating func logSave() {
        let state = currentState
        if saveLog.last?.state != state { saveLog.append(SaveRecord(state: state)) }
    }

    /// The state `distance` away from the current one, earlier or later (see ``UndoTravel``),
    /// or `nil` when it is the current state.
    /// - Complexity: O(steps in the history × log n) for a count of n states; O(steps) for a
    ///   time; O(steps + saves × log saves) for saves.
    func travelTarget(_ distance: UndoTravel, earlier: Bool) -> UInt32? {
        travelAim(distance, earlier: earlier).target
    }

    /// The state `distance` away (see ``travelTarget(_:earlier:)``) and, for a time, the time
    /// aimed at (what ``timeCursor`` keeps after the move).
    func travelAim(_ distance: UndoTravel, earlier: Bool) -> (target: UInt32?, time: UInt64?) {
        let current = currentState
        var serials: [UInt32] = []
        var times: [UInt32: UInt64] = [:]
        serials.reserveCapacity(steps.count + branches.stepCount)
        forEachStep { step, _, _ in serials.append(step.serial) }
        let newest = serials.max() ?? 0
        let target: UInt32
        var aim: UInt64?
        switch distance {
        case .states(let count):
            guard count > 0 else { return (nil, nil) }
            if earlier {
                target = Self.nth(count, of: serials.filter { $0 < current }, largest: true) ?? 0
            } else {
                target = Self.nth(count, of: serials.filter { $0 > current }, largest: false) ?? newest
            }
        case .time(let duration):
            let span = Self.nanoseconds(duration)
            guard span > 0 else { return (nil, nil) }
            forEachStep { step, _, _ in times[step.serial] = step.time }
            // From the time the last move by a time aimed at, while still at the state it reached.
            let now = timeCursor.flatMap { $0.state == current ? $0.time : nil }
                ?? (current == 0 ? 0 : times[current] ?? 0)
            if earlier {
                // The newest state made before this one, at least `span` before it.
                let limit = now >= span ? now - span : 0
                let older = serials.filter { $0 < current && times[$0]! <= limit && now >= span }
                target = older.max() ?? 0
                aim = limit
            } else {
                // The newest state within `span` after this one; at least the next one.
                let limit = now &+ span < now ? UInt64.max : now + span
                let later = serials.filter { $0 > current }
                guard let next = later.min() else { return (nil, nil) }
                target = later.filter { times[$0]! <= limit }.max() ?? next
                aim = limit
            }
        case .saves(let count):
            guard count > 0 else { return (nil, nil) }
            let existing = Set(serials)
            // The saved states that still exist, in the order they were made.
            let saves = Set(saveLog.map(\.state)).filter { $0 != 0 && existing.contains($0) }.sorted()
            // Where the current state stands among them: at one, or past those made before
            // it (changes since a save count as one step back, as in Vim).
            let exact = saves.firstIndex(of: current).map { $0 + 1 }
            let passed = exact ?? saves.count { $0 < current }
            let number = earlier ? (exact != nil ? passed - count : passed - count + 1) : passed + count
            if number < 1 {
                target = 0
            } else if number > saves.count {
                target = newest
            } else {
                target = saves[number - 1]
            }
        }
        return (target == current ? nil : target, aim)
    }

    /// The `n`-th largest (or smallest) of `values`, or `nil` when there are fewer than `n`:
    /// a heap of the `n` best so far.
    /// - Complexity: O(values × log n).
    static func nth(_ n: Int, of values: [UInt32], largest: Bool) -> UInt32? {
        guard n > 0, values.count >= n else { return nil }
        // Keys ordered so that the heap's top is the worst of the n kept.
        let keys = largest ? values : values.map { UInt32.max - $0 }
        var heap: [UInt32] = []
        heap.reserveCapacity(n)
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && heap[left] < heap[smallest] { smallest = left }
                if right < heap.count && heap[right] < heap[smallest] { smallest = right }
                if smallest == parent { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        for key in keys {
            if heap.count < n {
                heap.append(key)
                var child = heap.count - 1
                while child > 0 && heap[(child - 1) / 2] > heap[child] {
                    heap.swapAt(child, (child - 1) / 2)
                    child = (child - 1) / 2
                }
            } else if key > heap[0] {
                heap[0] = key
                siftDown(0)
            }
        }
        return largest ? heap[0] : UInt32.max - heap[0]
    }
}

/// How far ``UndoStack/earlier(_:)`` and ``UndoStack/later(_:)`` travel, as Vim's `:earlier`
/// and `:later` do.
public enum UndoTravel: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A count of states in the order they were made, across branches (`earlier(.states(1))` is
    /// Vim's `g-`).
    case states(Int)
    /// A time: back to the newest state made at least this long before the current one; forward
    /// to the newest made within this long after it (at least to the next state).
    case time(Duration)
    /// Saves: the saved states, in the order they were made, are the stops. Back to the
    /// previous one (from a state not saved, the newest saved state before it: the changes
    /// since count as one), or before the first change when there is none; forward to a later
    /// one, or to the newest state after the last.
    case saves(Int)

    /// Reads `"3"` (states), `"10s"`, `"5m"`, `"1h"`, `"2d"` (a time) or `"1f"` (saves).
    /// - Throws: ``UndoError/invalidTravel(_:)`` for anything else (a negative or missing count,
    ///   another unit, a count too large).
    public init(parsing text: String) throws(UndoError) {
        var digits = Substring(text)
        let unit = digits.last.flatMap { $0.isLetter ? $0 : nil }
        if unit != nil { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits),
              count <= 1_000_000_000 else {
            throw UndoError.invalidTravel(text)
        }
        switch unit {
        case nil: self = .states(count)
        case "s": self = .time(.seconds(count))
        case "m": self = .time(.seconds(count * 60))
        case "h": self = .time(.seconds(count * 3600))
        case "d": self = .time(.seconds(count * 86400))
        case "f": self = .saves(count)
        default: throw UndoError.invalidTravel(text)
        }
    }

    /// Whether the distance is nothing (`0`, `0s`, `0f`): a travel by it stays where it is.
    public var isZero: Bool {
        switch self {
        case .states(let count), .saves(let count): count == 0
        case .time(let duration): duration <= .zero
        }
    }

    /// The distance as ``init(parsing:)`` reads it (times in whole seconds).
    public var description: String {
        switch self {
        case .states(let count): "\(count)"
        case .time(let duration): "\(duration.components.seconds)s"
        case .saves(let count): "\(count)f"
        }
    }
}
