import UndoCore

// The four anchor workloads (the table that opens docs/performance.md) on UndoCore's UndoStack,
// with the same models, checks and operation counts as qt_undo_bench and limit_bench.

// MARK: Models and commands

/// The `int64` counter of pushundoredo, macro and labels.
///
/// A plain Swift class, as a program's model would be: its property is checked for exclusive
/// access on every perform and undo (the anchors' C and C++ models have no such check).
final class Counter {
    var value: Int64 = 0
}

/// *add k*: adds `amount` to the counter, undo subtracts it. Named "Add".
/// Two words, so the history keeps it inline (no allocation per step).
struct AddCommand: UndoCommand {
    let counter: Counter
    let amount: Int64
    var name: String? { "Add" }
    func perform(_ changes: inout UndoChanges) { counter.value &+= amount }
    func undo(_ changes: inout UndoChanges) { counter.value &-= amount }
}

/// A document of the pushundoredo-doc workload: a counter that knows the context its steps
/// belong to, as a real program's document knows its name.
final class CounterDocument {
    var value: Int64 = 0
    let context: UndoContext
    init(_ context: UndoContext) { self.context = context }
}

/// *add k* in a document: AddCommand, with the step in the document's context. Still two
/// words, so the history keeps it inline. (The amount comes first: with AddCommand's layout
/// the optimizer merges the two commands' identical functions, and AddCommand's steps then
/// go through a thunk, 3 Ir per op of pushundoredo.)
struct DocumentAddCommand: UndoCommand {
    let amount: Int64
    let document: CounterDocument
    var name: String? { "Add" }
    var context: UndoContext { document.context }
    func perform(_ changes: inout UndoChanges) { document.value &+= amount }
    func undo(_ changes: inout UndoChanges) { document.value &-= amount }
}

/// The four kinds of edit in the labels workload; an edit is named by its kind, the way a real
/// program names its commands.
enum EditKind: UInt8, CaseIterable {
    case add, move, delete, rename

    var name: String {
        switch self {
        case .add: "Add"
        case .move: "Move"
        case .delete: "Delete"
        case .rename: "Rename"
        }
    }
}

/// *add k* with one of four names (the labels workload).
struct NamedAddCommand: UndoCommand {
    let counter: Counter
    let amount: Int64
    let kind: EditKind
    var name: String? { kind.name }
    func perform(_ changes: inout UndoChanges) { counter.value &+= amount }
    func undo(_ changes: inout UndoChanges) { counter.value &-= amount }
}

/// The byte string of the typing workload.
final class TextBuffer {
    var bytes: [UInt8] = []
}

/// Typing at the end of the buffer. Consecutive keystrokes share a coalescing key, and the
/// history merges each one into the run before it: the run's command keeps every character it
/// typed, so one undo removes the whole run. The first character is kept inline, so a single
/// keystroke allocates nothing until it joins a run (like std::string's small-string buffer).
struct TypeCommand: UndoCommand {
    let buffer: TextBuffer
    var first: UInt8
    var rest: [UInt8] = []

    var name: String? { "Typing" }
    var coalescingKey: UndoCoalescingKey? { UndoCoalescingKey("typing") }

    func perform(_ changes: inout UndoChanges) {
        buffer.bytes.append(first)
        if !rest.isEmpty { buffer.bytes.append(contentsOf: rest) }
    }

    func undo(_ changes: inout UndoChanges) { buffer.bytes.removeLast(1 + rest.count) }

    mutating func merge(with next: TypeCommand) -> UndoMerge {
        rest.append(next.first)
        if !next.rest.isEmpty { rest.append(contentsOf: next.rest) }
        return .merged
    }
}

// MARK: Workloads

enum CoreWorkloads {
    /// pushundoredo: N *add k* (k = i % 7 + 1), then N undos, then N redos. ops = 3N.
    /// `countLimit` / `memoryLimit` turn on trimming (the scaling run); then only the steps kept
    /// are undone and redone, and `ops` counts those.
    static func pushUndoRedo(_ n: Int, countLimit: Int? = nil, memoryLimit: Int? = nil) throws -> BenchResult {
        var result = BenchResult(workload: "pushundoredo", n: n, ops: 3 * n)
        let counter = Counter()
        var history: UndoStack! = UndoStack(countLimit: countLimit, memoryLimit: memoryLimit)
        let heapBefore = heapInUse()

        var clock = Stopwatch()
        for i in 0..<n {
            try history.perform(AddCommand(counter: counter, amount: Int64(i % 7 + 1)))
        }
        result.pushMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0
        let afterPush = counter.value
        let kept = history.count

        _ = clock.lap()
        for _ in 0..<kept { try history.undo() }
        result.undoMs = clock.lap()
        let afterUndo = counter.value

        for _ in 0..<kept { try history.redo() }
        result.redoMs = clock.lap()

        let want = expectedSum(n, modulus: 7)
        result.ok = afterPush == want && afterUndo == expectedSum(n - kept, modulus: 7)
            && counter.value == want
            && history.undoCount == kept && !history.canRedo
            && kept == min(n, countLimit ?? n, memoryLimit.map { $0 / MemoryLayout<AddCommand>.size } ?? n)
        result.ops = n + 2 * kept
        result.totalMs = result.pushMs + result.undoMs + result.redoMs

        _ = clock.lap()
        history = nil
        result.freeMs = clock.lap()
        return result
    }

    /// The context of the *-doc workloads: a document's name, as undo-host gives every step.
    static let documentContext = UndoContext("doc")

    /// pushundoredo-doc: pushundoredo with every step in the document context "doc", the way a
    /// real program's steps are made: the history's current context is the document (as
    /// undo-host sets it when a document is opened), each *add k* belongs to it, and undo and
    /// redo act on it. Not an anchors' workload (Qt and plain C have no contexts). ops = 3N.
    static func pushUndoRedoInDocument(_ n: Int) throws -> BenchResult {
        var result = BenchResult(workload: "pushundoredo-doc", n: n, ops: 3 * n)
        let document = CounterDocument(documentContext)
        var history: UndoStack! = UndoStack()
        history.currentContext = documentContext
        let heapBefore = heapInUse()

        var clock = Stopwatch()
        for i in 0..<n {
            try history.perform(DocumentAddCommand(amount: Int64(i % 7 + 1), document: document))
        }
        result.pushMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0
        let afterPush = document.value
        let inDocument = history.canUndo(in: documentContext) && !history.canUndo(in: .global)

        _ = clock.lap()
        for _ in 0..<n { try history.undo() }
        result.undoMs = clock.lap()
        let afterUndo = document.value

        for _ in 0..<n { try history.redo() }
        result.redoMs = clock.lap()

        let want = expectedSum(n, modulus: 7)
        result.ok = afterPush == want && afterUndo == 0 && document.value == want && inDocument == (n > 0)
            && history.count == n && history.undoCount == n && !history.canRedo
            && history.isDirty(documentContext) == (n > 0)
        result.totalMs = result.pushMs + result.undoMs + result.redoMs

        _ = clock.lap()
        history = nil
        result.freeMs = clock.lap()
        return result
    }

    /// typing: N keystrokes appending 'a' + i % 26, coalesced into runs closed every 100
    /// characters, then undo all and redo all. ops = 3N.
    ///
    /// The history is configured with `coalescingWindow: nil` (runs end only on an explicit
    /// `breakCoalescing()`), so the runs are exactly 100 characters however fast the machine
    /// types; with the default 500 ms window the result is the same here, plus a clock read
    /// per keystroke.
    static func typing(_ n: Int) throws -> BenchResult {
        var result = BenchResult(workload: "typing", n: n, ops: 3 * n)
        result.extra = [("coalescing_window", "none")]
        let buffer = TextBuffer()
        var history: UndoStack! = UndoStack(coalescingWindow: nil)
        let heapBefore = heapInUse()

        var clock = Stopwatch()
        for i in 0..<n {
            try history.perform(TypeCommand(buffer: buffer, first: UInt8(ascii: "a") + UInt8(i % 26)))
            if (i + 1) % 100 == 0 { history.breakCoalescing() }
        }
        result.pushMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0
        let pushOK = buffer.bytes.count == n

        _ = clock.lap()
        let steps = history.undoCount
        for _ in 0..<steps { try history.undo() }
        result.undoMs = clock.lap()
        let undoOK = buffer.bytes.isEmpty && history.undoCount == 0

        for _ in 0..<steps { try history.redo() }
        result.redoMs = clock.lap()

        var contentOK = buffer.bytes.count == n
        for i in 0..<n where contentOK {
            contentOK = buffer.bytes[i] == UInt8(ascii: "a") + UInt8(i % 26)
        }
        result.ok = pushOK && undoOK && contentOK && history.count == (n + 99) / 100
        result.totalMs = result.pushMs + result.undoMs + result.redoMs

        _ = clock.lap()
        history = nil
        result.freeMs = clock.lap()
        return result
    }

    /// macro: N/10 groups named "Macro" of 10 *add k* each, then undo all (N/10 steps), redo
    /// all. ops = 3N (child commands).
    static func macro(_ requested: Int) throws -> BenchResult {
        let groups = requested / 10
        let n = groups * 10
        var result = BenchResult(workload: "macro", n: n, ops: 3 * n)
        let counter = Counter()
        var history: UndoStack! = UndoStack()
        let heapBefore = heapInUse()

        var clock = Stopwatch()
        for group in 0..<groups {
            try history.beginGroup(named: "Macro")
            for child in 0..<10 {
                let i = group * 10 + child
                try history.perform(AddCommand(counter: counter, amount: Int64(i % 7 + 1)))
            }
            try history.endGroup()
        }
        result.pushMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0
        let afterPush = counter.value

        _ = clock.lap()
        for _ in 0..<groups { try history.undo() }
        result.undoMs = clock.lap()
        let afterUndo = counter.value

        for _ in 0..<groups { try history.redo() }
        result.redoMs = clock.lap()

        let want = expectedSum(n, modulus: 7)
        result.ok = afterPush == want && afterUndo == 0 && counter.value == want
            && history.count == groups && history.undoCount == groups
        result.totalMs = result.pushMs + result.undoMs + result.redoMs

        _ = clock.lap()
        history = nil
        result.freeMs = clock.lap()
        return result
    }

    /// labels: N named *add k* (k = i % 4 + 1, named Add/Move/Delete/Rename), then N/2 undo
    /// steps and N/2 redo steps, reading both menu titles after each. ops = 2 * (N/2).
    /// The titles come from the history itself (`undoMenuTitle` / `redoMenuTitle`), formatted
    /// by its `UndoTitleFormatter` (English, title case), not built here.
    static func labels(_ n: Int) throws -> BenchResult {
        let walk = n / 2
        var result = BenchResult(workload: "labels", n: n, ops: 2 * walk)
        let counter = Counter()
        var history: UndoStack! = UndoStack()
        let heapBefore = heapInUse()

        var clock = Stopwatch()
        for i in 0..<n {
            try history.perform(NamedAddCommand(counter: counter, amount: Int64(i % 4 + 1),
                                                kind: EditKind.allCases[i % 4]))
        }
        result.pushMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0

        var sums = LabelSums()
        do {
            // A constant: the optional `history` variable would be checked for exclusive access
            // on every read.
            let stack: UndoStack = history
            _ = clock.lap()
            for _ in 0..<walk {
                try stack.undo()
                sums.add(stack.undoMenuTitle, stack.redoMenuTitle)
            }
            result.undoMs = clock.lap()
            for _ in 0..<walk {
                try stack.redo()
                sums.add(stack.undoMenuTitle, stack.redoMenuTitle)
            }
            result.redoMs = clock.lap()
        }

        let want = LabelWalk.expected(n)
        result.ok = sums.lengthSum == want.lengthSum && sums.lastCharacterSum == want.lastCharacterSum
            && counter.value == expectedSum(n, modulus: 4) && history.undoCount == n
        result.totalMs = result.undoMs + result.redoMs

        _ = clock.lap()
        history = nil
        result.freeMs = clock.lap()
        return result
    }
}

/// The labels check's running sums: of the labels' lengths and of their last bytes. (A struct
/// with a mutating method: local variables captured by a nested function would be checked for
/// exclusive access at run time on every label.)
struct LabelSums {
    var lengthSum = 0
    var lastCharacterSum = 0

    @inline(__always)
    mutating func add(_ undoTitle: String, _ redoTitle: String) {
        lengthSum += undoTitle.utf8.count + redoTitle.utf8.count
        lastCharacterSum += Int(lastByte(undoTitle)) + Int(lastByte(redoTitle))
    }
}

/// The last UTF-8 byte of a non-empty string (the labels are ASCII), in O(1).
@inline(__always)
func lastByte(_ text: String) -> UInt8 {
    // The contiguous UTF-8 (a small string's too, on the stack): no index arithmetic.
    if let last = text.utf8.withContiguousStorageIfAvailable({ $0.last ?? 0 }) { return last }
    return text.utf8.last ?? 0
}

/// The labels check, computed from the definition: after each step the Undo label names the
/// command below the index ("Undo Move"), the Redo label the one above, or plain "Undo"/"Redo".
///
/// The ten labels are formatted once and the walk adds their figures up: the check runs
/// outside the timed loops, but inside the process `scripts/instructions.sh` counts, so
/// formatting a label per step here would be counted as the history's cost.
enum LabelWalk {
    static let names = ["Add", "Move", "Delete", "Rename"]

    /// A label's length and last byte.
    private struct Figures {
        var length: Int
        var last: Int
        init(_ text: String) {
            length = text.utf8.count
            last = Int(text.utf8.last!)
        }
    }

    static func expected(_ n: Int) -> (lengthSum: Int, lastCharacterSum: Int) {
        // [verb][0]: plain; [verb][1 + k]: naming names[k].
        let table = ["Undo", "Redo"].map { verb in [Figures(verb)] + names.map { Figures("\(verb) \($0)") } }
        var lengthSum = 0, lastCharacterSum = 0
        func label(_ verb: Int, command: Int) {
            let figures = table[verb][command >= 0 && command < n ? 1 + command % 4 : 0]
            lengthSum += figures.length
            lastCharacterSum += figures.last
        }
        var index = n
        for step in 0..<(2 * (n / 2)) {
            index += step < n / 2 ? -1 : 1
            label(0, command: index - 1)
            label(1, command: index)
        }
        return (lengthSum, lastCharacterSum)
    }
}
