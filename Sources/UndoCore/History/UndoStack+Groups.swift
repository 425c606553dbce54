extension UndoStack {
    /// Opens a group: the changes until the matching ``endGroup()`` undo and redo as one step.
    /// Groups nest; a nested group becomes one member of its parent.
    /// - Parameters:
    ///   - name: the step's brief name ("Paste Style"); `nil` for an unnamed step.
    ///   - description: the step's longer description for history lists ("Paste Style onto 3
    ///     paragraphs", see ``UndoCommand/historyDescription``); `nil` (the default): none.
    ///   - context: the group's context; by default that of its first member.
    /// - Throws: ``UndoError/groupTooDeep(limit:)``, ``UndoError/reentrantCall(_:)``,
    ///   ``UndoError/nameTooLong(what:bytes:limit:)`` for a name or description over
    ///   ``maximumNameBytes``.
    /// - Complexity: O(1) amortized, plus the lengths of the texts checked.
    public func beginGroup(named name: String? = nil, description: String? = nil, context: UndoContext? = nil) throws {
        try refuseReentry("beginGroup")
        try Self.checkLength(of: name, "group name")
        try Self.checkLength(of: description, "group description")
        try Self.checkLength(of: context?.name, "context name")
        try access { record in
            guard record.openGroups.count < Self.maximumGroupDepth else {
                throw UndoError.groupTooDeep(limit: Self.maximumGroupDepth)
            }
            let group = UndoGroup(name: name, context: context ?? .global, capacity: min(record.lastGroupSize, 1024),
                                  wide: record.lastGroupWasWide)
            group.historyDescription = description
            record.openGroups.append(group)
            record.coalescingOpen = false
        }
        notifyIfObserved()  // nothing can be undone or redone while it is open
    }

    /// Closes the innermost open group. An empty group leaves no step (and, like any change
    /// that changes nothing, keeps the redo steps).
    /// - Throws: ``UndoError/noOpenGroup`` when no group is open.
    public func endGroup() throws {
        try refuseReentry("endGroup")
        try access { record in
            guard let group = record.openGroups.popLast() else { throw UndoError.noOpenGroup }
            record.coalescingOpen = false
            let (memberCount, firstIsWide) = group.memberCountAndFirstKind
            record.lastGroupSize = memberCount
            record.lastGroupWasWide = firstIsWide
            guard memberCount > 0 else { return }
            if let parent = record.openGroups.last {
                parent.append(group)
            } else {
                record.appendFinished(group: group)
            }
        }
        notifyIfObserved()  // the titles come back when the last group ends
    }

    /// The longest group or context name accepted, in UTF-8 bytes (menus show far less: the
    /// formatter cuts names to ``UndoTitleFormatter/maximumNameLength`` characters).
    public static let maximumNameBytes = 4096

    static func checkLength(of name: String?, _ what: String) throws(UndoError) {
        guard let name, name.utf8.count > maximumNameBytes else { return }
        throw UndoError.nameTooLong(what: what, bytes: name.utf8.count, limit: maximumNameBytes)
    }

    /// Renames the innermost open group (used by the UndoManager-style `setActionName`).
    func renameOpenGroup(_ name: String?) -> Bool {
        guard let group = access({ $0.openGroups.first }) else { return false }
        group.name = name
        return true
    }

    /// Renames the newest done step if it is a group (a name given after the fact).
    func renameNewestStep(_ name: String?) {
        guard let command = access({ $0.position > 0 ? $0.steps[$0.position - 1].command : nil }) else { return }
        if let group = command as? UndoGroup { group.name = name }
        if let registered = command as? RegisteredActions { registered.name = name }
        notifyIfObserved()
    }
}
