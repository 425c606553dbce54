import Foundation
import Testing

/// Saving a document's state as bytes and loading it back from C (Fixtures/document_state.c).
@Suite struct CDocumentStateTests {
    @Test func documentStatesSaveAndLoadFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/document_state.c"])
        let journal = NSTemporaryDirectory() + "/document-state-\(UUID().uuidString).undojournal"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: journal + suffix) } }
        let checks = try CProgram.runChecks(program, [CProgram.products, journal]).checks
        #expect(checks >= 45)
    }
}
