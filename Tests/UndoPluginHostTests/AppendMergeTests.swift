import Foundation
import Testing
@testable import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// merge_mode UNDO_MERGE_BY_APPEND (ABI 1.2): the host merges coalescing steps by appending
/// their last argument (and last inverse argument), in place, without calling the plugin; and
/// descriptors built for 1.0 / 1.1 still load as before.
@Suite struct AppendMergeTests {
    static let id = "org.undohost.test.appender"

    func loaded(_ defines: [String] = [], limits: (count: Int?, memory: Int?) = (nil, nil)) throws -> PluginHost {
        let path = try Fixtures.buildPlugin("appender.c", defines: defines,
                                            name: "appender\(defines.joined()).so")
        let (host, _) = makeHost()
        host.history.withStack {
            $0.countLimit = limits.count
            $0.memoryLimit = limits.memory
        }
        try host.load(file: path)
        return host
    }

    func state(_ host: PluginHost) throws -> String { try host.show("", Self.id) }
    func check(_ host: PluginHost) { host.history.withStack { $0.checkInvariants() } }
    func steps(_ host: PluginHost) -> [UndoStepInfo] { host.history.withStack { $0.steps } }

    @Test func keystrokesBecomeOneStepThatUndoesAndRedoesTheRun() throws {
        let host = try loaded()
        let type = try host.actionType("appender.type")
        #expect(type.appendsOnMerge && type.canMerge)
        #expect(type.detailedDescription.hasSuffix(#"coalesces("typing") appends"#))
        for letter in ["H", "e", "l", "l", "o"] {
            try host.perform(type, [.i32(0), .string(letter)])
            check(host)
        }
        #expect(try state(host) == "Hello|||performs=5")  // perform ran for every keystroke
        #expect(steps(host).count == 1 && steps(host)[0].memberCount == 0)  // merged, not a run of five
        let command = try #require(host.newestPluginCommand)
        #expect(command.arguments == [.i32(0), .string("Hello")])
        #expect(command.inverseArguments == command.arguments)
        #expect(command.description == #"appender.type 0 "Hello""#)

        try host.undo()
        #expect(try state(host) == "|||performs=5")
        try host.redo()
        #expect(try state(host) == "Hello|||performs=5")
        check(host)

        // A break starts a new step; undo takes back only the newest run.
        host.history.withStack { $0.breakCoalescing() }
        try host.perform(type, [.i32(0), .string(" you")])
        try host.perform(type, [.i32(0), .string("!")])
        #expect(steps(host).count == 2)
        try host.undo()
        #expect(try state(host) == "Hello|||performs=7")
        check(host)
    }

    @Test func theOwnInverseArgumentIsAppendedToo() throws {
        let host = try loaded()
        let write = try host.actionType("appender.write")
        try host.perform(write, [.bytes([1])])
        try host.perform(write, [.bytes([2, 3])])
        try host.perform(write, argument: .bytes([]))
        #expect(steps(host).count == 1 && steps(host)[0].memberCount == 0)
        let command = try #require(host.newestPluginCommand)
        #expect(command.arguments == [.bytes([1, 2, 3])])
        #expect(command.inverseArguments == [.i32(7), .bytes([1, 2, 3])])
        try host.undo()
        #expect(try state(host) == "|||performs=3")
        try host.redo()
        #expect(try state(host) == "||010203|performs=3")
        check(host)
    }

    @Test func stepsWhoseOtherArgumentsDifferAreKeptApart() throws {
        let host = try loaded()
        let type = try host.actionType("appender.type")
        try host.perform(type, [.i32(0), .string("a")])
        try host.perform(type, [.i32(1), .string("b")])
        try host.perform(type, [.i32(1), .string("c")])
        // Two steps: the append rule refused the first pair (separate steps), the last two merged.
        #expect(steps(host).count == 2 && steps(host).allSatisfy { $0.memberCount == 0 })
        #expect(try state(host) == "a|bc||performs=3")
        try host.undo()
        #expect(try state(host) == "a|||performs=3")
        try host.undo()
        #expect(try state(host) == "|||performs=3")
        try host.redo(count: 2)
        #expect(try state(host) == "a|bc||performs=3")
        check(host)
    }

    @Test func anotherContextStartsAnotherStep() throws {
        let host = try loaded()
        let type = try host.actionType("appender.type")
        try host.perform(type, [.i32(0), .string("a")], in: UndoContext("one"))
        try host.perform(type, [.i32(0), .string("b")], in: UndoContext("two"))
        #expect(steps(host).count == 2)
        try host.undo()
        #expect(try state(host) == "a|||performs=2")
        check(host)
    }

    @Test func anUndoneRunIsNotExtended() throws {
        let host = try loaded()
        let type = try host.actionType("appender.type")
        try host.perform(type, [.i32(0), .string("ab")])
        try host.undo()
        try host.perform(type, [.i32(0), .string("c")])  // discards the redo step, starts anew
        #expect(steps(host).count == 1)
        #expect(try state(host) == "c|||performs=2")
        try host.undo()
        #expect(try state(host) == "|||performs=2")
        #expect(host.history.withStack { $0.canRedo } && !host.history.withStack { $0.canUndo })
        check(host)
    }

    @Test func theMemoryLimitSeesTheRunGrow() throws {
        let host = try loaded()
        let type = try host.actionType("appender.type")
        try host.perform(type, [.i32(0), .string("x")])
        let one = host.history.withStack { $0.totalCost }
        for _ in 0..<99 { try host.perform(type, [.i32(0), .string("x")]) }
        let hundred = host.history.withStack { $0.totalCost }
        #expect(hundred == one + 99)  // the merged step is measured again: one byte per keystroke
        check(host)

        // A limit between one run and two: the older run is trimmed when the second one grows.
        host.history.withStack {
            $0.breakCoalescing()
            $0.memoryLimit = hundred + one + 50
        }
        for _ in 0..<100 { try host.perform(type, [.i32(1), .string("y")]) }
        check(host)
        #expect(steps(host).count == 1)
        try host.undo()
        #expect(try state(host) == String(repeating: "x", count: 100) + "|||performs=200")
        #expect(!host.history.withStack { $0.canUndo })
        check(host)
    }

    @Test func theCountLimitTrimsWholeRuns() throws {
        let host = try loaded(limits: (count: 2, memory: nil))
        let type = try host.actionType("appender.type")
        for run in ["ab", "cd", "ef"] {
            for character in run { try host.perform(type, [.i32(0), .string(String(character))]) }
            host.history.withStack { $0.breakCoalescing() }
            check(host)
        }
        #expect(steps(host).count == 2)
        try host.undo()
        try host.undo()
        #expect(try state(host) == "ab|||performs=6")
        #expect(!host.history.withStack { $0.canUndo })
        check(host)
    }

    /// A merged step's cost grows by the bytes appended (counted as they are appended): it must
    /// stay what measuring the whole step again gives, for the argument and the inverse's own.
    @Test func anAppendedRunCostsWhatItsValuesCost() throws {
        let host = try loaded()
        let type = try host.actionType("appender.type")
        for letter in ["a", "bc", "", "déf", String(repeating: "g", count: 100)] {
            try host.perform(type, [.i32(0), .string(letter)])
            let command = try #require(host.newestPluginCommand)
            #expect(command.cost == command.step.currentCost)
        }
        let write = try host.actionType("appender.write")  // has inverse arguments of its own
        host.history.withStack { $0.breakCoalescing() }
        for bytes in [[1], [2, 3], [], [4, 5, 6]] as [[UInt8]] {
            try host.perform(write, [.bytes(bytes)])
            let command = try #require(host.newestPluginCommand)
            #expect(command.cost == command.step.currentCost)
        }
        check(host)
    }

    /// Numbers cost the same whatever their value: the cost is known from the action type.
    @Test func aStepOfNumbersCostsWhatItsValuesCost() throws {
        let (host, _) = makeHost()
        try host.load(file: try Fixtures.buildPlugin("calls.c"))
        for (id, arguments) in [("calls.ints", [ActionValue.i32(1), .u32(2), .i64(3), .u64(4)]),
                                ("calls.set", [.i64(9)])] {
            let action = try host.actionType(id)
            #expect(action.fixedStepCost != nil)
            try host.perform(action, arguments)
            let command = try #require(host.newestPluginCommand)
            #expect(command.cost == action.fixedStepCost)
            let measured = 96 + (command.arguments + command.inverseArguments.filter { _ in
                action.inverseSignature != nil }).reduce(0) { $0 + $1.storageSize }
            #expect(command.cost == measured)
        }
        #expect(try host.actionType("calls.texts").fixedStepCost == nil)
    }

    /// A run's text and bytes grow in their own buffers: each keystroke is appended in place,
    /// not the whole run copied (a copy per keystroke made a run of n keystrokes cost O(n²)).
    @Test func aRunGrowsInPlace() {
        var text = String(repeating: "x", count: 32)
        text.reserveCapacity(1024)
        var inverseText = String(repeating: "x", count: 32)
        inverseText.reserveCapacity(1024)
        var bytes: [UInt8] = Array(repeating: 1, count: 32)
        bytes.reserveCapacity(1024)
        var state = PluginStep.State(context: .global, arguments: ActionValueList([.string(text), .bytes(bytes)]),
                                     inverseArguments: [.i32(7), .string(inverseText)], performed: true)
        text = ""
        inverseText = ""
        bytes = []
        let before = (Self.address(of: state.arguments[0]), Self.address(of: state.arguments[1]),
                      Self.address(of: state.inverseArguments![1]))
        for _ in 0..<100 {
            let arguments = ActionValueList([.string(String(repeating: "x", count: 32)), .bytes([2])])
            #expect(PluginStep.append(arguments, inverse: [.i32(7), .string("a")], to: &state) == 2)
        }
        #expect(state.arguments[1] == .bytes(Array(repeating: 1, count: 32) + Array(repeating: 2, count: 100)))
        #expect(state.inverseArguments?[1] == .string(String(repeating: "x", count: 32) + String(repeating: "a", count: 100)))
        let after = (Self.address(of: state.arguments[0]), Self.address(of: state.arguments[1]),
                     Self.address(of: state.inverseArguments![1]))
        #expect(after.1 == before.1 && after.2 == before.2)
        #expect(after.0 == before.0)  // the equal first argument is not copied either
    }

    /// A keystroke joins a one-string run as bytes appended to the run's byte buffer, which
    /// grows geometrically in place (a handful of moves in 2,000 keystrokes, where a copy per
    /// keystroke moves it every time), and the run reads back as the text typed, multi-byte
    /// characters included.
    @Test func aOneStringRunGrowsAsBytesInPlace() {
        var state = PluginStep.State(context: .global, arguments: ActionValueList(one: .string("é")),
                                     inverseArguments: nil, performed: true)
        #expect(state.arguments.textBufferAddress == nil)  // a step of its own is a String
        let keys = ["a", "한", "b", "🙂", "c"]
        var typed = "é"
        var moves = 0
        var address: UInt?
        for index in 0..<2000 {
            let key = keys[index % keys.count]
            #expect(PluginStep.append(ActionValueList(one: .string(key)), inverse: nil, to: &state) == key.utf8.count)
            typed += key
            let now = state.arguments.textBufferAddress
            #expect(now != nil)
            if now != address { moves += 1 }
            address = now
        }
        #expect(moves <= 12)
        #expect(state.arguments[0] == .string(typed))
        #expect(state.arguments.array == [.string(typed)])
        #expect(state.arguments == ActionValueList(one: .string(typed)))
        #expect(state.arguments.storageSize == 16 + typed.utf8.count)
        // Past the value limit nothing is appended, and the run is unchanged.
        let huge = String(repeating: "x", count: ActionArguments.maximumValueSize)
        #expect(PluginStep.append(ActionValueList(one: .string(huge)), inverse: nil, to: &state) == nil)
        #expect(state.arguments[0] == .string(typed))
        // A value of another type is not appended to the text.
        #expect(PluginStep.append(ActionValueList(one: .i64(1)), inverse: nil, to: &state) == nil)
        #expect(state.arguments[0] == .string(typed))
    }

    /// Where a string or bytes value keeps its contents.
    private static func address(of value: ActionValue) -> UInt? {
        switch value {
        case .string(var text): text.withUTF8 { UInt(bitPattern: $0.baseAddress) }
        case .bytes(let bytes): bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        default: nil
        }
    }

    @Test func aRunIsNotJoinedPastTheValueLimit() throws {
        let host = try loaded()
        let command = try host.makeCommand("appender.write", arguments: [.bytes([1])])
        #expect(command.action.appendsOnMerge)
        let big = PluginStep(context: .global,
                             arguments: [.bytes(Array(repeating: 0, count: ActionArguments.maximumValueSize))],
                             inverseArguments: [.i32(7), .bytes([])], performed: true)
        let small = PluginStep(context: .global, arguments: [.bytes([1])],
                               inverseArguments: [.i32(7), .bytes([1])], performed: true)
        var state = big.read { $0 }
        #expect(small.read { PluginStep.append($0.arguments, inverse: $0.inverseArguments, to: &state) } == nil)
        #expect(state.arguments[0] == .bytes(Array(repeating: 0, count: ActionArguments.maximumValueSize)))
        #expect(state.inverseArguments?[1] == .bytes([]))  // neither value changed
    }

    /// A 1.0-sized action type: merge_mode lies past its struct_size and is not read, so the
    /// type loads as before (no append, no merge function: its steps stay separate).
    @Test func anOldDescriptorLoadsAndDoesNotAppend() throws {
        let host = try loaded(["OLD_SIZE"])
        let type = try host.actionType("appender.type")
        #expect(!type.appendsOnMerge && !type.canMerge)
        try host.perform(type, [.i32(0), .string("a")])
        try host.perform(type, [.i32(0), .string("b")])
        #expect(steps(host).count == 2)
        try host.undo()
        #expect(try state(host) == "a|||performs=2")
        check(host)
    }

    @Test(arguments: [
        ("BAD=1", "merge_mode UNDO_MERGE_BY_APPEND and a merge function exclude each other"),
        ("BAD=2", "merge_mode UNDO_MERGE_BY_APPEND needs a coalescing_key"),
        ("BAD=3", "merge_mode UNDO_MERGE_BY_APPEND needs a last parameter (and last inverse parameter) of type string or bytes"),
        ("BAD=4", "merge_mode 9 is unknown"),
    ])
    func invalidAppendTypesAreRefused(_ define: String, _ message: String) throws {
        let path = try Fixtures.buildPlugin("appender.c", defines: [define], name: "appender_\(define.last!).so")
        let (host, _) = makeHost()
        do {
            try host.load(file: path)
            Issue.record("\(define) was loaded")
        } catch {
            // The fixture's init returns register_action's code, so the load fails with it.
            #expect(error.reason == .initFailed(code: UNDO_EINVAL, message: "register_action: " + message))
        }
        #expect(host.plugins.isEmpty)
    }
}

/// A keystroke of a typing run through the one-argument perform of a resolved action type: made a
/// step, performed and joined to the run through the ordinary merge (the append rule), exactly as
/// the same keystroke performed by id with an array of arguments.
@Suite struct KeystrokeMergeTests {
    let notes = UndoContext("notes")

    func loaded() throws -> PluginHost {
        let (host, _) = makeHost()
        try host.load(file: try Fixtures.buildPlugin("appender.c"))
        return host
    }

    func notesText(_ host: PluginHost) throws -> String { try host.show("notes", AppendMergeTests.id) }
    func totalCost(_ host: PluginHost) -> Int { host.history.withStack { $0.totalCost } }

    @Test func aKeystrokeJoinsItsRunAsAMergeWould() throws {
        let oneArgument = try loaded()
        let merged = try loaded()
        let note = try oneArgument.actionType("appender.note")
        for letter in ["H", "e", "l", "l", "o"] {
            try oneArgument.perform(note, argument: .string(letter), in: notes)  // one argument, resolved
            try merged.perform("appender.note", [.string(letter)], in: notes)  // a step, performed, merged
            oneArgument.history.withStack { $0.checkInvariants() }
        }
        #expect(try notesText(oneArgument) == "Hello|performs=5")  // perform ran for every keystroke
        #expect(try notesText(merged) == "Hello|performs=5")
        let (a, b) = (try #require(oneArgument.newestPluginCommand), try #require(merged.newestPluginCommand))
        #expect(a.arguments == [.string("Hello")] && a.arguments == b.arguments)
        #expect(a.inverseArguments == a.arguments && a.context == notes)
        #expect(a.cost == b.cost && totalCost(oneArgument) == totalCost(merged))
        #expect(oneArgument.history.withStack { $0.steps.map(\.name) } == ["Note"])
        #expect(merged.history.withStack { $0.steps.map(\.name) } == ["Note"])

        try oneArgument.undo()
        #expect(try notesText(oneArgument) == "|performs=5")
        try oneArgument.redo()
        #expect(try notesText(oneArgument) == "Hello|performs=5")
        // After the redo the run is closed: the next keystroke starts a new step, as does one
        // after a break.
        try oneArgument.perform(note, argument: .string(","), in: notes)
        oneArgument.history.withStack { $0.breakCoalescing() }
        try oneArgument.perform(note, argument: .string(" you"), in: notes)
        try oneArgument.perform(note, argument: .string("!?"), in: notes)
        #expect(oneArgument.history.withStack { $0.count } == 3)
        try oneArgument.undo()
        #expect(try notesText(oneArgument) == "Hello,|performs=8")
        oneArgument.history.withStack { $0.checkInvariants() }
    }

    /// A copy of the command taken during a run reads the whole value, and keeps it as the run
    /// goes on (the step is copied on write).
    @Test func aCopyTakenDuringARunKeepsItsValue() throws {
        let host = try loaded()
        let note = try host.actionType("appender.note")
        for letter in ["a", "b"] { try host.perform(note, argument: .string(letter), in: notes) }
        let copy = try #require(host.newestPluginCommand)
        #expect(copy.arguments == [.string("ab")] && copy.inverseArguments == [.string("ab")])
        #expect(copy.description == #"appender.note "ab""#)
        try host.perform(note, argument: .string("c"), in: notes)
        #expect(copy.arguments == [.string("ab")])
        #expect(try #require(host.newestPluginCommand).arguments == [.string("abc")])
        #expect(copy.cost + 1 == (try #require(host.newestPluginCommand)).cost)
        try host.undo()
        #expect(try notesText(host) == "|performs=3")
        #expect(copy.arguments == [.string("ab")])
        try host.redo()
        #expect(try notesText(host) == "abc|performs=3")
        host.history.withStack { $0.checkInvariants() }
    }

    /// The history's own existential of a step, kept by a caller while the run goes on, keeps
    /// its value: the history's box is shared then, and is copied before the merge changes it.
    @Test func theHistorysExistentialKeptOutsideKeepsItsValue() throws {
        let host = try loaded()
        let note = try host.actionType("appender.note")
        for letter in ["a", "b"] { try host.perform(note, argument: .string(letter), in: notes) }
        let kept: any UndoCommand = host.history.withStack { $0.command(at: 0) }
        try host.perform(note, argument: .string("c"), in: notes)
        try host.undo()
        try host.redo()
        #expect((kept as? PluginCommand)?.arguments == [.string("ab")])
        #expect(try #require(host.newestPluginCommand).arguments == [.string("abc")])
        #expect(try notesText(host) == "abc|performs=3")
        host.history.withStack { $0.checkInvariants() }
    }

    /// Under a memory limit the history counts every keystroke joined to a run, and trims the
    /// oldest runs as the newest grows.
    @Test func keystrokesJoinedToARunCountAgainstTheMemoryLimit() throws {
        let (host, _) = makeHost()
        host.history.withStack { $0.memoryLimit = 1000 }
        try host.load(file: try Fixtures.buildPlugin("appender.c"))
        let note = try host.actionType("appender.note")
        var typed = ""
        for run in 0..<6 {
            for index in 0..<100 {
                let letter = String(UnicodeScalar(UInt8(ascii: "a") + UInt8((run + index) % 26)))
                try host.perform(note, argument: .string(letter), in: notes)
                typed += letter
            }
            host.history.withStack {
                $0.checkInvariants()  // the running cost is the steps' costs
                $0.breakCoalescing()
            }
        }
        let (count, total) = host.history.withStack { ($0.count, $0.totalCost) }
        #expect(total <= 1000 && count < 6)  // the oldest runs went
        #expect(try #require(host.newestPluginCommand).arguments == [.string(String(typed.suffix(100)))])
        try host.undo()
        #expect(try notesText(host) == String(typed.dropLast(100)) + "|performs=600")
    }

    @Test func aFailingKeystrokeLeavesTheRunAsItWas() throws {
        let host = try loaded()
        let note = try host.actionType("appender.note")
        for letter in ["H", "i"] { try host.perform(note, argument: .string(letter), in: notes) }
        let cost = totalCost(host)
        guard case .actionFailed(let failure)? = hostError({ try host.perform(note, argument: .string("!"), in: notes) })
        else {
            Issue.record("expected the plugin's failure")
            return
        }
        #expect(failure.message == "no exclamations" && failure.phase == .perform && failure.code == UNDO_EINVAL)
        #expect(try #require(host.newestPluginCommand).arguments == [.string("Hi")])
        #expect(totalCost(host) == cost)
        #expect(try notesText(host) == "Hi|performs=2")
        // The run goes on, and undoes whole.
        try host.perform(note, argument: .string("!?"), in: notes)
        try host.undo()
        #expect(try notesText(host) == "|performs=3")
        host.history.withStack { $0.checkInvariants() }
    }

    /// Keystrokes of every size, pastes and an empty one: on both call routes the run made with
    /// the one-argument perform ends as the one made by id, byte for byte.
    @Test(arguments: [PluginCallRoute.direct, .libffi])
    func keystrokesOfEverySizeJoinAsMergesWould(route: PluginCallRoute) throws {
        let oneArgument = try loaded()
        let merged = try loaded()
        oneArgument.callRoute = route
        merged.callRoute = route
        let note = try oneArgument.actionType("appender.note")
        let texts = ["a", "é", "🙂", "", "fifteen bytes!!", "sixteen bytes!!!", "ü" + String(repeating: "x", count: 13),
                     "ü" + String(repeating: "x", count: 14), String(repeating: "paste ", count: 8), "z"]
        #expect(texts.map(\.utf8.count) == [1, 2, 4, 0, 15, 16, 15, 16, 48, 1])
        for text in texts {
            try oneArgument.perform(note, argument: .string(text), in: notes)
            try merged.perform("appender.note", [.string(text)], in: notes)
            oneArgument.history.withStack { $0.checkInvariants() }
        }
        let typed = texts.joined()
        #expect(try notesText(oneArgument) == typed + "|performs=\(texts.count)")
        #expect(try notesText(merged) == typed + "|performs=\(texts.count)")
        let (a, b) = (try #require(oneArgument.newestPluginCommand), try #require(merged.newestPluginCommand))
        #expect(a.arguments == [.string(typed)] && a.arguments == b.arguments)
        #expect(a.cost == b.cost && totalCost(oneArgument) == totalCost(merged))
        #expect(oneArgument.history.withStack { $0.count } == 1)
        try oneArgument.undo()
        #expect(try notesText(oneArgument) == "|performs=\(texts.count)")
        try oneArgument.redo()
        #expect(try notesText(oneArgument) == typed + "|performs=\(texts.count)")
    }

    /// Threads typing into one history at once: every keystroke lands once, whether it joins a
    /// run or starts a step (the plugin call inside the history's lock, which it does not take
    /// again); the runs undo back to nothing.
    @Test func threadsTypingAtOnceLoseNothing() throws {
        let host = try loaded()
        let note = try host.actionType("appender.note")
        let threads = 4, keystrokes = 300
        let failures = NSLock()
        nonisolated(unsafe) var failed: [String] = []
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let letter = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(thread)))
            for index in 0..<keystrokes {
                do {
                    try host.perform(note, argument: .string(letter), in: notes)
                    if index % 37 == 0 { host.history.withStack { $0.breakCoalescing() } }
                } catch {
                    failures.withLock { failed.append("\(error)") }
                }
            }
        }
        #expect(failed.isEmpty)
        let text = try notesText(host)
        #expect(text.hasSuffix("|performs=\(threads * keystrokes)"))
        #expect(text.count == threads * keystrokes + "|performs=\(threads * keystrokes)".count)
        for thread in 0..<threads {
            let letter = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(thread)))
            #expect(text.filter { $0 == letter }.count == keystrokes)
        }
        host.history.withStack { $0.checkInvariants() }
        try host.history.withStack { stack in
            while stack.canUndo { try stack.undo() }
        }
        #expect(try notesText(host) == "|performs=\(threads * keystrokes)")
    }

    @Test func aBadKeystrokeIsRefusedBeforeAnythingRuns() throws {
        let host = try loaded()
        let note = try host.actionType("appender.note")
        try host.perform(note, argument: .string("a"), in: notes)
        guard case .invalidArguments(let action, _, _)? = hostError({
            try host.perform(note, argument: .string("b\u{0}c"), in: notes)
        }) else {
            Issue.record("expected the argument to be refused")
            return
        }
        #expect(action == "appender.note")
        // A NUL in a text too long to be kept in place is refused the same way.
        let long = String(repeating: "y", count: 20) + "\u{0}"
        guard case .invalidArguments? = hostError({ try host.perform(note, argument: .string(long), in: notes) }) else {
            Issue.record("expected the long argument to be refused")
            return
        }
        // A NUL alone, a keystroke of one byte (checked in place, without memchr), likewise.
        guard case .invalidArguments? = hostError({ try host.perform(note, argument: .string("\u{0}"), in: notes) })
        else {
            Issue.record("expected the NUL keystroke to be refused")
            return
        }
        #expect(try notesText(host) == "a|performs=1")
        #expect(try #require(host.newestPluginCommand).arguments == [.string("a")])
    }

    /// Keystrokes of one byte join the run's bytes in place (read without `withUTF8`), longer
    /// ones as before: a run of both keeps every byte in order, in one step.
    @Test func oneByteAndLongerKeystrokesJoinOneRun() throws {
        let host = try loaded()
        let note = try host.actionType("appender.note")
        let keystrokes = ["a", "é", "b", "\u{1F600}", "~", "ça", "z"]
        for keystroke in keystrokes { try host.perform(note, argument: .string(keystroke), in: notes) }
        #expect(host.stepCount == 1)
        #expect(try #require(host.newestPluginCommand).arguments == [.string(keystrokes.joined())])
        #expect(try notesText(host) == keystrokes.joined() + "|performs=\(keystrokes.count)")
        try host.undo()
        #expect(try notesText(host) == "|performs=\(keystrokes.count)")
    }
}

/// The one-argument perform of a resolved action type, and steps as values (copy on write).
@Suite struct ResolvedPerformTests {
    func loaded() throws -> PluginHost {
        let (host, _) = makeHost()
        try host.load(file: try Fixtures.buildPlugin("appender.c"))
        return host
    }

    @Test func oneArgumentIsCheckedLikeAnArray() throws {
        let host = try loaded()
        let write = try host.actionType("appender.write")
        try host.perform(write, argument: .bytes([9]))
        #expect(try host.show("", AppendMergeTests.id) == "||09|performs=1")

        let type = try host.actionType("appender.type")
        #expect(throws: PluginHostError.self) { try host.perform(type, argument: .string("x")) }
        do {
            try host.perform(type, argument: .string("x"))
        } catch {
            guard case .invalidArguments(let action, _, let argumentError) = error else {
                Issue.record("unexpected \(error)"); return
            }
            #expect(action == "appender.type" && argumentError.kind == .wrongCount(expected: 2, given: 1))
        }
        do {
            try host.perform(write, argument: .string("not bytes"))
            Issue.record("a string was taken for bytes")
        } catch {
            guard case .invalidArguments(_, _, let argumentError) = error else { Issue.record("unexpected \(error)"); return }
            #expect(argumentError.index == 0)
        }
        #expect(host.stepCount == 1)  // nothing performed by the refused calls
    }

    @Test func anActionTypeOfAnotherHostIsRefused() throws {
        let host = try loaded()
        let other = try loaded()
        let write = try other.actionType("appender.write")
        #expect(throws: PluginHostError.self) { try host.perform(write, argument: .bytes([1])) }
        #expect(host.stepCount == 0 && other.stepCount == 0)
    }

    @Test func aCommandIsAValue() throws {
        let host = try loaded()
        let command = try host.makeCommand("appender.write", arguments: [.bytes([5])])
        try host.perform(command)
        try host.perform(command)  // the same value again: a second, separately performed step
        #expect(host.stepCount == 1)  // (they coalesce, and merge by appending)
        let merged = try #require(host.newestPluginCommand)
        #expect(merged.arguments == [.bytes([5, 5])])
        #expect(merged.inverseArguments == [.i32(7), .bytes([5, 5])])
        // The original is untouched by what the history did with its copies.
        #expect(command.arguments == [.bytes([5])] && command.inverseArguments.isEmpty)
        try host.undo()
        #expect(try host.show("", AppendMergeTests.id) == "|||performs=2")
    }

    /// One representation of a plugin step: the action type and the step's fields, 64 bytes,
    /// which the history boxes once (an 80-byte box, malloc's chunk of 96) and a keystroke that
    /// joins its run never boxes.
    @Test func aCommandIsItsActionTypeAndItsFields() {
        #expect(MemoryLayout<PluginCommand>.size == MemoryLayout<ActionType>.size + MemoryLayout<PluginStep.State>.size)
        #expect(MemoryLayout<PluginCommand>.size <= 64)
    }
}

extension PluginHost {
    /// The newest done step, when it is a plugin step.
    var newestPluginCommand: PluginCommand? {
        history.withStack { stack in
            stack.position > 0 ? stack.command(at: stack.position - 1) as? PluginCommand : nil
        }
    }
}
