import UndoCore
import UndoPluginABI

/// One plugin step in the shared history: an action type with typed arguments and typed
/// inverse arguments, performed and undone through typed C calls (see ``FFIFunction``).
///
/// Make one with ``PluginHost/makeCommand(_:arguments:in:)`` (which checks the arguments) or
/// let ``PluginHost/perform(_:_:in:)`` do it. Its ``description`` is the script line that
/// performs it again: `text.insert 0 "Hello"`.
///
/// **Storage.** Three words, so the history keeps the command inline in its slot (an
/// existential's three-word buffer): the action type, and either
/// - the one number argument itself, when the action type ``ActionType/storesInline`` (one
///   number parameter, an inverse that takes perform's arguments): such a step allocates
///   nothing in the global context, and a 16-byte block for the context elsewhere; or
/// - a heap block (``PluginStep``) with the context, the arguments and the inverse arguments
///   side by side, copied on write: a copy of a command (a listing, say) never changes with the
///   original.
///
/// (`@unchecked Sendable`: the storage is only changed through a command that holds the one
/// reference to it.)
public struct PluginCommand: UndoCommand, @unchecked Sendable, CustomStringConvertible {
    /// Strong: a step keeps its action type, and so its plugin record, alive.
    let actionType: ActionType
    /// The argument of a step stored inline (``ActionValue/numberBits``); 0 otherwise.
    var inlineBits: UInt64
    var storage: Storage

    enum Storage {
        /// Inline, in the global context: not performed yet, or performed (the next perform is
        /// a redo).
        case fresh
        case performed
        /// Inline, in another context.
        case freshIn(ContextBox)
        case performedIn(ContextBox)
        /// In its own heap block.
        case boxed(PluginStep)
    }

    /// The context of a step stored inline outside the global context.
    final class ContextBox: @unchecked Sendable {
        let context: UndoContext
        init(_ context: UndoContext) { self.context = context }
    }

    init(action: ActionType, arguments: [ActionValue], inverseArguments: [ActionValue]? = nil,
         context: UndoContext, performed: Bool = false) {
        if action.storesInline, arguments.count == 1, let bits = arguments[0].numberBits {
            self.init(action: action, numberBits: bits, context: context, performed: performed)
        } else {
            self.init(step: PluginStep.make(action: action, context: context, arguments: arguments,
                                            inverseArguments: inverseArguments, performed: performed))
        }
    }

    /// A step stored inline (the action type ``ActionType/storesInline``).
    init(action: ActionType, numberBits: UInt64, context: UndoContext, performed: Bool = false) {
        let storage: Storage
        if context.hasSameName(as: .global) {
            storage = performed ? .performed : .fresh
        } else {
            let box = ContextBox(context)
            storage = performed ? .performedIn(box) : .freshIn(box)
        }
        self.init(actionType: action, inlineBits: numberBits, storage: storage)
    }

    /// The step in `step`, stored inline when its action type allows.
    init(step: PluginStep) {
        let action = step.action
        if action.storesInline, step.argumentCount == 1, let bits = step.arguments[0].numberBits {
            self.init(action: action, numberBits: bits, context: step.context, performed: step.performed)
        } else {
            self.init(actionType: action, inlineBits: 0, storage: .boxed(step))
        }
    }

    private init(actionType: ActionType, inlineBits: UInt64, storage: Storage) {
        self.actionType = actionType
        self.inlineBits = inlineBits
        self.storage = storage
    }

    public var action: ActionType { actionType }
    /// The perform arguments (typed exactly as the signature).
    public var arguments: [ActionValue] {
        if case .boxed(let step) = storage { return step.joinedArguments }
        return [inlineValue]
    }
    /// The inverse's arguments: handed back by perform, or the perform arguments when the
    /// inverse takes those (empty while a step with inverse parameters has not run).
    public var inverseArguments: [ActionValue] {
        if case .boxed(let step) = storage {
            return step.action.inverseSignature == nil ? step.joinedArguments : Array(step.inverseArguments)
        }
        return [inlineValue]
    }
    public var context: UndoContext {
        switch storage {
        case .fresh, .performed: .global
        case .freshIn(let box), .performedIn(let box): box.context
        case .boxed(let step): step.context
        }
    }

    /// Compared where the context is kept, without copying it (asked on every keystroke).
    @inline(__always)
    public func belongs(to context: UndoContext) -> Bool {
        switch storage {
        case .fresh, .performed: context.hasSameName(as: .global)
        case .freshIn(let box), .performedIn(let box): box.context.hasSameName(as: context)
        case .boxed(let step): step.belongs(to: context)
        }
    }

    /// The argument of a step stored inline.
    private var inlineValue: ActionValue { ActionValue(numberBits: inlineBits, type: actionType.onlyParameterType!) }

    /// The step as a heap block: its own, or a new one holding the inline step.
    var step: PluginStep {
        if case .boxed(let step) = storage { return step }
        return PluginStep.make(action: actionType, context: context, arguments: [inlineValue],
                               inverseArguments: nil, performed: isPerformed)
    }

    /// The step as a heap block with no pending bytes (see ``step``).
    var joinedStep: PluginStep {
        let step = self.step
        return step.pending == nil ? step : step.copy()
    }

    /// Whether the step is kept inside the command (no heap block of its own).
    var isStoredInline: Bool {
        if case .boxed = storage { return false }
        return true
    }

    /// Whether perform ran (the next perform is a redo).
    var isPerformed: Bool {
        switch storage {
        case .fresh, .freshIn: false
        case .performed, .performedIn: true
        case .boxed(let step): step.performed
        }
    }

    /// The typing fast path (``PluginHost/perform(_:argument:in:)`` through
    /// ``UndoCore/UndoStack/extendNewest(_:key:context:_:)``): performs `action` in `context`
    /// with the string `text` and appends it to this step's argument, as performing a step and
    /// merging it into this one would, without making the step. The plugin reads `text` where
    /// it is; after it succeeds, the bytes go to the step's pending bytes (``PluginStep/pending``).
    /// - Parameter context: this step's context (the history checked it).
    /// - Returns: the bytes appended (the growth of ``cost``), or `nil` with nothing performed
    ///   when this step cannot take `text` (another action type, or the joined value too long).
    /// - Throws: the plugin's failure, with this step unchanged.
    @inline(__always)
    mutating func appendInPlace(_ text: AppendedText, of action: ActionType, in context: UndoContext)
        throws(PluginActionError) -> Int?
    {
        guard actionType === action, case .boxed = storage else { return nil }
        // The step reached without reference counting: every keystroke of a run comes here.
        let outcome: Result<Int?, PluginActionError> = uniqueStepReference()._withUnsafeGuaranteedRef { step in
            do throws(PluginActionError) {
                return .success(try Self.appendInPlace(text, of: action, in: context, to: step))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    @inline(__always)
    private static func appendInPlace(_ text: AppendedText, of action: ActionType, in context: UndoContext,
                                      to step: PluginStep) throws(PluginActionError) -> Int?
    {
        guard step.argumentCount == 1, step.inverseCount == 0, step.performed else { return nil }
        let pending = step.pendingBytes
        let fits = pending._withUnsafeGuaranteedRef { $0.fits(text.count) }
        guard fits else { return nil }
        try action.invokePerform(text, context: context)
        pending._withUnsafeGuaranteedRef { $0.append(text) }
        let measured = step.measuredCost
        step.measuredCost = measured >= 0 ? measured + text.count : step.currentCost
        return text.count
    }

    /// The heap block of a boxed step, made this command's own first (copy on write), unretained
    /// (valid while the command holds it), its pending bytes not joined.
    /// - Precondition: the step is boxed.
    @inline(__always)
    private mutating func uniqueStepReference() -> Unmanaged<PluginStep> {
        var taken = Storage.fresh
        swap(&taken, &storage)  // moved out, without reference counting
        guard case .boxed(var step) = consume taken else { preconditionFailure("the step is stored inline") }
        if !isKnownUniquelyReferenced(&step) { step = step.copy() }
        let reference = Unmanaged.passUnretained(step)
        storage = .boxed(step)
        return reference
    }

    /// The heap block of a boxed step, made this command's own first (copy on write), with its
    /// pending bytes joined into its value.
    /// - Precondition: the step is boxed.
    private mutating func uniqueStep() -> PluginStep {
        let step = uniqueStepReference().takeUnretainedValue()
        step.joinPending()
        return step
    }

    public var name: String? { actionType.name }
    public var coalescingKey: UndoCoalescingKey? { actionType.historyCoalescingKey }
    public var isDiscardable: Bool { actionType.isDiscardable }
    /// The cost as measured when the step went in (or merged): a redo may hand back inverse
    /// arguments of another size (the document changed outside the history), but the history
    /// does not measure a step again after a redo, so its running total would drift.
    public var cost: Int {
        guard case .boxed(let step) = storage else { return actionType.fixedStepCost! }
        let measured = step.measuredCost
        return measured >= 0 ? measured : step.currentCost
    }

    public var description: String {
        let arguments = self.arguments
        return arguments.isEmpty ? action.shortID : action.shortID + " " + ActionArguments.format(arguments)
    }

    /// Runs `body` with the action type without retaining it: the command holds it, and is
    /// borrowed in place for the call (every perform, undo and redo comes here).
    @inline(__always)
    private mutating func withAction<R>(_ body: (ActionType) throws -> R) rethrows -> R {
        let offset = MemoryLayout<PluginCommand>.offset(of: \PluginCommand.actionType)!
        return try withUnsafeMutablePointer(to: &self) { command in
            try (UnsafeRawPointer(command) + offset).load(as: Unmanaged<ActionType>.self)._withUnsafeGuaranteedRef(body)
        }
    }

    public mutating func perform(_ changes: inout UndoChanges) throws {
        let bits = inlineBits
        switch storage {
        case .fresh:
            try withAction { try $0.invokeInline($0.performFunction, bits, context: .global, phase: .perform, changes: &changes) }
            storage = .performed
        case .performed:
            try withAction { try $0.invokeInline($0.performFunction, bits, context: .global, phase: .redo, changes: &changes) }
        case .freshIn(let box):
            try withAction {
                try $0.invokeInline($0.performFunction, bits, context: box.context, phase: .perform, changes: &changes)
            }
            storage = .performedIn(box)
        case .performedIn(let box):
            try withAction {
                try $0.invokeInline($0.performFunction, bits, context: box.context, phase: .redo, changes: &changes)
            }
        case .boxed:
            let step = uniqueStep()
            let performed = step.performed
            try withAction { try $0.invokePerform(step, phase: performed ? .redo : .perform, changes: &changes) }
            if !performed {
                step.performed = true
                step.measuredCost = step.currentCost
            }
        }
    }

    public mutating func undo(_ changes: inout UndoChanges) throws {
        let bits = inlineBits
        switch storage {
        case .fresh, .performed:
            try withAction {
                try $0.invokeInline($0.inverseFunction, bits, context: .global, phase: .inverse, changes: &changes)
            }
        case .freshIn(let box), .performedIn(let box):
            try withAction {
                try $0.invokeInline($0.inverseFunction, bits, context: box.context, phase: .inverse, changes: &changes)
            }
        case .boxed:
            let step = uniqueStep()  // with a typing run's pending bytes joined
            try withAction { try $0.invokeInverse(step, changes: &changes) }
        }
    }

    public mutating func merge(with next: PluginCommand) -> UndoMerge {
        // Every keystroke of a run comes here: the action types compared by identity and the
        // contexts by their strings' bits first.
        guard next.actionType === actionType else { return .refused }
        if case .boxed = storage, case .boxed(var nextStep) = next.storage {
            if nextStep.pending != nil { nextStep = nextStep.copy() }  // its value, joined
            guard nextStep.context.hasSameName(as: context) else { return .refused }
            if actionType.appendsOnMerge {
                let step = uniqueStep()
                guard let appended = step.append(nextStep) else { return .refused }
                // The history measures a merged step again: it grew by the bytes appended
                // (counted as they are appended, rather than measuring every argument of a long
                // run again).
                let measured = step.measuredCost
                step.measuredCost = measured >= 0 ? measured + appended : step.currentCost
                return .merged
            }
        } else if !next.context.hasSameName(as: context) {
            return .refused
        }
        guard actionType.mergeFunction != nil,
              let merged = actionType.invokeMerge(previous: isStoredInline ? step : uniqueStep(),
                                                  next: next.joinedStep) else {
            return .refused
        }
        switch merged {
        case .annulled:
            return .annulled
        case .merged(let newStep):
            newStep.measuredCost = newStep.currentCost
            self = PluginCommand(step: newStep)
            return .merged
        }
    }
}

/// The storage of one ``PluginCommand``: a header and, in the same heap block, the perform
/// arguments followed by the inverse's own arguments (none when the inverse takes perform's).
///
/// Used for the steps that are not stored inline in their command (see ``PluginCommand``).
///
/// Invariant: the `argumentCount` arguments are always initialized; the `inverseCount` inverse
/// slots after them are initialized exactly when `hasInverse` is true.
final class PluginStep: ManagedBuffer<PluginStep.Header, ActionValue> {
    /// 40 bytes: with the object's own 16 and one 24-byte argument, a step of a one-argument
    /// action is an 80-byte allocation.
    struct Header {
        let action: ActionType
        let context: UndoContext
        /// Bytes appended to the last argument and not yet joined into it (see ``pending``).
        var pending: PendingBytes?
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
    var context: UndoContext { head.pointee.context }
    /// Whether the step is in `context`, compared in place.
    @inline(__always)
    func belongs(to context: UndoContext) -> Bool { head.pointee.context.hasSameName(as: context) }

    /// The bytes of a typing run appended to the last argument and not yet joined into it:
    /// ``PluginCommand/appendInPlace(_:of:in:)`` appends each keystroke here (a byte copy, where
    /// appending to the string value costs far more), and the value is joined when the step is
    /// next changed another way (``joinPending()``, by its command, which holds the step alone
    /// then). Reads that change nothing see the joined value (``joinedArguments``), so a copy of
    /// the command read on another thread never changes the step.
    ///
    /// Only for a step of one string argument whose inverse takes perform's arguments.
    var pending: PendingBytes? { head.pointee.pending }

    /// The pending bytes (made on the first append of a run), unretained: the step holds them.
    @inline(__always)
    var pendingBytes: Unmanaged<PendingBytes> {
        if head.pointee.pending == nil { head.pointee.pending = makePendingBytes() }
        let raw = UnsafeRawPointer(head) + MemoryLayout<Header>.offset(of: \Header.pending)!
        return raw.load(as: Unmanaged<PendingBytes>.self)
    }

    private func makePendingBytes() -> PendingBytes {
        PendingBytes(valueSize: lastString.utf8.count)
    }

    /// The last argument, a string: the only kind pending bytes follow (``ActionType/appendsInPlace``).
    private var lastString: String {
        guard case .string(let text) = arguments[argumentCount - 1] else {
            preconditionFailure("pending bytes follow a string argument only")
        }
        return text
    }

    /// The last argument with the pending bytes after it; `nil` when none are pending.
    private var joinedLastArgument: ActionValue? {
        guard let pending = head.pointee.pending, pending.count > 0 else { return nil }
        return .string(lastString + String(decoding: pending.buffer, as: UTF8.self))
    }

    /// Joins the pending bytes into the last argument. Only while this step is not shared.
    @inline(__always)
    func joinPending() {
        guard head.pointee.pending != nil else { return }
        if let joined = joinedLastArgument { arguments[argumentCount - 1] = joined }
        head.pointee.pending = nil
    }

    /// The perform arguments with the pending bytes joined, without changing the step.
    var joinedArguments: [ActionValue] {
        var values = Array(arguments)
        if let joined = joinedLastArgument { values[values.count - 1] = joined }
        return values
    }
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
    static func make(action: ActionType, context: UndoContext, argumentCount: Int,
                     initialize: (UnsafeMutablePointer<ActionValue>) -> Void) -> PluginStep {
        let inverseCount = action.inverseSignature?.parameters.count ?? 0
        let buffer = create(minimumCapacity: argumentCount + inverseCount) { _ in
            Header(action: action, context: context, pending: nil, measuredCost: -1, argumentCount: UInt8(argumentCount),
                   inverseCount: UInt8(inverseCount), hasInverse: action.inverseSignature == nil, performed: false)
        }
        let step = unsafeDowncast(buffer, to: PluginStep.self)
        step.withUnsafeMutablePointerToElements { initialize($0) }
        return step
    }

    static func make(action: ActionType, context: UndoContext, arguments: [ActionValue],
                     inverseArguments: [ActionValue]?, performed: Bool) -> PluginStep {
        let step = make(action: action, context: context, argumentCount: arguments.count) { elements in
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
            PluginStep.make(action: action, context: context, argumentCount: argumentCount) {
                $0.initialize(from: source, count: argumentCount)
            }
        }
        if let joined = joinedLastArgument { copy.arguments[argumentCount - 1] = joined }
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
        var cost = 96 + (head.pointee.pending?.count ?? 0)
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

/// The bytes of a typing run not yet joined into its step's value (``PluginStep/pending``): a
/// growing buffer, always followed by a NUL so the newest keystroke can be handed to the plugin
/// as a C string in place.
final class PendingBytes {
    @exclusivity(unchecked) private(set) var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int
    /// The size of the value the bytes go after.
    let valueSize: Int

    init(valueSize: Int, capacity: Int = 128) {
        self.valueSize = valueSize
        self.capacity = capacity
        bytes = .allocate(capacity: capacity + 1)
        bytes[0] = 0
    }

    deinit { bytes.deallocate() }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }

    /// Whether `size` more bytes keep the joined value within ``ActionArguments/maximumValueSize``.
    @inline(__always)
    func fits(_ size: Int) -> Bool { valueSize + count + size <= ActionArguments.maximumValueSize }

    /// Appends `text` (a NUL after it).
    /// - Complexity: O(1) amortized: one 16-byte store.
    @inline(__always)
    func append(_ text: AppendedText) {
        if count + AppendedText.storeWidth > capacity { grow(to: count + AppendedText.storeWidth) }
        text.store(to: UnsafeMutableRawPointer(bytes), at: count)
        count += text.count
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity + 1)
        grown.initialize(from: bytes, count: count + 1)
        bytes.deallocate()
        bytes = grown
        capacity = newCapacity
    }
}
