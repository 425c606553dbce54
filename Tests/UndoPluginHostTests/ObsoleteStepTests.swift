import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// Obsolete plugin steps (undo_host.set_obsolete, ABI 1.7), after the scenarios of Qt's
/// tst_qundostack obsolete tests: a command obsolete when pushed is neither added nor merged;
/// one that becomes obsolete on undo or redo leaves, with the index, the titles and the clean
/// state kept right; in a macro (group) only when every child is. Fixture: Fixtures/obsolete.c.
/// Values changed "behind the history's back" are set with recording paused.
@Suite struct ObsoleteStepTests {
    static let id = "org.undohost.test.obsolete"
    let host: PluginHost

    init() throws {
        host = makeHost().0
        try host.load(file: try Fixtures.buildPlugin("obsolete.c"))
    }

    /// "a=1,b=0,c=0|merges=0|...": the values and the callbacks' codes.
    func state() throws -> String { try host.show("", Self.id) }
    func values() throws -> String { String(try state().prefix { $0 != "|" }) }
    func set(_ key: Int64, _ value: Int64) throws { try host.perform("obsolete.set", [.i64(key), .i64(value)]) }
    /// Changes a value outside the history (a change the history does not know of).
    func setBehindTheHistory(_ key: Int64, _ value: Int64) throws {
        host.history.withStack { $0.pauseRecording() }
        defer { host.history.withStack { $0.resumeRecording() } }
        try set(key, value)
    }
    var position: Int { host.history.withStack { $0.position } }
    var isDirty: Bool { host.history.withStack { $0.isDirty() } }

    @Test func aStepObsoleteWhenPerformedIsNeitherAddedNorMerged() throws {
        #expect(try host.perform("obsolete.set", [.i64(0), .i64(1)]) == .recorded)
        // Already 1: obsolete, sets no inverse argument, is not an error, and perform says so.
        #expect(try host.perform("obsolete.set", argumentText: "0 1") == .obsolete)
        #expect(try host.perform(try host.actionType("obsolete.set"), [.i64(0), .i64(1)]) == .obsolete)
        #expect(host.stepCount == 1 && position == 1)
        #expect(try state().contains("merges=0"))  // never offered to the newest step
        try set(0, 2)  // an ordinary step is offered (and refused)
        #expect(host.stepCount == 2)
        #expect(try state().contains("merges=1"))
        try host.undo()
        try host.undo()
        #expect(try values() == "a=0,b=0,c=0")
        host.history.withStack { $0.checkInvariants() }
    }

    @Test func aStepObsoleteWhenUndoneLeavesAndTheSavedStateFollows() throws {
        try set(0, 1)
        try set(0, 2)
        try host.history.withStack { try $0.markSaved() }
        try set(0, 5)
        try setBehindTheHistory(0, 2)  // the value "Set 5" took back is there already
        #expect(isDirty)
        let result = try #require(try host.undo())
        #expect(result.obsoleteCount == 1 && result.stepCount == 1 && result.name == "Set")
        #expect(result.changes.isEmpty)
        #expect(host.stepCount == 2 && position == 2)
        #expect(host.redoTitle == "Redo" && host.undoTitle == "Undo Set")
        #expect(!isDirty)  // the state after it is the state before it: the saved one
        #expect(try values() == "a=2,b=0,c=0")
        try host.undo()
        #expect(try values() == "a=1,b=0,c=0")
        #expect(isDirty)
        host.history.withStack { $0.checkInvariants() }
    }

    /// The saved state was the one after the step that leaves: it moves to the state before it.
    @Test func theCleanIndexMovesWhenTheSavedStepLeaves() throws {
        try set(0, 1)
        try set(0, 2)
        try host.history.withStack { try $0.markSaved() }
        try setBehindTheHistory(0, 1)
        try host.undo()  // "Set 2" finds 1 there: it leaves, and the saved state is now after "Set 1"
        #expect(host.stepCount == 1 && position == 1 && !isDirty)
        try host.undo()
        #expect(isDirty)
        #expect(try values() == "a=0,b=0,c=0")
        try host.redo()
        #expect(!isDirty)
    }

    @Test func aStepObsoleteWhenRedoneLeavesAndTheNextOneStillRedoes() throws {
        for value: Int64 in [1, 2, 3] { try set(0, value) }
        try host.undo(count: 2)
        #expect(try values() == "a=1,b=0,c=0")
        try setBehindTheHistory(0, 2)  // redoing "Set 2" changes nothing now
        let result = try #require(try host.redo())
        #expect(result.obsoleteCount == 1 && result.name == "Set")
        #expect(host.stepCount == 2 && position == 1 && host.redoTitle == "Redo Set")
        try host.redo()
        #expect(try values() == "a=3,b=0,c=0")
        #expect(position == 2)
        host.history.withStack { $0.checkInvariants() }
    }

    /// A jump of several steps counts those that left; the others moved as usual.
    @Test func aJumpCountsTheStepsThatLeft() throws {
        try set(0, 1)
        try set(1, 1)
        try set(2, 1)
        try setBehindTheHistory(1, 0)
        let result = try #require(try host.undo(count: 3))
        #expect(result.stepCount == 3 && result.obsoleteCount == 1)
        #expect(host.stepCount == 2 && position == 0)
        #expect(try values() == "a=0,b=0,c=0")
        let redone = try #require(try host.redo(count: 2))
        #expect(redone.stepCount == 2 && redone.obsoleteCount == 0 && position == 2)
        #expect(try values() == "a=1,b=0,c=1")
    }

    /// Qt's macro: the group leaves only when every member is obsolete.
    @Test func aGroupLeavesOnlyWhenEveryMemberIsObsolete() throws {
        try host.history.withStack { try $0.beginGroup(named: "Both") }
        try set(0, 1)
        try set(1, 1)
        try host.history.withStack { try $0.endGroup() }
        try setBehindTheHistory(1, 0)  // one member's undo changes nothing
        var result = try #require(try host.undo())
        #expect(result.obsoleteCount == 0 && host.stepCount == 1 && host.redoTitle == "Redo Both")
        try host.redo()
        #expect(try values() == "a=1,b=1,c=0")
        try setBehindTheHistory(0, 0)
        try setBehindTheHistory(1, 0)  // now every member's undo changes nothing
        result = try #require(try host.undo())
        #expect(result.obsoleteCount == 1 && result.name == "Both")
        #expect(host.stepCount == 0 && host.undoTitle == "Undo" && host.redoTitle == "Redo")
        host.history.withStack { $0.checkInvariants() }
    }

    /// set_obsolete is refused outside perform and the inverse, and a call that fails after it
    /// fails as usual: nothing recorded, the plugin's own message.
    @Test func refusalsAndFailures() throws {
        try set(0, 1)
        try set(0, 2)  // offered to merge: the merge's set_obsolete is refused
        let error = hostError { try host.perform("obsolete.fail", [.i64(0)]) }
        #expect(error?.code == Int32(UNDO_EINVAL))
        #expect(String(describing: try #require(error)).contains("fails after set_obsolete"))
        #expect(host.stepCount == 2)
        let state = try state()
        #expect(state.contains("merge_rc=\(UNDO_ESTATE)"))
        #expect(state.contains("describe_rc=\(UNDO_ESTATE)"))
        #expect(state.contains("stale_rc=\(UNDO_ESTATE)"))
        #expect(state.contains("fail_rc=\(UNDO_OK)"))  // accepted; the failure wins
    }

    /// A revert to the saved state (like a jump across branches) keeps every step, obsolete or
    /// not: it is recorded as a step of its own that undoes them, and undoing it does them again.
    @Test func aRevertKeepsAStepThatChangesNothing() throws {
        try set(0, 1)
        try host.history.withStack { try $0.markSaved() }
        try set(0, 2)
        try set(0, 3)
        try setBehindTheHistory(0, 2)  // undoing "Set 3" changes nothing now
        let result = try #require(try host.history.withStack { try $0.revertToSaved() })
        #expect(result.obsoleteCount == 0 && result.stepCount == 2)
        #expect(try values() == "a=1,b=0,c=0")
        #expect(!isDirty)
        #expect(host.stepCount == 4)  // the three steps, still done, and the revert
        host.history.withStack { $0.checkInvariants() }
        try host.undo()  // the revert: does both again
        #expect(try values() == "a=3,b=0,c=0")
    }
}
