import UndoCore
import UndoPluginABI
import UndoPluginHost

/// One plugin loaded into a host of its own, with the calls the tests make: perform, undo and
/// redo in one document, the document's state as describe shows it, and the plugin's log.
final class PluginUnderTest {
    let host: PluginHost
    let info: PluginInfo
    private let logs: LogCollector
    /// Where a crash of an isolated plugin is written down, with the call that did it.
    private let crashes: CrashRecord?

    /// Loads the plugin at `path` (absolute) into a new host.
    /// - Throws: ``CheckFailure`` with the host's explanation when it cannot be loaded.
    init(path: String, allowWritable: Bool, isolation: PluginIsolation? = nil, crashes: CrashRecord? = nil) throws(CheckFailure) {
        let logs = LogCollector()
        self.logs = logs
        self.crashes = crashes
        host = PluginHost(hostName: "undo-host check", trust: PluginTrustPolicy(allowWritable: allowWritable),
                          log: { logs.add($0) })
        do {
            info = try host.load(file: path, isolation: isolation)
        } catch {
            // What to do about it, as the session says it (check takes the option before its name).
            let hint = if case .writableByOthers = error.reason {
                "; if you trust everyone who can change it, run undo-host --allow-writable-plugins check PLUGIN"
            } else { "" }
            throw CheckFailure("cannot load: \(error.explanation)" + hint)
        }
        // Runs end only where the tests end them, not after some time: the same seed, the same
        // merges.
        host.history.withStack { $0.coalescingWindow = nil }
    }

    var canDescribe: Bool { info.canDescribe }

    /// The document's state as the plugin shows it, or `nil` when it has no describe.
    /// - Throws: ``CheckFailure`` when describe fails.
    func state(_ document: UndoContext) throws(CheckFailure) -> String? {
        guard info.canDescribe else { return nil }
        do {
            return try host.describe(document, plugin: info.id)
        } catch {
            throw CheckFailure("describe of document \(ActionValue.string(document.name)) failed: \(error)")
        }
    }

    /// Performs; returns the plugin's failure instead of throwing it.
    func perform(_ action: ActionType, _ arguments: [ActionValue], in document: UndoContext) -> PluginHostError? {
        if let crashed = crashedAlready(action.pluginID) { return crashed }
        do {
            try host.perform(action, arguments, in: document)
            return nil
        } catch {
            noteCrash(error, "perform \(action.shortID) \(ActionArguments.format(arguments)) in document \(ActionValue.string(document.name))")
            return error
        }
    }

    /// Undoes (or redoes) the newest step of `document`.
    func move(_ undo: Bool, in document: UndoContext) -> PluginHostError? {
        host.history.withStack { $0.currentContext = document }
        if let crashed = crashedAlready(info.id) { return crashed }
        do {
            if undo { try host.undo() } else { try host.redo() }
            return nil
        } catch {
            noteCrash(error, "\(undo ? "undo" : "redo") in document \(ActionValue.string(document.name))")
            return error
        }
    }

    /// After a crash in this test, the calls fail at once (the test has failed; each call of a
    /// plugin that hangs would wait for the watchdog).
    private func crashedAlready(_ pluginID: String) -> PluginHostError? {
        guard crashes?.first != nil else { return nil }
        return .actionFailed(PluginActionError(pluginID: pluginID, actionID: nil, phase: .perform, code: Int32(UNDO_ECRASHED),
                                               message: "not called: the plugin crashed earlier in this test"))
    }

    /// Writes down a crash (`UNDO_ECRASHED`, an isolated plugin) with the call that did it.
    private func noteCrash(_ error: PluginHostError, _ call: String) {
        guard error.code == Int32(UNDO_ECRASHED) else { return }
        crashes?.note("the plugin crashed under isolation in \(call): \(error)")
    }

    /// How many steps of `document` are done, and how many can be redone.
    func stepCounts(_ document: UndoContext) -> (done: Int, redoable: Int) {
        let steps = host.history.withStack { $0.steps }.filter { $0.context == document }
        let done = steps.count { $0.isApplied }
        return (done, steps.count - done)
    }

    /// The warnings and errors logged since the last call.
    func takeWarnings() -> [PluginLogMessage] { logs.take().filter { $0.level >= .warning } }
}

/// The crashes of an isolated plugin during one test (``CheckTest/result(_:)`` fails the test
/// with the first).
final class CrashRecord: @unchecked Sendable {
    private let lock = RecursiveMutex()
    private var crashes: [String] = []
    func note(_ crash: String) { lock.withLock { crashes.append(crash) } }
    var first: String? { lock.withLock { crashes.first } }
}

/// The host's log, kept for the tests (a merge that fails is only logged).
private final class LogCollector: @unchecked Sendable {
    private let lock = RecursiveMutex()
    private var messages: [PluginLogMessage] = []
    func add(_ message: PluginLogMessage) { lock.withLock { messages.append(message) } }
    func take() -> [PluginLogMessage] {
        lock.withLock {
            defer { messages.removeAll() }
            return messages
        }
    }
}

extension PluginHostError {
    /// The error code, and whether it means the plugin broke the ABI contract (returned a code
    /// outside the table, or succeeded without setting its inverse arguments).
    var brokeContract: Bool { code == Int32(UNDO_EPLUGIN) }

    /// Whether the host refused before calling the plugin (arguments that do not fit).
    var refusedByHost: Bool {
        if case .invalidArguments = self { return true }
        return false
    }
}
