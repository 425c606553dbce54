import UndoCodableJournal
import UndoCore

/// A session through a journal that touches every kind of change: typing that coalesces,
/// groups (ended and cancelled), saves, undo and redo, a branch, moves across branches, two
/// documents, a revert, a forgotten save point, a recorded change, pauses and limits.
enum SampleSession {
    static func run(_ journal: UndoStackJournal, _ documents: Documents) throws {
        try journal.perform(InsertText(documents, "a", at: 0, "Hello"))
        try journal.perform(InsertText(documents, "a", at: 5, ","))          // coalesces: one Typing step
        try journal.breakCoalescing()
        try journal.perform(InsertText(documents, "a", at: 6, " world"))
        try journal.markSaved(UndoContext("a"))
        try journal.beginGroup(named: "Paste Twice")
        try journal.perform(InsertText(documents, "a", at: 12, "!", coalesces: false))
        try journal.perform(InsertText(documents, "a", at: 13, "?", coalesces: false))
        try journal.endGroup()
        try journal.undo()                                                    // the group
        try journal.perform(DeleteText(documents, "a", at: 0, count: 1))      // the group becomes a branch
        let branchTip = journal.stack.currentState
        try journal.goTo(state: 4)                                            // onto the group's branch
        try journal.earlier(.states(1))
        try journal.later(.states(2))
        try journal.goTo(state: branchTip)
        try journal.setCurrentContext(UndoContext("b"))
        try journal.perform(InsertText(documents, "b", at: 0, "Notes"))
        try journal.undo(count: 1, in: nil)
        try journal.redo()
        try journal.beginGroup(named: "Preview")
        try journal.perform(InsertText(documents, "b", at: 5, " (draft)"))
        try journal.cancelGroup()
        try journal.markSaved()                                               // b, the current context
        try journal.revertToSaved(UndoContext("a"))
        try journal.undo(in: UndoContext("a"))
        documents.texts["b", default: ""] += "."                              // made by the app, then recorded
        try journal.record(InsertText(documents, "b", at: 5, ".", coalesces: false))
        try journal.pauseRecording()
        try journal.perform(InsertText(documents, "scratch", at: 0, "not a step"))
        try journal.resumeRecording()
        try journal.forgetSavePoint(UndoContext("b"))
        try journal.setCoalescingWindow(.seconds(2))
        try journal.setCountLimit(40)
        try journal.perform(InsertText(documents, "a", at: 0, ">"))
        try journal.move(to: journal.stack.position - 1)
        try journal.redo(count: 1, in: UndoContext("a"))
        try journal.beginGroup(named: "Left Open", context: UndoContext("a"))
        try journal.perform(InsertText(documents, "a", at: 0, "#", coalesces: false))
    }
}
