import Testing
import UndoCore
@testable import UndoPluginHost

/// A plugin step's fields are 56 bytes, held in its command: what few steps have, a coalescing
/// key of their own or a description, is kept aside and costs only those steps.
@Suite struct PluginStepFields {
    @Test func aStepsFieldsFitFiftySixBytes() {
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

/// A direct call reads a step's numbers and strings in place (``ActionValueCollection/int64(at:)``,
/// ``ActionValueCollection/withCString(at:_:)``): the read agrees with the subscript for every
/// kind of list and value, and an array or a slice reads them the same way.
@Suite struct InPlaceValueReads {
    static let values: [ActionValue] = [.i64(-7), .i32(3), .u64(9), .string("a"), .bytes([1]), .f64(0.5), .i64(Int64.max)]

    static func expected(_ value: ActionValue) -> Int64? {
        if case .i64(let number) = value { return number }
        return nil
    }

    @Test func aListOfOneValue() {
        var read = 0
        for value in Self.values {
            #expect(ActionValueList(one: value).int64(at: 0) == Self.expected(value))
            read += 1
        }
        #expect(read == Self.values.count)
    }

    @Test func aListOfManyAnArrayAndASlice() {
        let list = ActionValueList(Self.values)
        let slice = ([.u32(1)] + Self.values)[1...]
        var agreed = 0
        for index in Self.values.indices {
            let want = Self.expected(Self.values[index])
            if list.int64(at: index) == want && Self.values.int64(at: index) == want
                && slice.int64(at: index + 1) == want {
                agreed += 1
            }
        }
        #expect(agreed == Self.values.count)
    }

    @Test func aTypingRunsText() {
        var list = ActionValueList(one: .string("a"))
        #expect(list.appendToOnlyString("b", limit: 100) == 1)
        #expect(list.textBufferAddress != nil && list.int64(at: 0) == nil && list[0] == .string("ab"))
    }

    /// A string value is read as a C string where it is held, from every kind of list: a
    /// keystroke's one value, one of many, and a run's bytes (made a string then); a value of
    /// another type reads as `nil`, in a list and in an array or slice (the default reading).
    @Test func aStringIsReadAsACStringWhereItIsHeld() {
        func read(_ values: some ActionValueCollection, at index: Int) -> String? {
            values.withCString(at: index) { String(cString: $0) }
        }
        var run = ActionValueList(one: .string("é"))
        #expect(run.appendToOnlyString("a한", limit: 100) == 4)
        let many: [ActionValue] = [.i64(3), .string("two words")]
        let slice = ([.u32(1)] + many)[1...]
        #expect(read(ActionValueList(one: .string("key")), at: 0) == "key")
        #expect(read(ActionValueList(many), at: 1) == "two words" && read(ActionValueList(many), at: 0) == nil)
        #expect(read(run, at: 0) == "éa한")
        #expect(read(ActionValueList(one: .i64(7)), at: 0) == nil)
        #expect(read(ActionValueList(one: .bytes([65, 66])), at: 0) == nil)
        #expect(read(many, at: 1) == "two words" && read(many, at: 0) == nil)
        #expect(read(slice, at: 2) == "two words" && read(slice, at: 1) == nil)
    }

    /// A keystroke joins a run from its own list, read in place, as its text did: the same bytes
    /// appended, and nothing when either side is not one string (the run then unchanged).
    @Test func aKeystrokeJoinsARunFromItsList() {
        var state = PluginStep.State(context: .global, arguments: ActionValueList(one: .string("ab")),
                                     inverseArguments: nil, performed: true)
        #expect(ActionValueList(one: .string("c")).isOneString)
        #expect(!ActionValueList(one: .i64(1)).isOneString && !ActionValueList([.string("a"), .string("b")]).isOneString)
        #expect(PluginStep.append(keystrokeOf: ActionValueList(one: .string("c")), to: &state) == 1)
        #expect(PluginStep.append(keystrokeOf: ActionValueList(one: .string("한")), to: &state) == 3)
        #expect(PluginStep.append(keystrokeOf: ActionValueList(one: .i64(1)), to: &state) == nil)
        #expect(state.arguments[0] == .string("abc한"))
        // A run whose inverse has values of its own takes no keystroke.
        var other = PluginStep.State(context: .global, arguments: ActionValueList(one: .string("ab")),
                                     inverseArguments: [.string("x")], performed: true)
        #expect(PluginStep.append(keystrokeOf: ActionValueList(one: .string("c")), to: &other) == nil)
        #expect(other.arguments[0] == .string("ab"))
    }
}
