import Synchronization
import UndoCore
import UndoPluginABI

/// Loads plugins and performs their actions into one shared history.
///
/// Every plugin step is a ``PluginCommand`` in ``history``, among the steps of everything else
/// that uses it: groups, coalescing, titles, the save point and results work across plugins.
///
/// **Threads.** All methods may be called from any thread. Calls into one plugin never run
/// concurrently, and init/deinit of all plugins are serialized process-wide. A call from inside
/// a plugin call or an action is refused (``PluginHostError/reentrantCall(_:)``).
///
/// **Errors** name the file or action and the reason; a plugin that fails to load leaves the
/// host and the other plugins as if it were not there.
public final class PluginHost: @unchecked Sendable {
    /// The shared history plugin steps go into.
    public let history: SharedUndoHistory
    /// Shown to plugins in `undo_host.host_name` / `host_version`.
    public let hostName: String
    public let hostVersion: String
    let logHandler: @Sendable (PluginLogMessage) -> Void

    private let lock = RecursiveMutex()
    private var loaded: [LoadedPlugin] = []
    /// Action ids already resolved (see PluginHost+ResolvedActions).
    let resolvedActions = ResolvedActions()
    private var _trustPolicy: PluginTrustPolicy
    private var _callRoute: PluginCallRoute
    private var _isolation: PluginIsolation?
    private var _locale: String
    private var _recorder: (any PluginHostRecorder)?
    /// Whether ``recorder`` is set: written with it under the lock, read without it, so a host
    /// with no recorder (no journal open) pays one atomic load per change instead of the lock.
    private let hasRecorder = Atomic<Bool>(false)

    /// Makes a host performing into `history`.
    /// - Parameters:
    ///   - log: receives plugins' log messages (and the host's about them); by default
    ///     warnings and errors go to standard error.
    ///   - trust: which files it agrees to load (by default: absolute paths to files only this
    ///     user or root can change).
    public init(history: SharedUndoHistory = SharedUndoHistory(), hostName: String = "UndoHost",
                hostVersion: String = "1.0", trust: PluginTrustPolicy = .standard,
                log: @escaping @Sendable (PluginLogMessage) -> Void = PluginHost.standardErrorLog) {
        self.history = history
        self.hostName = hostName
        self.hostVersion = hostVersion
        self.logHandler = log
        self._trustPolicy = trust
        self._locale = history.withStack { $0.formatter.locale.identifier }
        let (route, problem) = PluginCallRoute.fromEnvironment
        self._callRoute = route
        if let problem { log(PluginLogMessage(pluginID: hostName, level: .warning, message: problem)) }
    }

    /// Where every change made through this host's methods is kept as it is made (a journal:
    /// see UndoHostJournal's `HostJournal`), or `nil`. Changes made on ``history`` directly are
    /// not seen.
    public var recorder: (any PluginHostRecorder)? {
        get {
            // A recorder set or unset at the same time by another thread may be seen either way,
            // as with the lock alone.
            guard hasRecorder.load(ordering: .acquiring) else { return nil }
            return lock.withLock { _recorder }
        }
        set {
            lock.withLock {
                _recorder = newValue
                hasRecorder.store(newValue != nil, ordering: .releasing)
            }
        }
    }

    /// Whether ``recorder`` is set (one atomic load; see ``recorder`` for a concurrent change).
    var isRecording: Bool { hasRecorder.load(ordering: .acquiring) }

    /// Which files later loads accept (plugins already loaded stay).
    public var trustPolicy: PluginTrustPolicy {
        get { lock.withLock { _trustPolicy } }
        set { lock.withLock { _trustPolicy = newValue } }
    }

    /// Unloads every plugin: their steps leave the history and deinit is called.
    deinit {
        for plugin in lock.withLock({ loaded }).reversed() {
            _ = try? unload(plugin)
        }
    }

    /// Writes warnings and errors to standard error.
    public static let standardErrorLog: @Sendable (PluginLogMessage) -> Void = { message in
        guard message.level >= .warning else { return }
        SystemFiles.writeToStandardError(message.description + "\n")
    }

    /// The locale whose action names plugins' steps show (`undo_host.register_action_name`, ABI
    /// 1.5): a language identifier such as "ko" or "ko-KR". By default the identifier of the
    /// history's title formatter when the host was made, so the names match the titles' language;
    /// set it when you give the formatter another locale. Setting it chooses the names of the
    /// loaded plugins' action types again (a plugin that gave no name for it shows its default).
    /// Plugins read it as `undo_host.locale` (ABI 1.7), to write step descriptions in: the
    /// value when they were loaded (a table's strings stay as they are while its plugin is
    /// loaded), so set it before loading.
    /// - Complexity: O(*n*) in the number of names the loaded plugins gave.
    public var locale: String {
        get { lock.withLock { _locale } }
        set {
            lock.withLock {
                _locale = newValue
                for plugin in loaded { for action in plugin.actions { action.chooseName(for: newValue) } }
            }
        }
    }

    /// How the action functions of plugins loaded from now on are called: directly through a
    /// prototype matching their declared parameters exactly where there is one (the default),
    /// or always through libffi's `ffi_call`. Both pass the same values; the second is slower
    /// and there for comparison. The default comes from the environment variable
    /// `UNDOHOST_PLUGIN_CALLS` (`direct` or `libffi`).
    /// How ``load(file:)`` (and the folder and bundled loads) load plugins from now on: `nil`
    /// (the default) in this process, or each in a process of its own with these settings
    /// (``PluginIsolation``). Plugins already loaded stay as they are.
    public var isolation: PluginIsolation? {
        get { lock.withLock { _isolation } }
        set { lock.withLock { _isolation = newValue } }
    }

    public var callRoute: PluginCallRoute {
        get { lock.withLock { _callRoute } }
        set { lock.withLock { _callRoute = newValue } }
    }

    // MARK: Listing

    /// The loaded plugins, in load order.
    public var plugins: [PluginInfo] { lock.withLock { loaded }.map(PluginInfo.init) }

    /// Every action type of every loaded plugin.
    public var actionTypes: [ActionType] { lock.withLock { loaded }.flatMap(\.actions) }

    /// The action type named `id`: a full id ("org.undohost.text/insert"), a short id
    /// ("text.insert") or a bare local id ("insert"), the latter two when unambiguous.
    public func actionType(_ id: String) throws(PluginHostError) -> ActionType {
        let generation = resolvedActions.generation
        if let resolved = resolvedActions.lookup(id) { return resolved }
        // Candidates by local id from an index of every action type (built once per set of
        // plugins), so resolving each of 10^4 action types once is linear, not 10^4 × 10^4.
        let matches: [ActionType]
        if let slash = id.lastIndex(of: "/") {
            matches = resolvedActions.withLocalID(String(id[id.index(after: slash)...]), in: self).filter { $0.fullID == id }
        } else if let dot = id.lastIndex(of: ".") {
            let prefix = id[..<dot]
            let local = String(id[id.index(after: dot)...])
            matches = resolvedActions.withLocalID(local, in: self)
                .filter { $0.pluginShortName == prefix || $0.pluginID == prefix }
        } else {
            matches = resolvedActions.withLocalID(id, in: self)
        }
        if matches.count == 1 { return resolvedActions.store(matches[0], for: id, generation: generation) }
        if matches.isEmpty {
            throw .unknownAction(id, suggestion: Self.closest(to: id, among: actionTypes.map(\.shortID)))
        }
        throw .ambiguousAction(id, candidates: matches.map(\.fullID))
    }

    // MARK: Performing

    /// A context reaches plugins as a C string: at most 4096 bytes (`UNDO_MAX_CONTEXT_LENGTH`,
    /// ``UndoStack/maximumNameBytes``), as in the C API.
    // Inlined (every perform checks it), the error made out of line.
    @inline(__always)
    static func checkContext(_ context: UndoContext) throws(PluginHostError) {
        let bytes = context.name.utf8.count
        if bytes > UndoStack.maximumNameBytes { throw contextTooLong(bytes) }
    }

    private static func contextTooLong(_ bytes: Int) -> PluginHostError {
        .history(.nameTooLong(what: "context", bytes: bytes, limit: UndoStack.maximumNameBytes))
    }

    /// Checks `arguments` against the action's signature and makes the step, without
    /// performing it.
    public func makeCommand(_ actionID: String, arguments: [ActionValue], in context: UndoContext = .global)
        throws(PluginHostError) -> PluginCommand
    {
        try Self.checkContext(context)
        let action = try actionType(actionID)
        do throws(ActionArgumentError) {
            let checked = try ActionArguments.check(arguments, against: action.signature)
            return PluginCommand(action: action, arguments: checked, context: context)
        } catch {
            throw .invalidArguments(action: action.shortID, signature: action.shortID + action.signature.description, error)
        }
    }

    /// Parses script argument text (see ``ActionArguments/parse(_:for:)``) for the action and
    /// makes the step, without performing it.
    public func makeCommand(_ actionID: String, argumentText: String, in context: UndoContext = .global)
        throws(PluginHostError) -> PluginCommand
    {
        try Self.checkContext(context)
        let action = try actionType(actionID)
        do throws(ActionArgumentError) {
            let checked = try ActionArguments.parse(argumentText, for: action.signature)
            return PluginCommand(action: action, arguments: checked, context: context)
        } catch {
            throw .invalidArguments(action: action.shortID, signature: action.shortID + action.signature.description, error)
        }
    }

    /// Performs an action into the history (joining the newest step when it coalesces).
    /// Nothing is performed when the id or the arguments are wrong.
    /// - Returns: ``UndoCore/UndoPerformOutcome/obsolete`` when the plugin found, performing
    ///   it, that the step changes nothing (its `set_obsolete`): no step was added.
    @discardableResult
    public func perform(_ actionID: String, _ arguments: [ActionValue], in context: UndoContext = .global)
        throws(PluginHostError) -> UndoPerformOutcome
    {
        try perform(try makeCommand(actionID, arguments: arguments, in: context))
    }

    /// Performs an action with script argument text (`text.insert`, `0 "Hello"`).
    /// - Returns: as ``perform(_:_:in:)-(String,_,_)``.
    @discardableResult
    public func perform(_ actionID: String, argumentText: String, in context: UndoContext = .global)
        throws(PluginHostError) -> UndoPerformOutcome
    {
        try perform(try makeCommand(actionID, argumentText: argumentText, in: context))
    }

    /// Performs a step made by ``makeCommand(_:arguments:in:)``.
    /// - Returns: whether the step was recorded, or left none because the plugin marked it
    ///   obsolete on this first performance (``UndoCore/UndoPerformOutcome``).
    @discardableResult
    public func perform(_ command: consuming PluginCommand) throws(PluginHostError) -> UndoPerformOutcome {
        // No journal (a recorder set at the same time by another thread may be seen either way,
        // as ``recorder`` says): the command is moved into the history, not copied.
        guard isRecording else {
            guard CallFrame.current == nil else { throw .reentrantCall("perform") }
            do {
                return try history.perform(command)
            } catch {
                throw Self.hostError(error)
            }
        }
        var pending = Optional(command)
        return try throughHistory("perform") { stack in
            guard let recorder else { return try stack.perform(pending.take()!) }
            try recorder.checkWritable()
            let performed = try Self.performCapturingStep(pending.take()!, on: stack)
            // A step perform made is kept with its call; one it did not make (recording paused,
            // obsolete) is replayed from its call alone, as it was made.
            try record(.perform(performed.step))
            return performed.outcome
        }
    }

    /// Performs `command` on `stack`, returning the step perform made (before any merge), or
    /// the call alone when perform did not run.
    static func performCapturingStep(_ command: consuming PluginCommand, on stack: UndoStack)
        throws -> (outcome: UndoPerformOutcome, step: PluginStepRecord)
    {
        // The call alone is made only when perform did not run (its arguments' text is most of
        // a journaled perform's bookkeeping): its parts kept, the arguments' list sharing its
        // storage (perform reads it, never changes it, so the step is not copied).
        let action = command.actionType
        let context = command.context
        let arguments = command.step.read { $0.arguments }
        let capture = PerformedStepCapture()
        var pending = Optional(command)
        let outcome = try PerformedStepCapture.withCapture(capture) { try stack.perform(pending.take()!) }
        guard var step = capture.step else {
            return (outcome, .call(plugin: action.pluginID, pluginVersion: action.plugin.version, action: action.fullID,
                                   context: context.name, arguments: ActionArguments.format(arguments.array)))
        }
        step.merge = switch capture.merge {
        case .merged: .merged
        case .annulled: .annulled
        case .refused, nil: .separate
        }
        return (outcome, step)
    }

    /// Performs an action given as script argument text, as ``perform(_:argumentText:in:)``
    /// does, and returns the step perform made (its name, description, coalescing key and
    /// inverse arguments, before any merge): for a journal's replay, which checks it against the
    /// step recorded. Not recorded.
    /// - Parameters:
    ///   - actionID: the action's id.
    ///   - argumentText: its arguments as script text.
    ///   - context: the document it acts on.
    /// - Returns: the step made, or `nil` when the history did not run its perform.
    /// - Complexity: that of the perform.
    public func performReturningStep(_ actionID: String, argumentText: String, in context: UndoContext)
        throws(PluginHostError) -> PluginStepRecord?
    {
        try performReturningStep(try actionType(actionID), argumentText: argumentText, in: context)
    }

    /// ``performReturningStep(_:argumentText:in:)`` with the action type resolved by the
    /// caller (a journal's replay resolves it once for a run of changes of one action).
    /// - Complexity: that of the perform.
    package func performReturningStep(_ action: ActionType, argumentText: String, in context: UndoContext)
        throws(PluginHostError) -> PluginStepRecord?
    {
        var pending = Optional(try makeCommand(action, argumentText: argumentText, in: context))
        return try throughHistory("perform") { stack in
            let step = try Self.performCapturingStep(pending.take()!, on: stack).step
            return step.outcomeKept ? step : nil
        }
    }

    /// The plugin's view of one of its documents, cut when it is longer than `limit` bytes
    /// (a document of hundreds of megabytes, say): its beginning up to the last whole
    /// character that fits, with the whole view's length, so a caller can say what it shows.
    /// ``describe(_:plugin:)`` refuses a view of 16 MiB or more instead.
    /// - Parameter limit: the most bytes of the view to return (16 MiB - 1 by default, the
    ///   most ``describe(_:plugin:)`` returns).
    /// - Throws: what ``describe(_:plugin:)`` throws, but never for the view's length.
    /// - Complexity: the plugin's describe (called at most twice), plus O(min(view, limit)).
    public func view(of context: UndoContext, plugin pluginID: String, atMost limit: Int = PluginView.defaultLimit)
        throws(PluginHostError) -> PluginView
    {
        guard CallFrame.current == nil else { throw .reentrantCall("view") }
        guard let plugin = lock.withLock({ loaded.first { $0.id == pluginID } }) else { throw .unknownPlugin(pluginID) }
        guard plugin.canDescribe else { throw .cannotDescribe(plugin: pluginID) }
        do throws(PluginActionError) {
            let view = try plugin.describe(context, atMost: max(0, limit))
            return PluginView(text: view.text, length: view.length, isCut: view.isCut)
        } catch {
            throw .actionFailed(error)
        }
    }

    /// The view of a part of one of a plugin's documents: `range`, in the units of the
    /// locations the plugin reports with its changes (the text editor's: characters), clamped
    /// to the document, as the plugin's describe would show a document holding only that part
    /// ("<b>rld</b>" for 8..<11 of "Hello <b>world</b>"), with the document's length in the
    /// same units. Shows what a change did without describing the whole document: a plugin
    /// with describe_range (ABI 1.8) writes only the part; for one without, the whole view is
    /// cut here, counting Unicode scalars with markup tags such as `<b>` taking no room (the
    /// convention of the sample plugins).
    /// - Parameter limit: the most bytes of the part's view to return (its beginning, up to
    ///   the last whole character, when it is longer).
    /// - Throws: what ``view(of:plugin:atMost:)`` throws; a plugin's describe_range that sets
    ///   no extent fails with `UNDO_EPLUGIN`.
    /// - Complexity: the plugin's describe_range (called at most twice: in proportion to the
    ///   range for the bundled text editor) plus O(min(part, limit)); without describe_range,
    ///   the whole describe plus O(whole view).
    public func view(of context: UndoContext, plugin pluginID: String, range: Range<Int64>,
                     atMost limit: Int = PluginView.defaultLimit) throws(PluginHostError) -> PluginRangeView
    {
        guard CallFrame.current == nil else { throw .reentrantCall("view") }
        guard let plugin = lock.withLock({ loaded.first { $0.id == pluginID } }) else { throw .unknownPlugin(pluginID) }
        guard plugin.canDescribe else { throw .cannotDescribe(plugin: pluginID) }
        do throws(PluginActionError) {
            return try plugin.describeRange(context, range: range, atMost: max(0, limit))
        } catch {
            throw .actionFailed(error)
        }
    }

    /// Whether the plugin describes parts of its documents itself (describe_range, ABI 1.8),
    /// so ``view(of:plugin:range:atMost:)`` costs in proportion to the part; `nil` for a
    /// plugin not loaded.
    public func describesRanges(plugin pluginID: String) -> Bool? {
        lock.withLock { loaded.first { $0.id == pluginID } }?.describesRanges
    }

    /// The plugin's view of one of its documents ("Hello <b>world</b>").
    /// - Throws: ``PluginHostError/actionFailed(_:)`` with `UNDO_ELIMIT` for a view of
    ///   16 MiB or more (``view(of:plugin:atMost:)`` gives its beginning), and the plugin's
    ///   own failures; ``PluginHostError/unknownPlugin(_:)``, ``PluginHostError/cannotDescribe(plugin:)``,
    ///   ``PluginHostError/reentrantCall(_:)``.
    public func describe(_ context: UndoContext, plugin pluginID: String) throws(PluginHostError) -> String {
        guard CallFrame.current == nil else { throw .reentrantCall("describe") }
        guard let plugin = lock.withLock({ loaded.first { $0.id == pluginID } }) else { throw .unknownPlugin(pluginID) }
        guard plugin.canDescribe else { throw .cannotDescribe(plugin: pluginID) }
        do throws(PluginActionError) {
            return try plugin.describe(context)
        } catch {
            throw .actionFailed(error)
        }
    }

    /// The views of `documents` (each a context and the id of the plugin that shows it) as they
    /// are at state `id` of the history, in the order asked. The steps on the way run there and
    /// back (the plugins see an ordinary move and its return); nothing is recorded (no journal
    /// row), and the history keeps its position, branches and saves exactly. See
    /// ``UndoCore/UndoStack/withDocuments(atState:_:)``.
    /// - Throws: ``PluginHostError/unknownPlugin(_:)``, ``PluginHostError/cannotDescribe(plugin:)``
    ///   before anything moves; ``UndoCore/UndoError/stateNotFound(_:)`` and
    ///   ``UndoCore/UndoError/groupOpen`` as history errors; a plugin's failure on the way or in
    ///   its view, with the history and the documents as they were;
    ///   ``PluginHostError/reentrantCall(_:)`` from inside a plugin call.
    /// - Complexity: O(steps in the history + steps moved over, twice + the views).
    public func describe(_ documents: [(context: UndoContext, plugin: String)], atState id: UInt32)
        throws(PluginHostError) -> [String]
    {
        guard CallFrame.current == nil else { throw .reentrantCall("describe") }
        // The plugins found before the history's lock is taken (their lock is never taken
        // inside the history's).
        var plugins: [LoadedPlugin] = []
        for document in documents {
            guard let plugin = lock.withLock({ loaded.first { $0.id == document.plugin } }) else {
                throw .unknownPlugin(document.plugin)
            }
            guard plugin.canDescribe else { throw .cannotDescribe(plugin: document.plugin) }
            plugins.append(plugin)
        }
        return try throughHistory("describe") { stack in
            try stack.withDocuments(atState: id) {
                var views: [String] = []
                views.reserveCapacity(documents.count)
                for (index, document) in documents.enumerated() { views.append(try plugins[index].describe(document.context)) }
                return views
            }
        }
    }

    /// Runs a history call, turning its errors into ``PluginHostError``: a plugin's failure
    /// arrives thrown, as the underlying error of ``UndoCore/UndoError/actionFailed(step:underlying:)``,
    /// and becomes ``PluginHostError/actionFailed(_:)``. The history lock is taken once, by
    /// `withStack`; the plugin calls the history makes inside do not take it again.
    /// - Throws: ``PluginHostError/reentrantCall(_:)`` from inside a plugin call on this thread.
    func throughHistory<R>(_ what: @autoclosure () -> String, _ body: (UndoStack) throws -> R) throws(PluginHostError) -> R {
        guard CallFrame.current == nil else { throw .reentrantCall(what()) }
        do {
            return try history.withStack(body)
        } catch {
            throw Self.hostError(error)
        }
    }

    /// The error of a failed history call: the plugin's own error when a plugin failed.
    static func hostError(_ error: any Error) -> PluginHostError {
        if let undoError = error as? UndoError {
            // The action's own error, through any history error it travelled in (a group's).
            var underlying = undoError.underlying
            while let inner = underlying as? UndoError { underlying = inner.underlying }
            if let pluginError = underlying as? PluginActionError { return .actionFailed(pluginError) }
            return .history(undoError)
        }
        if let pluginError = error as? PluginActionError { return .actionFailed(pluginError) }
        if let hostError = error as? PluginHostError { return hostError }
        return .history(.actionFailed(step: nil, underlying: error))
    }

    // MARK: Unloading

    /// Unloads a plugin: its steps leave the history (the others stay and still undo), then
    /// its deinit is called.
    /// - Returns: how many steps (or group members) left the history, on every branch.
    @discardableResult
    public func unload(_ pluginID: String) throws(PluginHostError) -> Int {
        guard CallFrame.current == nil, !isRunningAction else { throw .reentrantCall("unload") }
        guard let plugin = lock.withLock({ loaded.first { $0.id == pluginID } }) else { throw .unknownPlugin(pluginID) }
        try checkRecorder()
        let removed = try unload(plugin)
        try recordUnderLock(.unload(plugin: pluginID))
        return removed
    }

    @discardableResult
    private func unload(_ plugin: LoadedPlugin) throws(PluginHostError) -> Int {
        let removed: Int
        do {
            // Marked unloading under the history's lock, together with taking its steps out:
            // otherwise another thread could still find one of its steps and fail to undo it
            // ("not loaded"), as the thread stress test showed.
            removed = try history.withStack { stack in
                plugin.beginUnloading()
                return try stack.removeAll(matching: PluginCommand.StepsOf(plugin: plugin))
            }
        } catch {
            plugin.cancelUnloading()
            throw .history(error as? UndoError ?? .actionFailed(step: nil, message: String(describing: error)))
        }
        LoaderLock.run { plugin.deinitialize() }
        lock.withLock { loaded.removeAll { $0 === plugin } }
        resolvedActions.removeAll()
        return removed
    }

    /// Whether this thread is inside an action the history is running (a Swift command's
    /// perform, say), where loading and unloading must wait: unloading would take steps out of
    /// the history under the running one.
    var isRunningAction: Bool { history.withStack { $0.isRunningAction } }

    // MARK: Loading (used by PluginHost+Loading)

    func loadedPlugin(withID id: String) -> LoadedPlugin? { lock.withLock { loaded.first { $0.id == id } } }
    func add(_ plugin: LoadedPlugin) {
        lock.withLock {
            for action in plugin.actions { action.chooseName(for: _locale) }
            loaded.append(plugin)
        }
        resolvedActions.removeAll()  // a new plugin can make a short id ambiguous
    }

    /// The closest of `candidates` to `id`, if close enough to be a typo (two edits, or a third
    /// of the id for long ones).
    static func closest(to id: String, among candidates: [String]) -> String? {
        Suggestion.closest(to: id, among: candidates, allowed: max(2, id.count / 3))
    }
}

/// What a loaded plugin is, for listings.
public struct PluginInfo: Sendable, CustomStringConvertible {
    public let id: String
    public let name: String
    public let version: String
    /// The file it was loaded from (absolute).
    public let path: String
    /// The prefix of its short action ids ("text").
    public let shortName: String
    /// The ABI version it was built for.
    public let abiMajor: UInt32
    public let abiMinor: UInt32
    public let actionTypes: [ActionType]
    /// Whether it can show its documents (``PluginHost/describe(_:plugin:)``).
    public let canDescribe: Bool
    /// Whether it saves its documents' state as bytes and loads it back (save_document and
    /// load_document, ABI 1.7; see ``PluginHost/saveDocumentState(plugin:context:)``).
    public let canSaveDocuments: Bool
    /// Whether its descriptor sets only one of save_document and load_document: a mistake,
    /// for which the host uses neither.
    public let setsHalfOfSaveAndLoad: Bool
    /// Whether it runs in a process of its own (``PluginIsolation``).
    public let isIsolated: Bool
    /// Whether it describes parts of its documents itself (describe_range, ABI 1.8; see
    /// ``PluginHost/view(of:plugin:range:atMost:)``).
    public let describesRanges: Bool

    init(_ plugin: LoadedPlugin) {
        id = plugin.id
        name = plugin.name
        version = plugin.version
        path = plugin.path
        shortName = plugin.shortName
        abiMajor = plugin.descriptor.abi_major
        abiMinor = plugin.descriptor.abi_minor
        actionTypes = plugin.actions
        canDescribe = plugin.canDescribe
        canSaveDocuments = plugin.canSaveDocuments
        setsHalfOfSaveAndLoad = plugin.setsHalfOfSaveAndLoad
        isIsolated = plugin.remote != nil
        describesRanges = plugin.describesRanges
    }

    /// `org.undohost.text 1.0.0 "Text Editor"`
    public var description: String { "\(id) \(version) \(ActionValue.quoted(name))" }
}

/// One lock for every init and deinit in the process, so plugins need no locks of their own
/// for state shared between instances.
enum LoaderLock {
    private static let lock = RecursiveMutex()
    static func run<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
