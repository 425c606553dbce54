import UndoCore
import UndoHostAPI
import UndoPluginHost

// Performing actions, undo and redo, and their results.

@c @implementation
public func undo_history_perform(_ h: OpaquePointer?, _ actionID: UnsafePointer<CChar>?, _ context: UnsafePointer<CChar>?,
                          _ args: UnsafePointer<undo_value>?, _ argCount: UInt32) -> Int32 {
    performAction(h, actionID, context, .values(args, count: argCount), result: nil)
}

@c @implementation
public func undo_history_perform_text(_ h: OpaquePointer?, _ actionID: UnsafePointer<CChar>?, _ context: UnsafePointer<CChar>?,
                               _ argumentText: UnsafePointer<CChar>?) -> Int32 {
    performAction(h, actionID, context, .text(argumentText), result: nil)
}

@c @implementation
public func undo_history_perform_v2(_ h: OpaquePointer?, _ actionID: UnsafePointer<CChar>?, _ context: UnsafePointer<CChar>?,
                                    _ args: UnsafePointer<undo_value>?, _ argCount: UInt32,
                                    _ result: UnsafeMutablePointer<undo_perform_result>?) -> Int32 {
    performAction(h, actionID, context, .values(args, count: argCount), result: result)
}

@c @implementation
public func undo_history_perform_text_v2(_ h: OpaquePointer?, _ actionID: UnsafePointer<CChar>?,
                                         _ context: UnsafePointer<CChar>?, _ argumentText: UnsafePointer<CChar>?,
                                         _ result: UnsafeMutablePointer<undo_perform_result>?) -> Int32 {
    performAction(h, actionID, context, .text(argumentText), result: result)
}

/// The arguments of a perform call: typed values, or script text.
enum PerformArguments {
    case values(UnsafePointer<undo_value>?, count: UInt32)
    case text(UnsafePointer<CChar>?)
}

/// A perform call's arguments with the text read; values are read only once their count is
/// checked against the action's.
private enum ReadArguments {
    case values(UnsafePointer<undo_value>?, count: UInt32)
    case text(String)
}

/// The one body of the four perform calls: the action resolved once, its arguments checked
/// once (a values array's count before anything of it is read), then `result` (NULL: not
/// wanted) filled in.
func performAction(_ h: OpaquePointer?, _ actionID: UnsafePointer<CChar>?, _ context: UnsafePointer<CChar>?,
                   _ arguments: PerformArguments, result: UnsafeMutablePointer<undo_perform_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let request = try PerformResultWriter.read(result)
        let id = try CText.read(actionID, "action_id")
        let context = try CText.context(context, fallback: history.currentContext ?? .global)
        let read: ReadArguments
        switch arguments {
        case .values(let values, let count): read = .values(values, count: count)
        case .text(let text): read = .text(try CText.read(text, "argument_text"))
        }
        let action = try history.hostCall { host throws(PluginHostError) in try host.actionType(id) }
        let outcome: UndoPerformOutcome
        switch read {
        case .values(let values, let count):
            do throws(PluginHostError) {
                try PluginHost.checkArgumentCount(Int(count), of: action)
            } catch {
                throw ClientFailure(error)
            }
            try ReservedFields.check(values, count: count)
            outcome = try history.hostCall { host throws(PluginHostError) in
                try host.perform(action, values: values, count: Int(count), in: context)
            }
        case .text(let text):
            outcome = try history.hostCall { host throws(PluginHostError) in
                try host.perform(action, argumentText: text, in: context)
            }
        }
        PerformResultWriter.write(outcome, request: request, to: result)
        return Int32(UNDO_OK)
    }
}

/// Reading and filling in undo_perform_result.
enum PerformResultWriter {
    static let minimumSize = MemoryLayout<undo_perform_result>.offset(of: \.reserved)! + 2 * MemoryLayout<UnsafeRawPointer>.size

    /// The caller's struct, checked before anything is performed (a refused call changes nothing).
    static func read(_ result: UnsafeMutablePointer<undo_perform_result>?) throws(ClientFailure) -> undo_perform_result? {
        guard let result else { return nil }
        let request = try GrowableStruct.read(UnsafePointer(result), minimum: minimumSize, "result")
        guard request.reserved0 == 0 else { throw .invalid("result.reserved0 is \(request.reserved0), not 0") }
        guard request.reserved1 == 0 else { throw .invalid("result.reserved1 is \(request.reserved1), not 0") }
        if request.reserved.0 != nil { throw .invalid("result.reserved[0] is not NULL") }
        if request.reserved.1 != nil { throw .invalid("result.reserved[1] is not NULL") }
        return request
    }

    static func write(_ outcome: UndoPerformOutcome, request: undo_perform_result?,
                      to pointer: UnsafeMutablePointer<undo_perform_result>?) {
        guard var written = request, let pointer else { return }
        // A C history never pauses recording: every outcome but obsolete is a recorded change.
        written.outcome = outcome == .obsolete ? UInt32(UNDO_PERFORM_OBSOLETE) : UInt32(UNDO_PERFORM_RECORDED)
        GrowableStruct.write(written, to: pointer)
    }
}

@c @implementation
public func undo_history_undo(_ h: OpaquePointer?, _ count: UInt32, _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        try ResultWriter.move(history, count: count, result: result, direction: .undo)
    }
}

@c @implementation
public func undo_history_redo(_ h: OpaquePointer?, _ count: UInt32, _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        try ResultWriter.move(history, count: count, result: result, direction: .redo)
    }
}

@c @implementation
public func undo_history_change_context(_ h: OpaquePointer?, _ index: UInt32, _ buffer: UnsafeMutablePointer<CChar>?,
                                 _ capacity: UInt32) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        let changes = history.lastResult?.changes ?? []
        guard Int(index) < changes.count else {
            throw .range("no change \(index): the last result on this thread has \(changes.count)")
        }
        return try CText.write(changes[Int(index)].context.name, to: buffer, capacity: capacity)
    }
}

/// Filling in undo_result.
enum ResultWriter {
    static let minimumSize = MemoryLayout<undo_result>.offset(of: \.reserved)! + 4 * MemoryLayout<UnsafeRawPointer>.size

    static func move(_ history: ClientHistory, count: UInt32, result: UnsafeMutablePointer<undo_result>?,
                     direction: UndoResult.Direction) throws(ClientFailure) -> Int32 {
        guard count > 0 else { throw .invalid("count is 0") }
        let request = try readRequest(result)
        let done: UndoResult?
        do throws(PluginHostError) {
            done = direction == .undo ? try history.host.undo(count: Int(count)) : try history.host.redo(count: Int(count))
        } catch {
            throw ClientFailure(error)
        }
        return try finish(history, done, direction: direction, request: request, into: result,
                          nothing: direction == .undo ? "there is nothing to undo" : "there is nothing to redo")
    }

    /// Reads the caller's undo_result and refuses buffers that cannot be written (NULL with a
    /// capacity) before anything is undone: a refused call must change nothing (found by
    /// fuzzing: the step was undone, then UNDO_EINVAL returned).
    static func readRequest(_ result: UnsafeMutablePointer<undo_result>?) throws(ClientFailure) -> undo_result? {
        guard let result else { return nil }
        let request = try GrowableStruct.read(UnsafePointer(result), minimum: minimumSize, "result")
        if request.name == nil && request.name_capacity > 0 {
            throw .invalid("result.name is NULL but name_capacity is \(request.name_capacity)")
        }
        if request.context == nil && request.context_capacity > 0 {
            throw .invalid("result.context is NULL but context_capacity is \(request.context_capacity)")
        }
        try ReservedFields.check(request)
        if request.changes == nil && request.changes_capacity > 0 {
            throw .invalid("result.changes is NULL but changes_capacity is \(request.changes_capacity)")
        }
        return request
    }

    /// Writes what an undo, redo or revert did (or that it did nothing: UNDO_EEMPTY).
    static func finish(_ history: ClientHistory, _ done: UndoResult?, direction: UndoResult.Direction,
                       request: undo_result?, into pointer: UnsafeMutablePointer<undo_result>?,
                       nothing: String) throws(ClientFailure) -> Int32 {
        if done != nil { history.remember(done) }
        if var written = request, let pointer {
            try fill(&written, with: done, direction: direction)
            GrowableStruct.write(written, to: pointer)
        }
        guard done != nil else { throw ClientFailure(Int32(UNDO_EEMPTY), nothing) }
        return Int32(UNDO_OK)
    }

    private static func fill(_ result: inout undo_result, with done: UndoResult?, direction: UndoResult.Direction) throws(ClientFailure) {
        result.direction = UInt32(direction == .undo ? UNDO_DIRECTION_UNDO : UNDO_DIRECTION_REDO)
        result.step_count = UInt32(clamping: done?.stepCount ?? 0)
        // Written only when the caller's struct_size holds it (GrowableStruct.write).
        result.obsolete_count = UInt32(clamping: done?.obsoleteCount ?? 0)
        let changes = done?.changes ?? []
        result.change_count = UInt32(clamping: changes.count)
        if let name = done?.name {
            result.name_length = UInt32(bitPattern: try CText.write(name, to: result.name, capacity: result.name_capacity))
        } else {
            result.name_length = UInt32(UNDO_NO_NAME)
            _ = try CText.write("", to: result.name, capacity: result.name_capacity)
        }
        let context = done?.context ?? .global
        result.context_length = UInt32(bitPattern: try CText.write(context.name, to: result.context, capacity: result.context_capacity))
        if result.changes_capacity > 0 {
            guard let array = result.changes else { throw .invalid("result.changes is NULL but changes_capacity is \(result.changes_capacity)") }
            for (index, change) in changes.prefix(Int(result.changes_capacity)).enumerated() {
                array[index] = undo_change(location: change.location ?? -1, length: change.length ?? -1,
                                           flags: change.context == context ? 0 : UInt32(UNDO_CHANGE_OTHER_CONTEXT),
                                           reserved: 0)
            }
        }
    }
}
