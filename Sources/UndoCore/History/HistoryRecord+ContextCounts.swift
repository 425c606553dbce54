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
        @usableFromInline var done = 0
        @usableFromInline var redo = 0
        @usableFromInline init() {}
        @inlinable var isEmpty: Bool { done == 0 && redo == 0 }
    }

    /// The global context's count, kept apart: a history used without documents pays no
    /// dictionary lookup.
    @usableFromInline var global = Count()
    @usableFromInline var others: [UndoContext: Count] = [:]

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
        // The step was counted, so the side it leaves is above zero: no overflow either way.
        if toDone {
            global.redo &-= 1
            global.done &+= 1
        } else {
            global.done &-= 1
            global.redo &+= 1
        }
        assert(global.done >= 0 && global.redo >= 0, "a context's step count went below zero")
    }

    // Inlinable: a push in the global context, the common one, adds to `global` in place.
    @inlinable
    mutating func add(_ delta: Int, done: Bool, to context: UndoContext) {
        if context.name.isEmpty {
            Self.change(&global, delta, done: done)
        } else {
            addToOther(delta, done: done, to: context)
        }
    }

    @usableFromInline
    mutating func addToOther(_ delta: Int, done: Bool, to context: UndoContext) {
        Self.change(&others[context, default: Count()], delta, done: done)
        if others[context]?.isEmpty == true { others[context] = nil }
    }

    @inlinable
    static func change(_ count: inout Count, _ delta: Int, done: Bool) {
        if done { count.done += delta } else { count.redo += delta }
        assert(count.done >= 0 && count.redo >= 0, "a context's step count went below zero")
    }
}

extension HistoryRecord {
    /// Counts `command` (a step) in, or out with `delta` -1, as done or redo.
    /// - Complexity: O(contexts it touches); O(1) for a step that is not a group; O(members)
    ///   comparisons for a group whose members all change its own context.
    @usableFromInline
    mutating func count(_ command: borrowing any UndoCommand, _ delta: Int, done: Bool) {
        guard let group = UndoGroup.group(in: command) else {
            contextCounts.add(delta, done: done, to: command.context)
            return
        }
        // Most groups change their own context alone: counted without building a set.
        let context = command.context
        if let only = group.onlyContext, only == context {
            contextCounts.add(delta, done: done, to: context)
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
