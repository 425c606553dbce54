// A test fixture: a Swift plugin that uses the kit's typed API the way a plugin author may,
// rightly and wrongly (Tests/UndoPluginKitTests/KitTypedAPITests.swift).
import UndoPluginABI
import UndoPluginKit

final class Marks {
    var value: [String: Int64] = [:]
    /// kit.level's value in each document.
    var levels: [String: Int64] = [:]
    /// kit.rename's names, by document and task.
    var names: [String: [Int64: String]] = [:]
}

/// The parameters with their Swift types (values set through them must have that type).
let idKey = UndoParameterKey<Int64>("id")
let toKey = UndoParameterKey<Int64>("to")
let taskKey = UndoParameterKey<Int64>("task")
let nameKey = UndoParameterKey<String>("name")

/// kit.mark(id: i64): sets the document's mark to `id` and reports `.object(id)`; the inverse
/// hands the old mark back by name. A negative id is a change report the kit refuses.
let mark: UndoActionFunction = { call, args in
    let marks = try call.state(Marks.self)
    let id = try args["id"].int64
    try call.reportChange(.object(id))
    let old = marks.value[call.context, default: 0]
    if call.phase != .inverse { try call.setInverseArgument(idKey, old) }
    marks.value[call.context] = id
}

/// Merges by reading "id" as the declared Int64; a merge of an id of 13 reads it as a String,
/// the wrong type, which the kit refuses; one of 14 tries markObsolete, which only perform and
/// the inverse may call.
let mergeMarks: UndoMergeFunction = { call, steps in
    let latest = try steps.next(idKey)
    if latest == 13 { _ = try steps.next("id", as: String.self) }
    if latest == 14 { try call.markObsolete() }  // refused in a merge: the merge fails
    if latest == (try steps.previousInverse(idKey)) { return .annulled }
    try call.setArgument(idKey, latest)
    return .merged
}

/// kit.level(to: i64): sets the document's level; the inverse gets the old one. A call that
/// finds the level already what it would set marks its step obsolete.
// docs:begin obsolete
let level: UndoActionFunction = { call, args in
    let marks = try call.state(Marks.self)
    let to = try args[0].int64
    let old = marks.levels[call.context, default: 0]
    if old == to {
        // Already so: this step changes nothing, and there is nothing to take back.
        try call.markObsolete()
        return
    }
    if call.phase != .inverse { try call.setInverseArgument(toKey, old) }
    marks.levels[call.context] = to
}
// docs:end obsolete

/// kit.misread(mode: i64, label: string): reads its arguments wrongly, as a plugin author may:
/// mode 1 reads a position past the declared ones, 2 the mode as a String, 3 an undeclared name.
let misread: UndoActionFunction = { _, args in
    switch try args[0].int64 {
    case 1: _ = try args[2].string
    case 2: _ = try args[0].string
    case 3: _ = try args["size"].int64
    default: _ = try args["label"].string
    }
}

/// kit.rename(task: i64, name: string): renames a task. Each step coalesces only with steps
/// of the same task (its own key, "rename/<task>"): renaming task 2 twice is one step, renaming
/// task 2 then task 3 is two. The merged step keeps the first old name and takes the newest.
let rename: UndoActionFunction = { call, args in
    let marks = try call.state(Marks.self)
    let task = try args[taskKey]
    let old = marks.names[call.context, default: [:]][task, default: ""]
    if call.phase != .inverse {
        // On redo the host keeps the key the step got first, and takes the inverse arguments again.
        try call.setCoalescingKey("rename/\(task)")
        try call.setInverseArgument(taskKey, task)
        try call.setInverseArgument(nameKey, old)
    }
    marks.names[call.context, default: [:]][task] = try args[nameKey]
}

let mergeRenames: UndoMergeFunction = { call, steps in
    try call.setArgument(nameKey, try steps.next(nameKey))
    return .merged
}

let plugin = UndoPlugin(
    id: "org.undohost.test.kit", name: "Kit", version: "1.0",
    actions: [
        UndoPluginAction(id: "mark", name: "Mark", parameters: [.i64("id")], perform: mark,
                         inverseParameters: [.i64("id")], inverse: mark)
            .coalescing("mark", merge: mergeMarks)
            .discardable(),
        UndoPluginAction(id: "level", name: "Level", parameters: [.i64("to")], perform: level,
                         inverseParameters: [.i64("to")], inverse: level),
        UndoPluginAction(id: "misread", name: "Misread", parameters: [.i64("mode"), .string("label")],
                         perform: misread, inverse: misread),
        UndoPluginAction(id: "rename", name: "Rename", parameters: [.init(taskKey), .init(nameKey)], perform: rename,
                         inverseParameters: [.init(taskKey), .init(nameKey)], inverse: rename)
            .coalescing("rename", merge: mergeRenames),
    ],
    makeState: { _ in Marks() },
    describe: view,
    // A part of the view, by characters; a part from 1000 on is refused (a plugin's failure).
    // docs:begin describe-range
    describeRange: { marks, context, range in
        guard range.lowerBound < 1000 else { throw UndoPluginError(.invalidArgument, "no part from \(range.lowerBound)") }
        let scalars = Array(view(marks, context).unicodeScalars)
        let lower = Int(min(range.lowerBound, Int64(scalars.count)))
        let upper = Int(min(range.upperBound, Int64(scalars.count)))
        return (String(String.UnicodeScalarView(scalars[lower..<upper])), Int64(scalars.count))
    })
    // docs:end describe-range

/// The whole view of a document: "mark=5 level=2 1=name".
func view(_ marks: Marks, _ context: String) -> String {
    "mark=\(marks.value[context, default: 0])" + (marks.levels[context, default: 0] == 0 ? "" : " level=\(marks.levels[context, default: 0])")
        + (marks.names[context, default: [:]].sorted { $0.key < $1.key }.filter { !$0.value.isEmpty }
            .map { " \($0.key)=\($0.value)" }.joined())
}

@c(undo_plugin_entry)
public func undoPluginEntry() -> UnsafePointer<undo_plugin_descriptor>? { plugin.descriptor }
