import UndoPluginABI
import UndoPluginKit

final class Counts { var value: [String: Int64] = [:] }   // one per host instance

// The host calls perform and inverse with the declared C parameters, so they are C functions
// with natural parameters (a string is UnsafePointer<CChar>?, bytes are a pointer and a UInt64).
// UndoCall.run turns a thrown error into report_error plus its code.
let add: @convention(c) (UnsafeMutablePointer<undo_call>?, Int64) -> Int32 = { call, amount in
    UndoCall.run(call) { call in
        let counts = try call.state(Counts.self)
        counts.value[call.context, default: 0] += call.phase == .inverse ? -amount : amount
    }
}

let plugin = UndoPlugin(
    id: "com.example.swiftcounter", name: "Swift Counter", version: "1.0",
    // The action's parameters are add's own (amount: i64), named here: declared once.
    actions: [UndoPluginAction(id: "add", name: "Count", perform: UndoPluginFunction(add, parameterNames: "amount"),
                               inverse: UndoPluginFunction(add))],
    makeState: { _ in Counts() },
    describe: { counts, context in "count=\(counts.value[context, default: 0])" })

@c(undo_plugin_entry)
public func undoPluginEntry() -> UnsafePointer<undo_plugin_descriptor>? { plugin.descriptor }
