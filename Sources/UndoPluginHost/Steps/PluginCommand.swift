import Glibc
import Synchronization
import UndoCore
import UndoPluginABI

/// One plugin step in the shared history: an action type with typed arguments and typed
/// inverse arguments, performed and undone through typed C calls (see ``FFIFunction``).
///
/// Make one with ``PluginHost/makeCommand(_:arguments:in:)`` (which checks the arguments) or
/// let ``PluginHost/perform(_:_:in:)`` do it. Its ``description`` is the script line that
/// performs it again: `text.insert 0 "Hello"`.
///
/// **Storage.** A value of 64 bytes: the action type and the step's fields (``PluginStep``:
/// context, arguments, inverse arguments, whether it was performed, its own coalescing key), so
/// a copy of a command (a listing, say) never changes with the original. The history holds a
/// step it keeps in one of its wide slots, in place (no heap block of its own); a keystroke that
/// joins its run is never stored at all.
public struct PluginCommand: UndoCommand, Sendable, CustomStringConvertible {
    /// Strong: a step keeps its action type, and so its plugin record, alive.
    let actionType: ActionType
    private(set) var step: PluginStep

    init(action: ActionType, arguments: [ActionValue], inverseArguments: [ActionValue]? = nil,
         context: UndoContext, performed: Bool = false) {
        self.init(action: action, arguments: ActionValueList(arguments), inverseArguments: inverseArguments,
                  context: context, performed: performed)
    }

    init(action: ActionType, arguments: ActionValueList, inverseArguments: [ActionValue]? = nil,
         context: UndoContext, performed: Bool = false) {
        let inverse = action.inverseSignature == nil ? nil : inverseArguments
        self.actionType = action
        self.step = PluginStep(context: context, values: arguments, inverseArguments: inverse, performed: performed)
        // A step recorded as performed is measured now; one to perform, when it is performed.
        if performed { self.step.measuredCost = self.step.currentCost }
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

    /// Picks the plugin steps of one plugin (an unload asks it of every step): the history
    /// compares each command's type, passes over the others, and hands each plugin step here
    /// read where it is held, not cast, copied or boxed.
    struct StepsOf: UndoCommandOfTypeMatcher {
        let plugin: LoadedPlugin
        func matches(picked command: borrowing PluginCommand) -> Bool { command.actionType.plugin === plugin }
    }

    /// Gives a step made again from a checkpoint what its perform had set
    /// (``PluginHost/restoreHistory(_:)``).
    mutating func restore(description: String?, coalescing: PluginStep.Coalescing) {
        step.description = description
        step.coalescing = coalescing
        step.measuredCost = step.currentCost
    }

    /// The action type's name in the host's locale.
    public var name: String? { actionType.displayName }
    /// The key perform set for this step (`set_coalescing_key`, ABI 1.3), else the action type's;
    /// namespaced by the plugin.
    public var coalescingKey: UndoCoalescingKey? {
        switch step.coalescing {
        case .actionType: actionType.historyCoalescingKey
        case .never: nil
        case .key(let key): key
        }
    }
    /// Compares in place: the key's getter copies it (a retain and a release of a namespaced
    /// key, a heap string, per keystroke of a run).
    public func hasCoalescingKey(_ key: UndoCoalescingKey?) -> Bool {
        step.read { state in
            guard let extras = state.extras else { return actionType.historyCoalescingKey == key }
            switch extras.coalescing {
            case .actionType: return actionType.historyCoalescingKey == key
            case .never: return key == nil
            case .key(let own): return own == key
            }
        }
    }
    /// Compares the two steps' keys in place: steps with their action type's key (the common
    /// case) compare their types first, and their keys only when the types differ.
    public func hasCoalescingKey(of next: PluginCommand) -> Bool {
        let bothTheirTypes = step.read { $0.extras == nil } && next.step.read { $0.extras == nil }
        guard bothTheirTypes else { return hasCoalescingKey(next.coalescingKey) }
        return actionType === next.actionType || actionType.historyCoalescingKey == next.actionType.historyCoalescingKey
    }
    /// The longer description perform (or a merge) gave with `set_description` (ABI 1.7), in
    /// the host's locale; `nil` when it gave none (lists then show the name).
    /// - Complexity: O(1).
    public var historyDescription: String? { step.description }
    /// The perform arguments, labelled with their parameters' names and written as scripts
    /// write them (`position: 3`, `text: "hello"`); ``PluginHost/stepValues(at:)`` gives them
    /// typed, with the inverse arguments.
    /// - Complexity: O(arguments and their sizes).
    public var historyValues: [UndoStepValue] {
        zip(action.signature.parameters, arguments).map { parameter, value in
            UndoStepValue(label: parameter.name, value: value.description)
        }
    }
    public var isDiscardable: Bool { actionType.isDiscardable }
    /// The cost as measured when the step went in (or merged): a redo may hand back inverse
    /// arguments of another size (the document changed outside the history), but the history
    /// does not measure a step again after a redo, so its running total would drift. A step
    /// whose inverse takes its own arguments cannot change size that way: it is measured when
    /// read, the same each time, until a merge measures it.
    public var cost: Int {
        if let fixed = actionType.fixedStepCost { return fixed }
        return step.measuredCost >= 0 ? step.measuredCost : step.currentCost
    }

    public var description: String {
        let arguments = self.arguments
        return arguments.isEmpty ? action.shortID : action.shortID + " " + ActionArguments.format(arguments)
    }

    public mutating func perform(_ changes: inout UndoChanges) throws {
        let action = actionType
        try step.modify { (state: inout PluginStep.State) in
            let wasPerformed = state.performed
            try action.invokePerform(&state, changes: &changes)
            // Measured once, when it first ran, only where a redo could change the size (new
            // inverse arguments): a step whose inverse takes its own arguments keeps its size
            // until a merge (which measures it), so the history reading its cost measures it
            // the same each time (a keystroke joining a run is never measured).
            if !wasPerformed && action.fixedStepCost == nil && action.inverseSignature != nil {
                state.measuredCost = state.currentCost
            }
        }
        // The host is recording this perform (a journal): it keeps the step as it came out.
        // No capture anywhere (no journal open), the common case: no task-local read.
        if PerformedStepCapture.isCapturing, let capture = PerformedStepCapture.current {
            capture.step = record(resolvingCoalescing: true)
        }
    }

    /// The call alone, as a journal replays a step whose perform did not run.
    var call: PluginStepRecord {
        .call(plugin: action.pluginID, pluginVersion: action.plugin.version, action: action.fullID,
              context: context.name, arguments: ActionArguments.format(arguments))
    }

    public mutating func undo(_ changes: inout UndoChanges) throws {
        // The inverse reads the step's values and context where they are: neither is copied
        // (a copy of each was a retain and a release per undo).
        let action = actionType
        try step.read { state in
            if action.inverseSignature == nil {
                try action.invokeInverse(state.arguments, context: state.context, changes: &changes)
            } else if let inverse = state.inverseArguments {
                try action.invokeInverse(inverse, context: state.context, changes: &changes)
            } else {
                throw action.neverPerformed()
            }
        }
    }

    /// Offers `next` to this step: through the action type's merge function, or the append rule
    /// (``ActionType/appendsOnMerge``). `.refused` keeps them as two separate steps.
    public mutating func merge(with next: PluginCommand) -> UndoMerge {
        let decided = decideMerge(with: next)
        // A journal keeps what became of the step it records (a replay checks it again).
        if PerformedStepCapture.isCapturing, let capture = PerformedStepCapture.current {
            capture.merge = decided
        }
        return decided
    }

    private mutating func decideMerge(with next: PluginCommand) -> UndoMerge {
        guard next.actionType === actionType, next.step.context == step.context else { return .refused }
        if actionType.appendsOnMerge {
            // `next`'s values are read where they are held (a copy of a keystroke's list cost
            // about 75 instructions, of its text about 50). `next` is a value of its own (a
            // command pushed twice was copied into the history), so it is read while this step
            // changes.
            return step.modify { state in
                let before = state.measuredCost >= 0 ? state.measuredCost : state.currentCost
                let appended = next.step.read { next in
                    PluginStep.append(next.arguments, inverse: next.inverseArguments, to: &state)
                }
                guard let appended else { return .refused }
                // The history measures a merged step again: it grew by the bytes appended.
                state.measuredCost = before + appended
                return .merged
            }
        }
        guard let merged = actionType.invokeMerge(previous: step, next: next.step) else { return .refused }
        switch merged {
        case .annulled:
            return .annulled
        case .merged(let newStep):
            // Made with the previous step's coalescing key and measured (invokeMerge).
            step = newStep
            return .merged
        }
    }
}

/// Where the one perform a host runs while recording tells the step it made: set for the
/// duration of that perform on its thread (a task-local value), so other performs (redo, other
/// threads) never write to it.
///
/// Invariant: only the thread that made it reads or writes it, inside ``withCapture(_:_:)``'s
/// body on that thread (the history's perform it runs is synchronous, and nothing on the perform
/// path starts a task that would inherit the value). So it needs no lock (a lock was two
/// allocations and a mutex set up for every journaled perform); it is `@unchecked Sendable` only
/// to be a task-local value, and debug builds check the thread on every access.
final class PerformedStepCapture: @unchecked Sendable {
    #if DEBUG
    private let owner = pthread_self()
    private func checkOwner() {
        precondition(pthread_equal(owner, pthread_self()) != 0, "a perform's step capture used on another thread")
    }
    #else
    private func checkOwner() {}
    #endif
    private var _step: PluginStepRecord?
    private var _merge: UndoMerge?
    var step: PluginStepRecord? {
        get { checkOwner(); return _step }
        set { checkOwner(); _step = newValue }
    }
    /// What the history's merge with the step before decided (`nil`: no merge was asked).
    var merge: UndoMerge? {
        get { checkOwner(); return _merge }
        set { checkOwner(); _merge = newValue }
    }
    @TaskLocal static var current: PerformedStepCapture?

    /// How many captures are set, on every thread (see ``withCapture(_:_:)``): while none is,
    /// ``current`` is `nil` on every thread and a perform does not read it. A thread counts its
    /// own capture before setting it, so it never misses it; another thread's count only makes
    /// it read its own `current`, which is `nil`.
    private static let captures = Atomic<Int>(0)

    /// Whether a capture may be set on this thread (a cheap check before reading ``current``).
    static var isCapturing: Bool { captures.load(ordering: .relaxed) > 0 }

    /// Runs `body` with `capture` as ``current`` on this thread.
    static func withCapture<R>(_ capture: PerformedStepCapture, _ body: () throws -> R) rethrows -> R {
        captures.add(1, ordering: .relaxed)
        defer { captures.subtract(1, ordering: .relaxed) }
        return try $current.withValue(capture) { try body() }
    }
}

/// The state of one ``PluginCommand``, a value held in the command itself: a copy of a command
/// (a listing, the history's copy of a step shared outside it) has fields of its own, so a step
/// another command or thread can see is never changed.
///
/// No heap block of its own: a step the history keeps is held, with its action type, in one of
/// the history's wide slots (80 bytes: an existential's three words are too small for it, and
/// would box it), and a step that merges into the one before (a keystroke joining its run) is
/// never stored at all, so neither costs an allocation or a free. The history runs and changes a
/// kept step in its slot, with its own type; a copy of the history copies its steps. A kept
/// step changes only inside one of the history's calls, and UndoCore's record lets no other
/// call in meanwhile (its `RecordStorage` flag): its fields are never seen half changed (the
/// step's own flag, when they sat behind a pointer, is gone).
struct PluginStep: Sendable {
    /// Which coalescing key a step has.
    enum Coalescing: Equatable, Sendable {
        /// The action type's (perform set none).
        case actionType
        /// None: perform set NULL.
        case never
        /// The one perform set, namespaced by the plugin.
        case key(UndoCoalescingKey)
    }

    /// The fields of a step: its context (which never changes) and the mutable ones.
    ///
    /// Laid out in 56 bytes (the small fields fill the arguments' tail), so a command, with its
    /// action type, is 64: what few steps have (a coalescing key of their own, a description)
    /// sits in ``Extras``, allocated only when set.
    struct State: Sendable {
        let context: UndoContext
        var arguments: ActionValueList
        /// Whether perform ran (or the plugin recorded the step): the next perform is a redo.
        var performed: Bool
        /// The cost as the history measured it, or -1 before it went in (see ``measuredCost``).
        fileprivate var storedCost: Int32 = -1
        /// The inverse's own arguments, handed back by perform; `nil` when the inverse takes
        /// perform's arguments, or before perform ran.
        var inverseArguments: [ActionValue]?
        /// The coalescing key and description, when the step has either (`nil`: neither).
        fileprivate var extras: Extras?

        /// What few steps have, shared by copies of a step (immutable: a change stores a new one).
        final class Extras: Sendable {
            let coalescing: Coalescing
            let description: String?
            init(coalescing: Coalescing, description: String?) {
                self.coalescing = coalescing
                self.description = description
            }
        }

        var coalescing: Coalescing {
            get { extras?.coalescing ?? .actionType }
            set { setExtras(coalescing: newValue, description: description) }
        }
        /// The longer description perform or merge gave (set_description, ABI 1.7); `nil`: none.
        var description: String? {
            get { extras?.description }
            set { setExtras(coalescing: coalescing, description: newValue) }
        }

        private mutating func setExtras(coalescing: Coalescing, description: String?) {
            extras = coalescing == .actionType && description == nil
                ? nil : Extras(coalescing: coalescing, description: description)
        }

        /// The cost as the history measured it, or -1 before it went in (a cost beyond
        /// `Int32.max`, which the history counts as that much, is kept as that much).
        var measuredCost: Int {
            get { Int(storedCost) }
            set { storedCost = Int32(clamping: newValue) }
        }

        /// The bytes this step keeps alive, for the memory limit.
        var currentCost: Int {
            var cost = 96 + arguments.storageSize + (description?.utf8.count ?? 0)
            if let inverseArguments { cost += inverseArguments.reduce(0) { $0 + $1.storageSize } }
            return cost
        }
    }

    private var state: State

    init(context: UndoContext, arguments: [ActionValue], inverseArguments: [ActionValue]?, performed: Bool) {
        self.init(context: context, values: ActionValueList(arguments), inverseArguments: inverseArguments,
                  performed: performed)
    }

    init(context: UndoContext, values: ActionValueList, inverseArguments: [ActionValue]?, performed: Bool) {
        state = State(context: context, arguments: values, performed: performed, inverseArguments: inverseArguments)
    }

    /// Runs `body` with the step's fields to read them: one access for everything a call reads.
    @inline(__always)
    func read<R>(_ body: (borrowing State) throws -> R) rethrows -> R { try body(state) }

    /// Runs `body` with the step's fields to change them: one access for everything a call reads
    /// and changes (exclusive, as every change of a value is).
    @inline(__always)
    mutating func modify<R>(_ body: (inout State) throws -> R) rethrows -> R { try body(&state) }

    var context: UndoContext { state.context }
    var arguments: [ActionValue] { state.arguments.array }
    var inverseArguments: [ActionValue]? { state.inverseArguments }
    var performed: Bool { state.performed }
    var coalescing: Coalescing {
        get { state.coalescing }
        set { state.coalescing = newValue }
    }
    var description: String? {
        get { state.description }
        set { state.description = newValue }
    }
    var measuredCost: Int {
        get { state.measuredCost }
        set { state.measuredCost = newValue }
    }

    /// The bytes this step keeps alive, for the memory limit.
    var currentCost: Int { read { $0.currentCost } }

    /// Appends a keystroke (a list of one string value, of a step whose inverse takes perform's)
    /// to `state`, read where it is held: its bytes join the run's byte buffer, no String made
    /// (``ActionValueList/appendOnlyString(of:limit:)``, which refuses a run of another kind).
    /// - Returns: the bytes appended, or `nil` (nothing changed).
    static func append(keystrokeOf keystroke: borrowing ActionValueList, to state: inout State) -> Int? {
        guard state.inverseArguments == nil else { return nil }
        return state.arguments.appendOnlyString(of: keystroke, limit: ActionArguments.maximumValueSize)
    }

    /// The host-side append merge (``ActionType/appendsOnMerge``, `UNDO_MERGE_BY_APPEND`):
    /// appends the next step's last argument to this step's last argument, and likewise the
    /// last inverse argument, in place (the values grow in their own buffers); a keystroke as
    /// ``append(keystrokeOf:to:)`` does.
    /// - Parameters:
    ///   - arguments: the next step's arguments, read where they are held.
    ///   - inverse: the next step's inverse arguments (`nil`: its inverse takes perform's).
    /// - Returns: the bytes appended (to the argument and the inverse argument together), or
    ///   `nil` (nothing changed) unless every other argument of the two is equal and the joined
    ///   values stay within ``ActionArguments/maximumValueSize``.
    // The keystroke's test inlined where a merge asks (a call for it cost about 20 instructions
    // a keystroke), the other values' append apart.
    @inline(__always)
    static func append(_ arguments: ActionValueList, inverse: [ActionValue]?, to state: inout State) -> Int? {
        if inverse == nil, arguments.isOneString { return append(keystrokeOf: arguments, to: &state) }
        return appendValues(arguments, inverse: inverse, to: &state)
    }

    /// ``append(_:inverse:to:)`` of steps other than keystrokes.
    private static func appendValues(_ arguments: ActionValueList, inverse: [ActionValue]?,
                                     to state: inout State) -> Int? {
        let count = state.arguments.count
        guard count > 0, arguments.count == count, (state.inverseArguments == nil) == (inverse == nil) else {
            return nil
        }
        for index in 0..<count - 1 where state.arguments[index] != arguments[index] { return nil }
        // The values that grow are checked where they are changed, through the one access that
        // changes them: a copy read for the check beforehand (of the list or of the value) kept
        // a second reference to the text until after the append in optimized builds, so every
        // append copied the whole text.
        var inverseBytes = 0
        if let nextInverse = inverse {
            guard let size = state.inverseArguments.map({ inverseAppendableSize(nextInverse, to: $0) }) ?? nil else {
                return nil
            }
            inverseBytes = size
        }
        let tail = arguments[count - 1]
        var argumentBytes: Int?
        state.arguments.update(at: count - 1) { last in
            argumentBytes = appendableSize(tail, to: last)
            if argumentBytes != nil { append(tail, to: &last) }
        }
        guard let argumentBytes else { return nil }
        if let nextInverse = inverse {
            let index = nextInverse.count - 1
            append(nextInverse[index], to: &state.inverseArguments![index])
        }
        return argumentBytes + inverseBytes
    }

    /// The size of `next`'s last value when it can be appended to `inverse`'s last value, the
    /// others being equal, else `nil`.
    private static func inverseAppendableSize(_ next: [ActionValue], to inverse: [ActionValue]) -> Int? {
        guard let last = inverse.last, inverse.count == next.count, inverse.dropLast() == next.dropLast() else {
            return nil
        }
        return appendableSize(next[inverse.count - 1], to: last)
    }

    /// The size of `value` when it is a string or bytes value that can be appended to `target`,
    /// else `nil`.
    static func appendableSize(_ value: ActionValue, to target: ActionValue) -> Int? {
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

    /// Appends `value` to `target` (see ``appendableSize(_:to:)``), changed in place (an array
    /// element through its subscript, a list's through ``ActionValueList/update(at:_:)``): the
    /// text or bytes are taken out of `target` while they grow, so their buffer is uniquely
    /// referenced and grows in amortized O(1).
    static func append(_ value: ActionValue, to target: inout ActionValue) {
        switch value {
        case .string(let tail): target.appendText(tail)
        case .bytes(let tail): target.appendBytes(tail)
        default: preconditionFailure("appendableSize was not checked")
        }
    }
}

extension ActionValue {
    /// Appends `tail` to this string value in place (see ``PluginStep/append(_:inverse:to:)``): the
    /// value is set to a number while the text grows, which drops its reference to the text,
    /// so the text is uniquely referenced and grows in its own buffer.
    mutating func appendText(_ tail: String) {
        guard case .string(var text) = self else { preconditionFailure("appendableSize was not checked") }
        self = .i64(0)
        text.append(tail)
        self = .string(text)
    }

    /// Appends `tail` to this bytes value in place, as ``appendText(_:)``.
    mutating func appendBytes(_ tail: [UInt8]) {
        guard case .bytes(var bytes) = self else { preconditionFailure("appendableSize was not checked") }
        self = .i64(0)
        bytes.append(contentsOf: tail)
        self = .bytes(bytes)
    }
}

extension PluginStep.State {
    /// A step's fields before it ran (`inverseArguments` given for a step recorded as done).
    // In an extension, so the memberwise initializer stays: it builds a step in place (an
    // initializer of the type's own made the optimizer build it aside and copy it in).
    init(context: UndoContext, arguments: ActionValueList, inverseArguments: [ActionValue]?, performed: Bool) {
        self.init(context: context, arguments: arguments, performed: performed, inverseArguments: inverseArguments)
    }
}
