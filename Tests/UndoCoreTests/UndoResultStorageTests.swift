import Testing
import UndoCore

/// `UndoResult` keeps the common result (the global context, no changes) in four words, so a
/// caller that drops it destroys it in a few instructions; every other result keeps all it was
/// given, exactly.
@Suite struct UndoResultStorage {
    @Test func anOptionalResultIsFourWords() {
        // Larger, it is returned through memory and dropped through the run time's generic
        // Optional witnesses (about 120 instructions per undo or redo).
        #expect(MemoryLayout<UndoResult?>.size <= 4 * MemoryLayout<Int>.size)
    }

    @Test func everyPartReadsBackAsGiven() {
        let change = UndoChange(context: UndoContext("doc"), location: 3, length: 4)
        let cases: [(UndoResult.Direction, String?, UndoContext, Int, [UndoChange], Int)] = [
            (.undo, "Add", .global, 1, [], 0),
            (.redo, nil, .global, 7, [], 3),
            (.undo, "Type", UndoContext("doc"), 1, [], 0),
            (.redo, "Type", .global, 2, [change], 1),
            (.undo, "Jump", .global, 1 << 40, [], 0),
            (.redo, "Jump", .global, (1 << 30) - 1, [], Int(UInt32.max)),
            (.redo, "Jump", .global, 1 << 30, [], 0),
            (.undo, "Odd", .global, 5, [], Int(UInt32.max) + 1),
            (.undo, "Negative", .global, -1, [], -2),
        ]
        for (direction, name, context, stepCount, changes, obsoleteCount) in cases {
            let result = UndoResult(direction: direction, name: name, context: context, stepCount: stepCount,
                                    changes: changes, obsoleteCount: obsoleteCount)
            #expect(result.direction == direction)
            #expect(result.name == name)
            #expect(result.context == context)
            #expect(result.stepCount == stepCount)
            #expect(result.changes == changes)
            #expect(result.obsoleteCount == obsoleteCount)
        }
    }

    @Test func settersChangeOnePartAndKeepTheOthers() {
        var result = UndoResult(direction: .redo, name: "Add", context: .global, stepCount: 4, obsoleteCount: 1)
        result.context = UndoContext("doc")
        #expect(result == UndoResult(direction: .redo, name: "Add", context: UndoContext("doc"), stepCount: 4,
                                     obsoleteCount: 1))
        result.context = .global
        result.direction = .undo
        result.stepCount = 1 << 33
        #expect(result.stepCount == 1 << 33 && result.obsoleteCount == 1 && result.direction == .undo)
        result.stepCount = 2
        result.changes = [UndoChange(context: .global, location: 1)]
        result.name = nil
        #expect(result == UndoResult(direction: .undo, name: nil, context: .global, stepCount: 2,
                                     changes: [UndoChange(context: .global, location: 1)], obsoleteCount: 1))
        result.changes = []
        result.obsoleteCount = 0
        // Back to a common result: equal to one made so.
        #expect(result == UndoResult(direction: .undo, name: nil, context: .global, stepCount: 2))
        #expect(result != UndoResult(direction: .redo, name: nil, context: .global, stepCount: 2))
    }

    @Test func anUndoAndARedoReportTheirStepAndChanges() throws {
        let stack = UndoStack()
        let box = Box()
        try stack.perform(Reporting(box: box, context: UndoContext("doc")))
        let undone = try #require(try stack.undo(in: nil))
        #expect(undone.direction == .undo && undone.name == "Report" && undone.context == UndoContext("doc"))
        #expect(undone.changes == [UndoChange(context: UndoContext("doc"), location: 1)])
        let redone = try #require(try stack.redo(in: nil))
        #expect(redone.direction == .redo && redone.stepCount == 1 && redone.obsoleteCount == 0)
    }
}

private final class Box: @unchecked Sendable { var value = 0 }

private struct Reporting: UndoCommand {
    let box: Box
    let context: UndoContext
    var name: String? { "Report" }
    func perform(_ changes: inout UndoChanges) throws {
        box.value += 1
        changes.report(context: context, location: 1)
    }
    func undo(_ changes: inout UndoChanges) throws {
        box.value -= 1
        changes.report(context: context, location: 1)
    }
}
