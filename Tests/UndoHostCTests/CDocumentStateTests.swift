import Foundation
import Testing

/// Saving a document's state as bytes and loading it back from C (Fixtures/document_state.c).
@Suite struct CDocumentStateTests {
    @Test func documentStatesSaveAndLoadFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/document_state.c"])
        let journal = NSTemporaryDirectory() + "/document-state-\(UUID().uuidString).undojournal"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: journal + suffix) } }
        let result = try CProgram.run(program, [CProgram.products, journal])
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks)", "the program stopped early: \(result.errors)")
        #expect(checks >= 45)
        #expect(result.status == 0, "\(result.errors)")
    }
}
