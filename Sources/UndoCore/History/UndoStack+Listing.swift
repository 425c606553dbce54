extension UndoStack {
    /// Every step, oldest first, with its name, whether it is done, and the save points: what a
    /// history panel shows.
    /// - Complexity: O(count)
    public var steps: [UndoStepInfo] {
        access { record in record.steps.indices.map { record.stepInfo(at: $0) } }
    }

    /// The step at `index` (0 is the oldest) as ``steps`` lists it, for a panel that reads one
    /// row at a time.
    /// - Precondition: `index` is in `0..<count`.
    /// - Complexity: O(1).
    public func step(at index: Int) -> UndoStepInfo { access { $0.stepInfo(at: index) } }

    /// The values the command of the step at `index` (0 is the oldest) chooses to show in a
    /// history list (``UndoCommand/historyValues``): read on demand, not with every row of
    /// ``steps``.
    /// - Parameter index: the step's index, as in ``steps``.
    /// - Precondition: `index` is in `0..<count`.
    /// - Complexity: O(1) plus what the command does to describe its values.
    public func historyValues(at index: Int) -> [UndoStepValue] { access { $0.steps[index].command.historyValues } }

    /// The text a history list shows for the step at `index`: its description when it has one,
    /// else its name as titles show it, in the history's formatter
    /// (``UndoTitleFormatter/historyText(name:description:)``); `nil` for a step with neither.
    /// - Parameter index: the step's index, as in ``steps``.
    /// - Precondition: `index` is in `0..<count`.
    /// - Complexity: O(*n*) in the length of the text.
    public func historyText(at index: Int) -> String? {
        access { record in
            let command = record.steps[index].command
            return record.formatter.historyText(name: command.name, description: command.historyDescription)
        }
    }

    /// The contexts that have steps, done or redoable (a group's members included): the global
    /// context first when it has any, then the others by name.
    /// - Complexity: O(contexts with steps × log of that).
    public var contexts: [UndoContext] { access { $0.contextCounts.contexts } }

    /// The command of the step at `index` (0 is the oldest), for a history panel that shows
    /// more than ``steps`` does.
    /// - Precondition: `index` is in `0..<count`.
    public func command(at index: Int) -> any UndoCommand { access { $0.steps[index].command } }

    /// Whether the state before any step of `context` is its saved state.
    public func isSavedAtStart(_ context: UndoContext = .global) -> Bool {
        let state = access { $0.saveStates[context] } ?? SaveState()
        return state.saved.contains(state.baseline)
    }

    /// Removes the steps of `context` (a document that closed), in groups too, and forgets its
    /// save state; the other steps stay and still undo.
    /// - Returns: how many steps (or group members) were removed.
    @discardableResult
    public func removeAll(in context: UndoContext) throws -> Int {
        let removed = try removeAll { $0.context == context }
        access { $0.saveStates[context] = nil }
        notifyIfObserved()
        return removed
    }

    /// Removes every step and group member that `predicate` picks, the commands a revert runs
    /// included (groups and reverts themselves are not offered to it: one goes when it is left
    /// empty; see ``UndoGroup/group(in:)``). The save states of other contexts are kept.
    /// `predicate` runs while the record is being changed: it must not touch the history.
    /// - Returns: how many were removed.
    /// - Complexity: O(count)
    @discardableResult
    public func removeAll(where predicate: (any UndoCommand) -> Bool) throws -> Int {
        try withoutActuallyEscaping(predicate) { predicate in
            try removeAll(matching: ClosureMatcher(predicate: predicate))
        }
    }

    /// Removes every step and group member that `matcher` picks, as ``removeAll(where:)``
    /// does, with each command offered to `matcher` as its own type, read in place: no command
    /// is made an existential for it (which would box a command of over 24 bytes, a plugin
    /// step say, and copy it).
    /// - Returns: how many were removed.
    /// - Complexity: O(count)
    @discardableResult
    public func removeAll(matching matcher: some UndoCommandMatcher) throws -> Int {
        try beginAction("removeAll")
        let removed = storage.record.pointee.removeAll(matching: matcher)
        endAction()
        notifyIfObserved()
        return removed
    }
}

/// Picks commands for ``UndoStack/removeAll(matching:)``: asked of each command (not of groups
/// and reverts, whose members it is asked of) with the command's own type, in place.
public protocol UndoCommandMatcher {
    /// Whether `command` goes. It runs while the history is being changed: it must not touch
    /// the history.
    func matches<C: UndoCommand>(_ command: borrowing C) -> Bool
}

/// ``UndoStack/removeAll(where:)``'s predicate as a matcher.
struct ClosureMatcher: UndoCommandMatcher {
    let predicate: (any UndoCommand) -> Bool
    func matches<C: UndoCommand>(_ command: borrowing C) -> Bool { predicate(copy command) }
}

extension HistoryRecord {
    /// The row of ``UndoStack/steps`` for the step at `index`.
    func stepInfo(at index: Int) -> UndoStepInfo {
        let step = steps[index]
        let command = step.command
        let context = command.context
        return UndoStepInfo(index: index, serial: step.serial, name: command.name,
                            historyDescription: command.historyDescription, context: context,
                            isApplied: index < position,
                            isSavePoint: step.serial != 0 && isSaved(step.serial, in: context),
                            isDiscardable: command.isDiscardable,
                            memberCount: UndoGroup.group(in: command)?.memberCount ?? 0)
    }

    /// Removes every step and group member that `matcher` picks (see
    /// ``UndoStack/removeAll(matching:)``).
    /// - Returns: how many were removed.
    mutating func removeAll<M: UndoCommandMatcher>(matching matcher: M) -> Int {
        var kept = StepList()
        var keptDone = 0
        // Each removed step's serial, and the kept state before it: where the branches that
        // hung at it hang now. Only branches read it, so it is kept only when there are some
        // (a dictionary entry per removed step cost about 170 instructions a step).
        let hasBranches = !branches.isEmpty
        var anchors: [UInt32: UInt32] = [:]
        var last: UInt32 = 0
        let pendingStart = self.pendingStart
        var keptOrigins: [UInt32] = []
        // The oldest steps that go, up to the first that stays, are judged with
        // their commands read in place: the walk below copies every step it reads (about 150
        // instructions a step), and an unload that takes every step of the history (a program's
        // last plugin) copies none. Their anchors are the empty history's state, 0.
        var removed = 0
        // A typed matcher's own commands are judged where they are held, by their type.
        let held = heldCommandJudge(for: matcher)
        let (leading, nextStays) = leadingRemoved(by: matcher, held: held, count: &removed)
        if hasBranches {
            for index in 0..<Swift.min(leading, pendingStart) { anchors[steps.serial(at: index)] = 0 }
        }
        let rest = IteratorSequence(StepList.Iterator(steps, from: leading))
        for (offset, step) in rest.enumerated() {
            let index = leading + offset
            // The first step after the leading ones was judged there already (it stays): not
            // offered to `predicate` again; a group that lost members is measured again.
            let left: Step?
            switch offset == 0 ? nextStays : nil {
            case .asIs?: left = step
            case .changedGroup?:
                left = Step(command: step.command, serial: step.serial, cost: Step.measure(step.command), time: step.time)
            case nil:
                // A typed matcher's own step is judged in its slot: the copy in hand would
                // reach the matcher only through a cast.
                if let goes = steps.judgeHeld(at: index, by: held) {
                    if goes { removed += 1 }
                    left = goes ? nil : step
                } else {
                    left = Self.filtered(step, removing: matcher, held: held, count: &removed)
                }
            }
            guard let step = left else {
                if hasBranches && index < pendingStart { anchors[step.serial] = last }
                continue
            }
            if index >= pendingStart { keptOrigins.append(pendingOrigins[index - pendingStart]) }
            last = step.serial
            kept.appendKept(step)
            if index < position { keptDone += 1 }
        }
        steps = kept
        position = keptDone
        pendingOrigins = keptOrigins
        if hasBranches {
            var keptBranches: [(fork: UInt32, steps: [Step], origins: [UInt32])] = []
            for index in branches.branches.indices {
                var keptSteps: [Step] = []
                var keptOrigins: [UInt32] = []
                var last = branches.branches[index].fork
                let run = branches.steps(of: index)
                let origins = branches.pendingOrigins(of: index)
                for (offset, step) in run.enumerated() {
                    let pending = offset - (run.count - origins.count)
                    if let step = Self.filtered(step, removing: matcher, held: held, count: &removed) {
                        // A pending step left at a branch's start (its states all gone) goes too.
                        if pending >= 0 && keptSteps.isEmpty { continue }
                        keptSteps.append(step)
                        if pending >= 0 { keptOrigins.append(origins[pending]) }
                        last = step.serial
                    } else if pending < 0 {
                        anchors[step.serial] = last
                    }
                }
                keptBranches.append((branches.branches[index].fork, keptSteps, keptOrigins))
            }
            branches = BranchStore()
            for var branch in keptBranches where !branch.steps.isEmpty {
                while let anchor = anchors[branch.fork] { branch.fork = anchor }
                branches.add(fork: branch.fork, steps: branch.steps, origins: branch.origins)
            }
        }
        totalCost = (0..<steps.count).reduce(0) { $0 + Int(steps.cost(at: $1)) }
            + branches.branches.indices.reduce(0) { total, index in branches.steps(of: index).reduce(total) { $0 + Int($1.cost) } }
        contextCounts = recountedContexts()
        // An open group's members go too, and are counted with the rest (a nested open group
        // is not yet a member of its parent: each is walked once).
        for group in openGroups { _ = group.removeMembers(matching: matcher, held: held, counting: &removed) }
        coalescingOpen = false
        return removed
    }

    /// How many of the oldest steps go, up to the first that stays: each command read in place,
    /// with its own type, and offered to `matcher` once, a group's members judged (and removed)
    /// as ``filtered(_:removing:held:count:)`` does, the commands removed added to `count`;
    /// `held` judges first those it can where they are held.
    /// - Returns: the steps that go, and how the step after them was judged (`nil` when there is
    ///   none).
    /// - Complexity: O(those steps and their members, and the one after them).
    private func leadingRemoved<M: UndoCommandMatcher>(by matcher: M, held: HeldCommandJudge?,
                                                       count: inout Int) -> (Int, LeadingStepJudge<M>.Judged?) {
        var judge = LeadingStepJudge(matcher: matcher, held: held)
        var index = 0
        let total = steps.count
        while index < total {
            if let goes = steps.judgeHeld(at: index, by: held) {
                guard goes else { return (index, .asIs) }
                count += 1
                index += 1
                continue
            }
            let (stays, removed) = steps.read(at: index, &judge)
            count += removed
            if let stays { return (index, stays) }
            index += 1
        }
        return (index, nil)
    }

    /// `step` without the commands `matcher` picks (counted into `count`), or `nil` when it
    /// goes: a group is a container, whose members are judged, and it goes only when left empty.
    private static func filtered<M: UndoCommandMatcher>(_ step: Step, removing matcher: M, held: HeldCommandJudge?,
                                                        count: inout Int) -> Step? {
        if let group = UndoGroup.group(in: step.command) {
            guard group.removeMembers(matching: matcher, held: held, counting: &count) else { return nil }
            var step = step
            step.cost = Step.measure(step.command)
            return step
        }
        if matcher.matches(step.command) {
            count += 1
            return nil
        }
        return step
    }
}

extension UndoStack {
    /// Removes every step and every save state.
    public func removeAll() throws {
        try refuseReentry("removeAll")
        access { record in
            record.steps.removeAll()
            record.pendingOrigins.removeAll()
            record.position = 0
            record.totalCost = 0
            record.contextCounts = ContextCounts()
            record.branches = BranchStore()
            record.saveLog.removeAll()
            record.saveStates.removeAll()
            record.coalescingOpen = false
        }
        notifyIfObserved()
    }
}

extension UndoStack {
    /// Traps if the record is inconsistent: the position inside the history, the running cost
    /// equal to the steps' costs, serials unique, no action running, no empty group, and within
    /// the count limit. Tests call it after every operation.
    public func checkInvariants() {
        precondition(!isRunningAction, "an action is still marked as running")
        access { record in
            record.steps.checkInvariants()
            precondition((record.innermostOpenGroup == nil) == record.openGroups.isEmpty
                            && (record.openGroups.last.map { record.innermostOpenGroup!.isSame(as: $0.storage) } ?? true),
                         "the innermost open group's storage is not the innermost open group's")
            precondition(record.position >= 0 && record.position <= record.steps.count,
                         "position \(record.position) outside 0...\(record.steps.count)")
            var cost = 0
            var serials = Set<UInt32>()
            var stored = 0
            record.forEachStep { step, branch, _ in
                cost += Int(step.cost)
                if let group = UndoGroup.group(in: step.command) {
                    precondition(group.memberCount > 0, "empty group \(step.serial)")
                    precondition(group.keptMatchesMembers, "what is kept by group \(step.serial) differs from its members'")
                }
                precondition(serials.insert(step.serial).inserted, "serial \(step.serial) repeated")
                if branch > 0 { stored += 1 }
            }
            // The stored branches' pending steps, which the walk leaves out (no states).
            for index in record.branches.branches.indices {
                for step in record.branches.steps(of: index) where step.serial == 0 { cost += Int(step.cost) }
            }
            stored += record.branches.pendingCount
            let pendingStart = record.pendingStart
            precondition(pendingStart >= record.position, "a pending step is done")
            for index in record.steps.indices {
                precondition((record.steps.serial(at: index) == 0) == (index >= pendingStart),
                             "the pending steps are not the steps with serial 0 at the end of the list")
                if index >= pendingStart { cost += Int(record.steps.cost(at: index)) }
            }
            precondition(cost == record.totalCost, "running cost \(record.totalCost) differs from the steps' \(cost)")
            precondition(stored == record.branches.stepCount, "the stored branches' step count is off")
            record.branches.checkInvariants()
            let list = Set(record.steps.map(\.serial))
            var branchOf: [UInt32: Int] = [:]
            for index in record.branches.branches.indices {
                for step in record.branches.steps(of: index) { branchOf[step.serial] = index }
            }
            for branch in record.branches.branches {
                // Following forks reaches the current branch (or the start), without a cycle.
                var fork = branch.fork
                var hops = 0
                while fork != 0 && !list.contains(fork) {
                    guard let next = branchOf[fork] else { preconditionFailure("a branch hangs at a missing step \(fork)") }
                    fork = record.branches.branches[next].fork
                    hops += 1
                    precondition(hops <= record.branches.branches.count, "the branches' forks make a cycle")
                }
            }
            for group in record.openGroups {
                precondition(group.keptMatchesMembers, "what is kept by an open group differs from its members'")
            }
            precondition(record.contextCounts == record.recountedContexts(), "the per-context step counts differ from the steps")
            if let countLimit = record.countLimit {
                precondition(record.steps.count + record.branches.stepCount <= max(countLimit, 1), "over the count limit")
            }
        }
    }
}

/// Judges one of the oldest steps for ``HistoryRecord/removeAll(matching:)``, read in place.
struct LeadingStepJudge<M: UndoCommandMatcher>: StepCommandRead {
    /// How a step that stays was judged.
    enum Judged {
        /// Not picked: it stays as it is.
        case asIs
        /// A group that lost members and keeps some: it stays, to be measured again.
        case changedGroup
    }

    let matcher: M
    /// The judge of `matcher`'s type, for the members of a group (``heldCommandJudge(for:)``).
    let held: HeldCommandJudge?

    /// How the step stays (`nil` when it goes), and how many commands went. Not mutating: the
    /// matcher is read where it is, not copied per step.
    func read<C: UndoCommand>(_ command: borrowing C) -> (Judged?, removed: Int) {
        // Only a group's own types are made an existential to look inside.
        if C.self == UndoGroup.self || C.self == InvertedCommand.self, let group = UndoGroup.group(in: copy command) {
            var removed = 0
            let stays = group.removeMembers(matching: matcher, held: held, counting: &removed)
            return (stays ? .changedGroup : nil, removed)
        }
        return matcher.matches(command) ? (nil, 1) : (.asIs, 0)
    }
}
