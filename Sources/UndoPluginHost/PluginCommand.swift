import UndoCore
import UndoPluginABI

/// One plugin step in the shared history: an action type with typed arguments and typed
/// inverse arguments, performed and undone through typed C calls (see ``FFIFunction``).
///
/// Make one with ``PluginHost/makeCommand(_:arguments:in:)`` (which checks the arguments) or
/// let ``PluginHost/perform(_:_:in:)`` do it. Its ``description`` is the script line that
/// performs it again: `text.insert 0 "Hello"`.
///
/// **Storage.** Three words: the context, and a reference to one heap block (``PluginStep``)
/// that holds the action type, the state and the arguments and inverse arguments side by side,
/// so the history stores the command inline (an existential's three words) and a step costs
/// one allocation. The context is kept here rather than in the block, where the inline slot
/// has room for it: the block of a one-argument step is then 56 bytes, one malloc size class
/// smaller. The block is copied on write: a copy of a command (a listing, say) never changes
/// with the original. (`@unchecked Sendable`: the storage is only changed through a command
/// that holds the one reference to it.)
public struct PluginCommand: UndoCommand, @unchecked Sendable, CustomStringConvertible {
    var step: PluginStep
    let storedContext: UndoContext

    init(action: ActionType, arguments: [ActionValue], inverseArguments: [ActionValue]? = nil,
         context: UndoContext, performed: Bool = false) {
        step = PluginStep.make(action: action, arguments: arguments,
                               inverseArguments: inverseArguments, performed: performed)
        storedContext = context
    }

    init(step: PluginStep, context: UndoContext) {
        self.step = step
        storedContext = context
    }

    public var action: ActionType { step.action }
    /// The perform arguments (typed exactly as the signature).
    public var arguments: [ActionValue] { Array(step.arguments) }
    /// The inverse's arguments: handed back by perform, or the perform arguments when the
    /// inverse takes those (empty while a step with inverse parameters has not run).
    public var inverseArguments: [ActionValue] { Array(step.inverseArguments) }
    public var context: UndoContext { storedContext }

    // The action type through the step without reference counting (the history reads these on
    // every undo and redo, and for every push).
    public var name: String? { step.withAction { $0.name } }
    public var coalescingKey: UndoCoalescingKey? { step.withAction { $0.historyCoalescingKey } }
    public var isDiscardable: Bool { step.withAction { $0.isDiscardable } }
    /// The cost as measured when the step went in (or merged): a redo may hand back inverse
    /// arguments of another size (the document changed outside the history), but the history
    /// does not measure a step again after a redo, so its running total would drift.
    public var cost: Int {
        let measured = step.measuredCost
        return measured >= 0 ? measured : step.currentCost
    }

    public var description: String {
        let arguments = step.arguments
        return arguments.isEmpty ? action.shortID : action.shortID + " " + ActionArguments.format(Array(arguments))
    }

    /// Makes the storage this command's own before a change (copy on write).
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&step) { step = step.copy() }
    }

    public mutating func perform(_ changes: inout UndoChanges) throws {
        makeUnique()
        let step = self.step
        let performed = step.performed
        let context = storedContext
        try step.withAction { action in
            try action.invokePerform(step, context: context, phase: performed ? .redo : .perform, changes: &changes)
        }
        if !performed {
            step.performed = true
            step.measuredCost = step.currentCost
        }
    }

    public mutating func undo(_ changes: inout UndoChanges) throws {
        let (step, context) = (self.step, storedContext)
        try step.withAction { try $0.invokeInverse(step, context: context, changes: &changes) }
    }

    public mutating func merge(with next: PluginCommand) -> UndoMerge {
        // Every keystroke of a run comes here: the action types compared by identity and the
        // contexts by their strings' bits first, without reference counting.
        let sameAction = step.withAction { mine in next.step.withAction { $0 === mine } }
        guard sameAction, next.storedContext.hasSameName(as: storedContext) else { return .refused }
        if step.withAction({ $0.appendsOnMerge }) {
            makeUnique()
            guard let appended = step.append(next.step) else { return .refused }
            // The history measures a merged step again: it grew by the bytes appended (counted
            // as they are appended, rather than measuring every argument of a long run again).
            let measured = step.measuredCost
            step.measuredCost = measured >= 0 ? measured + appended : step.currentCost
            return .merged
        }
        let action = step.action
        guard action.mergeFunction != nil,
              let merged = action.invokeMerge(previous: step, next: next.step, context: storedContext) else {
            return .refused
        }
        switch merged {
        case .annulled:
            return .annulled
        case .merged(let newStep):
            step = newStep
            step.measuredCost = step.currentCost
            return .merged
        }
    }
}

/// The storage of one ``PluginCommand``: a header and, in the same heap block, the perform
/// arguments followed by the inverse's own arguments (none when the inverse takes perform's).
///
/// Invariant: the `argumentCount` arguments are always initialized; the `inverseCount` inverse
/// slots after them are initialized exactly when `hasInverse` is true.
final class PluginStep: ManagedBuffer<PluginStep.Header, ActionValue> {
    /// 16 bytes: with the object's own 16 and one 24-byte argument, a step of a one-argument
    /// action is a 56-byte allocation (a 64-byte malloc chunk). The context is in the command.
    struct Header {
        let action: ActionType
        /// The cost as the history measured it, or -1 before it went in.
        var measuredCost: Int32
        /// At most UNDO_MAX_PARAMS (16).
        let argumentCount: UInt8
        /// Slots for the inverse's own arguments (0 when the inverse takes perform's).
        let inverseCount: UInt8
        /// Whether the inverse slots hold values (always true with no own inverse).
        var hasInverse: Bool
        /// Whether perform ran (or the plugin recorded the step): the next perform is a redo.
        var performed: Bool
    }

    // The header through its pointer: `header` itself is a class property with a run-time
    // exclusivity check on every access.
    @inline(__always) private var head: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }
    var action: ActionType { head.pointee.action }
    /// Runs `body` with the action type, without retaining it (the step holds it).
    @inline(__always)
    func withAction<R>(_ body: (ActionType) throws -> R) rethrows -> R {
        let raw = UnsafeRawPointer(head) + MemoryLayout<Header>.offset(of: \Header.action)!
        return try raw.load(as: Unmanaged<ActionType>.self)._withUnsafeGuaranteedRef(body)
    }
    var argumentCount: Int { Int(head.pointee.argumentCount) }
    var inverseCount: Int { Int(head.pointee.inverseCount) }
    var hasInverse: Bool {
        get { head.pointee.hasInverse }
        set { head.pointee.hasInverse = newValue }
    }
    var performed: Bool {
        get { head.pointee.performed }
        set { head.pointee.performed = newValue }
    }
    /// The cost (at most twice UNDO_MAX_VALUE_SIZE and change, so 32 bits hold it).
    var measuredCost: Int {
        get { Int(head.pointee.measuredCost) }
        set { head.pointee.measuredCost = Int32(clamping: newValue) }
    }

    /// A step with room for `action`'s arguments and inverse arguments; `initialize` must
    /// initialize the `argumentCount` arguments.
    static func make(action: ActionType, argumentCount: Int,
                     initialize: (UnsafeMutablePointer<ActionValue>) -> Void) -> PluginStep {
        let inverseCount = action.inverseSignature?.parameters.count ?? 0
        let buffer = create(minimumCapacity: argumentCount + inverseCount) { _ in
            Header(action: action, measuredCost: -1, argumentCount: UInt8(argumentCount),
                   inverseCount: UInt8(inverseCount), hasInverse: action.inverseSignature == nil, performed: false)
        }
        let step = unsafeDowncast(buffer, to: PluginStep.self)
        step.withUnsafeMutablePointerToElements { initialize($0) }
        return step
    }

    static func make(action: ActionType, arguments: [ActionValue],
                     inverseArguments: [ActionValue]?, performed: Bool) -> PluginStep {
        let step = make(action: action, argumentCount: arguments.count) { elements in
            _ = UnsafeMutableBufferPointer(start: elements, count: arguments.count).initialize(from: arguments)
        }
        if let inverseArguments, step.inverseCount > 0 {
            precondition(inverseArguments.count == step.inverseCount, "inverse arguments were not checked")
            step.withUnsafeMutablePointerToElements { elements in
                _ = UnsafeMutableBufferPointer(start: elements + arguments.count, count: inverseArguments.count)
                    .initialize(from: inverseArguments)
            }
            step.hasInverse = true
        }
        if performed {
            step.performed = true
            step.measuredCost = step.currentCost
        }
        return step
    }

    deinit {
        let count = argumentCount + (hasInverse ? inverseCount : 0)
        // One value at a time: a direct destroy each, where deinitialize(count:) with a count
        // known only at run time goes through the runtime's generic array destroy.
        withUnsafeMutablePointerToElements { values in
            for index in 0..<count { (values + index).deinitialize(count: 1) }
        }
    }

    /// An independent copy (copy on write).
    func copy() -> PluginStep {
        let (argumentCount, inverseCount) = (self.argumentCount, self.inverseCount)
        let copy = withUnsafeMutablePointerToElements { source in
            PluginStep.make(action: action, argumentCount: argumentCount) {
                $0.initialize(from: source, count: argumentCount)
            }
        }
        if inverseCount > 0 && hasInverse {
            withUnsafeMutablePointerToElements { source in
                copy.withUnsafeMutablePointerToElements { target in
                    (target + argumentCount).initialize(from: source + argumentCount, count: inverseCount)
                }
            }
            copy.hasInverse = true
        }
        copy.performed = performed
        copy.measuredCost = measuredCost
        return copy
    }

    /// The perform arguments, valid while the step is alive and unchanged.
    var arguments: UnsafeMutableBufferPointer<ActionValue> {
        let count = argumentCount
        return withUnsafeMutablePointerToElements { UnsafeMutableBufferPointer(start: $0, count: count) }
    }

    /// The inverse's arguments (perform's when it takes those; empty while not yet set).
    var inverseArguments: UnsafeMutableBufferPointer<ActionValue> {
        if action.inverseSignature == nil { return arguments }
        let (start, count) = (argumentCount, hasInverse ? inverseCount : 0)
        return withUnsafeMutablePointerToElements {
            UnsafeMutableBufferPointer(start: $0 + start, count: count)
        }
    }

    /// Replaces the inverse arguments with the `inverseCount` values at `values`, moved in.
    func moveInverse(from values: UnsafeMutablePointer<ActionValue>) {
        let (start, count, initialized) = (argumentCount, inverseCount, hasInverse)
        withUnsafeMutablePointerToElements { elements in
            let slots = elements + start
            if initialized { slots.deinitialize(count: count) }
            slots.moveInitialize(from: values, count: count)
        }
        self.hasInverse = true
    }

    /// The bytes this step keeps alive, for the memory limit.
    var currentCost: Int {
        // Numbers cost 16 bytes each whatever their value: known from the action type alone.
        if hasInverse, let fixed = withAction({ $0.fixedStepCost }) { return fixed }
        var cost = 96
        for value in arguments { cost += value.storageSize }
        if inverseCount > 0 {
            for value in inverseArguments { cost += value.storageSize }
        }
        return cost
    }

    /// The host-side append merge (``ActionType/appendsOnMerge``): appends `next`'s last
    /// argument to this step's last argument, and likewise the last inverse argument, in place.
    /// - Returns: the bytes appended (to the argument and the inverse argument together), or
    ///   `nil` (nothing changed) unless every other argument of the two is equal and the joined
    ///   values stay within ``ActionArguments/maximumValueSize``.
    func append(_ next: PluginStep) -> Int? {
        let count = argumentCount
        let inverseCount = self.inverseCount
        guard count > 0, next.argumentCount == count, next.inverseCount == inverseCount,
              hasInverse && next.hasInverse else { return nil }
        let mine = arguments, theirs = next.arguments
        for index in 0..<(count - 1) where mine[index] != theirs[index] { return nil }
        let lastArgument = mine.baseAddress! + (count - 1)
        guard let argumentBytes = Self.appendableSize(theirs[count - 1], to: lastArgument) else { return nil }
        var appended = argumentBytes
        if inverseCount > 0 {
            let myInverse = inverseArguments, theirInverse = next.inverseArguments
            for index in 0..<(inverseCount - 1) where myInverse[index] != theirInverse[index] { return nil }
            let lastInverse = myInverse.baseAddress! + (inverseCount - 1)
            guard let inverseBytes = Self.appendableSize(theirInverse[inverseCount - 1], to: lastInverse) else {
                return nil
            }
            Self.append(theirInverse[inverseCount - 1], to: lastInverse)
            appended += inverseBytes
        }
        Self.append(theirs[count - 1], to: lastArgument)
        return appended
    }

    /// The size of `value` when it is a string or bytes value that can be appended to the one at
    /// `slot`, else `nil`.
    private static func appendableSize(_ value: ActionValue, to slot: UnsafeMutablePointer<ActionValue>) -> Int? {
        switch value {
        case .string(let tail):
            guard case .string(let text) = slot.pointee else { return nil }
            let size = tail.utf8.count
            return text.utf8.count + size <= ActionArguments.maximumValueSize ? size : nil
        case .bytes(let tail):
            guard case .bytes(let bytes) = slot.pointee else { return nil }
            return bytes.count + tail.count <= ActionArguments.maximumValueSize ? tail.count : nil
        default:
            return nil
        }
    }

    /// Appends (see ``canAppend(_:to:)``) in place: the value is moved out of its slot while it
    /// grows, so its buffer is uniquely referenced and grows in amortized O(1).
    private static func append(_ value: ActionValue, to slot: UnsafeMutablePointer<ActionValue>) {
        var old = slot.move()
        switch value {
        case .string(let tail):
            if case .string(var text) = old {
                old = .i64(0)  // drops the second reference: `text` grows in place
                text.append(tail)
                old = .string(text)
            }
        case .bytes(let tail):
            if case .bytes(var bytes) = old {
                old = .i64(0)
                bytes.append(contentsOf: tail)
                old = .bytes(bytes)
            }
        default:
            break
        }
        slot.initialize(to: old)
    }
}
