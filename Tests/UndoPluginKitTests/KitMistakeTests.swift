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
        #expect(message.contains(#"action "closure": its perform function needs a @convention(c) function returning Int32, not @Sendable (Optional<UnsafeMutablePointer<undo_call>>, Int64) -> Int32"#))
        #expect(message.contains(#"action "names": its perform function is @convention(c) (Optional<UnsafeMutablePointer<undo_call>>, Int32) -> Int32, which takes 1 parameter after the undo_call pointer, but 2 names are given (amount, text)"#))
        #expect(message.contains(#"action "inverse": its inverse function is @convention(c) (Optional<UnsafeMutablePointer<undo_call>>, Int32, Double) -> Int32, which does not take the declared parameters (amount: i32) after the undo_call pointer"#))
        #expect(message.contains("saveDocument and loadDocument go together: give both or neither"))
        #expect(message.contains("only one UndoPlugin per shared object, but org.undohost.test.mistakes and org.undohost.test.second were made"))
        #expect(host.plugins.isEmpty)

        // Still alive, and still loading: a correct plugin loads and works in the same host.
        try host.load(file: SwiftPluginFixtures.notes)
        try host.perform("notes.write", [.string("Milk"), .i32(1)], in: UndoContext("list"))
        #expect(try host.describe(UndoContext("list"), plugin: "org.undohost.notes") == "#0 [1] Milk")
    }
}
