import UndoPluginABI

/// One instance of the plugin in one host: what `*plugin_data` points to (retained from init
/// until deinit).
final class UndoPluginInstance {
    let plugin: UndoPlugin
    let host: UndoHostCallbacks
    let state: AnyObject

    init(plugin: UndoPlugin, host: UndoHostCallbacks, state: AnyObject) {
        self.plugin = plugin
        self.host = host
        self.state = state
    }

    /// The instance init made, or nil for NULL plugin data (a host that did not init the plugin):
    /// the caller returns an error instead of stopping the host's process.
    static func from(_ pluginData: UnsafeMutableRawPointer?) -> UndoPluginInstance? {
        pluginData.map { Unmanaged<UndoPluginInstance>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: The descriptor's functions

    static let initialize: @convention(c) (UnsafePointer<undo_host>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32 = {
        host, pluginData in
        guard let host, let pluginData else { return Int32(UNDO_EINVAL) }
        let callbacks = UndoHostCallbacks(host)
        guard let plugin = UndoPlugin.current else {
            return callbacks.report(UndoPluginError(.pluginFailed, "the plugin made no UndoPlugin"))
        }
        if let refusal = UndoPlugin.refusal {
            return callbacks.report(UndoPluginError(.invalidArgument, "\(plugin.id) cannot be used: \(refusal)"))
        }
        let state: AnyObject
        do {
            state = try plugin.makeState(callbacks)
        } catch {
            return callbacks.report(UndoPluginError(error))
        }
        let status = plugin.registerActions(with: callbacks)
        guard status == Int32(UNDO_OK) else { return status } // nothing kept: deinit will not come
        // ABI 1.1: be told when the host closes a document (older hosts have no such callback).
        // Read field by field: an older host's table ends before this one.
        if plugin.closeDocument != nil {
            let raw = UnsafeRawPointer(host)
            let offset = MemoryLayout<undo_host>.offset(of: \.set_close_handler)!
            if Int(raw.load(as: UInt32.self)) >= offset + MemoryLayout<SetCloseHandler>.size,
               let setCloseHandler = raw.load(fromByteOffset: offset, as: SetCloseHandler.self) {
                _ = setCloseHandler(host, closeContext)
            }
        }
        pluginData.pointee = Unmanaged.passRetained(UndoPluginInstance(plugin: plugin, host: callbacks, state: state)).toOpaque()
        return Int32(UNDO_OK)
    }

    private typealias SetCloseHandler = (@convention(c) (UnsafePointer<undo_host>?,
        (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void)?) -> Int32)?

    static let deinitialize: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pluginData in
        guard let pluginData else { return }
        Unmanaged<UndoPluginInstance>.fromOpaque(pluginData).release()
    }

    static let describe: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UInt32) -> Int32 = {
        pluginData, context, buffer, capacity in
        guard let instance = from(pluginData) else { return Int32(UNDO_EINVAL) }
        guard let describeState = instance.plugin.describeState else { return Int32(UNDO_ENOTSUP) }
        do {
            let text = try describeState(instance.state, String(undoArgument: context))
            return write(text, to: buffer, capacity: capacity)
        } catch {
            return instance.host.report(UndoPluginError(error))
        }
    }

    /// describe_range (ABI 1.8): the plugin's view of a part of the call's document, written
    /// as describe writes the whole, with the document's extent.
    static let describeRange: @convention(c) (UnsafeMutablePointer<undo_call>?, Int64, Int64, UnsafeMutablePointer<CChar>?,
                                              UInt32, UnsafeMutablePointer<Int64>?) -> Int32 = {
        call, location, length, buffer, capacity, extent in
        guard let call, let extent, let instance = from(call.pointee.plugin_data) else { return Int32(UNDO_EINVAL) }
        guard let describeRange = instance.plugin.describeRangeState else { return Int32(UNDO_ENOTSUP) }
        do {
            guard location >= 0, length >= 0, length <= Int64.max - location else {
                throw UndoPluginError(.invalidArgument, "the range \(location), \(length) is not a range of a document")
            }
            let part = try describeRange(instance.state, String(undoArgument: call.pointee.context), location..<(location + length))
            guard part.extent >= 0 else {
                throw UndoPluginError(.pluginFailed, "describeRange gave a negative extent (\(part.extent))")
            }
            extent.pointee = part.extent
            return write(part.text, to: buffer, capacity: capacity)
        } catch {
            return instance.host.report(UndoPluginError(error))
        }
    }

    static let closeContext: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = {
        pluginData, context in
        guard let instance = from(pluginData) else { return }
        instance.plugin.closeDocument?(instance.state, String(undoArgument: context))
    }

    /// save_document (ABI 1.7): the plugin's bytes for the call's document, written when they
    /// fit; the full length either way, so the host calls again with room.
    static let saveDocument: @convention(c) (UnsafeMutablePointer<undo_call>?, UnsafeMutablePointer<UInt8>?, UInt64) -> Int64 = {
        call, buffer, capacity in
        guard let call, let instance = from(call.pointee.plugin_data) else { return Int64(UNDO_EINVAL) }
        guard let saveState = instance.plugin.saveState else { return Int64(UNDO_ENOTSUP) }
        do {
            let bytes = try saveState(instance.state, String(undoArgument: call.pointee.context))
            guard bytes.count <= Int(UNDO_MAX_VALUE_SIZE) else {
                throw UndoPluginError(.limitExceeded, "the document's state is \(bytes.count) bytes, over UNDO_MAX_VALUE_SIZE")
            }
            if let buffer, UInt64(bytes.count) <= capacity {
                bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) }
            }
            return Int64(bytes.count)
        } catch {
            return Int64(instance.host.report(UndoPluginError(error)))
        }
    }

    /// save_document_v2 (ABI 1.8): the plugin's bytes for the call's document, asked for once
    /// and handed to the host with write_document (no limit of 16 MiB; a 1.7 host calls
    /// ``saveDocument`` instead).
    static let saveDocumentV2: @convention(c) (UnsafeMutablePointer<undo_call>?) -> Int32 = { call in
        guard let call, let instance = from(call.pointee.plugin_data) else { return Int32(UNDO_EINVAL) }
        guard let saveState = instance.plugin.saveState else { return Int32(UNDO_ENOTSUP) }
        guard let host = call.pointee.host, host.pointee.struct_size >= UInt32(MemoryLayout<undo_host>.size),
              let writeDocument = host.pointee.write_document else { return Int32(UNDO_ENOTSUP) }
        do {
            let bytes = try saveState(instance.state, String(undoArgument: call.pointee.context))
            return bytes.withUnsafeBufferPointer { writeDocument(call, $0.baseAddress, UInt64($0.count)) }
        } catch {
            return instance.host.report(UndoPluginError(error))
        }
    }

    /// load_document (ABI 1.7): hands the bytes (copied) to the plugin's loadDocument.
    static let loadDocument: @convention(c) (UnsafeMutablePointer<undo_call>?, UnsafePointer<UInt8>?, UInt64) -> Int32 = {
        call, bytes, length in
        guard let call, let instance = from(call.pointee.plugin_data) else { return Int32(UNDO_EINVAL) }
        guard let loadState = instance.plugin.loadState else { return Int32(UNDO_ENOTSUP) }
        guard length <= UInt64(UNDO_MAX_DOCUMENT_SIZE), length <= UInt64(Int.max), bytes != nil || length == 0 else {
            return Int32(UNDO_EINVAL)
        }
        let copy = bytes.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? []
        do {
            try loadState(instance.state, String(undoArgument: call.pointee.context), copy)
            return Int32(UNDO_OK)
        } catch {
            return instance.host.report(UndoPluginError(error))
        }
    }

    /// load_document_v2 (ABI 1.8): reads the bytes with read_document, 1 MiB at a time, into
    /// the one array the plugin's loadDocument is given (the host keeps no block of the whole
    /// state for it; a 1.7 host calls ``loadDocument`` instead).
    static let loadDocumentV2: @convention(c) (UnsafeMutablePointer<undo_call>?) -> Int32 = { call in
        guard let call, let instance = from(call.pointee.plugin_data) else { return Int32(UNDO_EINVAL) }
        guard let loadState = instance.plugin.loadState else { return Int32(UNDO_ENOTSUP) }
        guard let host = call.pointee.host, host.pointee.struct_size >= UInt32(MemoryLayout<undo_host>.size),
              let readDocument = host.pointee.read_document else { return Int32(UNDO_ENOTSUP) }
        let piece = 1 << 20
        var bytes: [UInt8] = []
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: piece))
            let read = bytes.withUnsafeMutableBufferPointer { buffer in
                readDocument(call, buffer.baseAddress! + start, UInt64(piece))
            }
            guard read >= 0, read <= Int64(piece) else {
                return read < 0 ? Int32(clamping: read) : Int32(UNDO_EPLUGIN)
            }
            bytes.removeSubrange((start + Int(read))...)
            if read < Int64(piece) { break }
        }
        do {
            try loadState(instance.state, String(undoArgument: call.pointee.context), bytes)
            return Int32(UNDO_OK)
        } catch {
            return instance.host.report(UndoPluginError(error))
        }
    }

    /// Writes what fits of `text` (whole characters' bytes only) and a NUL; returns the full
    /// length so the host can retry with a larger buffer.
    static func write(_ text: String, to buffer: UnsafeMutablePointer<CChar>?, capacity: UInt32) -> Int32 {
        let utf8 = Array(text.utf8)
        guard utf8.count <= Int(Int32.max) else { return Int32(UNDO_ELIMIT) }
        if let buffer, capacity > 0 {
            var count = min(utf8.count, Int(capacity) - 1)
            // Never end inside a multi-byte sequence: back up to the start of a scalar.
            while count < utf8.count && count > 0 && utf8[count] & 0xC0 == 0x80 { count -= 1 }
            for index in 0..<count { buffer[index] = CChar(bitPattern: utf8[index]) }
            buffer[count] = 0
        }
        return Int32(utf8.count)
    }
}
