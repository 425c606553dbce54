import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// A step's own coalescing key (undo_host.set_coalescing_key, ABI 1.3), and what a refused merge
/// means: two separate steps. Fixture: Fixtures/tasks.c.
@Suite struct StepCoalescingKeyTests {
    static let id = "org.undohost.test.tasks"
    let host: PluginHost

    init() throws {
        host = makeHost().0
        try host.load(file: try Fixtures.buildPlugin("tasks.c"))
    }

    func state() throws -> String { try host.show("", Self.id) }
    func rename(_ task: Int64, _ name: String) throws { try host.perform("tasks.rename", [.i64(task), .string(name)]) }

    @Test func renamingTwoTasksIsTwoSteps() throws {
        try rename(2, "Write")
        try rename(3, "Test")
        #expect(host.stepCount == 2)
        #expect(try state().hasPrefix("task0,task1,Write,Test|"))
        #expect(try state().contains("merges=0"))  // different keys: never offered to merge
        try host.undo()
        #expect(try state().hasPrefix("task0,task1,Write,task3|"))
        try host.undo()
        #expect(try state().hasPrefix("task0,task1,task2,task3|"))
        host.history.withStack { $0.checkInvariants() }
    }

    @Test func renamingOneTaskTwiceIsOneStep() throws {
        try rename(2, "Write")
        try rename(2, "Rewrite")
        #expect(host.stepCount == 1)
        #expect(try state() == "task0,task1,Rewrite,task3|touches=0|nudges=0|merges=1|inverse_key_rc=0")
        let command = try #require(host.newestPluginCommand)
        #expect(command.arguments == [.i64(2), .string("Rewrite")])
        #expect(command.inverseArguments == [.i64(2), .string("task2")])  // the first old name
        #expect(command.coalescingKey == UndoCoalescingKey(Self.id + "/rename/2"))
        try host.undo()
        #expect(try state().hasPrefix("task0,task1,task2,task3|"))
        try host.redo()
        #expect(try state().hasPrefix("task0,task1,Rewrite,task3|"))
        host.history.withStack { $0.checkInvariants() }
    }

    /// A step whose perform sets no key (NULL) never coalesces, though its action type has one;
    /// the callback is refused outside perform.
    @Test func aStepWithoutAKeyNeverCoalesces() throws {
        let touch = try host.actionType("tasks.touch")
        #expect(touch.coalescingKey == "touch")
        for _ in 0..<3 { try host.perform(touch, argument: .i64(1)) }
        #expect(host.stepCount == 3)
        #expect(try #require(host.newestPluginCommand).coalescingKey == nil)
        try host.undo()
        #expect(try state().hasSuffix("touches=2|nudges=0|merges=0|inverse_key_rc=\(UNDO_ESTATE)"))
    }

    /// UNDO_MERGE_REFUSED keeps the two as separate steps, each undone on its own (not joined
    /// into one group step).
    @Test func aRefusedMergeLeavesTwoSeparateSteps() throws {
        try host.perform("tasks.nudge", [.i64(0)])
        try host.perform("tasks.nudge", [.i64(1)])
        #expect(try state().hasSuffix("nudges=2|merges=1|inverse_key_rc=0"))  // offered, refused
        #expect(host.stepCount == 2)
        #expect(host.history.withStack { $0.steps.map(\.memberCount) } == [0, 0])
        try host.undo()
        #expect(try state().hasSuffix("nudges=1|merges=1|inverse_key_rc=0"))
    }

    /// A plugin that sets no key keeps its action type's key, namespaced by the plugin.
    @Test func olderPluginsKeepTheActionTypesKey() throws {
        try host.load(file: Fixtures.textEditor)
        try host.perform("text.insert", [.i64(0), .string("a")], in: UndoContext("doc"))
        #expect(try #require(host.newestPluginCommand).coalescingKey == UndoCoalescingKey("org.undohost.text/typing"))
    }

    /// The history asks a plugin step for its key in place (`hasCoalescingKey(_:)`): the answer
    /// is the key's getter compared, for each of the three kinds of key a step has (its own,
    /// none, its action type's).
    @Test func askedInPlaceTheStepAnswersAsItsKey() throws {
        try host.load(file: Fixtures.textEditor)
        try rename(2, "Write")
        let own = try #require(host.newestPluginCommand)
        try host.perform(try host.actionType("tasks.touch"), argument: .i64(1))
        let none = try #require(host.newestPluginCommand)
        try host.perform("text.insert", [.i64(0), .string("a")], in: UndoContext("doc"))
        let typeKey = try #require(host.newestPluginCommand)
        let keys: [UndoCoalescingKey?] = [nil, UndoCoalescingKey(Self.id + "/rename/2"),
                                          UndoCoalescingKey(Self.id + "/rename/3"),
                                          UndoCoalescingKey("org.undohost.text/typing")]
        try host.perform("text.insert", [.i64(0), .string("b")], in: UndoContext("other"))
        let sameType = try #require(host.newestPluginCommand)
        try host.perform("text.delete", [.i64(0), .i64(1)], in: UndoContext("other"))
        let otherType = try #require(host.newestPluginCommand)
        let commands = [own, none, typeKey, sameType, otherType]
        for command in commands {
            for key in keys { #expect(command.hasCoalescingKey(key) == (command.coalescingKey == key)) }
            #expect(command.hasCoalescingKey(command.coalescingKey))
            // Two steps compared in place (`hasCoalescingKey(of:)`): as their keys are.
            for next in commands {
                #expect(command.hasCoalescingKey(of: next) == (command.coalescingKey == next.coalescingKey))
            }
        }
        #expect(typeKey.hasCoalescingKey(of: sameType) && !typeKey.hasCoalescingKey(of: otherType))
        #expect(own.coalescingKey != nil && none.coalescingKey == nil && typeKey.coalescingKey != nil)
    }
}
