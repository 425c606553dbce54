/// A step made of several commands that undo and redo as one: a named group, or a run of
/// coalesced changes. Members run in order on redo and in reverse order on undo; if one fails
/// partway, those already changed are put back so the group stays atomic.
public final class UndoGroup: UndoCommand {
    // Unchecked like the history's own state (see UndoStack): only the history changes the
    // members, never while one of them runs, and the checks cost a third of a group's undo.
    public internal(set) var members: [any UndoCommand] {
        get { _members }
        set { _members = newValue; membersChangedInPlace() }
    }
    @usableFromInline @exclusivity(unchecked) var _members: [any UndoCommand]
    @exclusivity(unchecked) public var name: String?
    @exclusivity(unchecked) public internal(set) var context: UndoContext
    /// `true` for a coalesced run (its key is the run's), `false` for an explicit group.
    let runKey: UndoCoalescingKey?

    init(name: String?, context: UndoContext, members: [any UndoCommand] = [], runKey: UndoCoalescingKey? = nil,
         expectedMembers: Int = 8) {
        self.name = name
        self.context = context
        self._members = members
        self.knownAppendedCost = members.isEmpty ? 0 : -1
        self.runKey = runKey
        // Room for the expected members at once (see ``UndoStack/beginGroup``), rather than
        // growing 1, 2, 4, 8 (each growth copies the members and leaves the old block behind).
        if members.isEmpty { _members.reserveCapacity(expectedMembers) }
    }

    @usableFromInline @exclusivity(unchecked) var memberContexts: Set<UndoContext>?

    /// The members' costs (plus 8 bytes each) added up as they were appended, so closing a
    /// group of n members does not ask each one for its cost again; `nil` once the members
    /// changed in another way (a merge, a removal), and then summed on demand.
    var appendedCost: Int? {
        get { knownAppendedCost >= 0 ? knownAppendedCost : nil }
        set { knownAppendedCost = newValue ?? -1 }
    }
    // An Int with -1 for unknown, not an optional: a group object stays within its malloc size
    // class (macro's heap per step).
    @usableFromInline @exclusivity(unchecked) var knownAppendedCost: Int

    /// Adds a member's cost to ``appendedCost`` (before the member is appended).
    @inlinable @inline(__always)
    func addAppendedCost(_ cost: Int) {
        if knownAppendedCost >= 0 { knownAppendedCost &+= cost &+ 8 }
    }

    /// Adds a member while the group is open: the one way members are appended, so the cost
    /// added up and the contexts stay in step with them. Inlined and specialized for the
    /// command's type, the command is boxed in place and moved in, with no dynamic calls.
    /// A group named without a context takes its first member's.
    @inlinable @inline(__always)
    func append<C: UndoCommand>(_ member: consuming C) {
        if _members.isEmpty { adoptContext(member.context) }
        addAppendedCost(member.cost)
        _members.append(consume member)
        if memberContexts != nil { memberContexts = nil }
    }

    /// Forgets what was known of the members (their contexts, their cost added up) after they
    /// changed other than by ``append(_:)``: a merge into the last one, a removal.
    func membersChangedInPlace() {
        memberContexts = nil
        appendedCost = nil
    }

    @usableFromInline
    func adoptContext(_ firstContext: UndoContext) {
        if context == .global { context = firstContext }
    }

    /// Every context the group's members change (a group can span documents).
    /// - Complexity: O(members) the first time after a change, then O(1).
    var allContexts: Set<UndoContext> {
        if let memberContexts { return memberContexts }
        var contexts: Set<UndoContext> = []
        for member in members {
            if let group = UndoStack.group(in: member) { contexts.formUnion(group.allContexts) }
            else { contexts.insert(member.context) }
        }
        memberContexts = contexts
        return contexts
    }

    public var cost: Int {
        // Each member opened in place: `reduce`, the array's subscript or a buffer's `pointee`
        // would hand over a copy of every member (retained and released through its value
        // witnesses) just to read a number.
        MemoryLayout<UndoGroup>.size + 16 + (appendedCost ?? membersCost)
    }

    /// The members' costs (plus 8 bytes each), asked of every member now.
    var membersCost: Int { _members.withUnsafeMutableBufferPointer(sumOfCosts) }

    /// Discardable only if every member is.
    public var isDiscardable: Bool { _members.withUnsafeMutableBufferPointer(allDiscardable) }

    public func perform(_ changes: inout UndoChanges) throws {
        var index = 0
        do {
            while index < _members.count {
                try _members[index].perform(&changes)
                index += 1
            }
        } catch {
            let failure = UndoError.wrap(error, step: name)
            // Undo what this call already redid, newest first.
            var scratch = UndoChanges()
            do {
                while index > 0 {
                    index -= 1
                    try _members[index].undo(&scratch)
                }
            } catch {
                throw UndoError.rollbackFailed(step: name, message: "\(failure); then \(UndoError.wrap(error, step: nil))")
            }
            throw failure
        }
    }

    public func undo(_ changes: inout UndoChanges) throws {
        var index = _members.count
        do {
            while index > 0 {
                try _members[index - 1].undo(&changes)
                index -= 1
            }
        } catch {
            let failure = UndoError.wrap(error, step: name)
            // Re-apply what this call already undid, oldest first.
            var scratch = UndoChanges()
            do {
                while index < _members.count {
                    try _members[index].perform(&scratch)
                    index += 1
                }
            } catch {
                throw UndoError.rollbackFailed(step: name, message: "\(failure); then \(UndoError.wrap(error, step: nil))")
            }
            throw failure
        }
    }

    /// Removes members matching `predicate`, looking inside nested groups.
    /// - Returns: whether anything is left.
    func removeMembers(where predicate: (any UndoCommand) -> Bool) -> Bool {
        members = members.compactMap { member in
            if let group = member as? UndoGroup {
                return group.removeMembers(where: predicate) ? group : nil
            }
            return predicate(member) ? nil : member
        }
        // A group belongs to the context of what is left in it.
        if let first = members.first, !members.contains(where: { $0.context == context }) {
            context = first.context
        }
        return !members.isEmpty
    }
}

/// A command run backwards: its perform is the inner command's undo. Reverting to the saved
/// state records the group of steps it undid, then this around that same group, so undoing
/// the revert does them again.
struct InvertedCommand: UndoCommand {
    var inner: any UndoCommand
    var name: String?
    var context: UndoContext
    /// The inner group is counted where it stands in the history itself.
    var cost: Int { MemoryLayout<Self>.size }
    mutating func perform(_ changes: inout UndoChanges) throws { try inner.undo(&changes) }
    mutating func undo(_ changes: inout UndoChanges) throws { try inner.perform(&changes) }
}

/// The members' costs (plus 8 bytes each), every member opened in place.
private func sumOfCosts(_ members: inout UnsafeMutableBufferPointer<any UndoCommand>) -> Int {
    var total = 0
    guard let base = members.baseAddress else { return 0 }
    for index in 0..<members.count { total += memberCost(&base[index]) + 8 }
    return total
}

private func memberCost<T: UndoCommand>(_ member: inout T) -> Int { member.cost }

/// Whether every member is discardable, each opened in place.
private func allDiscardable(_ members: inout UnsafeMutableBufferPointer<any UndoCommand>) -> Bool {
    guard let base = members.baseAddress else { return true }
    for index in 0..<members.count where !memberIsDiscardable(&base[index]) { return false }
    return true
}

private func memberIsDiscardable<T: UndoCommand>(_ member: inout T) -> Bool { member.isDiscardable }
