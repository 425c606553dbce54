/// What observers of a history see: the values a menu, a toolbar or a title bar shows.
public struct UndoState: Sendable, Equatable {
    public var canUndo: Bool
    public var canRedo: Bool
    public var undoTitle: String
    public var redoTitle: String
    public var isDirty: Bool
    public var position: Int
    public var count: Int
}

/// Which values of ``UndoState`` changed.
public struct UndoStateChanges: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let canUndo = UndoStateChanges(rawValue: 1 << 0)
    public static let canRedo = UndoStateChanges(rawValue: 1 << 1)
    public static let titles = UndoStateChanges(rawValue: 1 << 2)
    public static let dirty = UndoStateChanges(rawValue: 1 << 3)
    public static let position = UndoStateChanges(rawValue: 1 << 4)
}

/// Keeps an observer registered; cancelling it, or releasing it, removes the observer.
public final class UndoObservation {
    private weak var stack: UndoStack?
    private let id: Int
    init(stack: UndoStack, id: Int) { self.stack = stack; self.id = id }
    /// Removes the observer. Safe to call more than once.
    public func cancel() { stack?.observers.removeAll { $0.id == id }; stack = nil }
    deinit { cancel() }
}

extension UndoStack {
    struct Observer {
        var id: Int
        var handler: (UndoState, UndoStateChanges) -> Void
    }

    /// The values observers see, for the current context.
    public var state: UndoState {
        UndoState(canUndo: canUndo, canRedo: canRedo, undoTitle: undoMenuTitle, redoTitle: redoMenuTitle,
                  isDirty: isDirty(), position: position, count: count)
    }

    /// Calls `handler` after every change that alters a value of ``state`` (never when nothing
    /// it shows changed), on the thread that made the change, after the change is complete.
    /// - Returns: the observation; keep it, since releasing it removes the observer.
    public func observe(_ handler: @escaping (UndoState, UndoStateChanges) -> Void) -> UndoObservation {
        if observers.isEmpty { lastState = state }
        nextObserverID += 1
        observers.append(Observer(id: nextObserverID, handler: handler))
        return UndoObservation(stack: self, id: nextObserverID)
    }

    /// Tells observers what changed since they last heard, if anything did: the end of every
    /// call that can change what they see, once per call.
    func notifyIfChanged() {
        guard !observers.isEmpty else { return }
        let now = state
        guard let before = lastState else { lastState = now; return }
        var changes: UndoStateChanges = []
        if now.canUndo != before.canUndo { changes.insert(.canUndo) }
        if now.canRedo != before.canRedo { changes.insert(.canRedo) }
        if now.undoTitle != before.undoTitle || now.redoTitle != before.redoTitle { changes.insert(.titles) }
        if now.isDirty != before.isDirty { changes.insert(.dirty) }
        if now.position != before.position || now.count != before.count { changes.insert(.position) }
        lastState = now
        guard !changes.isEmpty else { return }
        for observer in observers { observer.handler(now, changes) }
    }
}
