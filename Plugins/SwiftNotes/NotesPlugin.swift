// Sample plugin written in Swift: a list of notes per document (context).
//
//   notes.write(text: string, priority: i32)   "New Note"         inverse: the same arguments
//   notes.erase(index: u32)                     "Delete Note"      inverse: (index, text, priority)
//   notes.prioritize(index: u32, priority: i32) "Priority Change"  coalesces and merges
//   notes.type(index: u32, text: string)        "Typing"           coalesces; the host appends
//
// describe() shows one line per note: "#0 [2] Buy milk" (index, priority, text); a document's notes
// save as bytes and load back (NotesBook+Saving.swift). Built by `swift build` as
// libUndoPluginSwiftNotes.so and loaded by the same loader as the C plugins: its one entry point
// is `undo_plugin_entry`, and only C types cross to the host (the kit calls the actions' Swift
// closures from its one C function of the values calling convention, ABI 1.7).
import UndoPluginABI
import UndoPluginKit

let notesPlugin = UndoPlugin(
    id: "org.undohost.notes", name: "Notes (Swift)", version: "1.0.0",
    actions: [
        UndoPluginAction(id: "write", name: "New Note", parameters: [.string("text"), .i32("priority")],
                         perform: writeNote, inverse: unwriteNote)
            .localized(["ko": "새 메모"]),
        UndoPluginAction(id: "erase", name: "Delete Note", parameters: [.init(indexKey)], perform: eraseNote,
                         inverseParameters: [.init(indexKey), .init(textKey), .init(priorityKey)], inverse: restoreNote)
            .localized(["ko": "메모 삭제"]),
        UndoPluginAction(id: "prioritize", name: "Priority Change", parameters: [.init(indexKey), .init(priorityKey)],
                         perform: prioritizeNote, inverseParameters: [.init(indexKey), .init(priorityKey)],
                         inverse: prioritizeNote)
            .coalescing("priority", merge: mergePriorities)
            .localized(["ko": "우선순위 변경"]),
        UndoPluginAction(id: "type", name: "Typing", parameters: [.u32("index"), .string("text")],
                         perform: typeIntoNote, inverse: untypeFromNote)
            .coalescingByAppending("typing")
            .localized(["ko": "입력"]),
    ],
    makeState: { _ in NotesBook() },
    describe: { book, context in book.text(of: context) },
    closeDocument: { book, context in book.close(context) },
    // docs:begin saving
    saveDocument: { book, context in book.saved(context) },
    loadDocument: { book, context, bytes in try book.load(bytes, into: context) })
    // docs:end saving

@c(undo_plugin_entry)
public func undoPluginEntry() -> UnsafePointer<undo_plugin_descriptor>? {
    notesPlugin.descriptor
}
