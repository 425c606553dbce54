/// A step made of several commands that undo and redo as one: the parent step of a named group
/// (``UndoStack/beginGroup(named:description:context:)``). Members run in order on redo and in reverse order
/// on undo; if one fails partway, those already changed are put back so the group stays atomic.
public final class UndoGroup: UndoCommand {
    /// The name, the description and the parts (members, context, what is known of the
    /// members' contexts), each access checked by one flag (see ``GroupStorage``).
    @usableFromInline
    let storage: GroupStorage

    public internal(set) var name: String? {
        get { storage.access { $0.name } }
        set { storage.access { $0.name = newValue } }
    }
    /// The group's longer description for history lists (``UndoStack/beginGroup(named:description:context:)``).
    public internal(set) var historyDescription: String? {
        get { storage.access { $0.historyDescription } }
        set { storage.access { $0.historyDescription = newValue } }
    }

    @usableFromInline
    struct Parts {
        @usableFromInline var members: [any UndoCommand]
        @usableFromInline var context: UndoContext
        /// Every context the members change, worked out on first use after they changed.
        @usableFromInline var memberContexts: Set<UndoContext>?

        init(members: [any UndoCommand], context: UndoContext) {
            self.members = members
            self.context = context
            self.memberContexts = nil
        }

        /// Adds a member of a known type: made an existential once, in place in the list (an
        /// existential handed from call to call is copied at each).
        @inlinable
        mutating func append<C: UndoCommand>(typed member: consuming C) {
            if members.isEmpty && context == .global { context = member.context }
            members.append(member)
            if memberContexts != nil { memberContexts = nil }
        }

        mutating func append(_ member: consuming any UndoCommand) {
            if members.isEmpty && context == .global { context = member.context }
            members.append(member)
            if memberContexts != nil { memberContexts = nil }
        }

        // The members are read in place (an inout access to each element): reading them through
        // a copy of the array or of a member would copy each member's existential.

        /// See ``UndoGroup/onlyContext``.
        mutating func onlyContext() -> UndoContext? {
            var only: UndoContext?
            for index in members.indices {
                let (context, group) = Self.contextAndGroup(&members[index])
                if let group {
                    guard let inner = group.onlyContext, inner == context else { return nil }
                }
                if let only {
                    guard only == context else { return nil }
                } else {
                    only = context
                }
            }
            return only
        }

        /// The members' costs, plus 8 bytes a member.
        mutating func cost() -> Int {
            var total = 0
            for index in members.indices { total += Self.cost(&members[index]) + 8 }
            return total
        }

        private static func cost<T: UndoCommand>(_ member: inout T) -> Int { member.cost }

        /// A member's context, and the group it is or runs (see ``UndoGroup/group(in:)``).
        private static func contextAndGroup<T: UndoCommand>(_ member: inout T) -> (UndoContext, UndoGroup?) {
            let group: UndoGroup? = if T.self == UndoGroup.self {
                member as? UndoGroup
            } else if T.self == InvertedCommand.self {
                (member as? InvertedCommand)?.inner
            } else {
                nil
            }
            return (member.context, group)
        }
    }

    init(name: String?, context: UndoContext, members: [any UndoCommand] = []) {
        storage = GroupStorage(name: name, parts: Parts(members: members, context: context))
    }

    /// An empty group with room for `capacity` members.
    init(name: String?, context: UndoContext, capacity: Int) {
        var members: [any UndoCommand] = []
        members.reserveCapacity(capacity)
        storage = GroupStorage(name: name, parts: Parts(members: members, context: context))
    }

    deinit { storage.free() }

    /// The members, oldest first. A nested group is one member.
    public internal(set) var members: [any UndoCommand] {
        get { storage.access { $0.parts.members } }
        set {
            storage.access {
                $0.parts.members = newValue
                $0.parts.memberContexts = nil
            }
        }
    }

    /// The group's context: the one it was opened with, or its first member's.
    public internal(set) var context: UndoContext {
        get { storage.access { $0.parts.context } }
        set { storage.access { $0.parts.context = newValue } }
    }

    /// Adds a member; the first one gives a group opened without a context its own.
    /// - Complexity: O(1) amortized.
    func append(_ member: consuming any UndoCommand) {
        var pending: (any UndoCommand)? = member
        storage.access { $0.parts.append(pending.take().unsafelyUnwrapped) }
    }

    /// Adds a member of a known type (see ``append(_:)``).
    @inlinable
    func append<C: UndoCommand>(typed member: consuming C) { storage.append(typed: member) }

    /// Forgets what was worked out from the members, after they changed in place.
    func membersChanged() { storage.access { $0.parts.memberContexts = nil } }

    /// Every context the members change (a group can span documents).
    /// - Complexity: O(members) the first time after a change, then O(1).
    var allContexts: Set<UndoContext> {
        if let known = storage.access({ $0.parts.memberContexts }) { return known }
        var contexts: Set<UndoContext> = []
        // Members come in runs of one context (most groups have one): a context is hashed into
        // the set only where it differs from the member's before.
        var previous: UndoContext?
        for member in members {
            if let group = UndoGroup.group(in: member) { contexts.formUnion(group.allContexts) }
            let context = member.context
            if context != previous {
                contexts.insert(context)
                previous = context
            }
        }
        storage.access { $0.parts.memberContexts = contexts }
        return contexts
    }

    /// The one context that every member changes, when they all change the same one (most
    /// groups), else `nil` (also for a group with no members). Found by comparing contexts, without
    /// building the set of ``allContexts``: counting a group in when it goes into the history
    /// then costs O(members) comparisons and no hashing.
    /// - Complexity: O(members, nested ones included).
    var onlyContext: UndoContext? {
        storage.access { fields in
            if let known = fields.parts.memberContexts { return known.count == 1 ? known.first : nil }
            return fields.parts.onlyContext()
        }
    }

    /// The members' costs, plus the group's own object and 8 bytes a member.
    public var cost: Int { MemoryLayout<UndoGroup>.size + 16 + storage.access { $0.parts.cost() } }

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
        // The members are moved out while they run, so a member's action may read its group.
        var running: [any UndoCommand] = []
        storage.access { swap(&running, &$0.parts.members) }
        defer { storage.access { swap(&running, &$0.parts.members) } }
        let count = running.count
        var done = 0
        // The group is obsolete only when every member is (see UndoChanges.markObsolete()).
        let marksBefore = changes.obsoleteMarks
        var obsoleteMembers = 0
        do {
            while done < count {
                let marks = changes.obsoleteMarks
                if forward { try running[done].perform(&changes) } else { try running[count - 1 - done].undo(&changes) }
                if changes.obsoleteMarks != marks { obsoleteMembers += 1 }
                done += 1
            }
            changes.obsoleteMarks = marksBefore + (count > 0 && obsoleteMembers == count ? 1 : 0)
        } catch {
            let failure = UndoError.wrap(error, step: name)
            var scratch = UndoChanges()
            do {
                while done > 0 {
                    done -= 1
                    if forward { try running[done].undo(&scratch) } else { try running[count - 1 - done].perform(&scratch) }
                }
            } catch let rollbackError {
                throw UndoError.rollbackFailed(step: name, message: "\(failure); then \(UndoError.wrap(rollbackError, step: nil))")
            }
            throw failure
        }
    }

    /// The group `command` is, or runs: a group itself, or a revert to the saved state, which
    /// runs the steps it took back (``UndoStack/revertToSaved(_:named:)``) as a group of its own.
    /// Whatever walks the commands a step is made of (to count, find or remove a plugin's
    /// commands, say) looks inside both. `nil` for any other command.
    /// - Complexity: O(1).
    public static func group(in command: any UndoCommand) -> UndoGroup? {
        // The type is compared before any cast: most steps are no group, and a failing dynamic
        // cast costs far more than the comparison.
        func open<T: UndoCommand>(_ command: T) -> UndoGroup? {
            if T.self == UndoGroup.self { return command as? UndoGroup }
            if T.self == InvertedCommand.self { return (command as? InvertedCommand)?.inner }
            return nil
        }
        return open(command)
    }

    /// Removes members matching `predicate`, looking inside nested groups and reverts
    /// (``group(in:)``); a nested one left empty goes too.
    /// - Returns: whether anything is left.
    /// - Complexity: O(members, nested ones included).
    func removeMembers(where predicate: (any UndoCommand) -> Bool) -> Bool {
        var removed = 0
        return removeMembers(where: predicate, counting: &removed)
    }

    /// ``removeMembers(where:)``, adding to `removed` how many commands that are not groups it
    /// removed (nested ones included): what the group held before less what it holds after,
    /// counted on the way instead of by walking it twice.
    /// - Complexity: O(members, nested ones included).
    func removeMembers(where predicate: (any UndoCommand) -> Bool, counting removed: inout Int) -> Bool {
        members = members.filter { member in
            if let group = UndoGroup.group(in: member) { return group.removeMembers(where: predicate, counting: &removed) }
            if predicate(member) {
                removed += 1
                return false
            }
            return true
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
