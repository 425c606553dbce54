import UndoPluginABI
import UndoPluginKit

final class Counts { var value: [String: Int64] = [:] }   // one per host instance

// perform and inverse are Swift closures given the call and the step's arguments, in the order
// the action declares them, read with their declared types (an i64 is an Int64). A thrown
// error fails the call: the kit reports its message and code to the host.
let add: UndoActionFunction = { call, args in
    let counts = try call.state(Counts.self)
    let amount = try args[0].int64
    counts.value[call.context, default: 0] += call.phase == .inverse ? -amount : amount
}

let plugin = UndoPlugin(
    id: "com.example.swiftcounter", name: "Swift Counter", version: "1.0",
    actions: [UndoPluginAction(id: "add", name: "Count", parameters: [.i64("amount")], perform: add, inverse: add)],
    makeState: { _ in Counts() },
    describe: { counts, context in "count=\(counts.value[context, default: 0])" })

@c(undo_plugin_entry)
public func undoPluginEntry() -> UnsafePointer<undo_plugin_descriptor>? { plugin.descriptor }
