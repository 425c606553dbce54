// A test fixture: a Swift plugin that uses the kit's typed API the way a plugin author may,
// rightly and wrongly (Tests/UndoPluginKitTests/KitTypedAPITests.swift).
import UndoPluginABI
import UndoPluginKit

final class Marks {
    var value: [String: Int64] = [:]
    /// kit.level's value in each document.
    var levels: [String: Int64] = [:]
}

/// kit.mark(id: i64): sets the document's mark to `id` and reports `.object(id)`; the inverse
/// hands the old mark back by name. A negative id is a change report the kit refuses.
let mark: @convention(c) (UnsafeMutablePointer<undo_call>?, Int64) -> Int32 = { call, id in
    UndoCall.run(call) { call in
        let marks = try call.state(Marks.self)
        try call.reportChange(.object(id))
        let old = marks.value[call.context, default: 0]
        if call.phase != .inverse { try call.setInverseArgument("id", old) }
        marks.value[call.context] = id
    }
}

/// Merges by reading "id" as the declared Int64; a merge of an id of 13 reads it as a String,
/// the wrong type, which the kit refuses; one of 14 tries markObsolete, which only perform and
/// the inverse may call.
let mergeMarks: UndoMergeFunction = { call, previous, previousInverse, next, nextInverse in
    UndoCall.merge(call, previous, previousInverse, next, nextInverse) { call, steps in
        let latest = try steps.next("id", as: Int64.self)
        if latest == 13 { _ = try steps.next("id", as: String.self) }
        if latest == 14 { try call.markObsolete() }  // refused in a merge: the merge fails
        if latest == (try steps.previousInverse("id", as: Int64.self)) { return .annulled }
        try call.setArgument("id", latest)
        return .merged
    }
}

/// kit.level(to: i64): sets the document's level; the inverse gets the old one. A call that
/// finds the level already what it would set marks its step obsolete.
// docs:begin obsolete
let level: @convention(c) (UnsafeMutablePointer<undo_call>?, Int64) -> Int32 = { call, to in
    UndoCall.run(call) { call in
        let marks = try call.state(Marks.self)
        let old = marks.levels[call.context, default: 0]
        if old == to {
            // Already so: this step changes nothing, and there is nothing to take back.
            try call.markObsolete()
            return
        }
        if call.phase != .inverse { try call.setInverseArgument("to", old) }
        marks.levels[call.context] = to
    }
}
// docs:end obsolete

let plugin = UndoPlugin(
    id: "org.undohost.test.kit", name: "Kit", version: "1.0",
    actions: [
        UndoPluginAction(id: "mark", name: "Mark", perform: UndoPluginFunction(mark, parameterNames: "id"),
                         inverse: UndoPluginFunction(mark, parameterNames: "id"))
            .coalescing("mark", merge: mergeMarks)
            .discardable(),
        UndoPluginAction(id: "level", name: "Level", perform: UndoPluginFunction(level, parameterNames: "to"),
                         inverse: UndoPluginFunction(level, parameterNames: "to")),
    ],
    makeState: { _ in Marks() },
    describe: { marks, context in "mark=\(marks.value[context, default: 0])" + (marks.levels[context, default: 0] == 0 ? "" : " level=\(marks.levels[context, default: 0])") })

@c(undo_plugin_entry)
public func undoPluginEntry() -> UnsafePointer<undo_plugin_descriptor>? { plugin.descriptor }
