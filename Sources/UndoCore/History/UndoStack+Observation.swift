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
    public func cancel() { stack?.access { $0.observers.removeAll { $0.id == id } }; stack = nil }
    deinit { cancel() }
}

extension UndoStack {
    @usableFromInline
    struct Observer {
        var id: Int
        var handler: (UndoState, UndoStateChanges) -> Void
    }

    /// The values observers see, for the current context.
    public var state: UndoState { access { $0.makeState() } }

    /// Calls `handler` after every change that alters a value of ``state`` (never when nothing
    /// it shows changed), on the thread that made the change, after the change is complete.
    /// - Returns: the observation; keep it, since releasing it removes the observer.
    public func observe(_ handler: @escaping (UndoState, UndoStateChanges) -> Void) -> UndoObservation {
        let id = access { $0.addObserver(handler) }
        return UndoObservation(stack: self, id: id)
    }

    /// Tells observers what changed, if anyone observes.
    func notifyIfObserved() {
        if access({ $0.isObserved }) { notifyObservers() }
    }

    /// Tells observers what changed since they last heard, if anything did: the end of every
    /// call that can change what they see, once per call, outside the current.pointee.
    @usableFromInline
    func notifyObservers() {
        guard let (state, changes, handlers) = access({ $0.observation() }) else { return }
        for handler in handlers { handler(state, changes) }
    }
}

extension HistoryRecord {
    /// The values observers see, for the current context.
    mutating func makeState() -> UndoState {
        let titles = menuTitles(in: currentContext)
        return UndoState(canUndo: newestDone(in: currentContext) != nil, canRedo: oldestRedoable(in: currentContext) != nil,
                         undoTitle: titles.undo, redoTitle: titles.redo, isDirty: isDirty(currentContext ?? .global),
                         position: position, count: steps.count)
    }

    /// Registers an observer; the state it is told changes from is the present one.
    /// - Returns: its id.
    mutating func addObserver(_ handler: @escaping (UndoState, UndoStateChanges) -> Void) -> Int {
        if observers.isEmpty { lastState = makeState() }
        nextObserverID += 1
        observers.append(UndoStack.Observer(id: nextObserverID, handler: handler))
        return nextObserverID
    }

    /// The state, what changed in it since the observers last heard, and the observers to
    /// tell; `nil` when nothing they can see changed.
    mutating func observation() -> (UndoState, UndoStateChanges, [(UndoState, UndoStateChanges) -> Void])? {
        let now = makeState()
        guard let before = lastState else { lastState = now; return nil }
        var changes: UndoStateChanges = []
        if now.canUndo != before.canUndo { changes.insert(.canUndo) }
        if now.canRedo != before.canRedo { changes.insert(.canRedo) }
        if now.undoTitle != before.undoTitle || now.redoTitle != before.redoTitle { changes.insert(.titles) }
        if now.isDirty != before.isDirty { changes.insert(.dirty) }
        if now.position != before.position || now.count != before.count { changes.insert(.position) }
        lastState = now
        guard !changes.isEmpty else { return nil }
        return (now, changes, observers.map(\.handler))
    }
}
