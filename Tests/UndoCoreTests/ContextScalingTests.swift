import Testing
@testable import UndoCore

/// Asking about one document must not read the other documents' steps: counted by how often
/// the history reads a step's context, not by time.
@Suite struct ContextScaling {
    /// A change in one document that counts how often the history asks which document it is in.
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

    @Test("One step in each of many documents: each document's state reads O(1) steps",
          arguments: [1_000, 10_000])
    func oneStepPerDocument(documents: Int) throws {
        let reads = CountingStep.Reads()
        let stack = UndoStack()
        for index in 0..<documents {
            let document = UndoContext("doc \(index)")
            // What a host shows for a document it switches to, before and after a change.
            stack.currentContext = document
            #expect(!stack.canUndo && !stack.canRedo && !stack.isDirty())
            _ = stack.undoMenuTitle
            try stack.perform(CountingStep(reads: reads, document: document))
            #expect(stack.canUndo && stack.isDirty())
            _ = stack.undoMenuTitle
        }
        // Quadratic reading would be documents² / 2 (5 × 10^7 for 10^4 documents).
        #expect(reads.count <= 10 * documents, "\(reads.count) context reads for \(documents) documents")
        // Undoing every document's step, each in its own document, stays linear too.
        reads.count = 0
        for index in stride(from: documents - 1, through: 0, by: -1) {
            stack.currentContext = UndoContext("doc \(index)")
            try stack.undo()
            #expect(!stack.canUndo && stack.canRedo)
        }
        #expect(reads.count <= 10 * documents, "\(reads.count) context reads undoing \(documents) documents")
        stack.checkInvariants()
    }
}
