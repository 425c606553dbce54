import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// What a plugin returns reaches the caller as a code of the error table, and a plugin that
/// keeps asking for a larger buffer gets one retry, not a loop.
@Suite struct PluginErrorCodes {
    typealias FailAt = @convention(c) (Int64) -> Void
    typealias FailWith = @convention(c) (Int32) -> Void
    typealias KeepsAsking = @convention(c) (Int32) -> Void

    @Test("A code outside the table becomes UNDO_EPLUGIN, naming what the plugin returned",
          arguments: [Int32(-999), Int32.min, Int32(-19), Int32(7)])
    func unknownCodes(_ returned: Int32) throws {
        let path = try Fixtures.buildPlugin("faults.c")
        let failAt = try Fixtures.function("faults_fail_at", in: path, as: FailAt.self)
        let failWith = try Fixtures.function("faults_fail_with", in: path, as: FailWith.self)
        let host = PluginHost(log: { _ in })
        _ = try host.load(file: path)
        failWith(returned)
        defer { failWith(Int32(UNDO_EPLUGIN)) }
        failAt(1)
        let error = try #require(throws: PluginHostError.self) {
            try host.perform("faults.append", argumentText: "\"a\"", in: UndoContext("a"))
        }
        #expect(error.code == Int32(UNDO_EPLUGIN))
        #expect("\(error)".contains("returned \(returned), which is not an error code"))
        #expect(host.history.withStack { $0.count } == 0)
    }

    @Test("A code of the table reaches the caller unchanged")
    func knownCode() throws {
        let path = try Fixtures.buildPlugin("faults.c")
        let failAt = try Fixtures.function("faults_fail_at", in: path, as: FailAt.self)
        let failWith = try Fixtures.function("faults_fail_with", in: path, as: FailWith.self)
        let host = PluginHost(log: { _ in })
        _ = try host.load(file: path)
        failWith(Int32(UNDO_ERANGE))
        defer { failWith(Int32(UNDO_EPLUGIN)) }
        failAt(1)
        let error = try #require(throws: PluginHostError.self) {
            try host.perform("faults.append", argumentText: "\"a\"", in: UndoContext("a"))
        }
        #expect(error.code == Int32(UNDO_ERANGE))
    }

    @Test("describe that always wants a larger buffer is refused after one retry")
    func describeAsksOnce() throws {
        let path = try Fixtures.buildPlugin("faults.c")
        let keepsAsking = try Fixtures.function("faults_describe_keeps_asking", in: path, as: KeepsAsking.self)
        let host = PluginHost(log: { _ in })
        _ = try host.load(file: path)
        try host.perform("faults.append", argumentText: "\"a\"", in: UndoContext("a"))
        keepsAsking(1)
        defer { keepsAsking(0) }
        let error = try #require(throws: PluginHostError.self) {
            try host.describe(UndoContext("a"), plugin: "org.undohost.test.faults")
        }
        #expect(error.code == Int32(UNDO_EPLUGIN))
        #expect("\(error)".contains("asked for a 4099-byte buffer after being given the 4097 bytes it asked for"))
        keepsAsking(0)
        #expect(try host.describe(UndoContext("a"), plugin: "org.undohost.test.faults") == "a|0|")
    }
}
