// A test fixture: a Swift plugin with the mistakes a kit user can make when describing it. The
// host must refuse to load it, with a message naming each mistake, and carry on
// (Tests/UndoPluginKitTests/KitMistakeTests.swift).
import UndoPluginABI
import UndoPluginKit

final class Nothing {}

/// A Swift closure where a C function is needed: it cannot be handed to the host.
let swiftClosure: @Sendable (UnsafeMutablePointer<undo_call>?, Int64) -> Int32 = { _, _ in 0 }

/// C functions of one and of two parameters: given two names, and as the inverse of the other.
let oneParameter: @convention(c) (UnsafeMutablePointer<undo_call>?, Int32) -> Int32 = { call, _ in
    UndoCall.run(call) { _ in }
}
let twoParameters: @convention(c) (UnsafeMutablePointer<undo_call>?, Int32, Double) -> Int32 = { call, _, _ in
    UndoCall.run(call) { _ in }
}

let mistaken = UndoPlugin(
    id: "org.undohost.test.mistakes", name: "Mistakes", version: "1.0",
    actions: [
        UndoPluginAction(id: "closure", name: "Closure", perform: UndoPluginFunction(swiftClosure, parameterNames: "amount"),
                         inverse: UndoPluginFunction(swiftClosure)),
        UndoPluginAction(id: "names", name: "Names", perform: UndoPluginFunction(oneParameter, parameterNames: "amount", "text"),
                         inverse: UndoPluginFunction(oneParameter)),
        UndoPluginAction(id: "inverse", name: "Inverse", perform: UndoPluginFunction(oneParameter, parameterNames: "amount"),
                         inverse: UndoPluginFunction(twoParameters)),
    ],
    makeState: { _ in Nothing() },
    saveDocument: { _, _ in [] })  // without loadDocument

/// A second plugin in the same shared object.
let second = UndoPlugin(id: "org.undohost.test.second", name: "Second", version: "1.0", actions: [],
                        makeState: { _ in Nothing() })

@c(undo_plugin_entry)
public func undoPluginEntry() -> UnsafePointer<undo_plugin_descriptor>? {
    let descriptor = mistaken.descriptor
    _ = second.id  // made after the first: globals are made on first use
    return descriptor
}
