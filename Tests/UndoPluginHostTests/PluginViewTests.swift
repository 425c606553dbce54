import Testing
import UndoCore
@testable import UndoPluginHost

/// A view longer than the caller wants (a document of hundreds of megabytes, whose view is over
/// the 16 MiB ``PluginHost/describe(_:plugin:)`` returns) comes back cut at a whole character,
/// with its whole length and saying it is cut, instead of failing.
@Suite struct PluginViewTests {
    func textHost(_ text: String) throws -> PluginHost {
        let host = PluginHost(hostName: "views")
        try host.load(file: Fixtures.textEditor)
        try host.perform("text.insert", [.i64(0), .string(text)], in: .global)
        return host
    }

    @Test func aLongViewIsCutAtAWholeCharacterAndSaysSo() throws {
        let text = "héllo wörld" // 13 bytes: é and ö take two
        let host = try textHost(text)
        let whole = try host.view(of: .global, plugin: "org.undohost.text")
        #expect(whole == PluginView(text: text, length: 13, isCut: false))
        #expect(try host.describe(.global, plugin: "org.undohost.text") == text)
        // "hé" needs 3 bytes: at 2 only "h" fits whole.
        #expect(try host.view(of: .global, plugin: "org.undohost.text", atMost: 2) == PluginView(text: "h", length: 13, isCut: true))
        #expect(try host.view(of: .global, plugin: "org.undohost.text", atMost: 3) == PluginView(text: "hé", length: 13, isCut: true))
        #expect(try host.view(of: .global, plugin: "org.undohost.text", atMost: 0) == PluginView(text: "", length: 13, isCut: true))
        #expect(try host.view(of: .global, plugin: "org.undohost.text", atMost: 13) == whole)
        // Past the 4 KiB the first call's buffer holds: the plugin is asked again, up to the limit.
        let long = String(repeating: "ab", count: 5_000)
        let other = try textHost(long)
        #expect(try other.view(of: .global, plugin: "org.undohost.text", atMost: 6_001)
            == PluginView(text: String(long.prefix(6_001)), length: 10_000, isCut: true))
        #expect(try other.view(of: .global, plugin: "org.undohost.text") == PluginView(text: long, length: 10_000, isCut: false))
    }

    @Test func cuttingKeepsOnlyWholeCharacters() {
        let bytes = Array("a€😀".utf8) // 1 + 3 + 4 bytes
        #expect((0...bytes.count).map { LoadedPlugin.cut(Array(bytes.prefix($0))) }
            == ["", "a", "a", "a", "a€", "a€", "a€", "a€", "a€😀"])
    }
}
