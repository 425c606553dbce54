import UndoPluginABI
import UndoPluginKit

// The functions the host calls: Swift closures given the call and the step's arguments, in the
// order NotesPlugin.swift declares them (read with their declared types: args[0].string). Changes
// are reported as objects by the note's index, which hosts match to the "#<index>" lines of
// describe(). (An index shifts when an earlier note is erased; a plugin whose hosts highlight
// changes should give each note an id of its own: docs/writing-a-plugin-in-swift.md.)

/// The parameters with their Swift types: values set through them take their type, so a value
/// of another type does not compile.
let indexKey = UndoParameterKey<UInt32>("index")
let textKey = UndoParameterKey<String>("text")
let priorityKey = UndoParameterKey<Int32>("priority")

/// notes.write(text: string, priority: i32): appends a note. Its inverse takes the same
/// arguments and removes that note again.
let writeNote: UndoActionFunction = { call, args in
    let book = try call.state(NotesBook.self)
    let written = try args[0].string
    book.append(.init(text: written, priority: try args[1].int32), in: call.context)
    try call.reportChange(.object(Int64(book.notes(in: call.context).count - 1)))
    if call.phase == .perform {
        // The history list's text, in the host's language. Optional: an older host, which
        // has no descriptions, shows the name alone.
        let shown = written.count > 40 ? written.prefix(39) + "…" : Substring(written)
        try? call.setDescription(call.host.locale.hasPrefix("ko") ? "메모 \"\(shown)\" 쓰기" : "Write \"\(shown)\"")
    }
}

let unwriteNote: UndoActionFunction = { call, args in
    let book = try call.state(NotesBook.self)
    let last = book.notes(in: call.context).count - 1
    // Undo must take back exactly what was written, not whatever is last now.
    guard last >= 0, book.notes(in: call.context)[last] == .init(text: try args[0].string, priority: try args[1].int32) else {
        throw UndoPluginError(.wrongState, "the last note is no longer the one written")
    }
    try book.remove(at: last, in: call.context)
    try call.reportChange(.object(Int64(last)))
}

/// notes.erase(index: u32): removes a note, handing back (index, text, priority) so the
/// inverse can put it back.
let eraseNote: UndoActionFunction = { call, args in
    let book = try call.state(NotesBook.self)
    let index = try args[0].uint32
    let note = try book.remove(at: Int(index), in: call.context)
    do {
        try call.setInverseArgument(indexKey, index)
        try call.setInverseArgument(textKey, note.text)
        try call.setInverseArgument(priorityKey, note.priority)
    } catch {
        // perform must change nothing when it fails.
        try? book.insert(note, at: Int(index), in: call.context)
        throw error
    }
    try call.reportChange(.object(Int64(index)))
}

let restoreNote: UndoActionFunction = { call, args in
    let index = try args["index"].uint32
    try call.state(NotesBook.self).insert(.init(text: try args["text"].string, priority: try args["priority"].int32),
                                           at: Int(index), in: call.context)
    try call.reportChange(.object(Int64(index)))
}

/// notes.prioritize(index: u32, priority: i32): hands back the previous priority. Both
/// directions are the same function: the inverse sets the old priority back.
let prioritizeNote: UndoActionFunction = { call, args in
    let index = try args[0].uint32
    let previous = try call.state(NotesBook.self).setPriority(try args[1].int32, at: Int(index), in: call.context)
    if call.phase != .inverse {
        try call.setInverseArgument(indexKey, index)
        try call.setInverseArgument(priorityKey, previous)
    }
    try call.reportChange(.object(Int64(index)))
}

/// Consecutive priority changes of one note merge into one step (to the latest priority);
/// back at the original priority they annul. Changes of different notes stay two steps.
let mergePriorities: UndoMergeFunction = { call, steps in
    guard try steps.previous(indexKey) == steps.next(indexKey) else { return .refused }
    let latest = try steps.next(priorityKey)
    if latest == (try steps.previousInverse(priorityKey)) { return .annulled }
    try call.setArgument(priorityKey, latest)
    return .merged
}

/// notes.type(index: u32, text: string): types at the end of a note. Consecutive typing into
/// one note coalesces, and the host joins the run by appending the texts (no merge function);
/// the inverse takes the same arguments and removes the whole run's text.
let typeIntoNote: UndoActionFunction = { call, args in
    let index = try args[0].uint32
    try call.state(NotesBook.self).type(try args[1].string, intoNote: Int(index), in: call.context)
    try call.reportChange(.object(Int64(index)))
}

let untypeFromNote: UndoActionFunction = { call, args in
    let index = try args[0].uint32
    try call.state(NotesBook.self).untype(try args[1].string, fromNote: Int(index), in: call.context)
    try call.reportChange(.object(Int64(index)))
}
