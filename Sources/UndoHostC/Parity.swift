import UndoCore
import UndoHostAPI
import UndoPluginHost

// What Qt's QUndoStack and the Rust crate `undo` offer besides the basics: forgetting the save
// point, the count and memory limits, and transactions that commit or cancel (the texts and
// values of a step are the history panel's, HistoryPanel.swift).

@c @implementation
public func undo_history_forget_saved(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let context = try CText.optionalContext(context)
        try history.hostCall { host throws(PluginHostError) in try host.forgetSavePoint(context) }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_set_limits(_ h: OpaquePointer?, _ countLimit: UInt64, _ memoryLimit: UInt64) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        guard let count = Int(exactly: countLimit) else { throw .range("count_limit \(countLimit) is too large") }
        guard let memory = Int(exactly: memoryLimit) else { throw .range("memory_limit \(memoryLimit) is too large") }
        // Checked and set under one hold of the history's lock (refused from inside an action).
        do throws(PluginHostError) {
            try history.host.setLimits(count: count, memory: memory)
        } catch .reentrantCall {
            throw ClientFailure(Int32(UNDO_EREENTRANT), "undo_history_set_limits cannot be called from inside an action")
        } catch {
            throw ClientFailure(error)
        }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_get_limits(_ h: OpaquePointer?, _ countLimit: UnsafeMutablePointer<UInt64>?,
                                    _ memoryLimit: UnsafeMutablePointer<UInt64>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        let (count, memory) = try history.withStack { ($0.countLimit, $0.memoryLimit) }
        countLimit?.pointee = UInt64(count ?? 0)
        memoryLimit?.pointee = UInt64(memory ?? 0)
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_cancel_group(_ h: OpaquePointer?, _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let request = try ResultWriter.readRequest(result)
        let done: UndoResult?
        do throws(PluginHostError) {
            done = try history.host.cancelGroup()
        } catch {
            throw ClientFailure(error)
        }
        return try ResultWriter.finish(history, done, direction: .undo, request: request, into: result,
                                       nothing: "the group had no changes to take back; it is closed")
    }
}
