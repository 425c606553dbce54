import UndoCore
import UndoHostAPI
import UndoPluginHost

// Groups, coalescing, the save point, contexts and observers: calls on the shared history itself.

@c @implementation
public func undo_history_begin_group(_ h: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ context: UnsafePointer<CChar>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let name = try CText.readOptional(name, "name")
        let context = try CText.optionalContext(context)
        try history.hostCall { host throws(PluginHostError) in try host.beginGroup(named: name, context: context) }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_begin_group_v2(_ h: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                        _ description: UnsafePointer<CChar>?, _ context: UnsafePointer<CChar>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let name = try CText.readOptional(name, "name")
        let description = try CText.readOptional(description, "description")
        let context = try CText.optionalContext(context)
        // Through the host, so a journal keeps the group with its description.
        try history.hostCall { host throws(PluginHostError) in
            try host.beginGroup(named: name, description: description, context: context)
        }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_end_group(_ h: OpaquePointer?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        try history.hostCall { host throws(PluginHostError) in try host.endGroup() }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_break_coalescing(_ h: OpaquePointer?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        try history.hostCall { host throws(PluginHostError) in try host.breakCoalescing() }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_mark_saved(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let context = try CText.optionalContext(context)
        try history.hostCall { host throws(PluginHostError) in try host.markSaved(context) }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_is_dirty(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        let context = try CText.optionalContext(context)
        return try history.withStack { $0.isDirty(context) } ? 1 : 0
    }
}

@c @implementation
public func undo_history_revert(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?, _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let context = try CText.optionalContext(context)
        let request = try ResultWriter.readRequest(result)
        let done = try history.hostCall { host throws(PluginHostError) in try host.revertToSaved(context) }
        return try ResultWriter.finish(history, done, direction: done?.direction ?? .undo, request: request, into: result,
                                       nothing: "the document is not changed since it was saved")
    }
}

@c @implementation
public func undo_history_set_context(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let context = try CText.optionalContext(context)
        try history.hostCall { host throws(PluginHostError) in try host.setCurrentContext(context) }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_get_context(_ h: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt32) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        guard let context = history.currentContext else {
            throw ClientFailure(Int32(UNDO_ENOTFOUND), "there is no current context")
        }
        return try CText.write(context.name, to: buffer, capacity: capacity)
    }
}

@c @implementation
public func undo_history_close_context(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let context = try CText.requiredContext(context)
        // Through the plugin host, so the plugins forget the document too.
        do throws(PluginHostError) {
            return Int32(clamping: try history.host.closeContext(context))
        } catch {
            throw ClientFailure(error)
        }
    }
}

@c @implementation
public func undo_history_observe(_ h: OpaquePointer?, _ fn: undo_observer_fn?, _ userData: UnsafeMutableRawPointer?,
                          _ observerID: UnsafeMutablePointer<UInt64>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        guard let fn else { throw .invalid("fn is NULL") }
        let id = history.addObserver(fn, userData: userData)
        observerID?.pointee = id
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_observe_v2(_ h: OpaquePointer?, _ fn: undo_observer_fn?, _ userData: UnsafeMutableRawPointer?,
                                    _ flags: UInt32, _ observerID: UnsafeMutablePointer<UInt64>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        guard let fn else { throw .invalid("fn is NULL") }
        let known = UInt32(UNDO_OBSERVE_NOW)
        guard flags & ~known == 0 else { throw .invalid("flags has unknown bits (\(flags & ~known))") }
        // Not `observerID?.pointee = addObserver(...)`: with a NULL observer_id that would skip the call.
        let id = history.addObserver(fn, userData: userData, callNow: flags & known != 0)
        observerID?.pointee = id
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_unobserve(_ h: OpaquePointer?, _ observerID: UInt64) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        guard history.removeObserver(observerID) else {
            throw ClientFailure(Int32(UNDO_ENOTFOUND), "no observer \(observerID)")
        }
        return Int32(UNDO_OK)
    }
}
