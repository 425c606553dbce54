import Testing
import UndoCore
import UndoPluginABI
import UndoPluginHost

/// The kit's typed API (change reports as cases, arguments by name and type, the action's
/// options as modifiers) used by a real plugin (Tests/SwiftPluginKitUse) loaded by the host.
@Suite struct KitTypedAPITests {
    let host: PluginHost
    let log: LogMessages
    let doc = UndoContext("doc")

    init() throws {
        (host, log) = SwiftPluginFixtures.makeHost()
        try host.load(file: SwiftPluginFixtures.products + "/libUndoTestSwiftKitUse.so")
    }

    func mark() throws -> String { try host.describe(doc, plugin: "org.undohost.test.kit") }

    @Test func modifiersDeclareTheActionsOptions() throws {
        let info = try #require(host.plugins.first)
        #expect(info.actionTypes.map(\.detailedDescription) == [
            #"kit.mark(id: i64) "Mark" inverse(id: i64) coalesces("mark") merges discardable"#,
            #"kit.level(to: i64) "Level" inverse(to: i64)"#,
            #"kit.misread(mode: i64, label: string) "Misread""#,
        ])
    }

    /// An argument read at a position past the declared ones, as another type than declared,
    /// or by an undeclared name fails the call with a message naming the action and the
    /// parameter; the step is not added. Read rightly, the same action performs.
    @Test(arguments: [
        (1, Int32(UNDO_EINVAL), "misread has no argument 2: it takes 2 (mode: i64, label: string)"),
        (2, Int32(UNDO_ETYPE), "misread's argument 0 (mode) is i64, not string"),
        (3, Int32(UNDO_ENOTFOUND), "misread has no parameter size (it takes mode: i64, label: string)"),
    ])
    func aWrongArgumentAccessIsAClearError(_ mode: Int64, _ code: Int32, _ message: String) throws {
        do {
            try host.perform("kit.misread", [.i64(mode), .string("x")], in: doc)
            Issue.record("mode \(mode) performed")
        } catch {
            guard case .actionFailed(let failure) = error else {
                Issue.record("expected actionFailed, got \(error)")
                return
            }
            #expect(failure.code == code)
            #expect(failure.message == message)
        }
        #expect(host.stepCount == 0)
        try host.perform("kit.misread", [.i64(0), .string("fine")], in: doc)
        #expect(host.stepCount == 1)
    }

    @Test func anObjectReportIsTheObjectsIdAndANegativeIdFailsTheCall() throws {
        try host.perform("kit.mark", [.i64(5)], in: doc)
        let undone = try #require(try host.undo()) // the inverse marks the old id, 0
        #expect(undone.changes == [UndoChange(context: doc, location: 0, length: nil)])
        let redone = try #require(try host.redo())
        #expect(redone.changes == [UndoChange(context: doc, location: 5, length: nil)])
        try host.undo()
        let error = try #require(throws: PluginHostError.self) { try host.perform("kit.mark", [.i64(-2)], in: doc) }
        guard case .actionFailed(let failure) = error else {
            Issue.record("expected actionFailed, got \(error)")
            return
        }
        #expect(failure.code == Int32(UNDO_ERANGE))
        #expect(failure.message == "a reported change has no negative numbers: object(-2)")
        #expect(try mark() == "mark=0") // the failing call changed nothing
    }

    @Test func mergeReadsAndSetsArgumentsByNameAndType() throws {
        for id in [3, 4, 9] as [Int64] { try host.perform("kit.mark", [.i64(id)], in: doc) }
        #expect(try mark() == "mark=9")
        #expect(host.stepCount == 1) // merged into one step
        try host.undo()
        #expect(try mark() == "mark=0")
        try host.redo()
        #expect(try mark() == "mark=9")

        let other = UndoContext("other")
        try host.perform("kit.mark", [.i64(2)], in: other)
        try host.perform("kit.mark", [.i64(0)], in: other) // back to the start: the merge annuls
        #expect(try host.describe(other, plugin: "org.undohost.test.kit") == "mark=0")
        #expect(host.stepCount == 1)
    }

    @Test func readingAMergeArgumentAsTheWrongTypeIsReportedAndMergesNothing() throws {
        try host.perform("kit.mark", [.i64(3)], in: doc)
        try host.perform("kit.mark", [.i64(13)], in: doc)
        #expect(try mark() == "mark=13")
        #expect(log.all.contains { $0.message.contains("parameter id is i64, not string") })
        try host.undo()
        #expect(try mark() == "mark=3") // the steps stayed two
    }

    /// UndoCall.markObsolete (set_obsolete, ABI 1.7): Qt's setObsolete scenarios through the kit.
    /// The level is changed behind the history's back with recording paused.
    @Test func markObsoleteTakesTheStepOutOfTheHistory() throws {
        func behindTheHistory(_ value: Int64) throws {
            host.history.withStack { $0.pauseRecording() }
            defer { host.history.withStack { $0.resumeRecording() } }
            try host.perform("kit.level", [.i64(value)], in: doc)
        }
        try host.perform("kit.level", [.i64(4)], in: doc)
        try host.perform("kit.level", [.i64(4)], in: doc)  // already 4: no step
        #expect(host.stepCount == 1)
        try behindTheHistory(0)
        let undone = try #require(try host.undo())  // finds 0 there already
        #expect(undone.obsoleteCount == 1 && undone.name == "Level")
        #expect(host.stepCount == 0)
        try host.perform("kit.level", [.i64(7)], in: doc)
        try host.undo()
        try behindTheHistory(7)
        let redone = try #require(try host.redo())  // finds 7 there already
        #expect(redone.obsoleteCount == 1 && host.stepCount == 0)
        #expect(try mark() == "mark=0 level=7")
    }

    @Test func markObsoleteInAMergeIsRefusedAndTheStepsStayApart() throws {
        try host.perform("kit.mark", [.i64(3)], in: doc)
        try host.perform("kit.mark", [.i64(14)], in: doc)
        #expect(host.stepCount == 2)
        #expect(log.all.contains { $0.message.contains("set_obsolete failed") }, "\(log.all)")
    }
}
