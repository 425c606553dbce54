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
        var decodedOperations: [String: JournalOperation] = [:]
        for change in changes {
            func failure(_ what: String) -> JournalError {
                let type = change.commandType.isEmpty ? "" : " of type \"\(change.commandType)\""
                return JournalError(path: path, "change \(change.sequence)\(type) \(what); the journal was not changed")
            }
            let operation: JournalOperation
            if let known = decodedOperations[change.operation] {
                operation = known
            } else {
                do {
                    operation = try decoder.decode(JournalOperation.self, from: Data(change.operation.utf8))
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
            } else if let replayed = operation.operation(on: stack) {
                do {
                    try replayed.apply(to: stack)
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
}
