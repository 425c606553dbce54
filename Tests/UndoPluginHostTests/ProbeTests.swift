import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// Every parameter type through libffi, and the ways a plugin fails, misbehaves or records on
/// its own, with the probe fixture plugin (built by the test with cc).
@Suite struct ProbeTests {
    let host: PluginHost
    let log: LogCollector
    let path: String
    let doc = UndoContext("doc")

    init() throws {
        (host, log) = makeHost()
        path = try Fixtures.buildPlugin("probe.c")
        try host.load(file: path)
    }

    func state() throws -> String { try host.describe(doc, plugin: "org.undohost.test.probe") }

    func failure(_ body: () throws -> Void) -> PluginActionError? {
        guard case .actionFailed(let failure)? = hostError(body) else { return nil }
        return failure
    }

    @Test func everyParameterTypeCrossesIntact() throws {
        try host.perform("probe.all", argumentText:
            #"-2147483648 4294967295 -9223372036854775808 18446744073709551615 -1.5 "héllo \"q\"" x"00ff10""#, in: doc)
        let line = #"[doc] -2147483648 4294967295 -9223372036854775808 18446744073709551615 -1.5 "héllo "q"" x00ff10"#
        #expect(try state() == "value=0 performs=1 redos=0 inverses=0\n\(line)\n")
        try host.perform("probe.all", [.i32(7), .u32(0), .i64(1), .u64(2), .f64(0.1), .string(""), .bytes([])], in: doc)
        let second = #"[doc] 7 0 1 2 0.10000000000000001 "" x"#
        #expect(try state() == "value=0 performs=2 redos=0 inverses=0\n\(line)\n\(second)\n")
        #expect(host.stepCount == 2)
        try host.undo(count: 2)
        #expect(try state() == "value=0 performs=2 redos=0 inverses=2\n")
        try host.redo(count: 2)
        #expect(try state() == "value=0 performs=2 redos=2 inverses=2\n\(line)\n\(second)\n")
    }

    @Test func inverseArgumentsComeFromPerformAndAreRefreshedOnRedo() throws {
        try host.perform("probe.set", [.i64(5)], in: doc)
        try host.perform("probe.set", [.i64(9)], in: doc)
        #expect(try state().hasPrefix("value=9 "))
        let result = try #require(try host.undo())
        #expect(result.changes == [UndoChange(context: doc, location: 5)])
        #expect(try state().hasPrefix("value=5 "))
        try host.undo()
        #expect(try state().hasPrefix("value=0 "))
        try host.redo(count: 2)
        #expect(try state().hasPrefix("value=9 performs=2 redos=2 inverses=2"))
    }

    @Test func aFailingPerformIsAnErrorWithThePluginsMessage() throws {
        let error = try #require(failure { try host.perform("probe.fail", [.i32(-4)], in: doc) })
        #expect(error.code == UNDO_ERANGE)
        #expect(error.message == "asked to fail with -4")
        #expect(error.phase == .perform)
        #expect(host.stepCount == 0)
        let positive = try #require(failure { try host.perform("probe.fail", [.i32(3)], in: doc) })
        #expect(positive.code == UNDO_EPLUGIN)
        #expect(positive.message == "returned 3, which is not an error code: asked to fail with 3")
        let bad = try #require(failure { try host.perform("probe.badreturn", [], in: doc) })
        #expect(bad.code == UNDO_EPLUGIN)
        #expect(host.stepCount == 0)
    }

    @Test func aPerformThatForgetsAnInverseArgumentIsRefused() throws {
        let error = try #require(failure { try host.perform("probe.forget", [], in: doc) })
        #expect(error.code == UNDO_EPLUGIN)
        #expect(error.message.contains("without setting inverse argument 1 (x: i64)"))
        #expect(host.stepCount == 0)
        // Said once, by the error the caller gets, not also in the log (undo-host printed both).
        #expect(!log.messages.contains { $0.message.contains("probe.forget") })
    }

    @Test func anInverseArgumentOfTheWrongTypeIsRefused() throws {
        let error = try #require(failure { try host.perform("probe.wrongtype", [], in: doc) })
        #expect(error.code == UNDO_ETYPE)
        #expect(error.message == "set_inverse_arg(0): expected i64, got string")
        #expect(host.stepCount == 0)
    }

    @Test func reenteringTheHostFromPerformIsRefused() throws {
        try host.perform("probe.reenter", [], in: doc)
        #expect(try state().contains("reenter record=\(UNDO_EREENTRANT) register=\(UNDO_ESTATE)\n"))
        #expect(host.stepCount == 1)
        #expect(host.actionTypes.allSatisfy { $0.localID != "late" })
        #expect(log.messages.contains(PluginLogMessage(pluginID: "org.undohost.test.probe", level: .warning,
                                                       message: "register_action was called outside init; refused")))
        #expect(log.messages.contains { $0.message.hasPrefix("record refused: record was called from inside a call the host made") })
    }

    @Test func aFailingUndoKeepsTheStep() throws {
        try host.perform("probe.undofail", [.i32(1)], in: doc)
        let error = try #require(failure { try host.undo() })
        #expect(error.code == UNDO_ERANGE)
        #expect(error.message == "cannot undo this")
        #expect(error.phase == .undo)
        #expect(host.history.withStack { $0.undoCount } == 1)
    }

    @Test func aPluginRecordsChangesItMadeOnItsOwn() throws {
        typealias UISet = @convention(c) (UnsafePointer<CChar>?, Int64) -> Int32
        let uiSet = try Fixtures.function("probe_ui_set", in: path, as: UISet.self)
        #expect(uiSet("doc", 42) == UNDO_OK)
        #expect(try state().hasPrefix("value=42 performs=0 "))
        #expect(host.stepCount == 1)
        #expect(host.undoTitle == "Undo Set")
        try host.undo()
        #expect(try state().hasPrefix("value=0 performs=0 redos=0 inverses=1"))
        try host.redo()
        #expect(try state().hasPrefix("value=42 performs=0 redos=1 inverses=1"))
    }

    @Test func recordsWithBadArgumentsAreRefused() throws {
        typealias UIRecord = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<undo_value>?, UInt32,
                                             UnsafePointer<undo_value>?, UInt32) -> Int32
        let record = try Fixtures.function("probe_ui_record", in: path, as: UIRecord.self)
        var number = undo_value()
        number.type = UInt32(UNDO_TYPE_I64)
        number.as.i64 = 1
        var text = undo_value()
        text.type = UInt32(UNDO_TYPE_STRING)
        let invalid: [CChar] = [0x61, -1, 0]
        let status: Int32 = invalid.withUnsafeBufferPointer { buffer in
            text.as.string.data = buffer.baseAddress
            text.as.string.size = 2
            // "all" with an invalid UTF-8 string for s.
            var values = [number, number, number, number, number, text, number]
            values[4].type = UInt32(UNDO_TYPE_F64)
            values[4].as.f64 = 1
            values[6].type = UInt32(UNDO_TYPE_BYTES)
            values[6].as.bytes.size = 0
            return record("all", values, 7, nil, 0)
        }
        #expect(status == UNDO_EUTF8)
        #expect(record("nope", &number, 1, &number, 1) == UNDO_ENOTFOUND)
        #expect(record("set", &number, 1, nil, 0) == UNDO_ECOUNT)
        // The inverse's count is checked before the perform values are read: a NULL array
        // with a wrong inverse count is UNDO_ECOUNT, not a read of the array (UNDO_EINVAL).
        #expect(record("set", nil, 1, &number, 0xFFFF_FFFF) == UNDO_ECOUNT)
        var wrong = number
        wrong.type = UInt32(UNDO_TYPE_F64)
        #expect(record("set", &wrong, 1, &number, 1) == UNDO_ETYPE)
        var big = number
        big.type = UInt32(UNDO_TYPE_U64)
        big.as.u64 = .max
        #expect(record("set", &big, 1, &number, 1) == UNDO_ERANGE)
        #expect(host.stepCount == 0)
        #expect(log.messages.filter { $0.message.hasPrefix("record refused") }.count == 6)
        // A good one goes in.
        #expect(record("set", &number, 1, &number, 1) == UNDO_OK)
        #expect(host.stepCount == 1)
    }

    @Test func aRecordDuringAnActionIsRefusedWithoutDeadlock() throws {
        // The probe's reenter action calls record from inside perform: UNDO_EREENTRANT (above);
        // a record while a group is open goes into the group.
        typealias UISet = @convention(c) (UnsafePointer<CChar>?, Int64) -> Int32
        let uiSet = try Fixtures.function("probe_ui_set", in: path, as: UISet.self)
        try host.history.withStack { try $0.beginGroup(named: "Batch") }
        #expect(uiSet("doc", 1) == UNDO_OK)
        try host.perform("probe.set", [.i64(2)], in: doc)
        try host.history.withStack { try $0.endGroup() }
        #expect(host.stepCount == 1)
        #expect(host.undoTitle == "Undo Batch")
        try host.undo()
        #expect(try state().hasPrefix("value=0 "))
    }
}
