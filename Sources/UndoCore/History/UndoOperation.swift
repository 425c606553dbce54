/// One call that changes a history other than performing or recording a command: the one
/// vocabulary the hosts, the C API, undo-host and both journals speak. A journal keeps the
/// ``UndoOperation/Applied/recorded`` form of each operation and replays it with
/// ``apply(to:)``, the same call that made it.
///
/// Its synthesized `Codable` form (`{"undo":{"count":1,"scope":{"whole":{}}}}`) is the history
/// journal's file format: renaming a case or a label is a new format.
public enum UndoOperation: Sendable, Hashable, Codable {
    /// Which steps an undo or redo considers.
    public enum Scope: Sendable, Hashable, Codable {
        /// The context the history is looking at (``UndoStack/currentContext``) when applied.
        case current
        /// The whole history.
        case whole
        /// One context, by name.
        case context(String)

        /// The scope of `context` (`nil`: the whole history).
        public init(_ context: UndoContext?) { self = context.map { .context($0.name) } ?? .whole }
    }

    /// Undo of up to `count` steps, all or nothing.
    case undo(count: Int, scope: Scope)
    /// Redo of up to `count` steps, all or nothing.
    case redo(count: Int, scope: Scope)
    /// A jump to `position` on the current branch; recorded as the state it reached (as a
    /// redo of the whole history when it redoes pending steps, which take their numbers then).
    case move(position: Int)
    /// A move across the branches to a state (Vim's `:undo N`).
    case goTo(state: UInt32)
    /// A travel back in the order states were made; recorded as the state it reached.
    case earlier(UndoTravel)
    /// A travel forward in the order states were made; recorded as the state it reached.
    case later(UndoTravel)
    /// A call that changed nothing (a travel that found no state, a jump to where the history
    /// is): a journal that keeps a row per call writes it; it replays as nothing.
    case travelFoundNoState
    /// A group opened, in `context` (`nil`: the current one), with its longer description.
    case beginGroup(name: String?, context: String?, description: String? = nil)
    /// The innermost group closed.
    case endGroup
    /// The innermost group cancelled: its changes taken back.
    case cancelGroup
    /// The next change starts a step of its own.
    case breakCoalescing
    /// A context's present state marked saved (`nil`: the current context).
    case markSaved(context: String?)
    /// A context's save point forgotten (`nil`: the current context).
    case forgetSavePoint(context: String?)
    /// A context taken back to its save point as one step named `name`.
    case revertToSaved(context: String?, name: String)
    /// One document alone taken to its content at a state, as one step named `name`
    /// (``UndoStack/goTo(state:in:named:)``).
    case goToInDocument(state: UInt32, context: String, name: String)
    /// One document alone taken `count` of its own states back; recorded as the state it reached.
    case earlierInDocument(count: Int, context: String, name: String)
    /// One document alone taken `count` of its own states forward; recorded as the state it reached.
    case laterInDocument(count: Int, context: String, name: String)
    /// The count and memory limits (`nil`: none); steps beyond them are dropped.
    case limits(count: Int?, memory: Int?)
    /// How long a coalescing run stays open, as `Duration`'s two exact components (`nil`: no
    /// time limit).
    case coalescingWindow(seconds: Int64?, attoseconds: Int64?)
    /// The context later calls without one act on (`nil`: the whole history).
    case currentContext(String?)
    /// Changes are performed without being recorded until as many resumes.
    case pauseRecording
    /// Ends one pause.
    case resumeRecording
    /// The steps and save state of one context removed (`nil`: of every context).
    case removeAll(context: String?)

    /// What applying an operation did.
    public struct Applied: Sendable {
        /// What was undone or redone, or `nil` when no step moved.
        public var result: UndoResult?
        /// The operation as a journal keeps it: one that replays to the same history whatever
        /// the clock and the current context say (a move as the state it reached, an undo with
        /// the context it acted in); `nil` when it changed nothing at all.
        public var recorded: UndoOperation?
    }

    /// The operation setting `window` as ``UndoStack/coalescingWindow``.
    public static func coalescingWindow(_ window: Duration?) -> UndoOperation {
        .coalescingWindow(seconds: window?.components.seconds, attoseconds: window?.components.attoseconds)
    }

    /// The operation's name, as the plugin host's journal writes it in its `kind` column and as
    /// refusals name the call ("undo", "group-begin", "limits").
    public var kind: String {
        switch self {
        case .undo: "undo"
        case .redo: "redo"
        case .move: "move"
        case .goTo: "goto"
        case .earlier: "earlier"
        case .later: "later"
        case .travelFoundNoState: "nothing"
        case .beginGroup: "group-begin"
        case .endGroup: "group-end"
        case .cancelGroup: "group-cancel"
        case .breakCoalescing: "break"
        case .markSaved: "save"
        case .forgetSavePoint: "forget-save"
        case .revertToSaved: "revert"
        case .goToInDocument: "doc-goto"
        case .earlierInDocument: "doc-earlier"
        case .laterInDocument: "doc-later"
        case .limits: "limits"
        case .coalescingWindow: "window"
        case .currentContext: "context"
        case .pauseRecording: "pause"
        case .resumeRecording: "resume"
        case .removeAll: "remove-all"
        }
    }

    /// Makes the change on `stack`: the one place every face and every journal's replay go
    /// through.
    /// - Parameter stack: the history.
    /// - Returns: its result and its recorded form.
    /// - Throws: the history's error (nothing changed), or an action's error (see each call).
    /// - Complexity: that of the history's call it makes.
    @discardableResult
    public func apply(to stack: UndoStack) throws -> Applied {
        func context(_ name: String?) -> UndoContext? { name.map(UndoContext.init) }
        func given(_ scope: Scope) -> UndoContext? {
            if case .context(let name) = scope { UndoContext(name) } else { nil }
        }
        func acted(_ scope: Scope) -> Scope {
            // Read only after the call succeeded: inside an action the history may not be read.
            scope == .current ? Scope(stack.currentContext) : scope
        }
        switch self {
        case .undo(let count, let scope):
            let result = try scope == .current ? stack.undo(count: count) : stack.undo(count: count, in: given(scope))
            return Applied(result: result, recorded: .undo(count: count, scope: acted(scope)))
        case .redo(let count, let scope):
            let result = try scope == .current ? stack.redo(count: count) : stack.redo(count: count, in: given(scope))
            return Applied(result: result, recorded: .redo(count: count, scope: acted(scope)))
        case .move(let position):
            let (from, pendingStart) = stack.access { ($0.position, $0.pendingStart) }
            let result = try stack.move(to: position)
            // A move that redoes pending steps makes their states (new numbers): it is recorded
            // as the redo it is, which makes the same ones again.
            let recorded: UndoOperation = position > pendingStart ? .redo(count: position - from, scope: .whole)
                : .goTo(state: stack.currentState)
            return Applied(result: result, recorded: result == nil ? nil : recorded)
        case .goTo(let state):
            return Applied(result: try stack.goTo(state: state), recorded: self)
        case .earlier(let distance), .later(let distance):
            let earlier = if case .earlier = self { true } else { false }
            // A travel that finds no state changes nothing, not even the coalescing run; one that
            // does is recorded as the move to the state it found.
            let (result, target) = try stack.travelFindingTarget(distance, earlier: earlier)
            return Applied(result: result, recorded: target.map { .goTo(state: $0) })
        case .travelFoundNoState:
            return Applied(result: nil, recorded: nil)
        case .beginGroup(let name, let group, let description):
            try stack.beginGroup(named: name, description: description, context: context(group))
        case .endGroup:
            try stack.endGroup()
        case .cancelGroup:
            return Applied(result: try stack.cancelGroup(), recorded: self)
        case .breakCoalescing:
            stack.breakCoalescing()
        case .markSaved(let name):
            try stack.markSaved(context(name))
        case .forgetSavePoint(let name):
            try stack.forgetSavePoint(context(name))
        case .revertToSaved(let name, let title):
            return Applied(result: try stack.revertToSaved(context(name), named: title), recorded: self)
        case .goToInDocument(let state, let name, let title):
            let result = try stack.goTo(state: state, in: UndoContext(name), named: title)
            return Applied(result: result, recorded: result == nil ? nil : self)
        case .earlierInDocument(let count, let name, let title), .laterInDocument(let count, let name, let title):
            let earlier = if case .earlierInDocument = self { true } else { false }
            let (result, target) = try stack.travelFindingTarget(count, in: UndoContext(name), earlier: earlier, named: title)
            guard let target, result != nil else { return Applied(result: result, recorded: nil) }
            return Applied(result: result, recorded: .goToInDocument(state: target, context: name, name: title))
        case .limits(let count, let memory):
            try stack.refuseReentry(kind)
            stack.countLimit = count
            stack.memoryLimit = memory
        case .coalescingWindow(let seconds?, let attoseconds?):
            stack.coalescingWindow = Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
        case .coalescingWindow:
            stack.coalescingWindow = nil
        case .currentContext(let name):
            stack.currentContext = context(name)
        case .pauseRecording:
            stack.pauseRecording()
        case .resumeRecording:
            stack.resumeRecording()
        case .removeAll(let name?):
            try stack.removeAll(in: UndoContext(name))
        case .removeAll(nil):
            try stack.removeAll()
        }
        return Applied(result: nil, recorded: self)
    }
}
