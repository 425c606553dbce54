import Testing
import UndoCore
import UndoPluginHost
@testable import UndoHostSession

/// One step in each of many documents through undo-host's session: what the session shows per
/// command (the prompt's state, the menu, the view of an undo) reads O(1) steps per document.
/// Counted by how often the history reads a step's document, not by time.
@Suite("Host session scaling")
struct HostSessionScalingTests {
    /// A change in one document that counts how often anything asks which document it is in.
    struct CountingStep: UndoCommand {
        final class Reads { var count = 0 }
        let reads: Reads
        let document: UndoContext
        var name: String? { "Edit" }
        var context: UndoContext {
            reads.count += 1
            return document
        }
        func belongs(to context: UndoContext) -> Bool {
            reads.count += 1
            return document == context
        }
        mutating func perform(_ changes: inout UndoChanges) throws {}
        mutating func undo(_ changes: inout UndoChanges) throws {}
    }

    @Test("doc, a step, the menu and the state in each of N documents, then undo in each: O(N) step reads",
          arguments: [1_000, 10_000])
    func oneStepPerDocument(documents: Int) throws {
        let host = PluginHost()
        let session = HostSession(host: host)
        let reads = CountingStep.Reads()
        for index in 0..<documents {
            #expect(session.run("doc d\(index)")?.error == nil)
            try host.history.withStack { _ = try $0.perform(CountingStep(reads: reads, document: UndoContext("d\(index)"))) }
            #expect(session.run("menu")?.error == nil)
            #expect(session.state.isDirty)
        }
        // A fixed number per document (12 today: doc, perform, menu, state); reading every step for
        // each document would be documents² / 2 (5 × 10^7 at 10^4).
        #expect(reads.count <= 20 * documents, "\(reads.count) step reads for \(documents) documents")
        reads.count = 0
        for index in stride(from: documents - 1, through: 0, by: -1) {
            #expect(session.run("doc d\(index)")?.error == nil)
            let undone = try #require(session.run("undo"))
            #expect(undone.error == nil)
            #expect(!session.state.isDirty)
        }
        #expect(reads.count <= 20 * documents, "\(reads.count) step reads undoing in \(documents) documents")
    }
}
