import Foundation
import Testing

/// Saving a document's state as bytes and loading it back from C (Fixtures/document_state.c).
@Suite struct CDocumentStateTests {
    @Test func documentStatesSaveAndLoadFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/document_state.c"])
        let result = try CProgram.run(program, [CProgram.products])
        let lines = result.output.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("not ok") {
            Issue.record(Comment(rawValue: failure))
        }
        let checks = lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count
        #expect(lines.last == "done \(checks)", "the program stopped early: \(result.errors)")
        #expect(checks >= 30)
        #expect(result.status == 0, "\(result.errors)")
    }
}
