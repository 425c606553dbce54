import UndoCore
import UndoPluginABI

extension PluginHost {
    /// Closes a document: its steps leave the history (the other documents' steps stay and
    /// still undo), then every plugin that asked with `set_close_handler` forgets the document,
    /// so one opened later under the same name starts empty.
    /// - Returns: how many steps (or group members) left the history.
    /// - Throws: ``PluginHostError/reentrantCall(_:)`` from inside a plugin call or an action.
    @discardableResult
    public func closeContext(_ context: UndoContext) throws(PluginHostError) -> Int {
        guard CallFrame.current == nil, !isRunningAction else { throw .reentrantCall("closeContext") }
        try checkRecorder()
        let removed: Int
        do {
            removed = try history.withStack { try $0.removeAll(in: context) }
        } catch {
            throw .history(error as? UndoError ?? .actionFailed(step: nil, message: String(describing: error)))
        }
        for info in plugins {
            loadedPlugin(withID: info.id)?.closeContext(context)
        }
        try recordUnderLock(.closeContext(context.name))
        return removed
    }
}

/// The close handlers plugins registered with `set_close_handler` (ABI 1.1), by plugin.
enum CloseHandlers {
    typealias Handler = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
    private final class Table: @unchecked Sendable {
        let lock = RecursiveMutex()
        var handlers: [ObjectIdentifier: Handler] = [:]
    }
    private static let table = Table()

    static func set(_ handler: Handler?, for plugin: LoadedPlugin) {
        table.lock.withLock { table.handlers[ObjectIdentifier(plugin)] = handler }
    }

    static func handler(for plugin: LoadedPlugin) -> Handler? {
        table.lock.withLock { table.handlers[ObjectIdentifier(plugin)] }
    }
}

extension LoadedPlugin {
    /// Tells the plugin a document closed: its close handler (ABI 1.1), if it asked to be told,
    /// and close_document (ABI 1.6) for the document's slot.
    func closeContext(_ context: UndoContext) {
        guard isLoaded else { return }
        if let remote {
            serialized { remote.closeDocument(context, canSave: canSaveDocuments) }
            return
        }
        serialized {
            if let close = CloseHandlers.handler(for: self) {
                let frame = CallFrame(hostTable: hostTable, pluginData: pluginData, phase: .closeDocument, context: context)
                frame.run { _ in context.name.withCString { close(pluginData, $0) } }
            }
            closeDocumentSlot(context)
        }
    }

    /// Calls close_document for the slot of `context` when it holds something, then frees the
    /// slot. Only with the call lock held.
    func closeDocumentSlot(_ context: UndoContext) {
        guard documents.existingCell(for: context) != nil else { return }
        if documents.existingCell(for: context)?.pointee != nil, let close = descriptor.close_document {
            let frame = CallFrame(hostTable: hostTable, pluginData: pluginData, phase: .closeDocument,
                                  context: context, documents: documents)
            frame.run { close($0) }
        }
        forgetKeptDocument()
        documents.remove(context)
    }
}

extension HostCallbacks {
    static func setCloseHandler(_ table: UnsafePointer<undo_host>?, _ handler: CloseHandlers.Handler?) -> Int32 {
        guard let plugin = HostTables.plugin(for: table) else { return Int32(UNDO_ESTATE) }
        guard let frame = CallFrame.current, frame.belongs(to: plugin.hostTable), frame.phase == .initialize else {
            plugin.writeLog(.warning, "set_close_handler was called outside init; refused")
            return Int32(UNDO_ESTATE)
        }
        guard let handler else { return Int32(UNDO_EINVAL) }
        CloseHandlers.set(handler, for: plugin)
        return Int32(UNDO_OK)
    }
}
