/// A step made of several commands that undo and redo as one: the parent step of a named group
/// (``UndoStack/beginGroup(named:context:)``). Members run in order on redo and in reverse order
/// on undo; if one fails partway, those already changed are put back so the group stays atomic.
public final class UndoGroup: UndoCommand {
    /// The members, oldest first. A nested group is one member.
    public internal(set) var members: [any UndoCommand]
    public internal(set) var name: String?
    public internal(set) var context: UndoContext
    /// Every context the members change, worked out on first use after they changed.
    private var memberContexts: Set<UndoContext>?

    init(name: String?, context: UndoContext, members: [any UndoCommand] = []) {
        self.name = name
        self.context = context
        self.members = members
    }

    /// Adds a member; the first one gives a group opened without a context its own.
    /// - Complexity: O(1) amortized.
    func append(_ member: any UndoCommand) {
        if members.isEmpty && context == .global { context = member.context }
        members.append(member)
        membersChanged()
    }

    /// Forgets what was worked out from the members, after they changed.
    func membersChanged() { memberContexts = nil }

    /// Every context the members change (a group can span documents).
    /// - Complexity: O(members) the first time after a change, then O(1).
    var allContexts: Set<UndoContext> {
        if let memberContexts { return memberContexts }
        var contexts: Set<UndoContext> = []
        for member in members {
            if let group = HistoryRecord.group(in: member) { contexts.formUnion(group.allContexts) }
            contexts.insert(member.context)
        }
        memberContexts = contexts
        return contexts
    }

    /// The members' costs, plus the group's own object and 8 bytes a member.
    public var cost: Int { members.reduce(MemoryLayout<UndoGroup>.size + 16) { $0 + $1.cost + 8 } }

    /// Discardable only if every member is.
    public var isDiscardable: Bool { members.allSatisfy(\.isDiscardable) }

    public func perform(_ changes: inout UndoChanges) throws {
        try run(forward: true, &changes)
    }

    public func undo(_ changes: inout UndoChanges) throws {
        try run(forward: false, &changes)
    }

    /// Runs every member, oldest first (`forward`) or newest first; on a failure, puts back
    /// those already run and throws, named after the group.
    private func run(forward: Bool, _ changes: inout UndoChanges) throws {
        let order = forward ? Array(members.indices) : members.indices.reversed()
        var done = 0
        do {
            for index in order {
                if forward { try members[index].perform(&changes) } else { try members[index].undo(&changes) }
                done += 1
            }
        } catch {
            let failure = UndoError.wrap(error, step: name)
            var scratch = UndoChanges()
            do {
                for index in order.prefix(done).reversed() {
                    if forward { try members[index].undo(&scratch) } else { try members[index].perform(&scratch) }
                }
            } catch let rollbackError {
                throw UndoError.rollbackFailed(step: name, message: "\(failure); then \(UndoError.wrap(rollbackError, step: nil))")
            }
            throw failure
        }
    }

    /// Removes members matching `predicate`, looking inside nested groups.
    /// - Returns: whether anything is left.
    /// - Complexity: O(members, nested ones included).
    func removeMembers(where predicate: (any UndoCommand) -> Bool) -> Bool {
        members = members.filter { member in
            if let group = member as? UndoGroup { return group.removeMembers(where: predicate) }
            return !predicate(member)
        }
        membersChanged()
        // A group belongs to the context of what is left in it.
        if let first = members.first, !members.contains(where: { $0.context == context }) {
            context = first.context
        }
        return !members.isEmpty
    }
}

/// A command run backwards: its perform is the inner group's undo. A revert to the saved state
/// is one of these around the steps it took back.
struct InvertedCommand: UndoCommand {
    var inner: UndoGroup
    var name: String?
    var context: UndoContext
    var cost: Int { MemoryLayout<Self>.size + inner.cost }
    mutating func perform(_ changes: inout UndoChanges) throws { try inner.undo(&changes) }
    mutating func undo(_ changes: inout UndoChanges) throws { try inner.perform(&changes) }
}
