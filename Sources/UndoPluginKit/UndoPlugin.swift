import Synchronization
// A plugin's functions take and return the ABI's C types (undo_call, undo_value,
// undo_plugin_descriptor): a plugin imports UndoPluginABI beside UndoPluginKit.
public import UndoPluginABI

/// A plugin written in Swift: its descriptor, its action types and its per-instance state.
///
/// Make exactly one, as a global, and return its descriptor from the one exported symbol:
///
///     let plugin = UndoPlugin(id: "com.example.notes", name: "Notes", version: "1.0",
///                             actions: [...], makeState: { _ in NotesBook() },
///                             describe: { book, context in book.text(of: context) })
///
///     @c(undo_plugin_entry)
///     public func undoPluginEntry() -> UnsafePointer<undo_plugin_descriptor>? { plugin.descriptor }
///
/// The kit supplies the descriptor's init, deinit and describe functions: init makes a state
/// per host instance (reach it from a call with ``UndoCall/state(_:)``) and registers the
/// actions; deinit drops the state. Only C types cross to the host; this module is compiled into
/// the plugin's shared object and never into the host.
public final class UndoPlugin: @unchecked Sendable {
    public let id: String
    public let name: String
    public let version: String
    public let actions: [UndoPluginAction]

    let makeState: (UndoHostCallbacks) throws -> AnyObject
    let describeState: ((AnyObject, String) throws -> String)?
    let closeDocument: ((AnyObject, String) -> Void)?
    let saveState: ((AnyObject, String) throws -> [UInt8])?
    let loadState: ((AnyObject, String, [UInt8]) throws -> Void)?
    let describeRangeState: ((AnyObject, String, Range<Int64>) throws -> (text: String, extent: Int64))?

    // Written once here and never freed: the descriptor must stay valid for the life of the
    // process, and its action types for the plugin's.
    private let strings = CStringStore()
    private let descriptorStorage: UnsafeMutablePointer<undo_plugin_descriptor>
    private var actionTypes: [undo_action_type] = []

    /// - Parameters:
    ///   - id: reverse-DNS, unique among loaded plugins ("org.example.notes"); its last label
    ///     prefixes the short action ids ("notes.add").
    ///   - name: the name people see ("Notes").
    ///   - version: the plugin's own version ("1.0.0").
    ///   - actions: the action types the plugin registers when a host loads it.
    ///   - makeState: makes one instance's state, once per host that loads the plugin; throw to
    ///     refuse loading (with your message).
    ///   - describe: the text of one document (context) for display and tests; nil: none.
    ///   - closeDocument: forgets a document the host closed (its steps left the history), so
    ///     one opened later under the same name starts empty; nil: nothing to forget.
    ///   - saveDocument: the whole state of one document (context) as bytes in your own format
    ///     (put a version in it), which `loadDocument` turns back into the same state, so a
    ///     host's journal can keep a checkpoint instead of every step (ABI 1.7
    ///     `save_document`). A host of ABI 1.8 asks for it once per save (`save_document_v2`)
    ///     and takes up to `UNDO_MAX_DOCUMENT_SIZE` bytes (4 GiB); a 1.7 host at most
    ///     `UNDO_MAX_VALUE_SIZE` (16 MiB). Give it with `loadDocument` or not at all.
    ///   - loadDocument: replaces the state of an empty document (never changed, or closed)
    ///     with what the bytes hold, as `saveDocument` wrote them, maybe in an earlier run or
    ///     version; throw ``UndoPluginError`` (`.invalidArgument`) for bytes you cannot read,
    ///     leaving the document empty. A host of ABI 1.8 hands the bytes over in pieces
    ///     (`load_document_v2`), which the kit reads into the one array given here, so the host
    ///     never holds a second copy of them in one block.
    ///   - describeRange: the view of a part of one document (context), for a host that shows
    ///     what a change did without describing the whole document (ABI 1.8 `describe_range`):
    ///     given a range in the units of the locations you report with
    ///     ``UndoCall/reportChange(location:length:in:)`` (never negative), return the view of that range clamped
    ///     to the document, as `describe` would show a document holding only that part (markup
    ///     open at its start opened, open at its end closed), and the document's length in the
    ///     same units. Make it cost in proportion to the range, not the document; a host cuts
    ///     the whole view itself when it is nil. Needs `describe`.
    public init<State: AnyObject>(id: String, name: String, version: String, actions: [UndoPluginAction],
                                  makeState: @escaping (UndoHostCallbacks) throws -> State,
                                  describe: ((State, String) throws -> String)? = nil,
                                  closeDocument: ((State, String) -> Void)? = nil,
                                  saveDocument: ((State, String) throws -> [UInt8])? = nil,
                                  loadDocument: ((State, String, [UInt8]) throws -> Void)? = nil,
                                  describeRange: ((State, String, Range<Int64>) throws -> (text: String, extent: Int64))? = nil) {
        self.id = id
        self.name = name
        self.version = version
        self.actions = actions
        actionIndex = Dictionary(actions.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.makeState = { try makeState($0) }
        if let describe {
            describeState = { state, context in
                // The kit made the state with makeState, so it is a State.
                try describe(state as! State, context)
            }
        } else {
            describeState = nil
        }
        self.closeDocument = closeDocument.map { close in { state, context in close(state as! State, context) } }
        // Both or neither: a host can use a document's bytes only if it can load them back.
        let coding = saveDocument.flatMap { save in loadDocument.map { load in (save, load) } }
        saveState = coding.map { save, _ in { state, context in try save(state as! State, context) } }
        loadState = coding.map { _, load in { state, context, bytes in try load(state as! State, context, bytes) } }
        describeRangeState = describeRange.map { part in { state, context, range in try part(state as! State, context, range) } }
        var problems: [String] = []
        if (saveDocument == nil) != (loadDocument == nil) {
            problems.append("saveDocument and loadDocument go together: give both or neither")
        }
        if describeRange != nil && describe == nil {
            problems.append("describeRange needs describe (the whole view, which hosts still show)")
        }
        self.problems = problems
        descriptorStorage = .allocate(capacity: 1)
        descriptorStorage.initialize(to: makeDescriptor(hasDescribe: describe != nil, savesDocuments: coding != nil,
                                                        describesRanges: describe != nil && describeRange != nil))
        actionTypes = actions.map(makeActionType)
        Self.claimImage(for: self)
    }

    /// What makes this plugin unusable, found when it was made: init refuses to load it with
    /// these (a plugin's mistake must make its own load fail, never stop the host).
    let problems: [String]


    /// Why the host must not use this image's plugin, or nil: the problems of the plugin and
    /// a second UndoPlugin made in the same shared object.
    static var refusal: String? {
        var reasons = current?.problems ?? []
        if let second = UnsafeRawPointer(bitPattern: secondPlugin.load(ordering: .acquiring)),
           let first = current {
            let other = Unmanaged<UndoPlugin>.fromOpaque(second).takeUnretainedValue()
            reasons.append("only one UndoPlugin per shared object, but \(first.id) and \(other.id) were made")
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// What `undo_plugin_entry` returns: valid for the life of the process.
    public var descriptor: UnsafePointer<undo_plugin_descriptor> { UnsafePointer(descriptorStorage) }

    /// The action with local id `id` (the host refuses a second action of the same id).
    /// - Complexity: O(length of `id`).
    func action(withID id: String) -> UndoPluginAction? { actionIndex[id].map { actions[$0] } }

    /// The position of each action in ``actions``, by id (the first of an id).
    private let actionIndex: [String: Int]

    // MARK: The one plugin of this image

    // The descriptor's init gets no pointer of ours, only the host table, so the kit finds the
    // plugin through a global. The kit is compiled into each plugin's shared object (opened
    // RTLD_LOCAL), so each has its own.
    // The plugin lives as long as the process (its descriptor does), so the global holds it
    // as a retained pointer, set once. An atomic rather than a `Mutex`: a contended `Mutex`
    // is taken inside the kernel, where ThreadSanitizer cannot see the hand-over.
    private static let registered = Atomic<UInt>(0)
    /// A second UndoPlugin made in this image (a mistake init reports), kept like the first.
    private static let secondPlugin = Atomic<UInt>(0)

    private static func claimImage(for plugin: UndoPlugin) {
        let bits = UInt(bitPattern: Unmanaged.passRetained(plugin).toOpaque())
        let (claimed, _) = registered.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
        if !claimed {
            let (kept, _) = secondPlugin.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
            if !kept { Unmanaged<UndoPlugin>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
        }
    }

    static var current: UndoPlugin? {
        UnsafeRawPointer(bitPattern: registered.load(ordering: .acquiring))
            .map { Unmanaged<UndoPlugin>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: C structures

    private func makeDescriptor(hasDescribe: Bool, savesDocuments: Bool, describesRanges: Bool) -> undo_plugin_descriptor {
        var descriptor = undo_plugin_descriptor()
        descriptor.struct_size = UInt32(MemoryLayout<undo_plugin_descriptor>.size)
        descriptor.abi_major = UInt32(UNDO_ABI_VERSION_MAJOR)
        descriptor.abi_minor = UInt32(UNDO_ABI_VERSION_MINOR)
        descriptor.id = strings.cString(id)
        descriptor.name = strings.cString(name)
        descriptor.version = strings.cString(version)
        descriptor.`init` = UndoPluginInstance.initialize
        descriptor.deinit = UndoPluginInstance.deinitialize
        descriptor.describe = hasDescribe ? UndoPluginInstance.describe : nil
        descriptor.save_document = savesDocuments ? UndoPluginInstance.saveDocument : nil
        descriptor.load_document = savesDocuments ? UndoPluginInstance.loadDocument : nil
        descriptor.save_document_v2 = savesDocuments ? UndoPluginInstance.saveDocumentV2 : nil
        descriptor.load_document_v2 = savesDocuments ? UndoPluginInstance.loadDocumentV2 : nil
        descriptor.describe_range = describesRanges ? UndoPluginInstance.describeRange : nil
        return descriptor
    }

    private func makeActionType(_ action: UndoPluginAction) -> undo_action_type {
        var type = undo_action_type()
        type.struct_size = UInt32(MemoryLayout<undo_action_type>.size)
        // ABI 1.7: every action's perform and inverse is the kit's one values function.
        type.flags = UInt32(UNDO_ACTION_VALUES) | (action.isDiscardable ? UInt32(UNDO_ACTION_DISCARDABLE) : 0)
        type.id = strings.cString(action.id)
        type.name = strings.cString(action.name)
        type.params = strings.parameterArray(action.parameters)
        type.param_count = UInt32(action.parameters.count)
        type.inverse_params = action.inverseParameters.flatMap { strings.parameterArray($0) }
        type.inverse_param_count = UInt32(action.inverseParameters?.count ?? 0)
        type.perform = undo_values_fn_erased(UndoPluginInstance.callAction)
        type.inverse = undo_values_fn_erased(UndoPluginInstance.callAction)
        type.coalescing_key = strings.cString(action.coalescingKey)
        type.merge = action.merge == nil ? nil : undo_merge_fn_erased(UndoPluginInstance.mergeSteps)
        type.merge_mode = action.mergesByAppending ? UInt32(UNDO_MERGE_BY_APPEND) : UInt32(UNDO_MERGE_BY_FUNCTION)
        return type
    }

    /// Registers every action with the host (from init).
    /// - Returns: UNDO_OK or the first refusal's code (the host keeps its own reason).
    func registerActions(with host: UndoHostCallbacks) -> Int32 {
        for index in actionTypes.indices {
            let status = withUnsafePointer(to: &actionTypes[index]) { host.raw.pointee.register_action(host.raw, $0) }
            if status != Int32(UNDO_OK) { return status }
        }
        // ABI 1.5: the names per locale, when the host's table has the callback.
        let namesOffset = MemoryLayout<undo_host>.offset(of: \.register_action_name)!
        guard Int(host.raw.pointee.struct_size) >= namesOffset + MemoryLayout<UnsafeRawPointer>.size,
              let registerName = host.raw.pointee.register_action_name else { return Int32(UNDO_OK) }
        for action in actions {
            for (locale, name) in action.localizedNames.sorted(by: { $0.key < $1.key }) {
                let status = registerName(host.raw, strings.cString(action.id), strings.cString(locale), strings.cString(name))
                if status != Int32(UNDO_OK) { return status }
            }
        }
        return Int32(UNDO_OK)
    }
}
