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
// is `undo_plugin_entry`, and only C types cross to the host.
import UndoPluginABI
import UndoPluginKit

let notesPlugin = UndoPlugin(
    id: "org.undohost.notes", name: "Notes (Swift)", version: "1.0.0",
    actions: [
        UndoPluginAction(id: "write", name: "New Note",
                         perform: UndoPluginFunction(writeNote, parameterNames: "text", "priority"),
                         inverse: UndoPluginFunction(unwriteNote))
            .localized(["ko": "새 메모"]),
        UndoPluginAction(id: "erase", name: "Delete Note",
                         perform: UndoPluginFunction(eraseNote, parameterNames: "index"),
                         inverse: UndoPluginFunction(restoreNote, parameterNames: "index", "text", "priority"))
            .localized(["ko": "메모 삭제"]),
        UndoPluginAction(id: "prioritize", name: "Priority Change",
                         perform: UndoPluginFunction(prioritizeNote, parameterNames: "index", "priority"),
                         inverse: UndoPluginFunction(prioritizeNote, parameterNames: "index", "priority"))
            .coalescing("priority", merge: mergePriorities)
            .localized(["ko": "우선순위 변경"]),
        UndoPluginAction(id: "type", name: "Typing",
                         perform: UndoPluginFunction(typeIntoNote, parameterNames: "index", "text"),
                         inverse: UndoPluginFunction(untypeFromNote))
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
