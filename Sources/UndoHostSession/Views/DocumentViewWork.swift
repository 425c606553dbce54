import Synchronization

/// How much reading the document views did: scalars of descriptions and highlights looked at.
/// Tests set one for a task (`DocumentViewWork.$current.withValue`) and check the total stays
/// linear in the text and the changes (undo all of 10^5 steps once read the whole text per
/// change); outside tests nobody counts and the cost is one task-local read per view.
final class DocumentViewWork: Sendable {
    @TaskLocal static var current: DocumentViewWork?

    private let units = Atomic<Int>(0)

    /// Scalars and highlights read so far.
    var total: Int { units.load(ordering: .relaxed) }

    /// Adds `count` units to the counter of the current task, if it has one.
    static func note(_ count: Int) {
        current?.units.add(count, ordering: .relaxed)
    }
}
