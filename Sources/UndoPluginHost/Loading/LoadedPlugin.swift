import Synchronization
import UndoCore
import UndoPluginABI

/// One plugin instance in one host: its library, descriptor copy, host table, plugin data and
/// action types. All calls into its code hold its call lock, the host's history lock
/// (``serialized(_:)``, ``withFrame(_:action:context:_:)``), so the plugin never runs on two
/// threads at once.
final class LoadedPlugin: @unchecked Sendable {
    enum State: UInt8 { case initializing, loaded, unloading, unloaded }

    let path: String
    /// The plugin's code in this process; `nil` for an isolated plugin.
    let library: DynamicLibrary?
    /// The process an isolated plugin runs in (``PluginIsolation``); `nil` in-process. Every
    /// call into an isolated plugin goes to it instead of the plugin's functions.
    let remote: IsolatedPluginProcess?
    let descriptor: undo_plugin_descriptor
    let id: String
    let name: String
    let version: String
    /// The last label of the id: the prefix of short action ids.
    let shortName: String
    /// Owned by the host, never returned to malloc (retired to a pool when this object goes): a
    /// plugin that wrongly keeps it past deinit gets UNDO_ESTATE from the callbacks, not a crash.
    let hostTable: UnsafeMutablePointer<undo_host>
    private(set) var pluginData: UnsafeMutableRawPointer?
    let log: @Sendable (PluginLogMessage) -> Void
    weak var host: PluginHost?
    /// The host's identity, for checks that need no reference to it (a weak load costs a
    /// side-table retain and release).
    let hostID: ObjectIdentifier
    /// How its action functions are called (the host's route when it was loaded).
    let callRoute: PluginCallRoute

    private let lock = RecursiveMutex()
    /// The lock every call into the plugin holds: the lock of the host's history, so the
    /// calls the history makes while it works (perform, inverse, merge) already hold it, and
    /// calls from elsewhere (init, describe, deinit, a closed document) wait for the history
    /// like every other user of it.
    private let callLock: RecursiveMutex
    /// Changed under `lock`; every change is published to `publishedState`.
    private var _state = State.initializing {
        didSet { publishedState.store(_state.rawValue, ordering: .releasing) }
    }
    /// `_state` for readers: every call into the plugin reads it, and an atomic load costs
    /// less than taking the lock.
    private let publishedState = Atomic<UInt8>(State.initializing.rawValue)
    private var _actions: [ActionType] = []
    /// Where each local id is in `_actions`: an action is found by id in O(1).
    private var _actionPositions: [String: Int] = [:]
    /// The id lookups registration took (for tests: a few per action type, not one per earlier type).
    private var _registrationLookups = 0
    var registrationLookups: Int { lock.withLock { _registrationLookups } }
    /// The registrations that shared the checked result of an action type read before in this
    /// process (``CheckedActionType``), for tests.
    private var _reusedRegistrations = 0
    var reusedRegistrations: Int { lock.withLock { _reusedRegistrations } }
    /// The plugin's slot per document (`undo_call.document_data`), used with the call lock held.
    let documents: DocumentSlots

    convenience init(path: String, library: DynamicLibrary, descriptor: PluginDescriptor, host: PluginHost) {
        self.init(path: path, library: library, remote: nil, descriptor: descriptor.raw, id: descriptor.id,
                  name: descriptor.name, version: descriptor.version, host: host)
    }

    /// An isolated plugin: what its process read from the descriptor (the functions stay there).
    convenience init(path: String, remote: IsolatedPluginProcess, host: PluginHost) {
        var raw = undo_plugin_descriptor()
        raw.struct_size = remote.opened.structSize
        raw.abi_major = remote.opened.abiMajor
        raw.abi_minor = remote.opened.abiMinor
        self.init(path: path, library: nil, remote: remote, descriptor: raw, id: remote.opened.id,
                  name: remote.opened.name, version: remote.opened.version, host: host)
        remote.owner = self
    }

    private init(path: String, library: DynamicLibrary?, remote: IsolatedPluginProcess?, descriptor: undo_plugin_descriptor,
                 id: String, name: String, version: String, host: PluginHost) {
        self.path = path
        self.library = library
        self.remote = remote
        self.descriptor = descriptor
        self.id = id
        self.name = name
        self.version = version
        self.shortName = String(id.split(separator: ".").last ?? "")
        self.log = host.logHandler
        self.host = host
        self.hostID = ObjectIdentifier(host)
        self.callRoute = host.callRoute
        self.callLock = host.history.mutex
        documents = DocumentSlots(guardedBy: host.history.mutex)
        hostTable = HostTables.makeTable(hostName: host.hostName, hostVersion: host.hostVersion, locale: host.locale)
        keptFrame = CallFrame(hostTable: hostTable, pluginData: nil, phase: .perform)
        keptFrame.setDocuments(documents)
        HostTables.register(hostTable, for: self)
    }

    var state: State { State(rawValue: publishedState.load(ordering: .acquiring))! }
    /// `state == .loaded`, compared as the raw value (every call into the plugin asks).
    var isLoaded: Bool { publishedState.load(ordering: .acquiring) == State.loaded.rawValue }
    var actions: [ActionType] { lock.withLock { _actions } }
    var canDescribe: Bool {
        if let remote { return remote.opened.canDescribe }
        return descriptor.describe != nil || descriptor.describe_v2 != nil
    }
    /// Whether the descriptor sets only one of save_document and load_document.
    var setsHalfOfSaveAndLoad: Bool {
        if let remote { return remote.opened.hasSave != remote.opened.hasLoad }
        return (descriptor.save_document == nil) != (descriptor.load_document == nil)
    }

    /// Runs plugin code with the plugin's call lock (its host's history lock) held: taken here
    /// only when this thread does not hold it yet. A call the history makes while it works
    /// (perform, inverse, merge) holds it already and does not take it again; the calls from
    /// outside the history (init, describe, deinit, close handlers) take it here.
    func serialized<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        if callLock.isHeldByCurrentThread { return try body() }
        callLock.lock()
        defer { callLock.unlock() }
        return try body()
    }

    /// The frame of perform, inverse and merge calls, kept for the next call (a call costs no
    /// allocation for its frame). Only taken with the call lock held, so by one thread at a
    /// time; a nested call finds it taken and makes its own. It refers to this plugin by its
    /// table, so keeping it makes no cycle.
    private let keptFrame: CallFrame

    /// Whether the kept frame is free for the next call (for tests: every call gives it back,
    /// also a call that fails).
    var keptFrameIsFree: Bool { serialized { !keptFrame.isTaken } }

    /// Makes the kept frame forget its document slot, before a slot is freed.
    func forgetKeptDocument() { keptFrame.forgetDocument() }

    /// Runs `body` with a frame for a call of `action` in `context`, with the call lock held
    /// (see ``serialized(_:)``).
    func withFrame<R, E: Error>(_ phase: CallFrame.Phase, action: ActionType, context: UndoContext,
                                _ body: (CallFrame) throws(E) -> R) throws(E) -> R {
        let mustLock = !callLock.isHeldByCurrentThread
        if mustLock { callLock.lock() }
        defer { if mustLock { callLock.unlock() } }
        if keptFrame.take(phase: phase, action: action, context: context) {
            // Given back on both ways out, without a deferred call (one function call less).
            let result: R
            do {
                result = try body(keptFrame)
            } catch {
                keptFrame.release()
                throw error
            }
            keptFrame.release()
            return result
        }
        return try body(CallFrame(hostTable: hostTable, pluginData: pluginData, phase: phase, action: action,
                                  context: context, documents: documents))
    }

    func writeLog(_ level: PluginLogMessage.Level, _ message: String) {
        log(PluginLogMessage(pluginID: id, level: level, message: message))
    }

    // MARK: Life cycle

    /// Calls init; on success the plugin is loaded with the action types it registered.
    /// - Throws: init's failure (deinit not called), or the first refused registration
    ///   (deinit called).
    func initialize() throws(PluginLoadError.Reason) {
        if let remote {
            try initializeIsolated(remote)
            return
        }
        let frame = CallFrame(hostTable: hostTable, pluginData: nil, phase: .initialize)
        var data: UnsafeMutableRawPointer?
        let status = serialized {
            frame.run { _ in descriptor.`init`!(UnsafePointer(hostTable), &data) }
        }
        guard status == UNDO_OK else {
            lock.withLock { _state = .unloaded }
            CloseHandlers.set(nil, for: self)
            let message = frame.reportedError?.message ?? frame.refusal
                ?? (status > 0 ? "init returned \(status), which is not an error code" : nil)
            throw .initFailed(code: status, message: message)
        }
        if let failure = frame.registrationFailure {
            pluginData = data
            deinitialize()
            throw failure
        }
        pluginData = data
        serialized { keptFrame.setPluginData(data) }
        if (descriptor.save_document == nil) != (descriptor.load_document == nil) {
            writeLog(.warning, "the descriptor sets only one of save_document and load_document; the host uses neither")
        }
        lock.withLock {
            _actions = frame.registrations
            _actionPositions = frame.registeredIDs
            _registrationLookups = frame.registrationLookups
            _reusedRegistrations = frame.reusedRegistrations
            _state = .loaded
        }
    }

    /// The action types an isolated plugin registered in its process: the plugin is loaded.
    func installIsolated(actions: [ActionType], positions: [String: Int]) {
        lock.withLock {
            _actions = actions
            _actionPositions = positions
            _registrationLookups = actions.count
            _state = .loaded
        }
    }

    /// Marks the plugin as going: it takes no new steps or records.
    func beginUnloading() { lock.withLock { if _state == .loaded { _state = .unloading } } }
    /// Undoes ``beginUnloading()`` when its steps could not be removed.
    func cancelUnloading() { lock.withLock { if _state == .unloading { _state = .loaded } } }

    deinit { HostTables.retire(hostTable) }

    /// Closes the documents whose slot holds something (close_document), then calls deinit and
    /// forgets the action types (breaking their cycle to this object).
    func deinitialize() {
        if let remote {
            serialized { remote.shutdown() }
            lock.withLock {
                _state = .unloaded
                _actions = []
                _actionPositions = [:]
            }
            HostTables.unregister(hostTable)
            return
        }
        let frame = CallFrame(hostTable: hostTable, pluginData: pluginData, phase: .deinitialize)
        serialized {
            for context in documents.occupied { closeDocumentSlot(context) }
            forgetKeptDocument()
            documents.removeAll()
            frame.run { _ in descriptor.deinit!(pluginData) }
            keptFrame.setPluginData(nil)
            keptFrame.forgetAction()  // it refers back to this object
        }
        lock.withLock {
            _state = .unloaded
            _actions = []
            _actionPositions = [:]
        }
        pluginData = nil
        CloseHandlers.set(nil, for: self)
        HostTables.unregister(hostTable)
    }

    /// The plugin's action type with this local id.
    /// - Complexity: O(1) (an index by id).
    func action(localID: String) -> ActionType? {
        lock.withLock { _actionPositions[localID].map { _actions[$0] } }
    }

    // MARK: Registration (from init, through the host table)

    /// The most action types one plugin may register.
    static let maximumActionTypes = 10_000

    /// Validates and prepares an action type registered during init.
    /// - Complexity: O(the action type's size): a duplicate id is found in a set.
    func register(_ type: UnsafePointer<undo_action_type>?, frame: CallFrame) -> Int32 {
        do throws(RegistrationError) {
            guard frame.registrations.count < Self.maximumActionTypes else {
                throw RegistrationError(action: nil, code: Int32(UNDO_ELIMIT),
                                        message: "a plugin may register at most \(Self.maximumActionTypes) action types")
            }
            var reused = false
            let action = try ActionTypeReader.read(type, plugin: self, existing: frame.registeredIDs, reused: &reused)
            if reused { frame.reusedRegistrations += 1 }
            frame.registeredIDs[action.localID] = frame.registrations.count
            frame.registrationLookups += 2
            frame.registrations.append(action)
            return Int32(UNDO_OK)
        } catch {
            if frame.registrationFailure == nil {
                frame.registrationFailure = .actionRefused(action: error.action ?? "?", code: error.code,
                                                           message: error.message)
            }
            frame.setRefusal("register_action: \(error.message)")
            return error.code
        }
    }

    // MARK: Describe

    /// The plugin's description of a document: through describe_v2 (ABI 1.6) when the plugin
    /// has it, else describe.
    /// - Throws: `UNDO_ELIMIT` for a view of `UNDO_MAX_VALUE_SIZE` bytes or more (see
    ///   ``describe(_:atMost:)`` for its beginning), and the plugin's failures.
    func describe(_ context: UndoContext) throws(PluginActionError) -> String {
        let view = try describe(context, atMost: ActionArguments.maximumValueSize - 1)
        guard !view.isCut else {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .describe, code: Int32(UNDO_ELIMIT),
                                    message: "the view is \(view.length) bytes, over the limit of \(ActionArguments.maximumValueSize - 1) "
                                        + "a view may have (the document itself is unchanged)")
        }
        return view.text
    }

    /// The plugin's description of a document, cut at `limit` bytes when it is longer (at the
    /// end of the last whole character that fits), with its whole length in bytes.
    /// - Complexity: the plugin's describe, called at most twice, plus O(min(length, limit)).
    func describe(_ context: UndoContext, atMost limit: Int) throws(PluginActionError)
        -> (text: String, length: Int, isCut: Bool)
    {
        precondition(limit >= 0, "a limit of 0 bytes or more")
        let describeV2 = descriptor.describe_v2
        let describe = descriptor.describe
        guard canDescribe else {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .describe, code: Int32(UNDO_ENOTSUP),
                                    message: "the plugin cannot show its documents")
        }
        guard isLoaded else { throw unloadedError(action: nil, phase: .describe) }
        if let remote {
            let whole = try serialized { () throws(PluginActionError) in try remote.describe(context, canSave: canSaveDocuments) }
            let length = whole.utf8.count
            return length <= limit ? (whole, length, false) : (Self.cut(Array(whole.utf8.prefix(limit))), length, true)
        }
        return try describeView(context, atMost: limit) { call, buffer, capacity in
            if let describeV2 { return describeV2(call, buffer, capacity) }
            return context.name.withCString { describe!(pluginData, $0, buffer, capacity) }
        }
    }

    /// Runs a describe function (`write`: describe, describe_v2 or describe_range, given the
    /// call, the buffer and its capacity) in a describe frame, once, and once more with the
    /// length it asked for, up to `limit` bytes.
    /// - Complexity: the plugin's function, called at most twice, plus O(min(length, limit)).
    func describeView(_ context: UndoContext, atMost limit: Int,
                      _ write: (UnsafeMutablePointer<undo_call>, UnsafeMutablePointer<CChar>?, UInt32) -> Int32)
        throws(PluginActionError) -> (text: String, length: Int, isCut: Bool)
    {
        // The buffer never asks for more than the limit (capacity - 1 bytes are written), nor
        // more than UInt32 can say.
        let most = min(limit, Int(UInt32.max) - 1)
        var capacity = min(4096, most + 1)
        var retried = false
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            let (length, frame) = serialized {
                // Made with the call lock held: it looks up the document's slot.
                let frame = CallFrame(hostTable: hostTable, pluginData: pluginData, phase: .describe, context: context,
                                      documents: documents)
                let length = frame.run { call in
                    buffer.withUnsafeMutableBufferPointer { buffer in write(call, buffer.baseAddress, UInt32(capacity)) }
                }
                return (length, frame)
            }
            if length < 0 {
                guard ErrorReport.isFailure(length) else {
                    throw PluginActionError(pluginID: id, actionID: nil, phase: .describe, code: Int32(UNDO_EPLUGIN),
                                            message: "returned \(length), which is not an error code")
                }
                throw PluginActionError(pluginID: id, actionID: nil, phase: .describe, code: length,
                                        message: frame.reportedError?.message ?? ErrorReport.message(of: length))
            }
            if Int(length) < capacity {
                let bytes = buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }
                return (String(decoding: bytes, as: UTF8.self), Int(length), false)
            }
            if capacity == most + 1 {
                // Longer than the limit: the buffer holds its first `most` bytes.
                return (Self.cut(buffer.prefix(most).map { UInt8(bitPattern: $0) }), Int(length), true)
            }
            // One retry with the size the plugin asked for (or the limit): a plugin that then
            // asks again would keep the history's lock through a loop with no end.
            guard !retried else {
                throw PluginActionError(pluginID: id, actionID: nil, phase: .describe, code: Int32(UNDO_EPLUGIN),
                                        message: "asked for a \(length)-byte buffer after being given the \(capacity - 1) bytes it asked for")
            }
            capacity = min(Int(length), most) + 1
            retried = true
        }
    }

    /// `bytes` (the beginning of a UTF-8 text) up to the end of their last whole character.
    /// - Complexity: O(bytes).
    static func cut(_ bytes: [UInt8]) -> String {
        var end = bytes.count
        // Back over at most 3 continuation bytes to the start of the last character, and drop
        // it when it needs more bytes than are left.
        var start = end
        while start > 0, start > end - 4, bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
        if start > 0 {
            let lead = bytes[start - 1]
            let needed = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            if end - (start - 1) < needed { end = start - 1 }
        }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    func unloadedError(action: ActionType?, phase: PluginActionError.Phase) -> PluginActionError {
        PluginActionError(pluginID: id, actionID: action?.shortID, phase: phase, code: Int32(UNDO_ESTATE),
                          message: "plugin \(id) is not loaded")
    }
}
