import Testing
import UndoCore
import UndoPluginABI
import UndoPluginHost

/// A Swift plugin's documents saved as bytes and loaded back through the kit (saveDocument and
/// loadDocument, ABI 1.7 save_document and load_document), with the Swift notes plugin.
@Suite struct SwiftNotesDocumentStateTests {
    let host: PluginHost
    let notesID = "org.undohost.notes"

    init() throws {
        (host, _) = SwiftPluginFixtures.makeHost()
        try host.load(file: SwiftPluginFixtures.notes)
    }

    func notes(_ context: String) throws -> String { try host.describe(UndoContext(context), plugin: notesID) }

    @Test func notesSaveAndLoadBack() throws {
        let list = UndoContext("list")
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: list)
        try host.perform("notes.write", [.string("Brot für 🍞"), .i32(-1)], in: list)
        #expect(try host.canSaveDocuments(plugin: notesID))
        let bytes = try #require(try host.saveDocumentState(plugin: notesID, context: list))
        #expect(Array(bytes.prefix(8)) == Array("UHN".utf8) + [1, 2, 0, 0, 0])

        try host.closeContext(list)
        #expect(try notes("list") == "")
        try host.loadDocumentState(bytes, plugin: notesID, context: list)
        #expect(try notes("list") == "#0 [2] Milk\n#1 [-1] Brot für 🍞")
        try host.loadDocumentState(bytes, plugin: notesID, context: UndoContext("copy"))
        #expect(try host.saveDocumentState(plugin: notesID, context: UndoContext("copy")) == bytes)
    }

    /// Over the host's first 4 KiB buffer: the kit reports the full length and writes the
    /// bytes on the host's second call.
    @Test func aLongDocumentSavesWhole() throws {
        let long = String(repeating: "note text ", count: 1_000)
        try host.perform("notes.write", [.string(long), .i32(0)], in: .global)
        let bytes = try #require(try host.saveDocumentState(plugin: notesID, context: .global))
        #expect(bytes.count == 8 + 8 + long.utf8.count)
        try host.loadDocumentState(bytes, plugin: notesID, context: UndoContext("other"))
        #expect(try notes("other") == "#0 [0] " + long)
    }

    @Test func bytesThatAreNotNotesAreRefusedWithTheReason() throws {
        func refusal(_ bytes: [UInt8]) -> PluginActionError? {
            do {
                try host.loadDocumentState(bytes, plugin: notesID, context: UndoContext("x"))
            } catch .actionFailed(let failure) {
                return failure
            } catch {
                Issue.record("unexpected \(error)")
            }
            return nil
        }
        #expect(refusal([1, 2, 3])?.message == "these bytes are not saved notes")
        #expect(refusal(Array("UHN".utf8) + [9, 0, 0, 0, 0])?.message.contains("format version 9") == true)
        #expect(refusal(Array("UHN".utf8) + [1, 1, 0, 0, 0])?.message == "the saved notes end too early")
        let invalidUTF8 = Array("UHN".utf8) + [1, 1, 0, 0, 0] + [0, 0, 0, 0] + [1, 0, 0, 0] + [0xFF]
        let failure = refusal(invalidUTF8)
        #expect(failure?.message == "a saved note's text is not UTF-8 without NUL bytes")
        #expect(failure?.code == Int32(UNDO_EINVAL))
        #expect(failure?.phase == .load)
        #expect(try notes("x") == "")
    }
}
