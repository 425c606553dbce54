import UndoCore
import UndoHostAPI
import UndoPluginHost

// What Qt's QUndoStack and the Rust crate `undo` offer besides the basics: forgetting the save
// point, transactions that commit or cancel, and the texts and values of a step.

@c @implementation
public func undo_history_forget_saved(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let context = try CText.optionalContext(context)
        try history.withStack { try $0.forgetSavePoint(context) }
        return Int32(UNDO_OK)
    }
}
