import Testing
import UndoCore
@testable import UndoPluginHost

@Suite struct ClosingDocuments {
    /// Closing a document takes its steps out of the shared history and tells every plugin to
    /// forget it (ABI 1.1 close_context); the other documents keep their steps and contents.
    @Test func closingForgetsTheDocumentInEveryPlugin() throws {
        let (host, _) = makeHost()
        try host.load(file: Fixtures.textEditor)
        try host.load(file: Fixtures.canvas)
        let letter = UndoContext("letter")
        let sketch = UndoContext("sketch")
        try host.perform("text.insert", [.i64(0), .string("Dear Ann")], in: letter)
        try host.perform("canvas.add", argumentText: #"1 "rect" 0 0 10 10 0"#, in: letter)
        try host.perform("text.insert", [.i64(0), .string("Notes")], in: sketch)

        let removed = try host.closeContext(letter)
        #expect(removed == 2)
        #expect(try host.describe(letter, plugin: "org.undohost.text") == "")
        #expect(try host.describe(letter, plugin: "org.undohost.canvas") == "")
        #expect(try host.describe(sketch, plugin: "org.undohost.text") == "Notes")
        #expect(host.history.withStack { $0.count } == 1)

        // A document opened again under the same name starts empty and works as new.
        try host.perform("text.insert", [.i64(0), .string("Hi")], in: letter)
        try host.undo()
        #expect(try host.describe(letter, plugin: "org.undohost.text") == "")
        try host.undo()
        #expect(try host.describe(sketch, plugin: "org.undohost.text") == "")
    }

    /// A 1.0 plugin (shorter descriptor, no close_context) still loads and is simply not told.
    @Test func aPluginBuiltFor1_0IsNotAskedToClose() throws {
        let (host, _) = makeHost()
        let counter = try Fixtures.buildPlugin("thirdparty_counter.c")
        try host.load(file: counter)
        try host.perform("counter.add", argumentText: "5", in: UndoContext("notes"))
        #expect(try host.closeContext(UndoContext("notes")) == 1)
        #expect(host.history.withStack { $0.count } == 0)
    }
}
