import UndoCore
import UndoPluginABI

/// One plugin's document: a context in which the plugin may keep state.
public struct PluginDocument: Hashable, Sendable, CustomStringConvertible {
    /// The plugin's id ("org.undohost.text").
    public var plugin: String
    /// The document.
    public var context: UndoContext

    /// Names a plugin's document.
    public init(plugin: String, context: UndoContext) {
        self.plugin = plugin
        self.context = context
    }

    public var description: String { "\(plugin) \(ActionValue.quoted(context.name))" }
}

extension PluginHost {
    /// The most bytes a document's state may have when its plugin saves it with
    /// save_document_v2 (ABI 1.8): `UNDO_MAX_DOCUMENT_SIZE` (4 GiB). A plugin with only
    /// save_document (ABI 1.7) is held to `UNDO_MAX_VALUE_SIZE` (16 MiB).
    public static let maximumDocumentSize = Int(UNDO_MAX_DOCUMENT_SIZE)

    /// Whether the plugin can save its documents' state as bytes and load it back
    /// (`save_document` and `load_document`, ABI 1.7; a plugin with only one of them has
    /// neither, as far as the host is concerned).
    /// - Throws: ``PluginHostError/unknownPlugin(_:)``.
    /// - Complexity: O(loaded plugins).
    public func canSaveDocuments(plugin pluginID: String) throws(PluginHostError) -> Bool {
        guard let plugin = loadedPlugin(withID: pluginID) else { throw .unknownPlugin(pluginID) }
        return plugin.canSaveDocuments
    }

    /// The most bytes a state of the plugin's documents may have: ``maximumDocumentSize`` when
    /// it saves with save_document_v2 (ABI 1.8), `UNDO_MAX_VALUE_SIZE` when only with
    /// save_document (1.7), so a caller can refuse a longer state before copying it.
    /// - Throws: ``PluginHostError/unknownPlugin(_:)``.
    /// - Complexity: O(loaded plugins).
    public func documentSizeLimit(plugin pluginID: String) throws(PluginHostError) -> Int {
        guard let plugin = loadedPlugin(withID: pluginID) else { throw .unknownPlugin(pluginID) }
        return plugin.documentSizeLimit
    }

    /// The whole state of one of the plugin's documents, as bytes that
    /// ``loadDocumentState(_:plugin:context:)`` turns back into the same state, in this run or
    /// a later one (the plugin's own format). A journal keeps them as a checkpoint instead of
    /// every step since the document was opened.
    /// - Returns: the bytes (empty is a valid state), or `nil` when the plugin cannot save its
    ///   documents (see ``canSaveDocuments(plugin:)``).
    /// - Throws: ``PluginHostError/unknownPlugin(_:)``; ``PluginHostError/actionFailed(_:)``
    ///   (phase `save`) with the plugin's message when it fails, or asks for more than
    ///   `UNDO_MAX_VALUE_SIZE` bytes (`UNDO_ELIMIT`; ``maximumDocumentSize`` for a plugin with
    ///   save_document_v2, ABI 1.8); ``PluginHostError/reentrantCall(_:)`` from inside a plugin
    ///   call or an action.
    /// - Complexity: what the plugin's save takes, plus O(bytes). A plugin with
    ///   save_document_v2 (ABI 1.8) is called once and its pieces are copied twice at most
    ///   (gathered, then joined into the one array returned, each block freed once copied);
    ///   one with only save_document is called once, or twice when the first buffer (4 KiB)
    ///   is too small.
    public func saveDocumentState(plugin pluginID: String, context: UndoContext) throws(PluginHostError) -> [UInt8]? {
        guard CallFrame.current == nil, !isRunningAction else { throw .reentrantCall("saveDocumentState") }
        try Self.checkContext(context)
        guard let plugin = loadedPlugin(withID: pluginID) else { throw .unknownPlugin(pluginID) }
        guard plugin.canSaveDocuments else { return nil }
        do throws(PluginActionError) {
            return try plugin.saveDocument(context)
        } catch {
            throw .actionFailed(error)
        }
    }

    /// Puts a document's state saved by ``saveDocumentState(plugin:context:)`` back into an
    /// empty document of the plugin: one with no step in the history (on any branch, of any
    /// plugin) and nothing kept in the plugin's slot for it (`undo_call.document_data`) — a
    /// document never changed, or closed with ``closeContext(_:)``. The history is not changed:
    /// the loaded state is where undoing the document's later steps stops.
    /// - Parameters:
    ///   - bytes: what ``saveDocumentState(plugin:context:)`` returned, at most
    ///     `UNDO_MAX_VALUE_SIZE` bytes (``maximumDocumentSize`` for a plugin with
    ///     save_document_v2, ABI 1.8).
    ///   - pluginID: the plugin's id.
    ///   - context: the document.
    /// - Throws: ``PluginHostError/cannotLoadDocuments(plugin:)`` when the plugin has no
    ///   save_document and load_document; ``PluginHostError/documentNotEmpty(plugin:context:)``;
    ///   ``PluginHostError/documentStateTooLarge(plugin:bytes:limit:)``;
    ///   ``PluginHostError/actionFailed(_:)`` (phase `load`) with the plugin's message when it
    ///   refuses the bytes (the document is then left empty); ``PluginHostError/unknownPlugin(_:)``;
    ///   ``PluginHostError/reentrantCall(_:)``.
    /// - Complexity: what the plugin's load takes; O(1) to check the document is empty, or
    ///   O(steps of every branch) when the history has branches.
    public func loadDocumentState(_ bytes: [UInt8], plugin pluginID: String, context: UndoContext)
        throws(PluginHostError)
    {
        try loadDocumentState(from: DocumentSource(bytes), plugin: pluginID, context: context)
    }

    /// ``loadDocumentState(_:plugin:context:)`` with the state handed on block by block (a
    /// journal's rows, say): a plugin with load_document_v2 (ABI 1.8) reads it in pieces, so it
    /// is never held in one block; one with only load_document is given the blocks joined.
    /// - Throws: what ``loadDocumentState(_:plugin:context:)`` throws; ``PluginHostError/actionFailed(_:)``
    ///   (phase `load`, `UNDO_ESTATE`) when the source cannot be read or holds another length
    ///   than its `count`; (`UNDO_EPLUGIN`) when the plugin returned `UNDO_OK` before reading
    ///   the whole state. The document is left empty on every failure.
    /// - Complexity: what the plugin's load takes, plus O(bytes) copied once (twice for a
    ///   plugin without load_document_v2).
    public func loadDocumentState(from source: DocumentSource, plugin pluginID: String, context: UndoContext)
        throws(PluginHostError)
    {
        guard let plugin = loadedPlugin(withID: pluginID) else { throw .unknownPlugin(pluginID) }
        try loadDocumentState(from: source, plugin: plugin, context: context)
    }

    /// ``loadDocumentState(from:plugin:context:)`` with the plugin already looked up (so it can
    /// run under the history's lock: the host's own lock is never taken inside it).
    func loadDocumentState(from source: DocumentSource, plugin: LoadedPlugin, context: UndoContext)
        throws(PluginHostError)
    {
        let pluginID = plugin.id
        guard CallFrame.current == nil, !isRunningAction else { throw .reentrantCall("loadDocumentState") }
        try Self.checkContext(context)
        guard plugin.canSaveDocuments else { throw .cannotLoadDocuments(plugin: pluginID) }
        guard source.count <= plugin.documentSizeLimit else {
            throw .documentStateTooLarge(plugin: pluginID, bytes: source.count, limit: plugin.documentSizeLimit)
        }
        // Checked and loaded under the history's lock (the plugin's call lock), so no step can
        // arrive in between.
        let result: Result<Void, PluginHostError> = history.withStack { stack in
            guard !Self.hasSteps(in: context, stack), !plugin.keepsDocument(context) else {
                return .failure(.documentNotEmpty(plugin: pluginID, context: context))
            }
            do throws(PluginActionError) {
                try plugin.loadDocument(from: source, into: context)
                return .success(())
            } catch {
                return .failure(.actionFailed(error))
            }
        }
        try result.get()
    }

    /// Checks that `bytes` (what ``saveDocumentState(plugin:context:)`` returned) load back:
    /// loads them into a scratch document of the plugin (a context no document uses: none in
    /// `used`, no step in the history, nothing in the plugin's slot), then closes it the way
    /// ``closeContext(_:)`` does, for that plugin only, without a change to the history or a
    /// record in a journal. What a journal's checkpoint does before it drops any change.
    /// - Parameters:
    ///   - bytes: the saved state.
    ///   - pluginID: the plugin's id.
    ///   - used: the contexts of the documents the caller knows of (never used as the scratch one).
    /// - Throws: what ``loadDocumentState(_:plugin:context:)`` throws: ``PluginHostError/actionFailed(_:)``
    ///   (phase `load`) with the plugin's message when it refuses the bytes;
    ///   ``PluginHostError/documentStateTooLarge(plugin:bytes:limit:)``.
    /// - Complexity: what the plugin's load and close take, plus O(1) per scratch name tried.
    public func checkDocumentState(_ bytes: [UInt8], plugin pluginID: String, avoiding used: Set<UndoContext>)
        throws(PluginHostError)
    {
        try checkDocumentState(from: DocumentSource(bytes), plugin: pluginID, avoiding: used)
    }

    /// ``checkDocumentState(_:plugin:avoiding:)`` with the state handed on block by block (a
    /// journal's rows, say), as ``loadDocumentState(from:plugin:context:)`` takes it.
    /// - Complexity: what the plugin's load and close take, plus O(bytes).
    public func checkDocumentState(from source: DocumentSource, plugin pluginID: String, avoiding used: Set<UndoContext>)
        throws(PluginHostError)
    {
        guard let plugin = loadedPlugin(withID: pluginID) else { throw .unknownPlugin(pluginID) }
        try checkDocumentState(from: source, plugin: plugin, avoiding: used)
    }

    func checkDocumentState(from source: DocumentSource, plugin: LoadedPlugin, avoiding used: Set<UndoContext>)
        throws(PluginHostError)
    {
        var attempt = 0
        while true {
            attempt += 1
            let scratch = UndoContext("undo-host checkpoint check \(attempt)")
            if used.contains(scratch) { continue }
            do throws(PluginHostError) {
                try loadDocumentState(from: source, plugin: plugin, context: scratch)
            } catch {
                // A name some document holds after all (in the history or the plugin's slot):
                // another one. A plugin's own refusal of a name it keeps elsewhere is its answer.
                if case .documentNotEmpty = error {
                    if attempt < 64 { continue }
                    throw error
                }
                plugin.closeContext(scratch)
                throw error
            }
            plugin.closeContext(scratch)
            return
        }
    }

    /// The plugins' documents that hold state, as far as the host knows: every plugin with a
    /// step in the context on the current branch (done or undone, in groups too), and every
    /// plugin whose slot for the context (`undo_call.document_data`) holds something. A
    /// plugin that keeps documents in its own tables without steps in the history (after a
    /// limit evicted them, say) and without a slot is not seen: save what
    /// ``canSaveDocuments(plugin:)`` plugins hold by the contexts you know.
    /// - Returns: each document once, sorted by plugin load order, then context name.
    /// - Complexity: O(steps of the current branch + documents with a slot).
    public func documentsHoldingState() -> [PluginDocument] {
        let loadedPlugins = plugins.map(\.id)
        // Looked up before the history's lock is taken (the host's own lock is never taken inside it).
        let instances = loadedPlugins.compactMap { loadedPlugin(withID: $0) }
        var found = Set<PluginDocument>()
        history.withStack { stack in
            func visit(_ command: any UndoCommand) {
                if let group = UndoGroup.group(in: command) {
                    for member in group.members { visit(member) }
                } else if let step = command as? PluginCommand {
                    found.insert(PluginDocument(plugin: step.action.pluginID, context: step.context))
                }
            }
            for index in 0..<stack.count { visit(stack.command(at: index)) }
            for plugin in instances {
                for context in plugin.keptDocuments() { found.insert(PluginDocument(plugin: plugin.id, context: context)) }
            }
        }
        let order = Dictionary(loadedPlugins.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return found.sorted {
            let left = order[$0.plugin] ?? .max, right = order[$1.plugin] ?? .max
            return left != right ? left < right : $0.context.name < $1.context.name
        }
    }

    /// Whether the history has a step in `context`: counted for the current branch, looked
    /// for in the stored branches only when there are some.
    private static func hasSteps(in context: UndoContext, _ stack: UndoStack) -> Bool {
        if stack.canUndo(in: context) || stack.canRedo(in: context) { return true }
        guard stack.treeCount > stack.count else { return false }
        return stack.tree.contains { $0.context == context }
    }
}

extension LoadedPlugin {
    /// Whether the plugin has both save_document and load_document (ABI 1.7).
    var canSaveDocuments: Bool {
        if let remote { return remote.opened.hasSave && remote.opened.hasLoad }
        return descriptor.save_document != nil && descriptor.load_document != nil
    }

    /// Whether the plugin's slot for `context` holds something.
    func keepsDocument(_ context: UndoContext) -> Bool {
        if let remote { return serialized { remote.keptDocuments().contains(context) } }
        return serialized { documents.existingCell(for: context)?.pointee != nil }
    }

    /// The documents whose slot holds something.
    func keptDocuments() -> [UndoContext] {
        if let remote { return serialized { remote.keptDocuments() } }
        return serialized { documents.occupied }
    }

    /// The most bytes a document's state of this plugin may have: ``PluginHost/maximumDocumentSize``
    /// with save_document_v2 (ABI 1.8), `UNDO_MAX_VALUE_SIZE` with only save_document (1.7).
    var documentSizeLimit: Int {
        descriptor.save_document_v2 != nil ? PluginHost.maximumDocumentSize : ActionArguments.maximumValueSize
    }

    /// Calls save_document_v2 (ABI 1.8) for `context` when the plugin has it, once, gathering
    /// the pieces it writes; else save_document with a 4 KiB buffer, then once more with the
    /// length it asked for.
    func saveDocument(_ context: UndoContext) throws(PluginActionError) -> [UInt8] {
        if let remote, canSaveDocuments {
            guard isLoaded else { throw unloadedError(action: nil, phase: .save) }
            return try serialized { () throws(PluginActionError) in try remote.save(context, canSave: true) }
        }
        if descriptor.save_document_v2 != nil, canSaveDocuments {
            let pieces = try saveDocumentInPieces(context)
            return pieces.joined()
        }
        guard let save = descriptor.save_document else {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .save, code: Int32(UNDO_ENOTSUP),
                                    message: "the plugin cannot save its documents")
        }
        guard isLoaded else { throw unloadedError(action: nil, phase: .save) }
        var capacity = 4096
        var retried = false
        while true {
            var buffer = [UInt8](repeating: 0, count: capacity)
            let (length, frame) = serialized {
                // Made with the call lock held: it looks up the document's slot.
                let frame = CallFrame(hostTable: hostTable, pluginData: pluginData, phase: .saveDocument,
                                      context: context, documents: documents)
                let length = frame.run { call in
                    buffer.withUnsafeMutableBufferPointer { save(call, $0.baseAddress, UInt64(capacity)) }
                }
                return (length, frame)
            }
            if length < 0 {
                throw failure(length, frame: frame, phase: .save)
            }
            guard length <= Int64(ActionArguments.maximumValueSize) else {
                throw PluginActionError(pluginID: id, actionID: nil, phase: .save, code: Int32(UNDO_ELIMIT),
                                        message: "the document's state is \(length) bytes, over the limit of \(ActionArguments.maximumValueSize)")
            }
            if Int(length) <= capacity {
                buffer.removeSubrange(Int(length)...)
                return buffer
            }
            // One retry with the size the plugin asked for (nothing can change the document in
            // between: the call lock is the history's), so a plugin asking again and again
            // cannot keep the lock through a loop with no end.
            guard !retried else {
                throw PluginActionError(pluginID: id, actionID: nil, phase: .save, code: Int32(UNDO_EPLUGIN),
                                        message: "asked for \(length) bytes after being given the \(capacity) it asked for")
            }
            capacity = Int(length)
            retried = true
        }
    }

    /// Saves `context`'s state and hands it to `deliver` in blocks of `chunkSize` bytes (the
    /// last one shorter) as the plugin writes it: with save_document_v2 (ABI 1.8) each block
    /// goes on as soon as it is full, so the state is never held whole, only one block of it;
    /// a plugin with only save_document (1.7, at most 16 MiB) or an isolated one (whose runner
    /// sends it whole) is saved as before and its state handed on a block at a time.
    /// - Parameter deliver: takes each block; returns why it could not keep it, or `nil`. The
    ///   save then fails (phase `save`, `UNDO_ESTATE`) with that reason.
    /// - Returns: the state's length in bytes, and the most bytes held at once meanwhile.
    /// - Complexity: what the plugin's save takes, plus O(bytes) copied once (twice for a
    ///   plugin without save_document_v2).
    func saveDocument(_ context: UndoContext, inChunksOf chunkSize: Int, to deliver: @escaping ([UInt8]) -> String?)
        throws(PluginActionError) -> (count: Int, mostBytesHeld: Int)
    {
        if remote == nil, descriptor.save_document_v2 != nil, canSaveDocuments {
            let pieces = DocumentPieces(limit: PluginHost.maximumDocumentSize, chunkSize: chunkSize, deliver: deliver)
            try saveDocument(context, into: pieces)
            guard pieces.finish() else {
                throw PluginActionError(pluginID: id, actionID: nil, phase: .save, code: Int32(UNDO_ESTATE),
                                        message: "the host cannot keep the state: \(pieces.failure ?? "")")
            }
            return (pieces.count, pieces.mostBytesHeld)
        }
        let whole = try saveDocument(context)
        var start = 0
        while start < whole.count {
            let end = min(start + chunkSize, whole.count)
            if let failure = deliver(Array(whole[start..<end])) {
                throw PluginActionError(pluginID: id, actionID: nil, phase: .save, code: Int32(UNDO_ESTATE),
                                        message: "the host cannot keep the state: \(failure)")
            }
            start = end
        }
        return (whole.count, whole.count)
    }

    /// Calls save_document_v2 (ABI 1.8) for `context` once: the pieces it wrote with
    /// `write_document`, in order.
    /// - Complexity: what the plugin's save takes, plus O(bytes written).
    func saveDocumentInPieces(_ context: UndoContext) throws(PluginActionError) -> DocumentPieces {
        let pieces = DocumentPieces(limit: PluginHost.maximumDocumentSize)
        try saveDocument(context, into: pieces)
        return pieces
    }

    /// Calls save_document_v2 (ABI 1.8) for `context` once, its pieces going to `pieces`.
    private func saveDocument(_ context: UndoContext, into pieces: DocumentPieces) throws(PluginActionError) {
        guard let save = descriptor.save_document_v2 else {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .save, code: Int32(UNDO_ENOTSUP),
                                    message: "the plugin cannot save its documents in pieces")
        }
        guard isLoaded else { throw unloadedError(action: nil, phase: .save) }
        let (status, frame) = documentCall(.saveDocument, context, pieces: pieces) { call in save(call) }
        if pieces.isOverLimit {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .save, code: Int32(UNDO_ELIMIT),
                                    message: "the document's state is over the limit of \(PluginHost.maximumDocumentSize) bytes")
        }
        if let failure = pieces.failure {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .save, code: Int32(UNDO_ESTATE),
                                    message: "the host cannot keep the state: \(failure)")
        }
        guard status == UNDO_OK else { throw failure(Int64(status), frame: frame, phase: .save) }
    }

    /// Calls load_document for `context` with `bytes`; when it fails, the slot is closed
    /// (close_document) if the plugin left something in it, so the document stays empty.
    /// Only with the call lock held.
    func loadDocument(_ bytes: [UInt8], into context: UndoContext) throws(PluginActionError) {
        if let remote, canSaveDocuments {
            guard isLoaded else { throw unloadedError(action: nil, phase: .load) }
            try serialized { () throws(PluginActionError) in try remote.load(bytes, into: context, canSave: true) }
            return
        }
        if descriptor.load_document_v2 != nil, canSaveDocuments {
            try loadDocumentInPieces(DocumentSource(bytes), into: context)
            return
        }
        guard let load = descriptor.load_document else {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .load, code: Int32(UNDO_ENOTSUP),
                                    message: "the plugin cannot load its documents")
        }
        guard isLoaded else { throw unloadedError(action: nil, phase: .load) }
        let (status, frame) = serialized {
            let frame = CallFrame(hostTable: hostTable, pluginData: pluginData, phase: .loadDocument,
                                  context: context, documents: documents)
            let status = frame.run { call in
                bytes.withUnsafeBufferPointer { load(call, $0.baseAddress, UInt64($0.count)) }
            }
            if status != UNDO_OK { closeDocumentSlot(context) }
            return (status, frame)
        }
        guard status == UNDO_OK else { throw failure(Int64(status), frame: frame, phase: .load) }
    }

    /// Loads the state from `source`: in pieces with load_document_v2 (ABI 1.8), else the
    /// blocks joined into one, for load_document (or an isolated plugin's runner). Only with
    /// the call lock held.
    func loadDocument(from source: DocumentSource, into context: UndoContext) throws(PluginActionError) {
        if loadsDocumentsInPieces {
            try loadDocumentInPieces(source, into: context)
            return
        }
        if let whole = source.whole {
            try loadDocument(whole, into: context)
            return
        }
        var bytes = [UInt8](repeating: 0, count: source.count)
        let read = bytes.withUnsafeMutableBytes { source.read(into: $0) }
        guard read == source.count else {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .load, code: Int32(UNDO_ESTATE),
                                    message: source.failure ?? "the stored state ends after \(read ?? 0) of \(source.count) bytes")
        }
        try loadDocument(bytes, into: context)
    }

    /// Whether the plugin loads its documents' state in pieces (load_document_v2, ABI 1.8; an
    /// isolated plugin is handed the state whole by its runner).
    var loadsDocumentsInPieces: Bool {
        remote == nil && canSaveDocuments && descriptor.load_document_v2 != nil
    }

    /// Calls load_document_v2 (ABI 1.8) for `context` once, handing it the state from `source`
    /// with read_document; when it fails, or returns `UNDO_OK` without reading the whole
    /// state (a part of a state is never loaded), the document is closed (its close handler
    /// and close_document), so it stays empty. Only with the call lock held.
    /// - Complexity: what the plugin's load takes, plus O(bytes): each is copied once, into the
    ///   plugin's buffers.
    func loadDocumentInPieces(_ source: DocumentSource, into context: UndoContext) throws(PluginActionError) {
        guard let load = descriptor.load_document_v2 else {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .load, code: Int32(UNDO_ENOTSUP),
                                    message: "the plugin cannot load its documents in pieces")
        }
        guard isLoaded else { throw unloadedError(action: nil, phase: .load) }
        guard source.count <= PluginHost.maximumDocumentSize else {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .load, code: Int32(UNDO_ELIMIT),
                                    message: "the document's state is \(source.count) bytes, over the limit of \(PluginHost.maximumDocumentSize)")
        }
        let (status, frame) = documentCall(.loadDocument, context, source: source) { call in load(call) }
        let error: PluginActionError?
        if let failure = source.failure {
            error = PluginActionError(pluginID: id, actionID: nil, phase: .load, code: Int32(UNDO_ESTATE), message: failure)
        } else if status != UNDO_OK {
            error = self.failure(Int64(status), frame: frame, phase: .load)
        } else if !source.isAtEnd {
            error = PluginActionError(pluginID: id, actionID: nil, phase: .load, code: Int32(UNDO_EPLUGIN),
                                      message: "returned UNDO_OK after reading \(source.bytesRead) of the state's \(source.count) bytes")
        } else {
            error = nil
        }
        if let error {
            // Whatever the plugin kept of the state goes: the document stays empty.
            closeContext(context)
            throw error
        }
    }

    /// Runs save_document_v2 or load_document_v2 (`call`) for `context` in a frame of `phase`,
    /// with `pieces` (what write_document fills) or `source` (what read_document hands on)
    /// attached for the call only.
    /// - Returns: what the plugin returned, and the frame (for the error it reported).
    private func documentCall(_ phase: CallFrame.Phase, _ context: UndoContext, pieces: DocumentPieces? = nil,
                              source: DocumentSource? = nil,
                              _ call: (UnsafeMutablePointer<undo_call>) -> Int32) -> (Int32, CallFrame) {
        serialized {
            let frame = CallFrame(hostTable: hostTable, pluginData: pluginData, phase: phase,
                                  context: context, documents: documents)
            frame.documentPieces = pieces
            frame.documentSource = source
            let status = frame.run(call)
            frame.documentPieces = nil
            frame.documentSource = nil
            return (status, frame)
        }
    }

    /// The error of a save or load that returned `code` (not `UNDO_OK`).
    private func failure(_ code: Int64, frame: CallFrame, phase: PluginActionError.Phase) -> PluginActionError {
        guard code < 0, code >= Int64(Int32.min), ErrorReport.isFailure(Int32(code)) else {
            return PluginActionError(pluginID: id, actionID: nil, phase: phase, code: Int32(UNDO_EPLUGIN),
                                     message: "returned \(code), which is not an error code")
        }
        let code = Int32(code)
        return PluginActionError(pluginID: id, actionID: nil, phase: phase, code: code,
                                 message: frame.reportedError?.message ?? frame.refusal ?? ErrorReport.message(of: code))
    }
}
