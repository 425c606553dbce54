import UndoCore
import UndoPluginABI

/// One plugin step in the shared history: an action type with typed arguments and typed
/// inverse arguments, performed and undone through libffi.
///
/// Make one with ``PluginHost/makeCommand(_:arguments:in:)`` (which checks the arguments) or
/// let ``PluginHost/perform(_:_:in:)`` do it. Its ``description`` is the script line that
/// performs it again: `text.insert 0 "Hello"`.
public struct PluginCommand: UndoCommand, Sendable, CustomStringConvertible {
    public let action: ActionType
    /// The perform arguments (typed exactly as the signature).
    public private(set) var arguments: [ActionValue]
    /// The inverse's arguments: handed back by perform, or the perform arguments when the
    /// inverse takes those.
    public private(set) var inverseArguments: [ActionValue]
    public let context: UndoContext
    /// Whether perform ran (or the plugin recorded the step): the next perform is a redo.
    private var performed: Bool
    /// The cost as the history measured it when the step went in (or merged). A redo may hand
    /// back inverse arguments of another size (the document changed outside the history), but
    /// the history does not measure a step again after a redo, so its running total would drift.
    private var measuredCost: Int?

    init(action: ActionType, arguments: [ActionValue], inverseArguments: [ActionValue]? = nil,
         context: UndoContext, performed: Bool = false) {
        self.action = action
        self.arguments = arguments
        self.inverseArguments = inverseArguments ?? (action.inverseSignature == nil ? arguments : [])
        self.context = context
        self.performed = performed
        if performed { measuredCost = currentCost }
    }

    public var name: String? { action.name }
    public var coalescingKey: UndoCoalescingKey? { action.historyCoalescingKey }
    public var isDiscardable: Bool { action.isDiscardable }
    public var cost: Int { measuredCost ?? currentCost }

    private var currentCost: Int {
        var cost = 96
        for value in arguments { cost += value.storageSize }
        if action.inverseSignature != nil {
            for value in inverseArguments { cost += value.storageSize }
        }
        return cost
    }

    public var description: String {
        arguments.isEmpty ? action.shortID : action.shortID + " " + ActionArguments.format(arguments)
    }

    public mutating func perform(_ changes: inout UndoChanges) throws {
        let phase: CallFrame.Phase = performed ? .redo : .perform
        let (inverse, reported) = try action.invokePerform(arguments, context: context, phase: phase)
        inverseArguments = inverse
        if !performed { measuredCost = currentCost }
        performed = true
        changes.append(contentsOf: reported)
    }

    public mutating func undo(_ changes: inout UndoChanges) throws {
        let reported = try action.invokeInverse(inverseArguments, context: context)
        changes.append(contentsOf: reported)
    }

    public mutating func merge(with next: PluginCommand) -> UndoMerge {
        guard next.action === action, next.context == context, action.mergeFunction != nil else { return .refused }
        guard let merged = action.invokeMerge(previous: self, next: next) else { return .refused }
        switch merged {
        case .annulled:
            return .annulled
        case .merged(let newArguments, let newInverse):
            arguments = newArguments
            inverseArguments = newInverse
            measuredCost = currentCost  // the history measures a merged step again
            return .merged
        }
    }
}

extension UndoChanges {
    fileprivate mutating func append(contentsOf other: UndoChanges) {
        for change in other.all { report(change) }
    }
}
