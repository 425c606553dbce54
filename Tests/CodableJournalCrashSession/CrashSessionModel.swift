import FoundationEssentials
import UndoCodableJournal
import UndoCore

/// The session's model: named documents of text.
final class Documents {
    var texts: [String: String] = [:]
    func text(_ name: String) -> String { texts[name, default: ""] }
}

/// Types text at an offset; inserts that continue the previous one coalesce into one "Typing" step.
struct TypeText: UndoJournaledCommand {
    static let journalName = "crash.type"
    let documents: Documents
    var document: String
    var offset: Int
    var text: String
    var coalesces: Bool

    init(_ documents: Documents, _ document: String, at offset: Int, _ text: String, coalesces: Bool) {
        self.documents = documents
        self.document = document
        self.offset = offset
        self.text = text
        self.coalesces = coalesces
    }

    enum CodingKeys: CodingKey { case document, offset, text, coalesces }

    init(from decoder: any Decoder) throws {
        documents = try decoder.journalModel(Documents.self)
        let values = try decoder.container(keyedBy: CodingKeys.self)
        document = try values.decode(String.self, forKey: .document)
        offset = try values.decode(Int.self, forKey: .offset)
        text = try values.decode(String.self, forKey: .text)
        coalesces = try values.decode(Bool.self, forKey: .coalesces)
    }

    var name: String? { "Typing" }
    var context: UndoContext { UndoContext(document) }
    var coalescingKey: UndoCoalescingKey? { coalesces ? UndoCoalescingKey("typing " + document) : nil }

    func perform(_ changes: inout UndoChanges) throws {
        var characters = Array(documents.text(document))
        guard offset <= characters.count else { throw SessionFailure("typing past the end of \(document)") }
        characters.insert(contentsOf: text, at: offset)
        documents.texts[document] = String(characters)
    }

    func undo(_ changes: inout UndoChanges) throws {
        var characters = Array(documents.text(document))
        characters.removeSubrange(offset..<offset + text.count)
        documents.texts[document] = String(characters)
    }

    mutating func merge(with next: TypeText) -> UndoMerge {
        guard next.document == document, next.offset == offset + text.count else { return .refused }
        text += next.text
        return .merged
    }
}

/// Deletes characters; what it removes is found when it runs.
struct DeleteText: UndoJournaledCommand {
    static let journalName = "crash.delete"
    let documents: Documents
    var document: String
    var offset: Int
    var count: Int
    var removed = ""

    init(_ documents: Documents, _ document: String, at offset: Int, count: Int) {
        self.documents = documents
        self.document = document
        self.offset = offset
        self.count = count
    }

    enum CodingKeys: CodingKey { case document, offset, count }

    init(from decoder: any Decoder) throws {
        documents = try decoder.journalModel(Documents.self)
        let values = try decoder.container(keyedBy: CodingKeys.self)
        document = try values.decode(String.self, forKey: .document)
        offset = try values.decode(Int.self, forKey: .offset)
        count = try values.decode(Int.self, forKey: .count)
    }

    var name: String? { "Delete" }
    var context: UndoContext { UndoContext(document) }

    mutating func perform(_ changes: inout UndoChanges) throws {
        var characters = Array(documents.text(document))
        guard offset + count <= characters.count else { throw SessionFailure("deleting past the end of \(document)") }
        removed = String(characters[offset..<offset + count])
        characters.removeSubrange(offset..<offset + count)
        documents.texts[document] = String(characters)
    }

    func undo(_ changes: inout UndoChanges) throws {
        var characters = Array(documents.text(document))
        characters.insert(contentsOf: removed, at: offset)
        documents.texts[document] = String(characters)
    }
}

struct SessionFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
