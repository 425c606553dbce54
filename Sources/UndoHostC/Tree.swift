import UndoCore
import UndoHostAPI
import UndoPluginHost

// Branches and time travel: the current state, moves across branches, the whole tree.

@c @implementation
public func undo_history_current_state(_ h: OpaquePointer?, _ state: UnsafeMutablePointer<UInt32>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        guard let state else { throw .invalid("state is NULL") }
        state.pointee = try history.withStack { $0.currentState }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_goto(_ h: OpaquePointer?, _ state: UInt32, _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let request = try ResultWriter.readRequest(result)
        let done: UndoResult?
        do throws(PluginHostError) {
            done = try history.host.goTo(state: state)
        } catch {
            throw ClientFailure(error)
        }
        return try ResultWriter.finish(history, done, direction: done?.direction ?? .undo, request: request, into: result,
                                       nothing: "the documents are in state \(state) already")
    }
}

@c @implementation
public func undo_history_earlier(_ h: OpaquePointer?, _ distance: UnsafePointer<CChar>?, _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in try travel(history, distance, result, earlier: true) }
}

@c @implementation
public func undo_history_later(_ h: OpaquePointer?, _ distance: UnsafePointer<CChar>?, _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in try travel(history, distance, result, earlier: false) }
}

/// undo_history_earlier and undo_history_later: the distance read, and refused, before anything moves.
private func travel(_ history: ClientHistory, _ distance: UnsafePointer<CChar>?, _ result: UnsafeMutablePointer<undo_result>?,
                    earlier: Bool) throws(ClientFailure) -> Int32 {
    guard let text = try CText.readOptional(distance, "distance") else { throw .invalid("distance is NULL") }
    let parsed: UndoTravel
    do throws(UndoError) {
        parsed = try UndoTravel(parsing: text)
    } catch {
        throw ClientFailure(error)
    }
    let request = try ResultWriter.readRequest(result)
    let done: UndoResult?
    do throws(PluginHostError) {
        done = earlier ? try history.host.earlier(parsed) : try history.host.later(parsed)
    } catch {
        throw ClientFailure(error)
    }
    return try ResultWriter.finish(history, done, direction: done?.direction ?? (earlier ? .undo : .redo), request: request,
                                   into: result, nothing: parsed.isZero ? "a distance of \(parsed) moves nowhere"
                                       : earlier ? "there is no earlier state" : "there is no later state")
}

@c @implementation
public func undo_history_tree(_ h: OpaquePointer?, _ nodes: UnsafeMutablePointer<undo_tree_node>?, _ capacity: UInt32,
                              _ text: UnsafeMutablePointer<CChar>?, _ textCapacity: UInt32,
                              _ textLength: UnsafeMutablePointer<UInt32>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        if nodes == nil && capacity > 0 { throw .invalid("nodes is NULL but capacity is \(capacity)") }
        if text == nil && textCapacity > 0 { throw .invalid("text is NULL but text_capacity is \(textCapacity)") }
        let tree = try history.withStack { $0.tree }
        var used = 0
        // Appends `string` and its NUL to the text buffer when it fits; its offset, or UNDO_NO_NAME.
        func place(_ string: String) -> UInt32 {
            let bytes = Array(string.utf8)
            let start = used
            used += bytes.count + 1
            guard let text, used <= Int(textCapacity) else { return UInt32(UNDO_NO_NAME) }
            for (index, byte) in bytes.enumerated() { text[start + index] = CChar(bitPattern: byte) }
            text[start + bytes.count] = 0
            return UInt32(start)
        }
        for (index, node) in tree.enumerated() where index < Int(capacity) {
            guard let nodes else { break }
            var flags: UInt32 = 0
            if node.isApplied { flags |= UInt32(UNDO_NODE_APPLIED) }
            if node.isCurrent { flags |= UInt32(UNDO_NODE_CURRENT) }
            if node.wasSaved { flags |= UInt32(UNDO_NODE_WAS_SAVED) }
            if node.isSavePoint { flags |= UInt32(UNDO_NODE_SAVE_POINT) }
            if node.isNextRedo { flags |= UInt32(UNDO_NODE_NEXT_REDO) }
            flags |= UInt32(UNDO_NODE_DESCRIBED)
            let nameOffset = node.name.map(place) ?? UInt32(UNDO_NO_NAME)
            let contextOffset = place(node.context.name)
            let descriptionOffset = node.description.map(place) ?? UInt32(UNDO_NO_NAME)
            nodes[index] = undo_tree_node(id: node.id, parent: node.parent, branch: UInt32(clamping: node.branch), flags: flags,
                                          time_ns: node.time, name_offset: nameOffset, context_offset: contextOffset,
                                          description_offset: descriptionOffset, reserved32: 0, reserved: 0)
        }
        // What all the text needs, nodes past the capacity included.
        for node in tree.dropFirst(Int(capacity)) {
            used += (node.name.map { $0.utf8.count + 1 } ?? 0) + node.context.name.utf8.count + 1
                + (node.description.map { $0.utf8.count + 1 } ?? 0)
        }
        textLength?.pointee = UInt32(clamping: used)
        return Int32(clamping: tree.count)
    }
}

// Moves of one document alone (since ABI 1.8).

@c @implementation
public func undo_history_goto_in(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?, _ state: UInt32,
                                 _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let document = try movedDocument(history, context)
        let request = try ResultWriter.readRequest(result)
        let done = try history.hostCall { host throws(PluginHostError) in try host.goTo(state: state, in: document) }
        return try ResultWriter.finish(history, done, direction: done?.direction ?? .undo, request: request, into: result,
                                       nothing: "the document is as in state \(state) already")
    }
}

@c @implementation
public func undo_history_earlier_in(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?, _ count: UInt32,
                                    _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in try travelInDocument(history, context, count, result, earlier: true) }
}

@c @implementation
public func undo_history_later_in(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?, _ count: UInt32,
                                  _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in try travelInDocument(history, context, count, result, earlier: false) }
}

/// The document a move acts on: the one named, or (NULL) the current context, or the global one.
private func movedDocument(_ history: ClientHistory, _ context: UnsafePointer<CChar>?) throws(ClientFailure) -> UndoContext {
    if let named = try CText.optionalContext(context) { return named }
    return try history.withStack { $0.currentContext } ?? .global
}

private func travelInDocument(_ history: ClientHistory, _ context: UnsafePointer<CChar>?, _ count: UInt32,
                              _ result: UnsafeMutablePointer<undo_result>?, earlier: Bool) throws(ClientFailure) -> Int32 {
    let document = try movedDocument(history, context)
    guard count > 0 else { throw .invalid("count is 0: a move goes at least one state") }
    let request = try ResultWriter.readRequest(result)
    let done = try history.hostCall { host throws(PluginHostError) in
        earlier ? try host.earlier(Int(count), in: document) : try host.later(Int(count), in: document)
    }
    return try ResultWriter.finish(history, done, direction: done?.direction ?? .undo, request: request, into: result,
                                   nothing: earlier ? "the document is at its first state" : "the document is at its newest state")
}
