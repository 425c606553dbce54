import UndoCore
import UndoHostAPI
import UndoPluginHost

// What a history panel reads and does: the state of a context, the step list, the contexts
// with steps, the moves (undo and redo in a context, jumping to a position) and clearing the
// history. Each call maps to the UndoStack call of the same meaning (docs/using-the-c-api.md
// has the table).

@c @implementation
public func undo_history_get_state(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?,
                                   _ state: UnsafeMutablePointer<undo_history_state>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        guard let state else { throw .invalid("state is NULL") }
        var written = try GrowableStruct.read(UnsafePointer(state), minimum: HistoryPanel.stateMinimumSize, "state")
        try HistoryPanel.checkBuffer(written.undo_title, written.undo_title_capacity, "state.undo_title")
        try HistoryPanel.checkBuffer(written.redo_title, written.redo_title_capacity, "state.redo_title")
        guard written.reserved0 == 0 else { throw .invalid("state.reserved0 is \(written.reserved0), not 0") }
        try ReservedFields.pointers(written.reserved, "state.reserved")
        let context = try CText.optionalContext(context)
        // One lock for every field: they describe one moment.
        let now = try history.withStack { stack in HistoryPanel.ContextState(stack, context) }
        written.can_undo = now.canUndo ? 1 : 0
        written.can_redo = now.canRedo ? 1 : 0
        written.is_dirty = now.isDirty ? 1 : 0
        written.position = UInt64(now.position)
        written.count = UInt64(now.count)
        written.undo_title_length = UInt32(bitPattern: try CText.write(now.undoTitle, to: written.undo_title,
                                                                       capacity: written.undo_title_capacity))
        written.redo_title_length = UInt32(bitPattern: try CText.write(now.redoTitle, to: written.redo_title,
                                                                       capacity: written.redo_title_capacity))
        written.can_revert = now.canRevert ? 1 : 0
        written.is_saved_at_start = now.isSavedAtStart ? 1 : 0
        written.group_depth = UInt32(clamping: now.groupDepth)
        GrowableStruct.write(written, to: state)
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_step(_ h: OpaquePointer?, _ index: UInt64, _ info: UnsafeMutablePointer<undo_step_info>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        guard let info else { throw .invalid("info is NULL") }
        var written = try GrowableStruct.read(UnsafePointer(info), minimum: HistoryPanel.stepMinimumSize, "info")
        try HistoryPanel.checkBuffer(written.name, written.name_capacity, "info.name")
        try HistoryPanel.checkBuffer(written.display_name, written.display_name_capacity, "info.display_name")
        try HistoryPanel.checkBuffer(written.context, written.context_capacity, "info.context")
        try ReservedFields.pointers(written.reserved, "info.reserved")
        // Zero (NULL, 0) in a V1 caller's struct, which has no such fields.
        try HistoryPanel.checkBuffer(written.description, written.description_capacity, "info.description")
        try HistoryPanel.checkBuffer(written.action_id, written.action_id_capacity, "info.action_id")
        // The index is checked under the same lock as the step is read.
        // (A closure with typed throws here crashes the 6.3.1 compiler: the refusal is thrown after.)
        let row: (step: UndoStepInfo?, displayName: String?, plugin: PluginCommand?, position: Int, count: Int)
            = try history.withStack { stack in
            let count = stack.count
            guard let index = Int(exactly: index), index < count else { return (nil, nil, nil, stack.position, count) }
            let step = stack.step(at: index)
            return (step, step.name.flatMap(stack.formatter.displayName), stack.command(at: index) as? PluginCommand,
                    stack.position, count)
        }
        guard let step = row.step else {
            throw .range("no step \(index): the history has \(row.count) (indexes 0 to count - 1)")
        }
        let (displayName, position) = (row.displayName, row.position)
        var flags: UInt32 = 0
        if step.isApplied { flags |= UInt32(UNDO_STEP_DONE) }
        if step.index == position - 1 { flags |= UInt32(UNDO_STEP_CURRENT) }
        if step.isSavePoint { flags |= UInt32(UNDO_STEP_SAVE_POINT) }
        if step.isDiscardable { flags |= UInt32(UNDO_STEP_DISCARDABLE) }
        written.flags = flags
        written.serial = step.serial
        written.member_count = UInt32(clamping: step.memberCount)
        written.name_length = try HistoryPanel.write(step.name, to: written.name, capacity: written.name_capacity)
        written.display_name_length = try HistoryPanel.write(displayName, to: written.display_name,
                                                             capacity: written.display_name_capacity)
        written.context_length = UInt32(bitPattern: try CText.write(step.context.name, to: written.context,
                                                                    capacity: written.context_capacity))
        written.description_length = try HistoryPanel.write(step.historyDescription, to: written.description,
                                                            capacity: written.description_capacity)
        written.action_id_length = try HistoryPanel.write(row.plugin?.action.fullID, to: written.action_id,
                                                          capacity: written.action_id_capacity)
        written.argument_count = UInt32(clamping: row.plugin?.arguments.count ?? 0)
        written.inverse_argument_count = UInt32(clamping: row.plugin?.inverseArguments.count ?? 0)
        GrowableStruct.write(written, to: info)
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_step_argument(_ h: OpaquePointer?, _ index: UInt64, _ which: UInt32, _ argIndex: UInt32,
                                      _ arg: UnsafeMutablePointer<undo_step_argument>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        guard let arg else { throw .invalid("arg is NULL") }
        var written = try GrowableStruct.read(UnsafePointer(arg), minimum: HistoryPanel.argumentMinimumSize, "arg")
        try HistoryPanel.checkBuffer(written.name, written.name_capacity, "arg.name")
        try HistoryPanel.checkBuffer(written.text, written.text_capacity, "arg.text")
        if written.data == nil && written.data_capacity > 0 {
            throw .invalid("arg.data is NULL but its capacity is \(written.data_capacity)")
        }
        try ReservedFields.pointers(written.reserved, "arg.reserved")
        guard which == UNDO_STEP_ARGUMENTS || which == UNDO_STEP_INVERSE_ARGUMENTS else {
            throw .invalid("which is \(which): UNDO_STEP_ARGUMENTS (0) or UNDO_STEP_INVERSE_ARGUMENTS (1)")
        }
        let inverse = which == UNDO_STEP_INVERSE_ARGUMENTS
        // Read under one lock; the refusals are thrown after (see undo_history_step).
        let found: (values: PluginStepValues?, count: Int, isStep: Bool) = try history.withStack { stack in
            guard let index = Int(exactly: index), index < stack.count else { return (nil, stack.count, false) }
            return ((stack.command(at: index) as? PluginCommand)?.values, stack.count, true)
        }
        guard found.isStep else {
            throw .range("no step \(index): the history has \(found.count) (indexes 0 to count - 1)")
        }
        let arguments = (inverse ? found.values?.inverseArguments : found.values?.arguments) ?? []
        guard Int(argIndex) < arguments.count else {
            let kind = inverse ? "inverse arguments" : "arguments"
            throw .range(found.values == nil
                ? "step \(index) is not a plugin step: it has no \(kind)"
                : "step \(index) has \(arguments.count) \(kind) (indexes 0 to \(arguments.count) - 1), not \(argIndex)")
        }
        let argument = arguments[Int(argIndex)]
        written.type = argument.type.rawValue
        written.name_length = UInt32(bitPattern: try CText.write(argument.name, to: written.name,
                                                                 capacity: written.name_capacity))
        written.text_length = UInt32(bitPattern: try CText.write(argument.value.description, to: written.text,
                                                                 capacity: written.text_capacity))
        written.value = HistoryPanel.typedValue(argument.value, data: written.data, capacity: written.data_capacity)
        GrowableStruct.write(written, to: arg)
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_contexts(_ h: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt32,
                                  _ count: UnsafeMutablePointer<UInt32>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        try HistoryPanel.checkBuffer(buffer, capacity, "buffer")
        let contexts = try history.withStack { $0.contexts }
        let bytes = contexts.reduce(0) { $0 + $1.name.utf8.count + 1 }
        guard bytes <= Int(Int32.max) else {
            throw ClientFailure(Int32(UNDO_ELIMIT), "the context names take \(bytes) bytes, more than a result can say")
        }
        count?.pointee = UInt32(contexts.count)
        if let buffer, bytes <= Int(capacity) {
            var offset = 0
            for context in contexts {
                for byte in context.name.utf8 {
                    buffer[offset] = CChar(bitPattern: byte)
                    offset += 1
                }
                buffer[offset] = 0
                offset += 1
            }
        }
        return Int32(bytes)
    }
}

@c @implementation
public func undo_history_is_saved_at_start(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        let context = try CText.optionalContext(context)
        return try history.withStack { $0.isSavedAtStart(context ?? $0.currentContext ?? .global) } ? 1 : 0
    }
}

@c @implementation
public func undo_history_undo_in(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?, _ count: UInt32,
                                 _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        try HistoryPanel.move(history, .undo, count: count, in: try CText.optionalContext(context), result: result)
    }
}

@c @implementation
public func undo_history_redo_in(_ h: OpaquePointer?, _ context: UnsafePointer<CChar>?, _ count: UInt32,
                                 _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        try HistoryPanel.move(history, .redo, count: count, in: try CText.optionalContext(context), result: result)
    }
}

@c @implementation
public func undo_history_move_to(_ h: OpaquePointer?, _ position: UInt64, _ result: UnsafeMutablePointer<undo_result>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let request = try ResultWriter.readRequest(result)
        guard let target = Int(exactly: position) else {
            throw .range("position \(position) is past the end of the history")
        }
        let done: UndoResult?
        do throws(PluginHostError) {
            done = try history.host.move(to: target)
        } catch {
            throw ClientFailure(error)
        }
        return try ResultWriter.finish(history, done, direction: done?.direction ?? .undo, request: request, into: result,
                                       nothing: "the history is already at position \(position)")
    }
}

@c @implementation
public func undo_history_remove_all(_ h: OpaquePointer?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        try history.hostCall { host throws(PluginHostError) in try host.removeAll() }
        return Int32(UNDO_OK)
    }
}

/// The pieces of the history panel calls.
enum HistoryPanel {
    static let stateMinimumSize = MemoryLayout<undo_history_state>.offset(of: \.reserved)! + 4 * MemoryLayout<UnsafeRawPointer>.size
    static let stepMinimumSize = MemoryLayout<undo_step_info>.offset(of: \.reserved)! + 4 * MemoryLayout<UnsafeRawPointer>.size
    static let argumentMinimumSize = MemoryLayout<undo_step_argument>.offset(of: \.reserved)! + 4 * MemoryLayout<UnsafeRawPointer>.size

    /// `value` as an `undo_value`: a number in place; a string's or bytes' data copied into the
    /// caller's `data` buffer when all of it fits (a string with its NUL), else a NULL pointer,
    /// with the full size either way.
    static func typedValue(_ value: ActionValue, data: UnsafeMutablePointer<UInt8>?, capacity: UInt64) -> undo_value {
        var typed = undo_value()
        typed.type = value.type.rawValue
        func copied(_ bytes: some Collection<UInt8>, terminated: Bool) -> UnsafeRawPointer? {
            guard let data, UInt64(bytes.count) + (terminated ? 1 : 0) <= capacity else { return nil }
            var offset = 0
            for byte in bytes {
                data[offset] = byte
                offset += 1
            }
            if terminated { data[offset] = 0 }
            return UnsafeRawPointer(data)
        }
        switch value {
        case .i32(let number): typed.as.i32 = number
        case .u32(let number): typed.as.u32 = number
        case .i64(let number): typed.as.i64 = number
        case .u64(let number): typed.as.u64 = number
        case .f64(let number): typed.as.f64 = number
        case .string(let text):
            typed.as.string.size = UInt64(text.utf8.count)
            typed.as.string.data = copied(text.utf8, terminated: true)?.assumingMemoryBound(to: CChar.self)
        case .bytes(let bytes):
            typed.as.bytes.size = UInt64(bytes.count)
            typed.as.bytes.data = copied(bytes, terminated: false)
        }
        return typed
    }

    /// What undo_history_get_state reports, read under one lock. `context` nil: the current
    /// context, as observers see it (UndoStack's defaults).
    struct ContextState {
        var canUndo, canRedo, isDirty, canRevert, isSavedAtStart: Bool
        var position, count, groupDepth: Int
        var undoTitle, redoTitle: String

        init(_ stack: UndoStack, _ context: UndoContext?) {
            // Undo, redo and the titles: nil is the whole history; the dirty state: the global context.
            let scope = context ?? stack.currentContext
            canUndo = stack.canUndo(in: scope)
            canRedo = stack.canRedo(in: scope)
            undoTitle = stack.undoMenuTitle(in: scope)
            redoTitle = stack.redoMenuTitle(in: scope)
            isDirty = stack.isDirty(context)
            canRevert = stack.canRevertToSaved(context)
            isSavedAtStart = stack.isSavedAtStart(scope ?? .global)
            position = stack.position
            count = stack.count
            groupDepth = stack.groupDepth
        }
    }

    /// Refuses a buffer that cannot be written before anything is read or changed.
    static func checkBuffer(_ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt32, _ what: String) throws(ClientFailure) {
        if buffer == nil && capacity > 0 { throw .invalid("\(what) is NULL but its capacity is \(capacity)") }
    }

    /// Writes an optional name: its length, or UNDO_NO_NAME (and "") for none.
    static func write(_ name: String?, to buffer: UnsafeMutablePointer<CChar>?, capacity: UInt32) throws(ClientFailure) -> UInt32 {
        guard let name else {
            _ = try CText.write("", to: buffer, capacity: capacity)
            return UInt32(UNDO_NO_NAME)
        }
        return UInt32(bitPattern: try CText.write(name, to: buffer, capacity: capacity))
    }

    /// undo_history_undo_in and redo_in: `context` nil is the current context.
    static func move(_ history: ClientHistory, _ direction: UndoResult.Direction, count: UInt32, in context: UndoContext?,
                     result: UnsafeMutablePointer<undo_result>?) throws(ClientFailure) -> Int32 {
        guard count > 0 else { throw .invalid("count is 0") }
        let request = try ResultWriter.readRequest(result)
        let done: UndoResult?
        do throws(PluginHostError) {
            switch (direction, context) {
            case (.undo, nil): done = try history.host.undo(count: Int(count))
            case (.redo, nil): done = try history.host.redo(count: Int(count))
            case (.undo, let context?): done = try history.host.undo(count: Int(count), in: context)
            case (.redo, let context?): done = try history.host.redo(count: Int(count), in: context)
            }
        } catch {
            throw ClientFailure(error)
        }
        return try ResultWriter.finish(history, done, direction: direction, request: request, into: result,
                                       nothing: direction == .undo ? "there is nothing to undo" : "there is nothing to redo")
    }
}
