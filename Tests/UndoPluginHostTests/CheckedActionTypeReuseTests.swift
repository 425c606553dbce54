#if canImport(Glibc)
import Glibc
#endif
import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// A plugin registers the same action types in every host that loads it: what reading and
/// checking one produced is kept for the process and shared by a later registration that reads
/// exactly the same (CheckedActionType), and only by such a one.
@Suite struct CheckedActionTypeReuseTests {
    /// A second host loading the same plugin shares every action type its first load checked,
    /// and its plugin works as the first one does (its own init, its own documents).
    @Test func aSecondHostSharesTheCheckedActionTypes() throws {
        let (first, _) = makeHost()
        let firstInfo = try first.load(file: Fixtures.textEditor)
        let (second, _) = makeHost()
        let secondInfo = try second.load(file: Fixtures.textEditor)
        let plugin = try #require(second.loadedPlugin(withID: "org.undohost.text"))
        #expect(plugin.reusedRegistrations == secondInfo.actionTypes.count)
        #expect(plugin.reusedRegistrations > 0)
        #expect(secondInfo.actionTypes.map(\.detailedDescription) == firstInfo.actionTypes.map(\.detailedDescription))
        try first.perform("text.insert", [.i64(0), .string("one")], in: .global)
        try second.perform("text.insert", [.i64(0), .string("two")], in: .global)
        #expect(try first.describe(.global, plugin: "org.undohost.text") == "one")
        #expect(try second.describe(.global, plugin: "org.undohost.text") == "two")
        try second.undo()
        #expect(try second.describe(.global, plugin: "org.undohost.text") == "")
        #expect(try first.describe(.global, plugin: "org.undohost.text") == "one")
    }

    /// An action type changed in place between two registrations (a string's bytes, a
    /// parameter's type or name, a flag, a function, the struct's size) is read and checked
    /// again: the match is by contents, never by address.
    @Test func anActionTypeThatReadsDifferentlyIsReadAgain() throws {
        let (host, _) = makeHost()
        try host.load(file: Fixtures.textEditor)
        let plugin = try #require(host.loadedPlugin(withID: "org.undohost.text"))
        // Two functions of the plugin's (the probe's are never called).
        let functions = plugin.actions.prefix(2).map { $0.performFunction.function }
        try #require(functions.count == 2)
        let probe = ProbeActionType(id: "reuse_probe_\(UInt32.random(in: 0...UInt32.max))", function: functions[0])
        defer { probe.release() }

        func read(existing: [String: Int] = [:]) throws(RegistrationError) -> (ActionType, reused: Bool) {
            var reused = false
            let action = try ActionTypeReader.read(probe.type, plugin: plugin, existing: existing, reused: &reused)
            return (action, reused)
        }
        let fresh = try read()
        #expect(!fresh.reused)
        #expect(fresh.0.description == "text.\(probe.id)(x: i64) \"One\"")
        let again = try read()
        #expect(again.reused)
        #expect(again.0.description == fresh.0.description)
        #expect(again.0.performFunction === fresh.0.performFunction)

        probe.setName("Two")  // the same pointer, other bytes
        let renamed = try read()
        #expect(!renamed.reused)
        #expect(renamed.0.name == "Two")
        #expect(try read().reused)

        probe.setName("Tw")  // a prefix of the kept name
        let shorter = try read()
        #expect(!shorter.reused && shorter.0.name == "Tw")
        probe.setName("Twoo")  // the kept name is a prefix of it
        let longer = try read()
        #expect(!longer.reused && longer.0.name == "Twoo")

        probe.setParameter(type: UInt32(UNDO_TYPE_STRING))
        let retyped = try read()
        #expect(!retyped.reused)
        #expect(retyped.0.signature.types == [.string])

        probe.setParameter(name: "y")
        let renamedParameter = try read()
        #expect(!renamedParameter.reused)
        #expect(renamedParameter.0.signature.parameters.map(\.name) == ["y"])

        probe.type.pointee.flags = UInt32(UNDO_ACTION_DISCARDABLE)
        let discardable = try read()
        #expect(!discardable.reused && discardable.0.isDiscardable)

        probe.type.pointee.inverse = functions[1]
        let otherInverse = try read()
        #expect(!otherInverse.reused)
        #expect(otherInverse.0.inverseFunction !== discardable.0.inverseFunction)

        probe.type.pointee.struct_size = ActionTypeReader.minimumSize  // a 1.0 struct: merge_mode not read
        #expect(try !read().reused)
        #expect(try read().reused)

        // A bad change is refused as before, not passed on from the kept one.
        probe.setName("")
        #expect(throws: RegistrationError.self) { try read() }

        // The check that depends on the host is made on every registration.
        probe.setName("Two")
        _ = try read()
        do {
            _ = try read(existing: [probe.id: 0])
            Issue.record("a duplicate id was accepted")
        } catch {
            #expect(error.code == Int32(UNDO_EEXIST))
            #expect(error.message == "action id \(probe.id) is already registered")
        }
    }
}

/// An undo_action_type in memory of its own, with strings that can be changed in place.
private final class ProbeActionType {
    let id: String
    let type: UnsafeMutablePointer<undo_action_type>
    private let idBytes: UnsafeMutablePointer<CChar>
    private let nameBytes: UnsafeMutablePointer<CChar>
    private let parameterName: UnsafeMutablePointer<CChar>
    private let parameter: UnsafeMutablePointer<undo_param>

    init(id: String, function: undo_fn) {
        self.id = id
        idBytes = strdup(id)!
        nameBytes = .allocate(capacity: 16)
        parameterName = .allocate(capacity: 4)
        parameter = .allocate(capacity: 1)
        type = .allocate(capacity: 1)
        type.initialize(to: undo_action_type())
        parameter.initialize(to: undo_param())
        setName("One")
        setParameter(name: "x")
        setParameter(type: UInt32(UNDO_TYPE_I64))
        type.pointee.struct_size = UInt32(MemoryLayout<undo_action_type>.size)
        type.pointee.id = UnsafePointer(idBytes)
        type.pointee.name = UnsafePointer(nameBytes)
        type.pointee.params = UnsafePointer(parameter)
        type.pointee.param_count = 1
        type.pointee.perform = function
        type.pointee.inverse = function
        type.pointee.merge_mode = UInt32(UNDO_MERGE_BY_FUNCTION)
    }

    func setName(_ name: String) {
        precondition(name.utf8.count < 16)
        _ = name.withCString { strcpy(nameBytes, $0) }
    }

    func setParameter(name: String) {
        precondition(name.utf8.count < 4)
        _ = name.withCString { strcpy(parameterName, $0) }
        parameter.pointee.name = UnsafePointer(parameterName)
    }

    func setParameter(type: UInt32) { parameter.pointee.type = type }

    func release() {
        free(idBytes)
        nameBytes.deallocate()
        parameterName.deallocate()
        parameter.deallocate()
        type.deallocate()
    }
}
