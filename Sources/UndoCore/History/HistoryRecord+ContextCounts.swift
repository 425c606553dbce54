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
    /// The other context counted last, and where its count is in `others`: the steps of a
    /// history in documents come in runs of one document, so a step is counted without hashing
    /// its document's name (hashing cost about 1,500 instructions per undo, redo or push).
    /// Reset by every change to `others`' keys, which moves their places (an index used after
    /// that would stop the program, never read another count).
    @usableFromInline var recentContext: UndoContext?
    @usableFromInline var recentIndex: Dictionary<UndoContext, Count>.Index?

    @usableFromInline init() {}

    @usableFromInline
    subscript(context: UndoContext) -> Count {
        if context.name.isEmpty { return global }
        if recentContext == context, let index = recentIndex { return others.values[index] }
        return others[context] ?? Count()
    }

    /// Equal counts, whatever context each counted last.
    @usableFromInline
    static func == (lhs: ContextCounts, rhs: ContextCounts) -> Bool {
        lhs.global == rhs.global && lhs.others == rhs.others
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

    /// The one context with a count, when it is not the global one and it was counted last
    /// (its name known without reading the dictionary): every step is then in it alone.
    var soleContext: UndoContext? {
        guard global.isEmpty && others.count == 1 else { return nil }
        return recentContext
    }

    /// Whether only the global context has a count: then every step is in the global context
    /// alone (each step counts for every context it touches).
    var onlyGlobal: Bool { others.isEmpty }

    /// Moves one step of the global context from redo to done (`toDone`), or back; only while
    /// ``onlyGlobal``.
    mutating func moveGlobal(toDone: Bool) {
        assert(others.isEmpty, "a step of another context counted as the global context's")
        Self.moveOne(&global, toDone: toDone)
    }

    /// Moves one step of `context` from redo to done (`toDone`), or back.
    /// - Complexity: as ``addToOther(_:done:to:)``.
    mutating func move(in context: UndoContext, toDone: Bool) {
        if context.name.isEmpty {
            Self.moveOne(&global, toDone: toDone)
        } else {
            // Both sides in one access to the count (two calls of addToOther cost about 70
            // instructions more per undo or redo, two accesses about 25); its total does not
            // change, so it stays.
            let index = otherIndex(of: context)
            Self.moveOne(&others.values[index], toDone: toDone)
        }
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

    /// - Complexity: O(1) for the context counted last (a comparison of names), else one hash of
    ///   its name (two when it is new).
    @usableFromInline
    mutating func addToOther(_ delta: Int, done: Bool, to context: UndoContext) {
        let index = otherIndex(of: context)
        if Self.change(&others.values[index], delta, done: done) {
            others.remove(at: index)
            recentContext = nil
            recentIndex = nil
        }
    }

    /// Where `context`'s count is in `others` (an empty count added when it has none), kept as
    /// the one counted last.
    /// - Complexity: O(1) for the context counted last (a comparison of names), else one hash of
    ///   its name (two when it is new).
    // Always inlined: the common case, the context counted last, is a compare (a call of its
    // own cost about 20 instructions); the search stays out of line.
    @inline(__always)
    private mutating func otherIndex(of context: UndoContext) -> Dictionary<UndoContext, Count>.Index {
        if recentContext == context, let recent = recentIndex { return recent }
        return findOtherIndex(of: context)
    }

    /// ``otherIndex(of:)`` for a context other than the one counted last.
    private mutating func findOtherIndex(of context: UndoContext) -> Dictionary<UndoContext, Count>.Index {
        let index: Dictionary<UndoContext, Count>.Index
        if let found = others.index(forKey: context) {
            index = found
        } else {
            others[context] = Count()
            index = others.index(forKey: context)!
        }
        recentContext = context
        recentIndex = index
        return index
    }

    /// Moves one step of `count` from redo to done (`toDone`), or back: its total stays.
    private static func moveOne(_ count: inout Count, toDone: Bool) {
        // The step was counted, so the side it leaves is above zero: no overflow either way.
        if toDone {
            count.redo &-= 1
            count.done &+= 1
        } else {
            count.done &-= 1
            count.redo &+= 1
        }
        assert(count.done >= 0 && count.redo >= 0, "a context's step count went below zero")
    }

    /// - Returns: whether the count is now empty.
    @inlinable @discardableResult
    static func change(_ count: inout Count, _ delta: Int, done: Bool) -> Bool {
        if done { count.done += delta } else { count.redo += delta }
        assert(count.done >= 0 && count.redo >= 0, "a context's step count went below zero")
        return count.isEmpty
    }
}

extension HistoryRecord {
    /// Counts `command` (a step) in, or out with `delta` -1, as done or redo.
    /// - Complexity: O(contexts it touches); O(1) for a step that is not a group, and for a
    ///   group whose members all change its own context (see ``count(group:context:_:done:)``).
    @usableFromInline
    mutating func count(_ command: borrowing any UndoCommand, _ delta: Int, done: Bool) {
        guard let group = UndoGroup.group(in: command) else {
            contextCounts.add(delta, done: done, to: command.context)
            return
        }
        count(group: group, context: command.context, delta, done: done)
    }

    /// Counts a step that is `group` (or runs it, see ``UndoGroup/group(in:)``) with `context`,
    /// the step's own, in or out as ``count(_:_:done:)`` does.
    /// - Complexity: O(1) for a group whose members all change its own context (kept as they
    ///   were added, ``UndoGroup/Known``); else O(contexts it touches).
    mutating func count(group: UndoGroup, context: UndoContext, _ delta: Int, done: Bool) {
        // Most groups change their own context alone: counted without building a set.
        if let only = group.onlyContext, only == context {
            contextCounts.add(delta, done: done, to: context)
        } else {
            for context in group.allContexts.union([context]) { contextCounts.add(delta, done: done, to: context) }
        }
    }

    /// The counts over the steps as they are; after a change that rewrites many steps at once.
    /// A step that is no group is read in place (a copy of a 64-byte step would box it); a
    /// group's contexts are asked of the group.
    /// - Complexity: O(steps), hashing.
    func recountedContexts() -> ContextCounts {
        var counts = ContextCounts()
        var single = StepSingleContext()
        for index in 0..<steps.count {
            if let context = steps.read(at: index, &single) {
                counts.add(1, done: index < position, to: context)
                continue
            }
            for context in Self.contexts(of: steps[index].command) {
                counts.add(1, done: index < position, to: context)
            }
        }
        return counts
    }
}
