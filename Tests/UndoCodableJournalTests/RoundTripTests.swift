import Glibc
import Testing
@testable import UndoCodableJournal
import UndoCore
import UndoJournal

@Suite("A history journal reopens to the same history and model")
struct RoundTripTests {
    @Test("a new file starts empty")
    func newFileStartsEmpty() throws {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: documents)
        #expect(journal.restoredCount == 0)
        #expect(journal.stack.treeCount == 0)
        #expect(JournalFiles.exists(path))
        journal.close()
        let reopened = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: Documents())
        #expect(reopened.restoredCount == 0)
    }

    @Test("branches, groups, saves, undo and redo come back equal", arguments: UndoStackJournal.Durability.allCases)
    func sessionComesBack(durability: UndoStackJournal.Durability) throws {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, durability: durability, commands: JournalFiles.commands, model: documents)
        try SampleSession.run(journal, documents)
        let original = HistorySnapshot(journal, documents)
        #expect(original.tree.contains { $0.branch > 0 })              // the session made a branch
        #expect(original.groupDepth == 1)
        #expect(documents.texts["scratch"] == "not a step")
        journal.close()
        #expect(!JournalFiles.exists(path + "-wal"))                   // the last close checkpointed the WAL

        let fresh = Documents()
        let reopened = try UndoStackJournal(path: path, durability: durability, commands: JournalFiles.commands, model: fresh)
        #expect(reopened.restoredCount > 30)
        #expect(HistorySnapshot(reopened, fresh) == original)

        // It goes on from there, and a second reopening has both sessions.
        try reopened.endGroup()
        try reopened.undo(count: 3, in: nil)
        try reopened.perform(InsertText(fresh, "a", at: 0, "new branch "))
        try reopened.earlier(.saves(1))
        let continued = HistorySnapshot(reopened, fresh)
        reopened.close()
        let third = Documents()
        let again = try UndoStackJournal(path: path, durability: durability, commands: JournalFiles.commands, model: third)
        #expect(HistorySnapshot(again, third) == continued)
        // The replayed history behaves as the original: redo along the same branch.
        try again.later(.states(1))
        try again.undo(in: nil)
        #expect(again.stack.currentState != 0)
    }

    /// Found by the crash test: a travel that finds no state changes nothing, so typing after it
    /// still joins the step before; kept as `goTo` the current state, its replay ended the run.
    @Test("a travel that finds no state leaves coalescing as it was, on replay too")
    func travelToNowhereKeepsCoalescing() throws {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: documents,
                                           makeStack: { UndoStack(coalescingWindow: nil, clock: $0) })
        try journal.perform(InsertText(documents, "a", at: 0, "Hel"))
        #expect(try journal.later(.states(1)) == nil)        // already the newest state
        try journal.perform(InsertText(documents, "a", at: 3, "lo"))
        #expect(journal.stack.treeCount == 1)                 // one Typing step: "Hello"
        let original = HistorySnapshot(journal, documents)
        journal.close()
        let fresh = Documents()
        let reopened = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: fresh,
                                            makeStack: { UndoStack(coalescingWindow: nil, clock: $0) })
        #expect(HistorySnapshot(reopened, fresh) == original)
        #expect(reopened.stack.treeCount == 1)
    }

    @Test("each step keeps the time it was first made")
    func timesSurvive() throws {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: documents)
        for word in ["one", " two", " three"] {
            try journal.perform(InsertText(documents, "a", at: documents.text("a").count, word, coalesces: false))
            usleep(2000)
        }
        let times = journal.stack.tree.map(\.time)
        #expect(times == times.sorted() && Set(times).count == 3)
        #expect(times[0] > 1_600_000_000 * 1_000_000_000)                // nanoseconds since 1970
        journal.close()
        usleep(5000)
        let reopened = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: Documents())
        #expect(reopened.stack.tree.map(\.time) == times)
        // A travel by time reaches the same state in the replayed tree.
        #expect(reopened.stack.travelTarget(.time(.milliseconds(1)), earlier: true) == 2)
    }

    @Test("a failing change writes nothing")
    func failureWritesNothing() throws {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: documents)
        try journal.perform(InsertText(documents, "a", at: 0, "x"))
        #expect(throws: (any Error).self) { try journal.perform(InsertText(documents, "a", at: 99, "y")) }
        #expect(throws: UndoError.noOpenGroup) { try journal.endGroup() }
        #expect(throws: (any Error).self) { try journal.goTo(state: 42) }
        journal.close()
        let reopened = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: Documents())
        #expect(reopened.restoredCount == 1)
    }

    @Test("a failing undo writes nothing; one that cannot be taken back stops the journal")
    func rollbackFailureStops() throws {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: documents)
        try journal.perform(InsertText(documents, "a", at: 0, "A", coalesces: false))
        documents.failUndo = ["A"]
        #expect(throws: (any Error).self) { try journal.undo() }          // the history as it was
        try journal.beginGroup()
        try journal.perform(InsertText(documents, "a", at: 1, "B", coalesces: false))
        try journal.perform(InsertText(documents, "a", at: 2, "C", coalesces: false))
        documents.failUndo = ["B"]
        documents.failPerform = ["C"]
        // Cancelling undoes C, fails on B, and cannot perform C again.
        let failure = #expect(throws: UndoError.self) { try journal.cancelGroup() }
        guard case .rollbackFailed? = failure else { Issue.record("expected a rollback failure, got \(String(describing: failure))"); return }
        let refusal = #expect(throws: JournalError.self) { try journal.undo() }
        #expect(refusal?.message.contains("reopen it") == true)
        journal.close()
        // The journal reopens to the last journaled state: A, and the open group with B and C.
        let fresh = Documents()
        let reopened = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: fresh)
        #expect(reopened.restoredCount == 4)
        #expect(fresh.text("a") == "ABC" && reopened.stack.groupDepth == 1)
    }

    @Test("a command of a type not registered is refused before it runs")
    func unregisteredTypeRefused() throws {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, commands: [InsertText.self], model: documents)
        try journal.perform(InsertText(documents, "a", at: 0, "abc"))
        let error = #expect(throws: JournalError.self) { try journal.perform(DeleteText(documents, "a", at: 0, count: 1)) }
        #expect(error?.message.contains("DeleteText") == true)
        #expect(error?.message.contains("test.delete-text") == true)
        #expect(documents.text("a") == "abc")                              // not performed
        #expect(journal.stack.treeCount == 1)
    }

    @Test("two types under one name are refused")
    func duplicateNamesRefused() throws {
        let error = #expect(throws: JournalError.self) {
            _ = try UndoStackJournal(path: JournalFiles.newPath(), commands: [InsertText.self, Impostor.self], model: Documents())
        }
        #expect(error?.message.contains("\"test.insert-text\"") == true)
    }

    @Test("a closed journal refuses changes")
    func closedRefuses() throws {
        let documents = Documents()
        let journal = try UndoStackJournal(path: JournalFiles.newPath(), commands: JournalFiles.commands, model: documents)
        journal.close()
        #expect(throws: JournalError.self) { try journal.perform(InsertText(documents, "a", at: 0, "x")) }
        #expect(throws: JournalError.self) { try journal.undo() }
        #expect(documents.texts.isEmpty)
    }
}

@Suite("A change that cannot be written")
struct WriteFailureTests {
    @Test("is reported, and every later call is refused; the file keeps what was written")
    func writeFailureStops() throws {
        let path = JournalFiles.newPath()
        let documents = Documents()
        let journal = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: documents)
        try journal.perform(InsertText(documents, "a", at: 0, "kept", coalesces: false))
        try journal.connection.execute("PRAGMA query_only=1;")     // every write fails from here on, as on a full disk
        let failure = #expect(throws: JournalError.self) {
            try journal.perform(InsertText(documents, "a", at: 4, " lost", coalesces: false))
        }
        #expect(failure?.message.hasPrefix("change 2 was made but could not be written") == true)
        let refusal = #expect(throws: JournalError.self) { try journal.undo() }
        #expect(refusal?.message == failure?.message)
        #expect(documents.text("a") == "kept lost")                 // the undo was refused
        journal.close()
        let fresh = Documents()
        let reopened = try UndoStackJournal(path: path, commands: JournalFiles.commands, model: fresh)
        #expect(reopened.restoredCount == 1 && fresh.text("a") == "kept")
    }
}
