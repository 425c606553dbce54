import FoundationEssentials
import UndoCore
import UndoJournal

extension UndoStackJournal {
    /// Performs `changes` again on `stack` (and so on the model its commands find), each at the
    /// time it was first made.
    /// - Throws: `JournalError` naming the first change that cannot be replayed.
    /// - Complexity: O(changes), each command decoded once (each distinct operation text once)
    ///   and replayed as the call that made it.
    static func replay(_ changes: [StoredChange], into stack: UndoStack, clock: JournalClock,
                       registry: [String: any UndoJournaledCommand.Type], model: Any, path: String) throws(JournalError) {
        let decoder = JSONDecoder()
        decoder.userInfo[JournalModelBox.key] = JournalModelBox(model)
        defer { clock.resume() }
        // Most changes repeat a few operations ("perform", "undo 1"): each text is decoded once.
        var decodedOperations: [String: StackOperation] = [:]
        for change in changes {
            func failure(_ what: String) -> JournalError {
                let type = change.commandType.isEmpty ? "" : " of type \"\(change.commandType)\""
                return JournalError(path: path, "change \(change.sequence)\(type) \(what); the journal was not changed")
            }
            let operation: StackOperation
            if let known = decodedOperations[change.operation] {
                operation = known
            } else {
                do {
                    operation = try decoder.decode(StackOperation.self, from: Data(change.operation.utf8))
                } catch {
                    throw failure("is not a change this version knows (\(change.operation))")
                }
                decodedOperations[change.operation] = operation
            }
            clock.replaying(at: change.time)
            if operation.carriesCommand {
                guard let type = registry[change.commandType] else {
                    throw failure("cannot be replayed: the command type is not registered (register it in `commands:`)")
                }
                do {
                    try replayCommand(type, change.command, into: stack, decoder: decoder)
                } catch let error as CommandDecodingFailure {
                    throw failure("cannot be decoded: \(error.underlying)")
                } catch {
                    throw failure("cannot be performed again: \(error)")
                }
            } else {
                do {
                    try replay(operation, on: stack)
                } catch {
                    throw failure("(\(change.operation)) cannot be replayed: \(error)")
                }
            }
        }
    }

    /// A command that could not be decoded (told apart from one that failed to perform).
    struct CommandDecodingFailure: Error { var underlying: any Error }

    /// Decodes a command of `type` and performs it (a recorded command too: its perform redoes
    /// the change on the new model).
    private static func replayCommand<C: UndoJournaledCommand>(_ type: C.Type, _ json: String, into stack: UndoStack,
                                                              decoder: JSONDecoder) throws {
        let command: C
        do {
            command = try decoder.decode(C.self, from: Data(json.utf8))
        } catch {
            throw CommandDecodingFailure(underlying: error)
        }
        try stack.perform(command)
    }

    /// Makes a journaled call again (one without a command).
    static func replay(_ operation: StackOperation, on stack: UndoStack) throws {
        func context(_ name: String?) -> UndoContext? { name.map(UndoContext.init) }
        switch operation {
        case .perform, .record:
            preconditionFailure("a command's change is replayed with its command")
        case .undo(let count, .current): try stack.undo(count: count)
        case .undo(let count, .whole): try stack.undo(count: count, in: nil)
        case .undo(let count, .context(let name)): try stack.undo(count: count, in: UndoContext(name))
        case .redo(let count, .current): try stack.redo(count: count)
        case .redo(let count, .whole): try stack.redo(count: count, in: nil)
        case .redo(let count, .context(let name)): try stack.redo(count: count, in: UndoContext(name))
        case .move(let position): try stack.move(to: position)
        case .goTo(let state): try stack.goTo(state: state)
        case .travelFoundNoState: break
        case .beginGroup(let name, let group): try stack.beginGroup(named: name, context: context(group))
        case .endGroup: try stack.endGroup()
        case .cancelGroup: try stack.cancelGroup()
        case .breakCoalescing: stack.breakCoalescing()
        case .markSaved(let name): try stack.markSaved(context(name))
        case .forgetSavePoint(let name): try stack.forgetSavePoint(context(name))
        case .revertToSaved(let name, let title): try stack.revertToSaved(context(name), named: title)
        case .countLimit(let limit): stack.countLimit = limit
        case .memoryLimit(let limit): stack.memoryLimit = limit
        case .coalescingWindow(let seconds?, let attoseconds?):
            stack.coalescingWindow = Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
        case .coalescingWindow: stack.coalescingWindow = nil
        case .currentContext(let name): stack.currentContext = context(name)
        case .pauseRecording: stack.pauseRecording()
        case .resumeRecording: stack.resumeRecording()
        case .removeAll(let name?): try stack.removeAll(in: UndoContext(name))
        case .removeAll(nil): try stack.removeAll()
        }
    }
}
