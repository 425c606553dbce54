// A test fixture: a Swift plugin with the mistakes a kit user can make when describing it. The
// host must refuse to load it, with a message naming each mistake, and carry on
// (Tests/UndoPluginKitTests/KitMistakeTests.swift).
import UndoPluginABI
import UndoPluginKit

final class Nothing {}

let mistaken = UndoPlugin(
    id: "org.undohost.test.mistakes", name: "Mistakes", version: "1.0",
    actions: [],
    makeState: { _ in Nothing() },
    saveDocument: { _, _ in [] },  // without loadDocument
    describeRange: { _, _, _ in ("", 0) })  // without describe

/// A second plugin in the same shared object.
let second = UndoPlugin(id: "org.undohost.test.second", name: "Second", version: "1.0", actions: [],
                        makeState: { _ in Nothing() })

@c(undo_plugin_entry)
public func undoPluginEntry() -> UnsafePointer<undo_plugin_descriptor>? {
    let descriptor = mistaken.descriptor
    _ = second.id  // made after the first: globals are made on first use
    return descriptor
}
