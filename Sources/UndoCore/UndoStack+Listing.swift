extension UndoStack {
    /// Every step, oldest first, with its name, whether it is done, and the save points: what a
    /// history panel shows.
    /// - Complexity: O(count)
    public var steps: [UndoStepInfo] {
        (0..<storage.count).map { index in
            let serial = storage.serial(at: index)
            return storage.withCommand(at: index) { command in
                UndoStepInfo(index: index, serial: serial, name: command.name, context: command.context,
                             isApplied: index < position,
                             isSavePoint: saveStates[command.context]?.saved == serial,
                             isDiscardable: command.isDiscardable,
                             memberCount: (command as? UndoGroup)?.memberCount ?? 0)
            }
        }
    }

    /// Whether the state before any step of `context` is its saved state.
    public func isSavedAtStart(_ context: UndoContext = .global) -> Bool {
        let state = saveStates[context] ?? SaveState()
        return state.saved == state.baseline
    }

    /// Removes the steps of `context` (a document that closed), in groups too, and forgets its
    /// save state; the other steps stay and still undo.
    /// - Returns: how many steps (or group members) were removed.
    @discardableResult
    public func removeAll(in context: UndoContext) throws -> Int {
        let removed = try removeAll { $0.context == context }
        saveStates[context] = nil
        notifyIfChanged()
        return removed
    }

    /// Removes every step and group member that `predicate` picks (groups themselves are not
    /// offered to it: a group goes when it is left empty). The save states of other contexts are kept.
    /// - Returns: how many were removed.
    /// - Complexity: O(count)
    @discardableResult
    public func removeAll(where predicate: (any UndoCommand) -> Bool) throws -> Int {
        try refuseReentry("removeAll")
        var kept: [(any UndoCommand, UInt32, Bool)] = []
        var removed = 0
        while storage.count > 0 {
            let index = storage.count - 1
            let (command, serial) = storage.removeLast()
            let wasApplied = index < position
            // A group is a container: its members are judged, and it goes only when left empty.
            if let group = Self.group(in: command) {
                let before = group.memberCount
                let left = group.removeMembers(where: predicate)
                removed += before - group.memberCount
                if !left { continue }
            } else if predicate(command) {
                removed += 1
                continue
            }
            kept.append((command, serial, wasApplied))
        }
        position = 0
        totalCost = 0
        for (command, serial, wasApplied) in kept.reversed() {
            storage.append(command, serial: serial)
            totalCost += command.cost
            if wasApplied { position += 1 }
        }
        for group in openGroups { _ = group.removeMembers(where: predicate) }
        coalescingOpen = false
        notifyIfChanged()
        return removed
    }

    /// Removes every step and every save state.
    public func removeAll() throws {
        try refuseReentry("removeAll")
        storage.removeAll()
        position = 0
        totalCost = 0
        saveStates.removeAll()
        coalescingOpen = false
        notifyIfChanged()
    }

    static func group(in command: any UndoCommand) -> UndoGroup? {
        // The existential opened in place and its stored type compared: most steps are neither
        // kind, and a dynamic cast, or even `type(of:)` on the existential (a copy of the
        // command and a runtime call), costs far more. This runs for every step trimmed or
        // matched to a context. (UndoGroup is final: a group is always stored as one.)
        func open<T: UndoCommand>(_ command: borrowing T) -> UndoGroup? {
            if T.self == UndoGroup.self { return copy command as? UndoGroup }
            if T.self == InvertedCommand.self { return (copy command as? InvertedCommand)?.inner as? UndoGroup }
            return nil
        }
        return open(command)
    }
}

extension UndoStack {
    /// Traps if the record is inconsistent: the position inside the history, the running cost
    /// equal to the steps' costs, serials unique, no action running, no empty group, no
    /// reported changes left behind by a result, and the remembered titles those of their names.
    /// Tests call it after every operation.
    public func checkInvariants() {
        precondition(position >= 0 && position <= storage.count, "position \(position) outside 0...\(storage.count)")
        precondition(!runningAction, "an action is still marked as running")
        precondition(reportedChanges == nil, "reported changes left behind by an undo or redo")
        titleMemo.check(formatting: formatter)
        var cost = 0
        var serials = Set<UInt32>()
        for index in 0..<storage.count {
            storage.withCommand(at: index) { command in
                cost += command.cost
                if let group = Self.group(in: command) {
                    precondition(group.memberCount > 0, "empty group at \(index)")
                    Self.checkAppendedCosts(of: group, at: index)
                }
            }
            precondition(serials.insert(storage.serial(at: index)).inserted, "serial repeated at \(index)")
        }
        precondition(cost == totalCost, "running cost \(totalCost) differs from the steps' \(cost)")
        if let countLimit { precondition(storage.count <= max(countLimit, 1), "over the count limit") }
        for group in openGroups { Self.checkAppendedCosts(of: group, at: storage.count) }
    }

    /// A group's cost added up as members were appended equals its members' costs now, and
    /// its members' buffer is consistent, in nested groups too.
    private static func checkAppendedCosts(of group: UndoGroup, at index: Int) {
        group.checkMemberBuffer(at: index)
        if let appended = group.appendedCost {
            precondition(appended == group.membersCost,
                         "group at \(index): appended cost \(appended), members' cost \(group.membersCost)")
        }
        for member in group.members {
            if let nested = Self.group(in: member) { checkAppendedCosts(of: nested, at: index) }
        }
    }
}
