import FoundationEssentials
import UndoCodableJournal
import UndoCore

/// The model of the tests: named documents of text, and how often the journal decoded and
/// performed commands on it (what the linearity test counts).
final class Documents {
    var texts: [String: String] = [:]
    var decodes = 0
    var performs = 0
    /// Texts whose insert fails to be performed, or undone (to make an action fail on purpose).
    var failPerform: Set<String> = []
    var failUndo: Set<String> = []

    func text(_ document: String) -> String { texts[document, default: ""] }
}

/// Inserts text; consecutive inserts at the end of the previous one coalesce into "Typing".
struct InsertText: UndoJournaledCommand {
    static let journalName = "test.insert-text"
    let documents: Documents
    var document: String
    var offset: Int
    var text: String
    var coalesces = true

    init(_ documents: Documents, _ document: String, at offset: Int, _ text: String, coalesces: Bool = true) {
        self.documents = documents
        self.document = document
        self.offset = offset
        self.text = text
        self.coalesces = coalesces
    }

    enum CodingKeys: String, CodingKey { case document, offset, text, coalesces }

    init(from decoder: any Decoder) throws {
        documents = try decoder.journalModel(Documents.self)
        let values = try decoder.container(keyedBy: CodingKeys.self)
        document = try values.decode(String.self, forKey: .document)
        offset = try values.decode(Int.self, forKey: .offset)
        text = try values.decode(String.self, forKey: .text)
        coalesces = try values.decode(Bool.self, forKey: .coalesces)
        documents.decodes += 1
    }

    var name: String? { "Typing" }
    var context: UndoContext { UndoContext(document) }
    var coalescingKey: UndoCoalescingKey? { coalesces ? UndoCoalescingKey("typing " + document) : nil }

    func perform(_ changes: inout UndoChanges) throws {
        if documents.failPerform.contains(text) { throw TestFailure("perform of \(text) fails") }
        var characters = Array(documents.text(document))
        guard offset <= characters.count else { throw TestFailure("insert past the end") }
        characters.insert(contentsOf: text, at: offset)
        documents.texts[document] = String(characters)
        documents.performs += 1
    }

    func undo(_ changes: inout UndoChanges) throws {
        if documents.failUndo.contains(text) { throw TestFailure("undo of \(text) fails") }
        var characters = Array(documents.text(document))
        characters.removeSubrange(offset..<offset + text.count)
        documents.texts[document] = String(characters)
    }

    mutating func merge(with next: InsertText) -> UndoMerge {
        guard next.offset == offset + text.count else { return .refused }
        text += next.text
        return .merged
    }
}

/// Deletes a range; the text it removes is found when it runs (state a command gains in perform).
struct DeleteText: UndoJournaledCommand {
    static let journalName = "test.delete-text"
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

    enum CodingKeys: String, CodingKey { case document, offset, count }

    init(from decoder: any Decoder) throws {
        documents = try decoder.journalModel(Documents.self)
        let values = try decoder.container(keyedBy: CodingKeys.self)
        document = try values.decode(String.self, forKey: .document)
        offset = try values.decode(Int.self, forKey: .offset)
        count = try values.decode(Int.self, forKey: .count)
        documents.decodes += 1
    }

    var name: String? { "Delete" }
    var context: UndoContext { UndoContext(document) }

    mutating func perform(_ changes: inout UndoChanges) throws {
        var characters = Array(documents.text(document))
        removed = String(characters[offset..<offset + count])
        characters.removeSubrange(offset..<offset + count)
        documents.texts[document] = String(characters)
        documents.performs += 1
    }

    func undo(_ changes: inout UndoChanges) throws {
        var characters = Array(documents.text(document))
        characters.insert(contentsOf: removed, at: offset)
        documents.texts[document] = String(characters)
    }
}

/// A command stored under the insert's name with other fields: its JSON does not decode as one.
struct Impostor: UndoJournaledCommand {
    static let journalName = "test.insert-text"
    var size: Double
    func perform(_ changes: inout UndoChanges) throws {}
    func undo(_ changes: inout UndoChanges) throws {}
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
