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

/// Closing documents: each close removes its document from the session's index instead of
/// rebuilding it, so closing n documents copies O(n) entries in all, in any order.
@Suite("Document list scaling")
struct DocumentListScalingTests {
    @Test("closing N documents, oldest first or newest first, moves at most 2N entries",
          arguments: [1_000, 10_000])
    func closingManyDocumentsIsLinear(documents: Int) throws {
        for oldestFirst in [true, false] {
            let session = HostSession(host: PluginHost())
            for index in 0..<documents { #expect(session.run("doc d\(index)")?.error == nil) }
            let order = oldestFirst ? Array(0..<documents) : Array((0..<documents).reversed())
            for index in order { #expect(session.run("close d\(index)")?.error == nil) }
            // A rebuild per close would copy documents² / 2 entries (5 × 10^7 at 10^4).
            #expect(session.documents.entriesMoved <= 2 * documents,
                    "\(session.documents.entriesMoved) entries moved closing \(documents) documents")
            #expect(session.documents.map(\.name) == ["untitled"])
        }
    }

    @Test func closingKeepsTheOrderTheOthersWereOpenedIn() throws {
        var list = DocumentList()
        for index in 0..<100 { list.append("d\(index)") }
        list.note("d7", usedBy: "canvas")
        list.note("d7", usedBy: "canvas")
        list.note("new", usedBy: "text")
        var removed = 0
        for index in 0..<100 where index % 3 != 1 && list.remove("d\(index)") { removed += 1 }
        let removedAgain = list.remove("d0")
        #expect(removed == 67 && !removedAgain)
        #expect(list.map(\.name) == (0..<100).filter { $0 % 3 == 1 }.map { "d\($0)" } + ["new"])
        #expect(list.plugins(of: "d7") == ["canvas"] && list.plugins(of: "new") == ["text"])
        #expect(list.plugins(of: "d0").isEmpty && !list.contains("d0") && list.contains("d1"))
        #expect(list.last?.name == "new")
        let removedNew = list.remove("new")
        #expect(removedNew && list.last?.name == "d97")
        list.forget(plugin: "canvas")
        #expect(list.plugins(of: "d7").isEmpty)
        list.append("d0")
        #expect(list.last?.name == "d0" && list.contains("d0"))
    }
}
