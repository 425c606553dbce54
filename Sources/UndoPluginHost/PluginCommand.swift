import UndoCore
import UndoPluginABI

/// One plugin step in the shared history: an action type with typed arguments and typed
/// inverse arguments, performed and undone through typed C calls (see ``FFIFunction``).
///
/// Make one with ``PluginHost/makeCommand(_:arguments:in:)`` (which checks the arguments) or
/// let ``PluginHost/perform(_:_:in:)`` do it. Its ``description`` is the script line that
/// performs it again: `text.insert 0 "Hello"`.
///
/// **Storage.** Two words: the action type and the step (``PluginStep``: context, arguments,
/// inverse arguments, whether it was performed, its own coalescing key), copied on write, so a
/// copy of a command (a listing, say) never changes with the original.
public struct PluginCommand: UndoCommand, Sendable, CustomStringConvertible {
    /// Strong: a step keeps its action type, and so its plugin record, alive.
    let actionType: ActionType
    private(set) var step: PluginStep

    init(action: ActionType, arguments: [ActionValue], inverseArguments: [ActionValue]? = nil,
         context: UndoContext, performed: Bool = false) {
        let inverse = action.inverseSignature == nil ? nil : inverseArguments
        self.init(action: action, step: PluginStep(context: context, arguments: arguments, inverseArguments: inverse,
                                                   performed: performed))
    }

    init(action: ActionType, step: PluginStep) {
        self.actionType = action
        self.step = step
        if step.performed { step.measuredCost = step.currentCost }
    }

    public var action: ActionType { actionType }
    /// The perform arguments (typed exactly as the signature).
    public var arguments: [ActionValue] { step.arguments }
    /// The inverse's arguments: handed back by perform, or the perform arguments when the
    /// inverse takes those (empty while a step with inverse parameters has not run).
    public var inverseArguments: [ActionValue] {
        actionType.inverseSignature == nil ? step.arguments : step.inverseArguments ?? []
    }
    public var context: UndoContext { step.context }
    public func belongs(to context: UndoContext) -> Bool { step.context == context }

    /// Whether perform ran (the next perform is a redo).
    var isPerformed: Bool { step.performed }

    public var name: String? { actionType.name }
    /// The key perform set for this step (`set_coalescing_key`, ABI 1.3), else the action type's;
    /// namespaced by the plugin.
    public var coalescingKey: UndoCoalescingKey? {
        switch step.coalescing {
        case .actionType: actionType.historyCoalescingKey
        case .never: nil
        case .key(let key): key
        }
    }
    public var isDiscardable: Bool { actionType.isDiscardable }
    /// The cost as measured when the step went in (or merged): a redo may hand back inverse
    /// arguments of another size (the document changed outside the history), but the history
    /// does not measure a step again after a redo, so its running total would drift.
    public var cost: Int {
        if let fixed = actionType.fixedStepCost { return fixed }
        return step.measuredCost >= 0 ? step.measuredCost : step.currentCost
    }

    public var description: String {
        let arguments = self.arguments
        return arguments.isEmpty ? action.shortID : action.shortID + " " + ActionArguments.format(arguments)
    }

    /// The step, made this command's own first (copy on write).
    private mutating func uniqueStep() -> PluginStep {
        if !isKnownUniquelyReferenced(&step) { step = step.copy() }
        return step
    }

    public mutating func perform(_ changes: inout UndoChanges) throws {
        let step = uniqueStep()
        let wasPerformed = step.performed
        try actionType.invokePerform(step, changes: &changes)
        if !wasPerformed { step.measuredCost = step.currentCost }
    }

    public mutating func undo(_ changes: inout UndoChanges) throws {
        try actionType.invokeInverse(uniqueStep(), changes: &changes)
    }

    /// Offers `next` to this step: through the action type's merge function, or the append rule
    /// (``ActionType/appendsOnMerge``). `.refused` keeps them as two separate steps.
    public mutating func merge(with next: PluginCommand) -> UndoMerge {
        guard next.actionType === actionType, next.step.context == step.context else { return .refused }
        if actionType.appendsOnMerge {
            let step = uniqueStep()
            let before = step.measuredCost >= 0 ? step.measuredCost : step.currentCost
            guard let appended = step.append(next.step) else { return .refused }
            // The history measures a merged step again: it grew by the bytes appended.
            step.measuredCost = before + appended
            return .merged
        }
        guard let merged = actionType.invokeMerge(previous: step, next: next.step) else { return .refused }
        switch merged {
        case .annulled:
            return .annulled
        case .merged(let newStep):
            newStep.coalescing = step.coalescing
            newStep.measuredCost = newStep.currentCost
            step = newStep
            return .merged
        }
    }
}

/// The state of one ``PluginCommand``: changed only through the command that holds the one
/// reference to it (``PluginCommand`` copies it first otherwise), so a step another command
/// or thread can see is never changed. (`@unchecked Sendable` for that reason.)
final class PluginStep: @unchecked Sendable {
    /// Which coalescing key a step has.
    enum Coalescing: Equatable {
        /// The action type's (perform set none).
        case actionType
        /// None: perform set NULL.
        case never
        /// The one perform set, namespaced by the plugin.
        case key(UndoCoalescingKey)
    }

    let context: UndoContext
    var arguments: [ActionValue]
    /// The inverse's own arguments, handed back by perform; `nil` when the inverse takes
    /// perform's arguments, or before perform ran.
    var inverseArguments: [ActionValue]?
    /// Whether perform ran (or the plugin recorded the step): the next perform is a redo.
    var performed: Bool
    var coalescing = Coalescing.actionType
    /// The cost as the history measured it, or -1 before it went in.
    var measuredCost = -1

    init(context: UndoContext, arguments: [ActionValue], inverseArguments: [ActionValue]?, performed: Bool) {
        self.context = context
        self.arguments = arguments
        self.inverseArguments = inverseArguments
        self.performed = performed
    }

    /// An independent copy (copy on write).
    func copy() -> PluginStep {
        let copy = PluginStep(context: context, arguments: arguments, inverseArguments: inverseArguments,
                              performed: performed)
        copy.coalescing = coalescing
        copy.measuredCost = measuredCost
        return copy
    }

    /// The bytes this step keeps alive, for the memory limit.
    var currentCost: Int {
        var cost = 96
        for value in arguments { cost += value.storageSize }
        for value in inverseArguments ?? [] { cost += value.storageSize }
        return cost
    }

    /// The host-side append merge (``ActionType/appendsOnMerge``, `UNDO_MERGE_BY_APPEND`):
    /// appends `next`'s last argument to this step's last argument, and likewise the last inverse
    /// argument, in place.
    /// - Returns: the bytes appended (to the argument and the inverse argument together), or
    ///   `nil` (nothing changed) unless every other argument of the two is equal and the joined
    ///   values stay within ``ActionArguments/maximumValueSize``.
    func append(_ next: PluginStep) -> Int? {
        let count = arguments.count
        guard count > 0, next.arguments.count == count,
              (inverseArguments == nil) == (next.inverseArguments == nil),
              arguments.dropLast() == next.arguments.dropLast(),
              let argumentBytes = Self.appendableSize(next.arguments[count - 1], to: arguments[count - 1]) else {
            return nil
        }
        var appended = argumentBytes
        if let inverse = inverseArguments, let nextInverse = next.inverseArguments {
            guard let last = inverse.last, inverse.count == nextInverse.count,
                  inverse.dropLast() == nextInverse.dropLast(),
                  let inverseBytes = Self.appendableSize(nextInverse[inverse.count - 1], to: last) else {
                return nil
            }
            appended += inverseBytes
            Self.append(nextInverse[inverse.count - 1], to: &inverseArguments!, at: inverse.count - 1)
        }
        Self.append(next.arguments[count - 1], to: &arguments, at: count - 1)
        return appended
    }

    /// The size of `value` when it is a string or bytes value that can be appended to `target`,
    /// else `nil`.
    private static func appendableSize(_ value: ActionValue, to target: ActionValue) -> Int? {
        switch (target, value) {
        case (.string(let text), .string(let tail)):
            let size = tail.utf8.count
            return text.utf8.count + size <= ActionArguments.maximumValueSize ? size : nil
        case (.bytes(let bytes), .bytes(let tail)):
            return bytes.count + tail.count <= ActionArguments.maximumValueSize ? tail.count : nil
        default:
            return nil
        }
    }

    /// Appends `value` to `values[index]` (see ``appendableSize(_:to:)``): the value is taken
    /// out of the array while it grows, so its buffer is uniquely referenced and grows in
    /// amortized O(1).
    private static func append(_ value: ActionValue, to values: inout [ActionValue], at index: Int) {
        switch (values[index], value) {
        case (.string(var text), .string(let tail)):
            values[index] = .i64(0)  // drops the array's reference: `text` grows in place
            text.append(tail)
            values[index] = .string(text)
        case (.bytes(var bytes), .bytes(let tail)):
            values[index] = .i64(0)
            bytes.append(contentsOf: tail)
            values[index] = .bytes(bytes)
        default:
            preconditionFailure("appendableSize was not checked")
        }
    }
}
