/// A matcher for ``UndoStack/removeAll(matching:)`` that picks commands of one type only,
/// ``Picked``: the history offers it each command held as that type, read where it is held,
/// and passes over every other command by its type alone.
///
/// A question asked of every step of a large history (a plugin's unload asks it of each)
/// costs, this way, a type comparison and one call a command, where the generic
/// ``UndoCommandMatcher/matches(_:)`` is reached with the command's type opened at run time.
/// Groups and reverts are looked inside as for any matcher, whatever ``Picked`` is.
public protocol UndoCommandOfTypeMatcher: UndoCommandMatcher {
    /// The type of command this matcher can pick.
    associatedtype Picked: UndoCommand
    /// Whether `command` goes. It runs while the history is being changed: it must not touch
    /// the history.
    func matches(picked command: borrowing Picked) -> Bool
}

extension UndoCommandOfTypeMatcher {
    /// Offers a ``Picked`` to ``matches(picked:)``, cast from `C`; a command of any other type
    /// stays. (The history asks it only of a ``Picked`` it holds in an existential, one too
    /// small for a slot of its own or a step of another branch; it reads the others in place.)
    public func matches<C: UndoCommand>(_ command: borrowing C) -> Bool {
        guard C.self == Picked.self, let picked = (copy command) as? Picked else { return false }
        return matches(picked: picked)
    }
}

/// Judges a command where it is held, before its type is opened: a typed matcher's own
/// commands (``UndoCommandOfTypeMatcher``) by a type comparison and one call. A class, made
/// once per removal: the walks hold it in an optional, which an existential made them copy
/// and destroy at every step (about 320 instructions a step).
class HeldCommandJudge {
    /// Whether the command in `slot` goes, when the slot holds the judged type itself; `nil`
    /// when it does not (another type, or an existential: the matcher's generic method judges
    /// it then).
    func judge(_ slot: CommandChunks.Slot) -> Bool? { nil }
}

/// ``HeldCommandJudge`` for a typed matcher. `Picked` is a parameter of its own (always
/// `M.Picked`), found in the judge's own metadata: generic over `M` alone, the judge asked
/// the run time for `M.Picked` at every step (measured on an unload: about 33 instructions a
/// step more; the matcher's method held in a closure instead, about 18 more).
final class PickedCommandJudge<M: UndoCommandOfTypeMatcher, Picked>: HeldCommandJudge where M.Picked == Picked {
    let matcher: M

    init(matcher: M) { self.matcher = matcher }

    override func judge(_ slot: CommandChunks.Slot) -> Bool? {
        slot.readIfHeld(as: Picked.self) { matcher.matches(picked: $0) }
    }
}

/// The judge of `matcher`'s own commands, when it picks one type that is no group's (a group
/// and a revert are looked inside, never offered), else `nil`.
func heldCommandJudge(for matcher: some UndoCommandMatcher) -> HeldCommandJudge? {
    guard let typed = matcher as? any UndoCommandOfTypeMatcher else { return nil }
    func make<T: UndoCommandOfTypeMatcher>(_ typed: T) -> HeldCommandJudge? {
        T.Picked.self == UndoGroup.self || T.Picked.self == InvertedCommand.self ? nil : PickedCommandJudge<T, T.Picked>(matcher: typed)
    }
    return make(typed)
}
