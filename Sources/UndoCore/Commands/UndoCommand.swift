/// A change that the history can take back and do again: the step-object shape of an action
/// (Qt's `QUndoCommand`, the Rust crate `undo`'s `Edit`).
///
/// A command is usually a small struct that holds a reference to the model it changes and the
/// values it needs (a struct of up to three words is stored inline in the history, with no
/// allocation of its own). The history calls ``perform(_:)`` when the command is pushed and on
/// every redo, and ``undo(_:)`` to take it back.
///
/// Actions run on the thread that called the history (see ``UndoStack``); they must not call
/// back into the same history (that is refused with ``UndoError/reentrantCall(_:)``), and neither
/// may the command's properties, which the history reads while it works on its steps.
/// Reading a property must change nothing: the history reads them as often as it needs them,
/// and not at all when their value would go unused (an ignored ``UndoResult``, say).
public protocol UndoCommand {
    /// The brief name of the change, as the Undo menu shows it after "Undo " ("Typing", "Bold");
    /// `nil` for an unnamed step (the menu then says plain "Undo"). Raw, not yet title-cased:
    /// the history's ``UndoTitleFormatter`` formats it.
    var name: String? { get }

    /// A longer description of the change for a history list, beside the brief ``name`` of the
    /// menu (Qt's text beside its action text): `Typing "hello"` for the name "Typing". Written
    /// in the language of the app's titles, like the name; `nil` (the default) lets lists show
    /// the name. Raw: ``UndoTitleFormatter/historyText(name:description:)`` shapes it.
    var historyDescription: String? { get }

    /// Whatever the command chooses to show of its values in a history list, as labelled
    /// texts in the order to show them (`position: 3`, `text: "hello"`). Defaults to none.
    /// Read only when a list asks for it (``UndoStack/historyValues(at:)``).
    var historyValues: [UndoStepValue] { get }

    /// The document or target this change belongs to. Defaults to ``UndoContext/global``.
    var context: UndoContext { get }

    /// Whether this step belongs to `context`: ``context`` `==` `context`. The history asks
    /// on every change that may join the newest step (each keystroke of a typing run); a
    /// command whose context the getter would copy can answer in place. Defaults to comparing
    /// ``context``.
    func belongs(to context: UndoContext) -> Bool

    /// An estimate of the bytes this step keeps alive, for the memory limit. Defaults to the
    /// command's inline size.
    var cost: Int { get }

    /// Consecutive commands with the same non-nil key, pushed within the coalescing window,
    /// become one step (see ``merge(with:)``). Defaults to `nil`: never coalesced.
    var coalescingKey: UndoCoalescingKey? { get }

    /// Whether this step's ``coalescingKey`` is `key` (`nil`: it has none). The history asks
    /// on every change that may join the newest step (each keystroke of a typing run); a
    /// command whose key the getter would copy can answer in place. Defaults to comparing
    /// ``coalescingKey``.
    func hasCoalescingKey(_ key: UndoCoalescingKey?) -> Bool

    /// Whether this step and `next`, a change of the same type, have the same
    /// ``coalescingKey``. The history asks this of the newest step when `next` has a key and may
    /// join it (each keystroke of a typing run); a command whose key the getter would copy can
    /// compare the two in place. Defaults to ``hasCoalescingKey(_:)`` with `next`'s key.
    func hasCoalescingKey(of next: Self) -> Bool

    /// A discardable step (a selection change, say) is undoable but does not make its context
    /// dirty. Defaults to `false`.
    var isDiscardable: Bool { get }

    /// Applies the change. Called once when pushed with ``UndoStack/perform(_:)`` and again on
    /// every redo. Throwing means nothing was changed.
    /// - Parameter changes: where to report the places this call changed (for results).
    mutating func perform(_ changes: inout UndoChanges) throws

    /// Takes the change back. Throwing means nothing was changed.
    mutating func undo(_ changes: inout UndoChanges) throws

    /// Offers the next command with the same coalescing key to this one, the previous step.
    /// Return ``UndoMerge/merged`` after absorbing it (this step now undoes both),
    /// ``UndoMerge/annulled`` when together they change nothing (both steps vanish), or
    /// ``UndoMerge/refused`` (the default) to keep them as two steps; a refusal must leave
    /// this command unchanged. `next` has already been performed when this is called.
    mutating func merge(with next: Self) -> UndoMerge
}

extension UndoCommand {
    public var name: String? { nil }
    public var historyDescription: String? { nil }
    public var historyValues: [UndoStepValue] { [] }
    public var context: UndoContext { .global }
    public func belongs(to context: UndoContext) -> Bool { self.context == context }
    public var cost: Int { MemoryLayout<Self>.size }
    public var coalescingKey: UndoCoalescingKey? { nil }
    public func hasCoalescingKey(_ key: UndoCoalescingKey?) -> Bool { coalescingKey == key }
    public func hasCoalescingKey(of next: Self) -> Bool { hasCoalescingKey(next.coalescingKey) }
    public var isDiscardable: Bool { false }
    public mutating func merge(with next: Self) -> UndoMerge { .refused }
}

/// One value of a step as a history list shows it (``UndoCommand/historyValues``): a label and
/// the value as text, both in the app's language.
public struct UndoStepValue: Sendable, Hashable {
    /// What the value is: `position`, `colour`.
    public var label: String
    /// The value as text: `3`, `"hello"`.
    public var value: String

    /// Makes a labelled value.
    /// - Parameters:
    ///   - label: what the value is (`position`).
    ///   - value: the value as text (`3`).
    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}

/// What ``UndoCommand/merge(with:)`` did with the next command.
public enum UndoMerge: Sendable, Equatable {
    /// The previous step absorbed the next one.
    case merged
    /// The two cancel out: both vanish from the history.
    case annulled
    /// Not merged: the two stay separate steps (and the next change starts a new run from
    /// the second).
    case refused
}

/// Identifies a run of incremental changes that coalesce into one step ("Typing" in one document).
public struct UndoCoalescingKey: Hashable, Sendable {
    public var rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The document or target a step belongs to. Steps of different contexts share one history but
/// can be undone, listed and removed per context.
public struct UndoContext: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public init(_ name: String) { self.name = name }
    /// The context of steps that belong to no particular document.
    public static var global: UndoContext { UndoContext("") }
    public var description: String { name }
}

/// A place that an action changed, as the action reports it, so the app can scroll to it and
/// highlight it after an undo or redo.
public struct UndoChange: Hashable, Sendable {
    public var context: UndoContext
    /// Where in the context (an offset, an object id); `nil` when the whole context changed.
    public var location: Int64?
    /// How much from `location` (a length); `nil` for a point or an object.
    public var length: Int64?
    public init(context: UndoContext, location: Int64? = nil, length: Int64? = nil) {
        self.context = context
        self.location = location
        self.length = length
    }
}

/// Collects the places an action changed while it runs.
public struct UndoChanges: Sendable {
    /// The places reported, in order; `nil` until the first one. Most actions report none, so
    /// an empty collector holds no array: making and dropping one (on every perform, undo and
    /// redo) costs no call into the run time.
    @usableFromInline
    var reported: [UndoChange]?
    /// Every place reported, in order.
    public var all: [UndoChange] { reported ?? [] }
    @inlinable
    public init() { reported = nil; obsoleteMarks = 0 }
    /// Whether nothing was reported.
    public var isEmpty: Bool { reported?.isEmpty ?? true }
    /// Reports one changed place.
    public mutating func report(_ change: UndoChange) {
        if reported == nil { reported = [change] } else { reported!.append(change) }
    }
    /// Reports a changed range in a context.
    public mutating func report(context: UndoContext, location: Int64? = nil, length: Int64? = nil) {
        report(UndoChange(context: context, location: location, length: length))
    }
    /// Reports every place `other` holds, after these.
    public mutating func report(contentsOf other: UndoChanges) {
        guard let more = other.reported, !more.isEmpty else { return }
        if reported == nil { reported = more } else { reported!.append(contentsOf: more) }
    }
    /// Every place reported, moved out (none are left): for a result built once, without a copy.
    mutating func takeAll() -> [UndoChange] {
        guard reported != nil else { return [] }
        var taken: [UndoChange]? = nil
        swap(&taken, &reported)
        return taken!
    }

    /// How often ``markObsolete()`` was called through this value.
    @usableFromInline
    var obsoleteMarks: Int
    /// Whether the running action found that its step changes nothing any more.
    @inlinable
    public var isObsolete: Bool { obsoleteMarks > 0 }
    /// Says that the step being performed, undone or redone changes nothing any more (Qt's
    /// `QUndoCommand::setObsolete`): the history then lets it go. Marked on perform, the
    /// command is not recorded; on undo or redo, the step leaves the history after it ran,
    /// and the position, the titles and the save point stay right. In a group, the group
    /// goes only when every member marks itself obsolete. Jumps across branches
    /// (``UndoStack/goTo(state:)``, `earlier`, `later`) and a revert keep the step.
    public mutating func markObsolete() { obsoleteMarks += 1 }
}
