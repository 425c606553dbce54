import Testing
import UndoCore
import UndoPluginABI
import UndoPluginHost

/// A Swift plugin's mistakes in describing itself make its own load fail with a message; the
/// host's process carries on (Tests/SwiftPluginMistakes holds the plugin).
@Suite struct KitMistakeTests {
    @Test func aMistakenSwiftPluginIsRefusedAndTheHostCarriesOn() throws {
        let (host, _) = SwiftPluginFixtures.makeHost()
        let path = SwiftPluginFixtures.products + "/libUndoTestSwiftMistakes.so"
        var refusal: PluginLoadError?
        do {
            try host.load(file: path)
        } catch {
            refusal = error
        }
        let error = try #require(refusal)
        guard case .initFailed(let code, let message?) = error.reason else {
            Issue.record("expected the kit's init to refuse, got \(error)")
            return
        }
        #expect(code == Int32(UNDO_EINVAL))
        #expect(message.hasPrefix("org.undohost.test.mistakes cannot be used: "))
        #expect(message.contains("saveDocument and loadDocument go together: give both or neither"))
        #expect(message.contains("describeRange needs describe (the whole view, which hosts still show)"))
        #expect(message.contains("only one UndoPlugin per shared object, but org.undohost.test.mistakes and org.undohost.test.second were made"))
        #expect(host.plugins.isEmpty)

        // Still alive, and still loading: a correct plugin loads and works in the same host.
        try host.load(file: SwiftPluginFixtures.notes)
        try host.perform("notes.write", [.string("Milk"), .i32(1)], in: UndoContext("list"))
        #expect(try host.describe(UndoContext("list"), plugin: "org.undohost.notes") == "#0 [1] Milk")
    }
}
