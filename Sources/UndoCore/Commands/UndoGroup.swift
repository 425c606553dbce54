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
        /// Each held in its slot whole (``GroupMembers``): a plugin step is no heap block.
        @usableFromInline var members: GroupMembers
        @usableFromInline var context: UndoContext
        /// Every context the members change, worked out on first use for a group whose
        /// members change more than its own context; `nil` until then and after any change.
        @usableFromInline var memberContexts: Set<UndoContext>?
        /// The members' costs, plus 8 bytes a member, kept as they are added (closing a group
        /// asks no member again); valid unless `known` is `.unknown`. 32 bits, as a step's
        /// cost is: the fields stay within the allocation size they had (a larger sum is not
        /// kept, and is worked out each time).
        @usableFromInline var keptCost: Int32
        /// What is known of the members' contexts, kept as they are added.
        @usableFromInline var known: Known

        init(members: GroupMembers, context: UndoContext) {
            self.members = members
            self.context = context
            self.memberContexts = nil
            self.keptCost = 0
            self.known = members.isEmpty ? .none : .unknown
        }

        /// Adds a member of a known type: made an existential once, in place in the list (an
        /// existential handed from call to call is copied at each). `measured` is what it
        /// adds to what is kept, asked of it before this access (``Measured/measure(_:)``).
        @inlinable
        mutating func append<C: UndoCommand>(typed member: consuming C, _ measured: Measured) {
            if members.isEmpty && context == .global { context = measured.context }
            members.append(typed: member)
            add(measured)
        }

        mutating func append(_ member: consuming any UndoCommand, _ measured: Measured) {
            if members.isEmpty && context == .global { context = measured.context }
            members.append(member)
            add(measured)
        }

        /// Adds a member's part to what is kept (after the group took its context).
        /// - Complexity: O(1): one comparison of contexts.
        // Always inlined into the appends: a call of its own cost a member about 15
        // instructions of spills.
        @inlinable @inline(__always)
        mutating func add(_ member: Measured) {
            if memberContexts != nil { memberContexts = nil }
            guard known != .unknown else { return }
            // Wrapping: a member's cost near Int.max leaves a sum outside 32 bits, not kept
            // (the walk then traps on it as it always did).
            guard let cost = Int32(exactly: Int(keptCost) &+ member.cost &+ 8) else {
                known = .unknown
                return
            }
            keptCost = cost
            known = known.adding(ownContextAlone: member.alone && member.context == context)
        }

        /// Forgets what is kept, after the members or the group's context changed otherwise.
        mutating func forget() {
            known = .unknown
            memberContexts = nil
        }

        /// The members' cost and what is known of their contexts: kept, or worked out from the
        /// members (and kept, when the cost fits).
        /// - Complexity: O(1) when kept; else O(members).
        mutating func summary() -> (cost: Int, known: Known) {
            if known != .unknown { return (Int(keptCost), known) }
            let walked = walkedSummary()
            if let cost = Int32(exactly: walked.cost) {
                keptCost = cost
                known = walked.known
            }
            return walked
        }

        // The members are read in place, with their own types: reading them through a copy of
        // a member would copy it (and box a large one).

        /// The members' cost and what is known of their contexts, worked out from them now
        /// (``summary()``; the invariant checks compare it with what is kept).
        /// - Complexity: O(members).
        mutating func walkedSummary() -> (cost: Int, known: Known) {
            var cost = 0
            var known = Known.none
            var measure = MeasureMember()
            for index in 0..<members.count {
                let member = members.read(at: index, &measure)
                cost += member.cost + 8
                known = known.adding(ownContextAlone: member.alone && member.context == context)
            }
            return (cost, known)
        }

        /// Every context the members change, nested groups' members included.
        /// - Complexity: O(1) for a group whose members change its own context alone, or once
        ///   worked out; else O(members, nested ones included), hashing.
        mutating func allContexts() -> Set<UndoContext> {
            switch summary().known {
            case .none: return []
            case .own: return [context]
            case .mixed, .unknown:
                if let memberContexts { return memberContexts }
                let contexts = walkedContexts()
                memberContexts = contexts
                return contexts
            }
        }

        /// Every context the members change, worked out from them now.
        /// - Complexity: O(members, nested ones included), hashing.
        mutating func walkedContexts() -> Set<UndoContext> {
            var contexts: Set<UndoContext> = []
            // Members come in runs of one context (most groups have one): a context is hashed into
            // the set only where it differs from the member's before.
            var previous: UndoContext?
            var ask = MemberContextAndGroup()
            for index in 0..<members.count {
                let (context, group) = members.read(at: index, &ask)
                if let group { contexts.formUnion(group.allContexts) }
                if context != previous {
                    contexts.insert(context)
                    previous = context
                }
            }
            return contexts
        }

        /// What a member adds to what is kept (``Measured/measure(_:)``), read in place.
        struct MeasureMember: StepCommandRead {
            func read<C: UndoCommand>(_ member: borrowing C) -> Measured { Measured.measure(member) }
        }

        /// A member's context, and the group it is or runs (see ``UndoGroup/group(in:)``), read in place.
        struct MemberContextAndGroup: StepCommandRead {
            func read<C: UndoCommand>(_ member: borrowing C) -> (UndoContext, UndoGroup?) {
                (member.context, Measured.group(in: member))
            }
        }
    }

    /// What is known of a group's members' contexts, kept as they are added; every other change
    /// to the members, or to the group's context, makes it `.unknown` (``Parts/forget()``),
    /// and it is worked out again on first use.
    ///
    /// Invariant (checked by ``UndoStack/checkInvariants()``, nested groups included): what is
    /// kept equals what the members say (``Parts/walkedSummary()``, ``Parts/walkedContexts()``).
    @usableFromInline
    enum Known: UInt8 {
        /// Not known, nor the members' cost.
        case unknown
        /// No member.
        case none
        /// Every member changes the group's own context alone (a nested group: its members too).
        case own
        /// Some member changes another context (the members may still share one).
        case mixed

        /// With one member more, which changes the group's own context alone or not.
        @inlinable
        func adding(ownContextAlone: Bool) -> Known {
            switch self {
            case .none, .own: ownContextAlone ? .own : .mixed
            case .mixed, .unknown: self
            }
        }
    }

    /// What one member adds to what its group keeps: its cost, its context, and whether it
    /// changes that context alone (a nested group or revert may change others).
    @usableFromInline
    struct Measured {
        @usableFromInline var cost: Int
        @usableFromInline var context: UndoContext
        @usableFromInline var alone: Bool

        @usableFromInline
        init(cost: Int, context: UndoContext, alone: Bool) {
            self.cost = cost
            self.context = context
            self.alone = alone
        }

        /// Asks `member` its cost and context, and, for a group or revert, whether its own
        /// members change its context alone. Inlinable: specialized for a member's type, a
        /// command that is no group pays no type test (the comparisons fold away).
        /// - Complexity: O(1) (a nested group's is kept; O(its members) when not).
        @inlinable
        static func measure<C: UndoCommand>(_ member: borrowing C) -> Measured {
            let context = member.context
            let alone = C.self == UndoGroup.self || C.self == InvertedCommand.self ? changesAlone(member, context) : true
            return Measured(cost: member.cost, context: context, alone: alone)
        }

        /// Whether `member`, a group or revert, changes `context` alone.
        @usableFromInline
        static func changesAlone<C: UndoCommand>(_ member: borrowing C, _ context: UndoContext) -> Bool {
            guard let group = group(in: member) else { return true }
            return group.onlyContext == context
        }

        /// The group `member` is or runs (``UndoGroup/group(in:)``), for a member of a type
        /// known here.
        static func group<C: UndoCommand>(in member: borrowing C) -> UndoGroup? {
            if C.self == UndoGroup.self { return copy member as? UndoGroup }
            if C.self == InvertedCommand.self { return (copy member as? InvertedCommand)?.inner }
            return nil
        }
    }

    init(name: String?, context: UndoContext, members: [any UndoCommand] = []) {
        storage = GroupStorage(name: name, parts: Parts(members: GroupMembers(members), context: context))
    }

    /// An empty group with room for `capacity` members, in wide slots when `wide`.
    init(name: String?, context: UndoContext, capacity: Int, wide: Bool = false) {
        storage = GroupStorage(name: name, parts: Parts(members: GroupMembers(reserving: capacity, wide: wide),
                                                        context: context))
    }

    deinit { storage.free() }

    /// The members, oldest first. A nested group is one member.
    /// - Complexity: O(members): each is copied (a member of over 24 bytes boxed for it).
    public internal(set) var members: [any UndoCommand] {
        get { storage.access { $0.parts.members.array } }
        set {
            storage.access {
                $0.parts.members = GroupMembers(newValue)
                $0.parts.forget()
            }
        }
    }

    /// The group's context: the one it was opened with, or its first member's.
    public internal(set) var context: UndoContext {
        get { storage.access { $0.parts.context } }
        set {
            storage.access {
                $0.parts.context = newValue
                $0.parts.forget()  // what is kept compares the members with it
            }
        }
    }

    /// Adds a member; the first one gives a group opened without a context its own.
    /// - Complexity: O(1) amortized.
    func append(_ member: consuming any UndoCommand) {
        // Measured before the access (a member's cost or context may read its own group), and
        // in place (opened inout: no copy of the existential).
        func measure<T: UndoCommand>(_ member: inout T) -> Measured { Measured.measure(member) }
        let measured = measure(&member)
        var pending: (any UndoCommand)? = member
        storage.access { $0.parts.append(pending.take().unsafelyUnwrapped, measured) }
    }

    /// Adds a member of a known type (see ``append(_:)``).
    @inlinable
    func append<C: UndoCommand>(typed member: consuming C) { storage.append(typed: member) }

    /// Forgets what was worked out from the members, after they changed in place.
    func membersChanged() { storage.access { $0.parts.forget() } }

    /// The number of members (one access, no copy of the list).
    /// - Complexity: O(1).
    var memberCount: Int { storage.access { $0.parts.members.count } }

    /// The number of members, and whether the first is held in a wide slot (one access).
    /// - Complexity: O(1).
    var memberCountAndFirstKind: (count: Int, firstIsWide: Bool) {
        storage.access { ($0.parts.members.count, $0.parts.members.firstIsHeldWide) }
    }

    /// Every context the members change (a group can span documents).
    /// - Complexity: O(1) for a group whose members change its own context alone (most), or
    ///   once worked out; else O(members, nested ones included) the first time after a change.
    var allContexts: Set<UndoContext> { storage.access { $0.parts.allContexts() } }

    /// The one context that every member changes, when they all change the same one (most
    /// groups), else `nil` (also for a group with no members). Kept as members are added
    /// (``Known``): counting a group in when it goes into the history then costs no walk of its
    /// members and no hashing.
    /// - Complexity: O(1) for a group whose members change its own context alone; else as
    ///   ``allContexts``.
    var onlyContext: UndoContext? {
        storage.access { fields in
            switch fields.parts.summary().known {
            case .none: return nil
            case .own: return fields.parts.context
            case .mixed, .unknown:
                let contexts = fields.parts.allContexts()
                return contexts.count == 1 ? contexts.first : nil
            }
        }
    }

    /// The members' costs (each as it was when the member was added, or when the members last
    /// changed otherwise), plus the group's own object and 8 bytes a member.
    /// - Complexity: O(1) while kept (a sum within 32 bits); else O(members).
    public var cost: Int { MemoryLayout<UndoGroup>.size + 16 + storage.access { $0.parts.summary().cost } }

    /// Whether what the group keeps of its members equals what they say now, in nested groups
    /// too (``Known``'s invariant, for ``UndoStack/checkInvariants()``).
    /// - Complexity: O(members, nested ones included).
    var keptMatchesMembers: Bool {
        let nestedMatch = members.allSatisfy { UndoGroup.group(in: $0)?.keptMatchesMembers ?? true }
        return nestedMatch && storage.access { fields in
            fields.parts.members.checkInvariants()
            if fields.parts.known != .unknown {
                let walked = fields.parts.walkedSummary()
                guard walked.cost == Int(fields.parts.keptCost) && walked.known == fields.parts.known else { return false }
            }
            if let kept = fields.parts.memberContexts, kept != fields.parts.walkedContexts() { return false }
            return true
        }
    }

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
        var running = GroupMembers()
        storage.access { swap(&running, &$0.parts.members) }
        defer { storage.access { swap(&running, &$0.parts.members) } }
        let count = running.count
        // The group is obsolete only when every member is (see UndoChanges.markObsolete()).
        let marksBefore = changes.obsoleteMarks
        // Each member run in its slot, with its own type (``RunMember``).
        var run = RunMember(forward: forward)
        swap(&run.changes, &changes)
        defer { swap(&run.changes, &changes) }
        do {
            try running.change(0..<count, reversed: !forward, &run)
            run.changes.obsoleteMarks = marksBefore + (count > 0 && run.obsolete == count ? 1 : 0)
        } catch {
            let failure = UndoError.wrap(error, step: name)
            // Those already run are put back, newest first: the first `done` of a forward run,
            // the last `done` of a backward one. Their places go to a scratch record.
            let done = run.done
            var back = RunMember(forward: !forward)
            do {
                try running.change(forward ? 0..<done : count - done..<count, reversed: forward, &back)
            } catch let rollbackError {
                throw UndoError.rollbackFailed(step: name, message: "\(failure); then \(UndoError.wrap(rollbackError, step: nil))")
            }
            throw failure
        }
    }

    /// Runs one member, in its slot: performs it (`forward`) or undoes it, its places reported
    /// into `changes` (a rollback's go to a scratch record of its own); counts the members run
    /// and those that marked the change obsolete.
    struct RunMember: StepCommandChange {
        let forward: Bool
        var changes = UndoChanges()
        var done = 0
        var obsolete = 0

        init(forward: Bool) { self.forward = forward }

        mutating func change<C: UndoCommand>(_ member: inout C) throws(any Error) {
            let marks = changes.obsoleteMarks
            if forward { try member.perform(&changes) } else { try member.undo(&changes) }
            counted(marks)
        }

        mutating func change(existential member: inout any UndoCommand) throws(any Error) {
            let marks = changes.obsoleteMarks
            if forward { try member.perform(&changes) } else { try member.undo(&changes) }
            counted(marks)
        }

        private mutating func counted(_ marksBefore: Int) {
            if changes.obsoleteMarks != marksBefore { obsolete += 1 }
            done += 1
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

    /// Removes the members `matcher` picks, each read in place with its own type (a nested
    /// group or revert is looked inside, and goes when left empty), adding to `removed` how many
    /// commands went. `held` is `matcher`'s judge of the members of its type where they are
    /// held (``heldCommandJudge(for:)``), made once by the caller.
    /// - Returns: whether anything is left.
    /// - Complexity: O(members, nested ones included).
    func removeMembers<M: UndoCommandMatcher>(matching matcher: M, held: HeldCommandJudge?,
                                              counting removed: inout Int) -> Bool {
        // Judged moved out of the group, as when they run: a matcher that reads the group
        // finds it empty instead of stopping the program.
        var judged = GroupMembers()
        storage.access { swap(&judged, &$0.parts.members) }
        var judge = MemberJudge(matcher: matcher, held: held)
        removed += judged.removeAll(judging: &judge, held: held)
        return storage.access { fields in
            swap(&judged, &fields.parts.members)
            fields.parts.forget()
            // A group belongs to the context of what is left in it.
            let members = fields.parts.members
            guard members.count > 0 else { return false }
            var ask = MemberContext()
            var keepsOwn = false
            for index in 0..<members.count where members.read(at: index, &ask) == fields.parts.context {
                keepsOwn = true
                break
            }
            if !keepsOwn { fields.parts.context = members.read(at: 0, &ask) }
            return true
        }
    }

    /// A member's context, read in place.
    struct MemberContext: StepCommandRead {
        func read<C: UndoCommand>(_ member: borrowing C) -> UndoContext { member.context }
    }

    /// Whether a member goes (``removeMembers(matching:held:counting:)``), read in place: a group or
    /// revert goes when nothing is left in it; another command when `matcher` picks it. Not
    /// mutating: the matcher is read where it is (a mutating read copied the judge, and with it
    /// the matcher, for each member).
    struct MemberJudge<M: UndoCommandMatcher>: StepCommandRead {
        let matcher: M
        let held: HeldCommandJudge?

        func read<C: UndoCommand>(_ member: borrowing C) -> GroupMembers.Verdict {
            if C.self == UndoGroup.self || C.self == InvertedCommand.self, let group = Measured.group(in: member) {
                var removed = 0
                let stays = group.removeMembers(matching: matcher, held: held, counting: &removed)
                return GroupMembers.Verdict(goes: !stays, removed: removed)
            }
            return matcher.matches(member) ? GroupMembers.Verdict(goes: true, removed: 1) : GroupMembers.Verdict(goes: false, removed: 0)
        }
    }
}

/// A command run backwards: its perform is the inner group's undo. A revert to the saved state
/// is one of these around the steps it took back.
@usableFromInline
struct InvertedCommand: UndoCommand {
    // Usable from inlinable code for its type alone (measuring a group's member compares the
    // member's type with it).
    var inner: UndoGroup
    @usableFromInline var name: String?
    @usableFromInline var context: UndoContext
    @usableFromInline var cost: Int { MemoryLayout<Self>.size + inner.cost }
    @usableFromInline mutating func perform(_ changes: inout UndoChanges) throws { try inner.undo(&changes) }
    @usableFromInline mutating func undo(_ changes: inout UndoChanges) throws { try inner.perform(&changes) }
}
