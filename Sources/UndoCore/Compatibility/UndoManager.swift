/// An undo manager with the API of Apple's `UndoManager`, so code written for Apple platforms
/// ports to Linux with few changes. It records into an ``UndoStack``, so groups, limits,
/// titles and observers all work as there.
///
/// The app changes something and registers how to take it back; a registration made while
/// undoing becomes the redo. With no run loop on Linux there is no automatic grouping by
/// event: each registration outside an explicit group is its own step (use
/// ``beginUndoGrouping()`` / ``endUndoGrouping()`` to join several). Like Apple's, it does not
/// retain targets. If Foundation is imported too, write `UndoCore.UndoManager`.
public final class UndoManager {
    enum Phase { case idle, undoing, redoing }

    /// The history the registrations go to.
    public let stack: UndoStack
    private var phase = Phase.idle
    private var collected: [RegisteredActions.Handler] = []
    private var registrationDisabled = 0
    /// The error of the last `undo()` or `redo()` that failed, if any (they do not throw, as
    /// Apple's do not).
    public private(set) var lastError: UndoError?

    public init(stack: UndoStack = UndoStack()) { self.stack = stack }

    // MARK: Registering

    /// Registers `handler` to be called with `target` to take back the change just made.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard registrationDisabled == 0 else { return }
        let entry = RegisteredActions.Handler(target: ObjectIdentifier(target)) { [weak target] in
            if let target { handler(target) }
        }
        if phase != .idle {
            collected.append(entry)
        } else {
            try? stack.record(RegisteredActions(handlers: [entry], name: nil, manager: self))
        }
    }

    /// Names the step being recorded (or the open group): "Typing" gives "Undo Typing".
    public func setActionName(_ actionName: String) {
        let name = actionName.isEmpty ? nil : actionName
        if phase != .idle { return }  // the step being undone keeps its name for the redo
        if !stack.renameOpenGroup(name) { stack.renameNewestStep(name) }
    }

    public func disableUndoRegistration() { registrationDisabled += 1 }
    public func enableUndoRegistration() { if registrationDisabled > 0 { registrationDisabled -= 1 } }
    public var isUndoRegistrationEnabled: Bool { registrationDisabled == 0 }

    // MARK: Grouping

    public func beginUndoGrouping() { try? stack.beginGroup() }
    public func endUndoGrouping() { try? stack.endGroup() }
    public var groupingLevel: Int { stack.groupDepth }
    /// Always `false`: there is no run loop to group by event on Linux.
    public var groupsByEvent: Bool { false }

    // MARK: Undoing

    public var canUndo: Bool { stack.canUndo }
    public var canRedo: Bool { stack.canRedo }
    public var isUndoing: Bool { phase == .undoing }
    public var isRedoing: Bool { phase == .redoing }

    /// Undoes the newest step; a group still open at the top level is closed first, as Apple's does.
    public func undo() {
        if stack.groupDepth == 1 { endUndoGrouping() }
        do { try stack.undo(); lastError = nil } catch { lastError = UndoError.wrap(error, step: nil) }
    }

    public func redo() {
        do { try stack.redo(); lastError = nil } catch { lastError = UndoError.wrap(error, step: nil) }
    }

    /// Undoes the open top-level group (or the newest step) without making it redoable.
    public func undoNestedGroup() { undo() }

    /// The most steps kept; 0 means unlimited.
    public var levelsOfUndo: Int {
        get { stack.countLimit ?? 0 }
        set { stack.countLimit = newValue > 0 ? newValue : nil }
    }

    public var undoActionName: String { (stack.undoName ?? nil) ?? "" }
    public var redoActionName: String { (stack.redoName ?? nil) ?? "" }
    public var undoMenuItemTitle: String { stack.undoMenuTitle }
    public var redoMenuItemTitle: String { stack.redoMenuTitle }
    public func undoMenuTitle(forUndoActionName actionName: String) -> String {
        stack.formatter.undoTitle(for: actionName)
    }
    public func redoMenuTitle(forUndoActionName actionName: String) -> String {
        stack.formatter.redoTitle(for: actionName)
    }

    // MARK: Removing

    public func removeAllActions() { try? stack.removeAll() }

    /// Removes every registration made for `target` (when it goes away); steps left with none
    /// go too.
    public func removeAllActions(withTarget target: AnyObject) {
        let id = ObjectIdentifier(target)
        _ = try? stack.removeAll { command in
            guard let registered = command as? RegisteredActions else { return false }
            registered.handlers.removeAll { $0.target == id }
            return registered.handlers.isEmpty
        }
    }

    // MARK: Running

    /// Runs a step's closures newest first; what they register becomes the step's closures for
    /// the other direction.
    func run(_ step: RegisteredActions, as phase: Phase) {
        let outer = (self.phase, collected)
        self.phase = phase
        collected = []
        for handler in step.handlers.reversed() { handler.run() }
        step.handlers = collected
        (self.phase, collected) = outer
    }
}
