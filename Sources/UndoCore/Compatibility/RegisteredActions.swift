/// A step recorded in the UndoManager style: closures that take a change back. Running them
/// registers their own inverses, which become the closures for the other direction.
final class RegisteredActions: UndoCommand {
    struct Handler {
        var target: ObjectIdentifier?
        var run: () -> Void
    }

    var handlers: [Handler]
    var name: String?
    unowned let manager: UndoManager

    init(handlers: [Handler], name: String?, manager: UndoManager) {
        self.handlers = handlers
        self.name = name
        self.manager = manager
    }

    var cost: Int { 48 + handlers.count * 48 }

    func undo(_ changes: inout UndoChanges) throws { manager.run(self, as: .undoing) }
    func perform(_ changes: inout UndoChanges) throws { manager.run(self, as: .redoing) }
}
