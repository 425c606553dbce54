import UndoCore
import UndoHostAPI
import UndoPluginHost

// Loading plugins, listing them and their action types, and showing their documents.

@c @implementation
public func undo_history_load_file(_ h: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let path = try CText.read(path, "path")
        do {
            try history.host.load(file: path)
        } catch {
            throw ClientFailure(error)
        }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_load_file_v2(_ h: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ flags: UInt32,
                                      _ watchdogMilliseconds: UInt32) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let path = try CText.read(path, "path")
        let known = UInt32(UNDO_LOAD_ISOLATED)
        guard flags & ~known == 0 else { throw .invalid("flags has unknown bits (\(flags & ~known))") }
        var isolation: PluginIsolation?
        if flags & UInt32(UNDO_LOAD_ISOLATED) != 0 {
            isolation = PluginIsolation(watchdogMilliseconds: watchdogMilliseconds == 0
                ? Int(UNDO_DEFAULT_WATCHDOG_MS) : Int(watchdogMilliseconds))
        }
        do {
            try history.host.load(file: path, isolation: isolation)
        } catch {
            throw ClientFailure(error)
        }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_load_folder(_ h: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                              _ loadedCount: UnsafeMutablePointer<UInt32>?) -> Int32 {
    loadedCount?.pointee = 0
    return withClient(h) { history throws(ClientFailure) in
        let path = try CText.read(path, "path")
        return try PluginLoading.finish(history.host.load(folder: path), loadedCount)
    }
}

@c @implementation
public func undo_history_load_bundled(_ h: OpaquePointer?, _ loadedCount: UnsafeMutablePointer<UInt32>?) -> Int32 {
    loadedCount?.pointee = 0
    return withClient(h) { history throws(ClientFailure) in
        try PluginLoading.finish(history.host.loadBundledPlugins(), loadedCount)
    }
}

enum PluginLoading {
    /// Reports a folder load: the count, and the first failure's code with every failure's line.
    static func finish(_ report: PluginLoadReport, _ loadedCount: UnsafeMutablePointer<UInt32>?) throws(ClientFailure) -> Int32 {
        loadedCount?.pointee = UInt32(report.loaded.count)
        guard let first = report.failures.first else { return Int32(UNDO_OK) }
        throw ClientFailure(first.code, report.failures.map(\.description).joined(separator: "\n"))
    }
}

@c @implementation
public func undo_history_unload(_ h: OpaquePointer?, _ pluginID: UnsafePointer<CChar>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let id = try CText.read(pluginID, "plugin_id")
        do throws(PluginHostError) {
            try history.host.unload(id)
        } catch {
            throw ClientFailure(error)
        }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_plugin_count(_ h: OpaquePointer?) -> Int32 {
    withClient(h, changing: false) { history in Int32(history.host.plugins.count) }
}

@c @implementation
public func undo_history_plugin_text(_ h: OpaquePointer?, _ index: UInt32, _ field: UInt32,
                              _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt32) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        let plugins = history.host.plugins
        guard Int(index) < plugins.count else { throw .range("no plugin \(index): \(plugins.count) are loaded") }
        let plugin = plugins[Int(index)]
        let text: String
        switch Int32(field) {
        case Int32(UNDO_PLUGIN_TEXT_ID): text = plugin.id
        case Int32(UNDO_PLUGIN_TEXT_NAME): text = plugin.name
        case Int32(UNDO_PLUGIN_TEXT_VERSION): text = plugin.version
        case Int32(UNDO_PLUGIN_TEXT_PATH): text = plugin.path
        case Int32(UNDO_PLUGIN_TEXT_PREFIX): text = plugin.shortName
        default: throw .invalid("unknown plugin text field \(field)")
        }
        return try CText.write(text, to: buffer, capacity: capacity)
    }
}

@c @implementation
public func undo_history_action_count(_ h: OpaquePointer?) -> Int32 {
    withClient(h, changing: false) { history in Int32(history.host.actionTypes.count) }
}

/// The action type at `index` of the listing.
private func actionType(_ history: ClientHistory, _ index: UInt32) throws(ClientFailure) -> ActionType {
    let actions = history.host.actionTypes
    guard Int(index) < actions.count else { throw .range("no action type \(index): there are \(actions.count)") }
    return actions[Int(index)]
}

private let actionInfoMinimumSize = MemoryLayout<undo_action_info>.offset(of: \.reserved)! + 6 * MemoryLayout<UInt32>.size

@c @implementation
public func undo_history_action_info(_ h: OpaquePointer?, _ index: UInt32, _ info: UnsafeMutablePointer<undo_action_info>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        guard let info else { throw .invalid("info is NULL") }
        var written = try GrowableStruct.read(info, minimum: actionInfoMinimumSize, "info")
        let action = try actionType(history, index)
        written.flags = (action.isDiscardable ? UInt32(UNDO_ACTION_INFO_DISCARDABLE) : 0)
            | (action.coalescingKey != nil ? UInt32(UNDO_ACTION_INFO_COALESCES) : 0)
            | (action.canMerge ? UInt32(UNDO_ACTION_INFO_MERGES) : 0)
        let types = action.signature.types
        written.param_count = UInt32(types.count)
        withUnsafeMutableBytes(of: &written.param_types) { raw in
            let slots = raw.bindMemory(to: UInt32.self)
            for slot in slots.indices { slots[slot] = slot < types.count ? types[slot].rawValue : 0 }
        }
        written.plugin_index = UInt32(history.host.plugins.firstIndex { $0.id == action.pluginID } ?? 0)
        GrowableStruct.write(written, to: info)
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_action_text(_ h: OpaquePointer?, _ index: UInt32, _ field: UInt32,
                              _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt32) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        let action = try actionType(history, index)
        let text: String
        switch Int32(field) {
        case Int32(UNDO_ACTION_TEXT_ID): text = action.fullID
        case Int32(UNDO_ACTION_TEXT_SHORT_ID): text = action.shortID
        case Int32(UNDO_ACTION_TEXT_NAME): text = action.name
        case Int32(UNDO_ACTION_TEXT_SIGNATURE): text = action.shortID + action.signature.description
        case Int32(UNDO_ACTION_TEXT_PLUGIN_ID): text = action.pluginID
        default: throw .invalid("unknown action text field \(field)")
        }
        return try CText.write(text, to: buffer, capacity: capacity)
    }
}

@c @implementation
public func undo_history_describe(_ h: OpaquePointer?, _ pluginID: UnsafePointer<CChar>?, _ context: UnsafePointer<CChar>?,
                           _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt32) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        let id = try CText.read(pluginID, "plugin_id")
        let context = try CText.context(context, fallback: history.currentContext ?? .global)
        let text: String
        do throws(PluginHostError) {
            text = try history.host.describe(context, plugin: id)
        } catch {
            throw ClientFailure(error)
        }
        return try CText.write(text, to: buffer, capacity: capacity)
    }
}

@c @implementation
public func undo_history_describe_range(_ h: OpaquePointer?, _ pluginID: UnsafePointer<CChar>?, _ context: UnsafePointer<CChar>?,
                                        _ location: Int64, _ length: Int64, _ buffer: UnsafeMutablePointer<CChar>?,
                                        _ capacity: UInt32, _ extent: UnsafeMutablePointer<Int64>?) -> Int32 {
    extent?.pointee = -1
    return withClient(h, changing: false) { history throws(ClientFailure) in
        let id = try CText.read(pluginID, "plugin_id")
        let context = try CText.context(context, fallback: history.currentContext ?? .global)
        guard location >= 0 else { throw .invalid("location is negative (\(location))") }
        guard length >= 0 else { throw .invalid("length is negative (\(length))") }
        guard length <= Int64.max - location else { throw .invalid("location + length is over INT64_MAX") }
        if capacity > 0 && buffer == nil { throw .invalid("buffer is NULL but capacity is \(capacity)") }
        let view: PluginRangeView
        do throws(PluginHostError) {
            view = try history.host.view(of: context, plugin: id, range: location..<(location + length))
        } catch {
            throw ClientFailure(error)
        }
        guard !view.isCut else {
            throw ClientFailure(Int32(UNDO_ELIMIT), "the part's view is \(view.byteLength) bytes, over the limit of "
                                + "\(PluginView.defaultLimit) a view may have")
        }
        let written = try CText.write(view.text, to: buffer, capacity: capacity)
        extent?.pointee = view.extent
        return written
    }
}

@c @implementation
public func undo_history_describe_at(_ h: OpaquePointer?, _ state: UInt32, _ pluginID: UnsafePointer<CChar>?,
                                     _ context: UnsafePointer<CChar>?, _ buffer: UnsafeMutablePointer<CChar>?,
                                     _ capacity: UInt32) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        let id = try CText.read(pluginID, "plugin_id")
        let context = try CText.context(context, fallback: history.currentContext ?? .global)
        let text: String
        do throws(PluginHostError) {
            text = try history.host.describe([(context: context, plugin: id)], atState: state)[0]
        } catch {
            throw ClientFailure(error)
        }
        return try CText.write(text, to: buffer, capacity: capacity)
    }
}
