import FoundationEssentials
import UndoCore

/// A command that a journal can keep: an `UndoCommand` that is `Codable`, under a name that
/// stays the same from one version of the program to the next.
///
/// The journal encodes the command as it is handed to ``UndoStackJournal/perform(_:)`` (before
/// it runs) and, when the journal is reopened, decodes it and performs it again on the new
/// model. Encode what the command needs to perform itself, not the model it changes: a
/// property that refers to the model is left out of the coding keys and found again with
/// ``Swift/Decoder/journalModel(_:)`` while decoding.
///
/// A command that is not `Codable` cannot be handed to the journal: the compiler refuses it.
public protocol UndoJournaledCommand: UndoCommand, Codable {
    /// The name the journal stores the command's type under: stable across versions of the
    /// program (renaming the Swift type must not change it), unique among the registered types.
    static var journalName: String { get }
}

extension Decoder {
    /// The model the journal was opened with, for a command that refers to it.
    /// - Parameter type: the model's type.
    /// - Returns: the model handed to ``UndoStackJournal/init(path:durability:commands:model:makeStack:)``.
    /// - Throws: `DecodingError.dataCorrupted` when the command is decoded outside a journal, or
    ///   the journal's model is of another type.
    public func journalModel<Model>(_ type: Model.Type) throws -> Model {
        guard let box = userInfo[JournalModelBox.key] as? JournalModelBox, let model = box.model as? Model else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath, debugDescription: "the journal's model is not a \(Model.self)"))
        }
        return model
    }
}

/// Carries the app's model to the commands being decoded.
///
/// `@unchecked Sendable`: the decoder's user info must be sendable, and the model is not; the
/// box is only read by the decoder of one replay, on the thread that opened the journal.
final class JournalModelBox: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "org.undohost.journal.model")!
    let model: Any
    init(_ model: Any) { self.model = model }
}
