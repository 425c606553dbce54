/// How many done and redo steps touch each context, so that a context with none answers
/// can-undo, can-redo, its titles and whether it is edited without reading the other
/// contexts' steps: with one step in each of n documents, asking about a document costs O(1)
/// instead of O(n).
///
/// Invariant (checked by ``UndoStack/checkInvariants()``): equal to a count over the steps, a
/// step counting once for each context it touches (see ``HistoryRecord/contexts(of:)``).
@usableFromInline
struct ContextCounts: Equatable {
    @usableFromInline
    struct Count: Equatable {
        var done = 0
        var redo = 0
        var isEmpty: Bool { done == 0 && redo == 0 }
    }

    /// The global context's count, kept apart: a history used without documents pays no
    /// dictionary lookup.
    private var global = Count()
    private var others: [UndoContext: Count] = [:]

    @usableFromInline
    subscript(context: UndoContext) -> Count {
        context.name.isEmpty ? global : others[context] ?? Count()
    }

    /// The contexts with a count: the global one first, then the others by name (never in the
    /// dictionary's order, which follows the per-process hash seed).
    /// - Complexity: O(contexts × log contexts).
    var contexts: [UndoContext] {
        var contexts: [UndoContext] = []
        contexts.reserveCapacity(others.count + 1)
        if !global.isEmpty { contexts.append(.global) }
        contexts.append(contentsOf: others.keys.sorted { $0.name < $1.name })
        return contexts
    }

    /// Whether only the global context has a count: then every step is in the global context
    /// alone (each step counts for every context it touches).
    var onlyGlobal: Bool { others.isEmpty }

    /// Moves one step of the global context from redo to done (`toDone`), or back; only while
    /// ``onlyGlobal``.
    mutating func moveGlobal(toDone: Bool) {
        assert(others.isEmpty, "a step of another context counted as the global context's")
        Self.change(&global, -1, done: !toDone)
        Self.change(&global, 1, done: toDone)
    }

    @usableFromInline
    mutating func add(_ delta: Int, done: Bool, to context: UndoContext) {
        if context.name.isEmpty {
            Self.change(&global, delta, done: done)
        } else {
            Self.change(&others[context, default: Count()], delta, done: done)
            if others[context]?.isEmpty == true { others[context] = nil }
        }
    }

    private static func change(_ count: inout Count, _ delta: Int, done: Bool) {
        if done { count.done += delta } else { count.redo += delta }
        assert(count.done >= 0 && count.redo >= 0, "a context's step count went below zero")
    }
}

extension HistoryRecord {
    /// Counts `command` (a step) in, or out with `delta` -1, as done or redo.
    /// - Complexity: O(contexts it touches); O(1) for a step that is not a group.
    @usableFromInline
    mutating func count(_ command: borrowing any UndoCommand, _ delta: Int, done: Bool) {
        if Self.group(in: command) == nil {
            contextCounts.add(delta, done: done, to: command.context)
        } else {
            for context in Self.contexts(of: command) { contextCounts.add(delta, done: done, to: context) }
        }
    }

    /// The counts over the steps as they are; after a change that rewrites many steps at once.
    /// - Complexity: O(steps).
    func recountedContexts() -> ContextCounts {
        var counts = ContextCounts()
        for index in 0..<steps.count {
            for context in Self.contexts(of: steps[index].command) {
                counts.add(1, done: index < position, to: context)
            }
        }
        return counts
    }
}
