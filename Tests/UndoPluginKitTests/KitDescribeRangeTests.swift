import Testing
import UndoCore
import UndoPluginABI
import UndoPluginHost
import UndoTestSupport

/// A Swift plugin gives the view of a part of a document (describeRange, ABI 1.8
/// describe_range) through the kit: the host calls it instead of cutting the whole view.
@Suite struct KitDescribeRangeTests {
    @Test func aSwiftPluginDescribesARange() throws {
        let (host, _) = SwiftPluginFixtures.makeHost()
        try host.load(file: SwiftPluginFixtures.products + "/libUndoTestSwiftKitUse.so")
        let doc = UndoContext("doc")
        try host.perform("kit.mark", [.i64(42)], in: doc)
        try host.perform("kit.level", [.i64(3)], in: doc)
        #expect(try host.describe(doc, plugin: "org.undohost.test.kit") == "mark=42 level=3")
        #expect(host.describesRanges(plugin: "org.undohost.test.kit") == true)
        let part = try host.view(of: doc, plugin: "org.undohost.test.kit", range: 5..<7)
        #expect(part.text == "42" && part.range == 5..<7 && part.extent == 15)
        let end = try host.view(of: doc, plugin: "org.undohost.test.kit", range: 14..<40)
        #expect(end.text == "3" && end.range == 14..<15)
        // The plugin's own failure comes back with its message and code.
        do {
            _ = try host.view(of: doc, plugin: "org.undohost.test.kit", range: 1000..<1001)
            Issue.record("a refused part was shown")
        } catch {
            guard case .actionFailed(let failure) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(failure.code == Int32(UNDO_EINVAL) && failure.message == "no part from 1000")
        }
    }

    @Test func swiftNotesWithoutDescribeRangeIsCutByTheHost() throws {
        let (host, _) = SwiftPluginFixtures.makeHost()
        try host.load(file: SwiftPluginFixtures.products + "/libUndoPluginSwiftNotes.so")
        let id = try #require(host.plugins.first).id
        #expect(host.describesRanges(plugin: id) == false)
    }
}
