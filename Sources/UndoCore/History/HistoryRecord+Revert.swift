/// A revert to the saved state, as one new step on top of the present one.
///
/// A document's steps keep their order in every branch, so its content at any state is the run
/// of its own steps on the way from the start to that state. The revert compares the run done
/// now with the run up to the saved state: it undoes the steps done since where the two part
/// and does the saved run's steps after it, on copies, in one new step. Nothing else moves:
/// every state keeps the documents it was made with (its number means what it meant), the
/// redo steps of the document hang as a branch at the state before the revert, and undoing
/// the revert and then each step still goes back one level at a time. The saved state may be
/// behind, ahead or on another branch, as Vim's `:e!` reloads the file whatever branch it is on.
extension HistoryRecord {
    /// What a revert of one document runs: its steps to undo, newest first, and those to redo,
    /// oldest first.
    struct RevertPlan {
        var undone: [any UndoCommand] = []
        var redone: [any UndoCommand] = []

        var stepCount: Int { undone.count + redone.count }

        /// The one step that does the plan: the undone steps run backwards, then the redone ones.
        func command(named name: String, context: UndoContext) -> any UndoCommand {
            let back = undone.isEmpty ? nil
                : UndoGroup(name: nil, context: context, members: undone.reversed())
            guard !redone.isEmpty else {
                return InvertedCommand(inner: back!, name: name, context: context)
            }
            var members: [any UndoCommand] = []
            members.reserveCapacity(redone.count + 1)
            if let back { members.append(InvertedCommand(inner: back, name: nil, context: context)) }
            members.append(contentsOf: redone)
            return UndoGroup(name: name, context: context, members: members)
        }

        /// Runs the plan's one step (a revert's or a document move's) and returns it with what
        /// it changed. A failure whose rollback failed too leaves the document described by no
        /// state: `rollbackFailed` is called then (the caller counts the document as edited until
        /// its next save).
        func run(named name: String, context: UndoContext, rollbackFailed: () -> Void) throws
            -> (command: any UndoCommand, changes: UndoChanges)
        {
            var command = command(named: name, context: context)
            var changes = UndoChanges()
            let marks = changes.obsoleteMarks
            do {
                try command.perform(&changes)
            } catch {
                let failure = UndoError.wrap(error, step: name)
                if case .rollbackFailed = failure { rollbackFailed() }
                throw failure
            }
            changes.obsoleteMarks = marks
            return (command, changes)
        }
    }

    /// How to take `context` to its saved state, or why it cannot be: no saved state (forgotten),
    /// every saved state's steps were dropped, or the way passes a step that also changed other
    /// documents (it cannot run for one document alone).
    /// - Complexity: O(steps of every branch) per saved state of the context (one or two).
    func revertPlan(for context: UndoContext) -> Result<RevertPlan, UndoError> {
        let state = saveStates[context] ?? SaveState()
        guard !state.saved.isEmpty else { return .failure(.noSavePoint(context)) }
        var current: [Step] = []
        for index in 0..<position where step(at: index, touches: context) { current.append(steps[index]) }
        var best: RevertPlan?
        var refusal: UndoError?
        // Sorted: with two saved states equally near, the same one wins in every run.
        for marker in state.saved.sorted() {
            let target: [Step]
            if marker == state.baseline {
                target = []
            } else if marker != 0, let run = contextRun(of: context, upTo: marker) {
                target = run
            } else {
                continue
            }
            var shared = 0
            while shared < current.count && shared < target.count
                    && origin(of: current[shared].serial) == origin(of: target[shared].serial) {
                shared += 1
            }
            let way = Array(current[shared...]) + target[shared...]
            if let crossing = way.first(where: { Self.contexts(of: $0.command).count > 1 }) {
                refusal = refusal ?? .revertCrossesOtherDocuments(context, step: crossing.command.name)
                continue
            }
            var plan = RevertPlan()
            plan.undone = current[shared...].reversed().map(\.command)
            plan.redone = target[shared...].map(\.command)
            if best == nil || plan.stepCount < best!.stepCount { best = plan }
        }
        if let best { return .success(best) }
        return .failure(refusal ?? .savePointUnreachable(context))
    }

    /// The steps of `context` on the way from the start to the state after step `serial`, oldest
    /// first; `nil` when no state has that serial.
    /// - Complexity: O(steps of every branch).
    func contextRun(of context: UndoContext, upTo serial: UInt32) -> [Step]? {
        var reversed: [Step] = []
        func take(_ run: some BidirectionalCollection<Step>) {
            for step in run.reversed() where Self.contexts(of: step.command).contains(context) { reversed.append(step) }
        }
        var locations: [UInt32: (branch: Int, index: Int)]?
        var next = serial
        while next != 0 {
            if let index = listIndex(of: next) {
                take(steps.steps(in: 0..<index + 1))
                break
            }
            if locations == nil { locations = branches.locations() }
            guard let found = locations![next] else { return nil }
            let run = branches.steps(of: found.branch)
            take(run[run.startIndex...(run.startIndex + found.index)])
            next = branches.branches[found.branch].fork
        }
        return reversed.reversed()
    }
}
