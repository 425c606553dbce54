import UndoPluginABI
import UndoPluginKit

// The functions the host calls: C functions whose parameters match the
// declarations in NotesPlugin.swift exactly (a string is a `const char *`). Changes are reported
// as object ids (a note's index, no length), which hosts match to the "#<index>" lines of
// describe().

typealias CallPointer = UnsafeMutablePointer<undo_call>?

/// notes.write(text: string, priority: i32): appends a note. Its inverse takes the same
/// arguments and removes that note again.
let writeNote: @convention(c) (CallPointer, UnsafePointer<CChar>?, Int32) -> Int32 = { call, text, priority in
    UndoCall.run(call) { call in
        let book = try call.state(NotesBook.self)
        book.append(.init(text: String(undoArgument: text), priority: priority), in: call.context)
        call.reportChange(location: Int64(book.notes(in: call.context).count - 1))
    }
}

let unwriteNote: @convention(c) (CallPointer, UnsafePointer<CChar>?, Int32) -> Int32 = { call, text, priority in
    UndoCall.run(call) { call in
        let book = try call.state(NotesBook.self)
        let last = book.notes(in: call.context).count - 1
        // Undo must take back exactly what was written, not whatever is last now.
        guard last >= 0, book.notes(in: call.context)[last] == .init(text: String(undoArgument: text), priority: priority) else {
            throw UndoPluginError(.wrongState, "the last note is no longer the one written")
        }
        try book.remove(at: last, in: call.context)
        call.reportChange(location: Int64(last))
    }
}

/// notes.erase(index: u32): removes a note, handing back (index, text, priority) so the
/// inverse can put it back.
let eraseNote: @convention(c) (CallPointer, UInt32) -> Int32 = { call, index in
    UndoCall.run(call) { call in
        let book = try call.state(NotesBook.self)
        let note = try book.remove(at: Int(index), in: call.context)
        do {
            try call.setInverseArgument(0, .u32(index))
            try call.setInverseArgument(1, .string(note.text))
            try call.setInverseArgument(2, .i32(note.priority))
        } catch {
            // perform must change nothing when it fails.
            try? book.insert(note, at: Int(index), in: call.context)
            throw error
        }
        call.reportChange(location: Int64(index))
    }
}

let restoreNote: @convention(c) (CallPointer, UInt32, UnsafePointer<CChar>?, Int32) -> Int32 = { call, index, text, priority in
    UndoCall.run(call) { call in
        try call.state(NotesBook.self).insert(.init(text: String(undoArgument: text), priority: priority),
                                               at: Int(index), in: call.context)
        call.reportChange(location: Int64(index))
    }
}

/// notes.prioritize(index: u32, priority: i32): hands back the previous priority. Both
/// directions are the same function: the inverse sets the old priority back.
let prioritizeNote: @convention(c) (CallPointer, UInt32, Int32) -> Int32 = { call, index, priority in
    UndoCall.run(call) { call in
        let previous = try call.state(NotesBook.self).setPriority(priority, at: Int(index), in: call.context)
        if call.phase != .inverse {
            try call.setInverseArgument(0, .u32(index))
            try call.setInverseArgument(1, .i32(previous))
        }
        call.reportChange(location: Int64(index))
    }
}

/// Consecutive priority changes of one note merge into one step (to the latest priority);
/// back at the original priority they annul. Changes of different notes stay two steps.
let mergePriorities: UndoMergeFunction = { call, previous, previousInverse, next, nextInverse in
    UndoCall.merge(call, previous, previousInverse, next, nextInverse) { call, steps in
        guard steps.previousArguments[0] == steps.nextArguments[0] else { return .refused }
        if steps.nextArguments[1] == steps.previousInverseArguments[1] { return .annulled }
        try call.setArgument(1, steps.nextArguments[1])
        return .merged
    }
}

/// notes.type(index: u32, text: string): types at the end of a note. Consecutive typing into
/// one note coalesces, and the host joins the run by appending the texts (no merge function);
/// the inverse takes the same arguments and removes the whole run's text.
let typeIntoNote: @convention(c) (CallPointer, UInt32, UnsafePointer<CChar>?) -> Int32 = { call, index, text in
    UndoCall.run(call) { call in
        try call.state(NotesBook.self).type(String(undoArgument: text), intoNote: Int(index), in: call.context)
        call.reportChange(location: Int64(index))
    }
}

let untypeFromNote: @convention(c) (CallPointer, UInt32, UnsafePointer<CChar>?) -> Int32 = { call, index, text in
    UndoCall.run(call) { call in
        try call.state(NotesBook.self).untype(String(undoArgument: text), fromNote: Int(index), in: call.context)
        call.reportChange(location: Int64(index))
    }
}
