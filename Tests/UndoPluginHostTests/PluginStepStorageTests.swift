import Testing
import UndoCore
@testable import UndoPluginHost

/// A plugin step is one heap block of 80 bytes (the fields, 56, after a 16-byte object header;
/// malloc's chunk of 80): what few steps have, a coalescing key of their own or a description,
/// is kept aside and costs only those steps.
@Suite struct PluginStepStorage {
    @Test func aStepsFieldsFitItsBlock() {
        #expect(MemoryLayout<PluginStep.State>.size <= 56)
    }

    @Test func aKeyAndADescriptionAreKeptAndCleared() {
        var step = PluginStep(context: UndoContext("doc"), arguments: [.i64(1)], inverseArguments: nil,
                              performed: false)
        #expect(step.coalescing == .actionType && step.description == nil && step.measuredCost == -1)
        step.description = "Typed “a”"
        #expect(step.description == "Typed “a”" && step.coalescing == .actionType)
        step.coalescing = .key(UndoCoalescingKey("p/typing"))
        #expect(step.description == "Typed “a”" && step.coalescing == .key(UndoCoalescingKey("p/typing")))
        step.description = nil
        #expect(step.description == nil && step.coalescing == .key(UndoCoalescingKey("p/typing")))
        step.coalescing = .never
        #expect(step.coalescing == .never)
        step.coalescing = .actionType
        #expect(step.coalescing == .actionType && step.description == nil && step.context == UndoContext("doc"))
    }

    @Test func aCopyNeverChangesWithTheOriginal() {
        var step = PluginStep(context: .global, arguments: [.string("a")], inverseArguments: nil, performed: true)
        step.description = "first"
        step.measuredCost = 100
        let copy = step
        step.description = "second"
        step.coalescing = .never
        step.measuredCost = 200
        #expect(copy.description == "first" && copy.coalescing == .actionType && copy.measuredCost == 100)
        #expect(step.description == "second" && step.coalescing == .never && step.measuredCost == 200)
    }

    @Test func aCostBeyondInt32IsKeptAsTheMost() {
        var step = PluginStep(context: .global, arguments: [.i64(1)], inverseArguments: nil, performed: true)
        step.measuredCost = Int(Int32.max) + 10
        #expect(step.measuredCost == Int(Int32.max))
    }
}
