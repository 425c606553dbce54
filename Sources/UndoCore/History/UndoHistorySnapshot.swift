/// Everything an ``UndoStack`` keeps, as plain values: every branch with its steps (their
/// serials, times and costs), the position, the saves, the limits, the current context and the
/// coalescing run. A journal stores one as a checkpoint and rebuilds the history from it with
/// ``UndoStack/restore(_:decoding:)``, without running any step again.
///
/// `Payload` is what the program keeps of one of its own commands (a plugin step's typed call,
/// say); groups and reverts are kept by the snapshot itself (``Content``).
///
/// Take one with ``UndoStack/snapshot(encoding:)``.
public struct UndoHistorySnapshot<Payload> {
    /// What a step is.
    public indirect enum Content {
        /// One of the program's commands.
        case command(Payload)
        /// A group: its name, description, context and members, oldest first.
        case group(name: String?, description: String?, context: UndoContext, members: [Content])
        /// A revert to the saved state: the group of steps it took back, run backwards.
        case reverted(name: String?, context: UndoContext, group: Content)
    }

    /// One step of a branch.
    public struct Step {
        /// Its id (the state after it): unique in the history; 0 only for a pending step, at the
        /// end of a branch (see ``UndoHistorySnapshot/pendingOrigins``).
        public var serial: UInt32
        /// When its state was last reached by a change (the history's clock, in nanoseconds).
        public var time: UInt64
        /// Its cost in bytes, as measured when it went in or last merged.
        public var cost: Int32
        public var content: Content

        public init(serial: UInt32, time: UInt64, cost: Int32, content: Content) {
            self.serial = serial
            self.time = time
            self.cost = cost
            self.content = content
        }
    }

    /// A branch besides the current one: the state it hangs at (0: the start) and its steps in
    /// the order they would be redone.
    public struct Branch {
        public var fork: UInt32
        public var steps: [Step]

        public init(fork: UInt32, steps: [Step]) {
            self.fork = fork
            self.steps = steps
        }
    }

    /// One context's save marks: the states at which its content is the saved one (0: none
    /// of its steps done), and the state that stands for "none of its steps done" after a
    /// limit dropped its oldest.
    public struct SaveMarks {
        public var context: UndoContext
        public var saved: [UInt32]
        public var baseline: UInt32

        public init(context: UndoContext, saved: [UInt32], baseline: UInt32) {
            self.context = context
            self.saved = saved
            self.baseline = baseline
        }
    }

    /// A state that stands for another: a step's copy and the step it copies, or a document
    /// move's step and the state the document went to.
    public struct StateLink: Equatable, Sendable {
        public var state: UInt32
        public var target: UInt32

        public init(state: UInt32, target: UInt32) {
            self.state = state
            self.target = target
        }
    }

    /// The current branch, oldest first (pending steps, serial 0, at its end).
    public var steps: [Step] = []
    /// How many of ``steps`` are done.
    public var position = 0
    /// The other branches.
    public var branches: [Branch] = []
    /// The serial the next step takes.
    public var nextSerial: UInt32 = 1
    /// Every save, oldest first: the state saved (what travel by saves, `1f`, goes back to).
    public var saveLog: [UInt32] = []
    /// The save marks of every context that was saved or lost steps to a limit.
    public var saveMarks: [SaveMarks] = []
    public var countLimit: Int?
    public var memoryLimit: Int?
    public var currentContext: UndoContext?
    /// Whether the next change with the newest step's coalescing key may still join it, and
    /// when the last change of the run was made.
    public var coalescingOpen = false
    public var lastCoalescingTime: UInt64 = 0
    /// The steps that are copies (made to keep every state's meaning when steps are reordered
    /// or a new step goes below other documents' redo steps), each with the step it copies, by
    /// state (empty for a journal that kept none).
    public var copies: [StateLink] = []
    /// The steps of document moves (``UndoStack/goTo(state:in:named:)``), each with the state
    /// the document went to, by state.
    public var documentMoves: [StateLink] = []
    /// The pending steps: other documents' redo steps kept above a change made at an older
    /// state, which are no states until they are redone. They have serial 0 and are the last
    /// steps of their branch (of ``steps``, redo steps there; of a stored branch, never its
    /// first): one for each entry here, the state the step copies, in the order the snapshot
    /// lists the steps (``steps``, then each branch). Empty for a history, or a journal, that
    /// has none.
    public var pendingOrigins: [UInt32] = []

    public init() {}

    /// Checks that it makes a history, as ``UndoStack/restore(_:decoding:)`` does before
    /// restoring it (for a program that reads one from a file and refuses it before anything
    /// else is put back).
    /// - Throws: ``UndoSnapshotError`` naming what does not fit.
    /// - Complexity: O(steps of every branch + branches + save marks).
    public func validate() throws(UndoSnapshotError) {
        try UndoStack.check(self)
    }

    /// The steps of every branch.
    /// - Complexity: O(branches).
    public var stepCount: Int { branches.reduce(steps.count) { $0 + $1.steps.count } }
}

/// Why a snapshot cannot be taken, or restored.
public struct UndoSnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension UndoStack {
    /// The whole history as values (see ``UndoHistorySnapshot``).
    /// - Parameter encoding: what to keep of each of the program's commands (not groups or
    ///   reverts, which the snapshot keeps itself); `nil` for one that cannot be kept.
    /// - Throws: ``UndoSnapshotError`` while a group is open, recording is paused or an action
    ///   runs, and for a command `encoding` cannot keep (naming the step).
    /// - Complexity: O(steps of every branch, group members included).
    public func snapshot<Payload>(encoding: (any UndoCommand) -> Payload?) throws(UndoSnapshotError) -> UndoHistorySnapshot<Payload> {
        guard !isRunningAction else { throw UndoSnapshotError("an action is running") }
        let result = access { (record: inout HistoryRecord) -> Result<UndoHistorySnapshot<Payload>, UndoSnapshotError> in
            do throws(UndoSnapshotError) {
                return .success(try Self.snapshot(of: record, encoding: encoding))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func snapshot<Payload>(of record: HistoryRecord, encoding: (any UndoCommand) -> Payload?)
        throws(UndoSnapshotError) -> UndoHistorySnapshot<Payload>
    {
        guard record.openGroups.isEmpty else { throw UndoSnapshotError("a group is open: end it first") }
        guard record.recordingPauses == 0 else { throw UndoSnapshotError("recording is paused") }
        func content(_ command: any UndoCommand) throws(UndoSnapshotError) -> UndoHistorySnapshot<Payload>.Content {
            if let group = command as? UndoGroup {
                var members: [UndoHistorySnapshot<Payload>.Content] = []
                members.reserveCapacity(group.members.count)
                for member in group.members { members.append(try content(member)) }
                return .group(name: group.name, description: group.historyDescription, context: group.context, members: members)
            }
            if let inverted = command as? InvertedCommand {
                return .reverted(name: inverted.name, context: inverted.context, group: try content(inverted.inner))
            }
            guard let payload = encoding(command) else {
                throw UndoSnapshotError("the step \"\(command.name ?? String(describing: type(of: command)))\" "
                                        + "(\(type(of: command))) cannot be kept")
            }
            return .command(payload)
        }
        func step(_ step: Step) throws(UndoSnapshotError) -> UndoHistorySnapshot<Payload>.Step {
            .init(serial: step.serial, time: step.time, cost: step.cost, content: try content(step.command))
        }
        var snapshot = UndoHistorySnapshot<Payload>()
        snapshot.steps.reserveCapacity(record.steps.count)
        for item in record.steps { snapshot.steps.append(try step(item)) }
        snapshot.position = record.position
        snapshot.pendingOrigins = record.pendingOrigins
        for index in record.branches.branches.indices {
            snapshot.pendingOrigins.append(contentsOf: record.branches.pendingOrigins(of: index))
            var steps: [UndoHistorySnapshot<Payload>.Step] = []
            for item in record.branches.steps(of: index) { steps.append(try step(item)) }
            snapshot.branches.append(.init(fork: record.branches.branches[index].fork, steps: steps))
        }
        snapshot.nextSerial = record.nextSerial
        snapshot.saveLog = record.saveLog.map(\.state)
        snapshot.saveMarks = record.saveStates
            .map { .init(context: $0.key, saved: $0.value.saved.sorted(), baseline: $0.value.baseline) }
            .sorted { $0.context.name < $1.context.name }
        snapshot.countLimit = record.countLimit
        snapshot.memoryLimit = record.memoryLimit
        snapshot.currentContext = record.currentContext
        snapshot.coalescingOpen = record.coalescingOpen
        snapshot.lastCoalescingTime = record.lastCoalescingTime
        // Only those of steps still in the history, in the order of their states.
        var present: Set<UInt32> = []
        record.forEachStep { step, _, _ in present.insert(step.serial) }
        func links(_ map: [UInt32: UInt32]) -> [UndoHistorySnapshot<Payload>.StateLink] {
            map.filter { present.contains($0.key) }.map { .init(state: $0.key, target: $0.value) }.sorted { $0.state < $1.state }
        }
        snapshot.copies = links(record.copyOrigins)
        // A move is kept while its step is, or while a copy of it is (a limit may have dropped
        // the move's own step; its copy still takes the document to the move's state).
        present.formUnion(snapshot.copies.map(\.target))
        snapshot.documentMoves = links(record.documentMoves)
        return snapshot
    }

    /// Rebuilds the history from `snapshot` into this empty stack, without running any step:
    /// the documents must already be in the state the snapshot's position stands for. Then it
    /// is the history that was snapshotted: undo, redo, moves across branches, titles, saves and
    /// limits behave as they did. Observers are told once.
    /// - Parameters:
    ///   - snapshot: what ``snapshot(encoding:)`` returned (in this run or, stored, in another).
    ///   - decoding: makes a command again from what `encoding` kept.
    /// - Throws: ``UndoSnapshotError`` when the stack has steps or an open group, when
    ///   `decoding` throws (its error's description in the message), or when the snapshot does
    ///   not make a history (a serial 0 outside the pending steps, more pending steps than
    ///   redo steps, a pending step copying a state never made, a serial repeated or not below the next serial, a next serial
    ///   over ``maximumRestoredSerial``, a position outside the branch, a branch hanging at no
    ///   state, forks in a cycle, an empty group, a negative cost or limit, a save mark of a
    ///   state never made, a context name over ``maximumNameBytes``, more steps than the count
    ///   limit, a document move of a step not in it or to a state never made); the stack is
    ///   then unchanged.
    /// - Complexity: O(steps of every branch, group members included, + save marks).
    public func restore<Payload>(_ snapshot: UndoHistorySnapshot<Payload>,
                                 decoding: (Payload) throws -> any UndoCommand) throws(UndoSnapshotError) {
        guard !isRunningAction else { throw UndoSnapshotError("an action is running") }
        try Self.check(snapshot)
        func command(_ content: UndoHistorySnapshot<Payload>.Content) throws(UndoSnapshotError) -> any UndoCommand {
            switch content {
            case .command(let payload):
                do {
                    return try decoding(payload)
                } catch {
                    throw UndoSnapshotError("a step cannot be made again: \(error)")
                }
            case .group(let name, let description, let context, let members):
                guard !members.isEmpty else { throw UndoSnapshotError("a group has no members") }
                var made: [any UndoCommand] = []
                made.reserveCapacity(members.count)
                for member in members { made.append(try command(member)) }
                let group = UndoGroup(name: name, context: context, members: made)
                group.historyDescription = description
                return group
            case .reverted(let name, let context, let inner):
                guard case .group = inner, let group = try command(inner) as? UndoGroup else {
                    throw UndoSnapshotError("a revert holds no group")
                }
                return InvertedCommand(inner: group, name: name, context: context)
            }
        }
        func steps(_ list: [UndoHistorySnapshot<Payload>.Step]) throws(UndoSnapshotError) -> [Step] {
            var made: [Step] = []
            made.reserveCapacity(list.count)
            for item in list {
                var step = Step(try command(item.content), serial: item.serial, time: item.time)
                step.cost = max(0, item.cost)
                made.append(step)
            }
            return made
        }
        let current = try steps(snapshot.steps)
        var stored: [(fork: UInt32, steps: [Step])] = []
        for branch in snapshot.branches { stored.append((branch.fork, try steps(branch.steps))) }
        let restored = access { (record: inout HistoryRecord) -> Bool in
            guard record.steps.isEmpty && record.branches.isEmpty && record.openGroups.isEmpty else { return false }
            record.steps.append(contentsOf: current)
            record.position = snapshot.position
            // The pending origins, in the order of the steps with serial 0 (``check(_:)``).
            var origins = snapshot.pendingOrigins[...]
            func take(_ steps: [Step]) -> [UInt32] {
                let count = steps.reduce(0) { $0 + ($1.serial == 0 ? 1 : 0) }
                defer { origins = origins.dropFirst(count) }
                return Array(origins.prefix(count))
            }
            record.pendingOrigins = take(current)
            for branch in stored { record.branches.add(fork: branch.fork, steps: branch.steps, origins: take(branch.steps)) }
            var cost = 0
            for step in current { cost += Int(step.cost) }
            for branch in stored { for step in branch.steps { cost += Int(step.cost) } }
            record.totalCost = cost
            record.contextCounts = record.recountedContexts()
            record.nextSerial = snapshot.nextSerial
            record.saveLog = snapshot.saveLog.map { SaveRecord(state: $0) }
            record.saveStates = [:]
            for marks in snapshot.saveMarks {
                record.saveStates[marks.context] = SaveState(saved: Set(marks.saved), baseline: marks.baseline)
            }
            record.countLimit = Self.limit(snapshot.countLimit)
            record.memoryLimit = Self.limit(snapshot.memoryLimit)
            record.currentContext = snapshot.currentContext
            record.coalescingOpen = snapshot.coalescingOpen
            record.lastCoalescingTime = snapshot.lastCoalescingTime
            record.copyOrigins = Dictionary(snapshot.copies.map { ($0.state, $0.target) }) { first, _ in first }
            record.documentMoves = Dictionary(snapshot.documentMoves.map { ($0.state, $0.target) }) { first, _ in first }
            record.titles.removeAll()
            return true
        }
        guard restored else { throw UndoSnapshotError("the history already has steps: restore into an empty one") }
        notifyIfObserved()
    }

    /// The largest next serial a snapshot may have: a history that made more states than this
    /// (2^31) is not restored, so no restored step's serial can come round again.
    public static let maximumRestoredSerial: UInt32 = 1 << 31

    /// Checks that `snapshot` makes a history (see ``restore(_:decoding:)``).
    /// - Complexity: O(steps of every branch + branches).
    static func check<Payload>(_ snapshot: UndoHistorySnapshot<Payload>) throws(UndoSnapshotError) {
        guard snapshot.position >= 0 && snapshot.position <= snapshot.steps.count else {
            throw UndoSnapshotError("the position \(snapshot.position) is outside 0...\(snapshot.steps.count)")
        }
        guard snapshot.nextSerial != 0 else { throw UndoSnapshotError("the next serial is 0") }
        // Serials are given in order, so every state made is below the next serial; one that
        // is not (or a next serial near the wrap) would make a later step repeat a serial.
        guard snapshot.nextSerial <= maximumRestoredSerial else {
            throw UndoSnapshotError("the next serial \(snapshot.nextSerial) is over \(maximumRestoredSerial)")
        }
        var branchOf: [UInt32: Int] = [:]  // -1: the current branch
        // Pending steps (serial 0) end their branch: redo steps of the current one, never the
        // first step of a stored one; one origin each.
        var pendingCount = 0
        func pendingRun(_ steps: [UndoHistorySnapshot<Payload>.Step], _ what: String, from lowest: Int)
            throws(UndoSnapshotError) -> Int
        {
            var start = steps.count
            while start > 0 && steps[start - 1].serial == 0 { start -= 1 }
            guard start >= lowest else { throw UndoSnapshotError("\(what) has a pending step (serial 0) that is not a redo step at its end") }
            for step in steps[start...] where step.cost < 0 {
                throw UndoSnapshotError("a pending step of \(what) has a negative cost \(step.cost)")
            }
            pendingCount += steps.count - start
            return start
        }
        let pendingStart = try pendingRun(snapshot.steps, "the current branch", from: snapshot.position)
        var branchStates: [Int] = []
        for (index, branch) in snapshot.branches.enumerated() {
            branchStates.append(try pendingRun(branch.steps, "branch \(index + 1)", from: branch.steps.isEmpty ? 0 : 1))
        }
        guard pendingCount == snapshot.pendingOrigins.count else {
            throw UndoSnapshotError("\(pendingCount) pending steps have \(snapshot.pendingOrigins.count) origins")
        }
        for origin in snapshot.pendingOrigins where origin == 0 || origin >= snapshot.nextSerial {
            throw UndoSnapshotError("a pending step copies state \(origin), which was never made (the next serial is \(snapshot.nextSerial))")
        }
        func note(_ step: UndoHistorySnapshot<Payload>.Step, _ branch: Int) throws(UndoSnapshotError) {
            guard step.serial != 0 else { throw UndoSnapshotError("a step has serial 0") }
            guard step.serial < snapshot.nextSerial else {
                throw UndoSnapshotError("the step \(step.serial) is not below the next serial \(snapshot.nextSerial)")
            }
            guard step.cost >= 0 else { throw UndoSnapshotError("the step \(step.serial) has a negative cost \(step.cost)") }
            guard branchOf.updateValue(branch, forKey: step.serial) == nil else {
                throw UndoSnapshotError("the serial \(step.serial) is repeated")
            }
        }
        for step in snapshot.steps[..<pendingStart] { try note(step, -1) }
        for (index, branch) in snapshot.branches.enumerated() {
            guard !branch.steps.isEmpty else { throw UndoSnapshotError("branch \(index + 1) has no steps") }
            for step in branch.steps[..<branchStates[index]] { try note(step, index) }
        }
        for (index, branch) in snapshot.branches.enumerated() {
            // Following forks reaches the current branch or the start, without a cycle.
            var fork = branch.fork
            var hops = 0
            while fork != 0 {
                guard let owner = branchOf[fork] else {
                    throw UndoSnapshotError("branch \(index + 1) hangs at state \(fork), which is not in the history")
                }
                if owner < 0 { break }
                fork = snapshot.branches[owner].fork
                hops += 1
                guard hops <= snapshot.branches.count else { throw UndoSnapshotError("the branches' forks make a cycle") }
            }
        }
        for state in snapshot.saveLog + snapshot.saveMarks.flatMap({ $0.saved + [$0.baseline] }) where state >= snapshot.nextSerial {
            throw UndoSnapshotError("a save mark names state \(state), which was never made (the next serial is \(snapshot.nextSerial))")
        }
        let copied = Set(snapshot.copies.map(\.target))
        for link in snapshot.copies + snapshot.documentMoves {
            guard branchOf[link.state] != nil || copied.contains(link.state) else {
                throw UndoSnapshotError("a copy or document move names state \(link.state), which is not in the history")
            }
            guard link.target < snapshot.nextSerial else {
                throw UndoSnapshotError("state \(link.state) stands for state \(link.target), which was never made")
            }
        }
        for name in snapshot.saveMarks.map(\.context.name) + [snapshot.currentContext?.name ?? ""]
        where name.utf8.count > maximumNameBytes {
            throw UndoSnapshotError("a context name of \(name.utf8.count) bytes is over the limit of \(maximumNameBytes)")
        }
        var linked = Set<UInt32>()
        for link in snapshot.copies + snapshot.documentMoves where !linked.insert(link.state).inserted {
            throw UndoSnapshotError("state \(link.state) is linked twice (as a copy or a document move)")
        }
        for (value, what) in [(snapshot.countLimit, "count"), (snapshot.memoryLimit, "memory")] {
            if let value, value < 0 { throw UndoSnapshotError("the \(what) limit \(value) is negative") }
        }
        if let limit = limit(snapshot.countLimit), branchOf.count + pendingCount > max(limit, 1) {
            throw UndoSnapshotError("\(branchOf.count + pendingCount) steps are over the count limit of \(limit)")
        }
    }
}
