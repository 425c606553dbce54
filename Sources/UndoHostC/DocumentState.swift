import UndoCore
import UndoHostAPI
import UndoPluginHost

// Saving a plugin document's state as bytes and loading it back (ABI 1.7; larger states with
// save_document_v2, ABI 1.8).

@c @implementation
public func undo_history_save_document(_ h: OpaquePointer?, _ pluginID: UnsafePointer<CChar>?,
                                       _ context: UnsafePointer<CChar>?, _ buffer: UnsafeMutablePointer<UInt8>?,
                                       _ capacity: UInt64, _ length: UnsafeMutablePointer<UInt64>?) -> Int32 {
    length?.pointee = 0
    return withClient(h, changing: false) { history throws(ClientFailure) in
        guard let length else { throw .invalid("length is NULL") }
        if capacity > 0 && buffer == nil { throw .invalid("buffer is NULL but capacity is \(capacity)") }
        let id = try CText.read(pluginID, "plugin_id")
        let context = try CText.context(context, fallback: history.currentContext ?? .global)
        let saved: [UInt8]?
        do throws(PluginHostError) {
            saved = try history.host.saveDocumentState(plugin: id, context: context)
        } catch {
            throw ClientFailure(error)
        }
        guard let saved else { throw ClientFailure(.cannotLoadDocuments(plugin: id)) }
        if let buffer, UInt64(saved.count) <= capacity {
            saved.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) }
        }
        length.pointee = UInt64(saved.count)
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_load_document(_ h: OpaquePointer?, _ pluginID: UnsafePointer<CChar>?,
                                       _ context: UnsafePointer<CChar>?, _ bytes: UnsafePointer<UInt8>?,
                                       _ length: UInt64) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        if length > 0 && bytes == nil { throw .invalid("bytes is NULL but length is \(length)") }
        let id = try CText.read(pluginID, "plugin_id")
        let context = try CText.context(context, fallback: history.currentContext ?? .global)
        // A plugin with save_document_v2 (ABI 1.8) takes up to UNDO_MAX_DOCUMENT_SIZE; one
        // without, UNDO_MAX_VALUE_SIZE.
        let limit: UInt64
        do throws(PluginHostError) {
            limit = UInt64(try history.host.documentSizeLimit(plugin: id))
        } catch {
            throw ClientFailure(error)
        }
        guard length <= limit else {
            // Refused before copying: the length alone may be absurd.
            throw ClientFailure(.documentStateTooLarge(plugin: id, bytes: Int(clamping: length), limit: Int(limit)))
        }
        let copy = bytes.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? []
        do throws(PluginHostError) {
            try history.host.loadDocumentState(copy, plugin: id, context: context)
        } catch {
            throw ClientFailure(error)
        }
        return Int32(UNDO_OK)
    }
}
