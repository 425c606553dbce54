#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoPluginABI

/// The host's side of an isolated plugin (``PluginIsolation``): the runner process that holds
/// the plugin, the socket to it, and what it takes to start it again after a crash.
///
/// **Calls.** One request, then the runner's log messages and one answer, read with `poll` up
/// to the watchdog's time. Used only with the plugin's call lock held (the history's), so one
/// call at a time.
///
/// **Crashes.** When the runner dies or stops answering, the call fails with `UNDO_ECRASHED`,
/// the runner is killed and reaped (its signal or exit status named in the error), and a new
/// one is started: it loads the same file (the descriptor the trust checks opened, kept), and
/// every call since the last checkpoint that changed a document (``Logged``) is made again, in
/// order, so each document is as it was before the failed call. A checkpoint is the documents'
/// bytes (save_document), taken when the calls logged since the last one hold more than it, for
/// a plugin that can save; a plugin that cannot save keeps every call since it was loaded.
/// ``PluginIsolation/crashesBeforeDisabling`` crashes in a row (with no call answered in
/// between, the restarts' own included) disable the plugin: its steps stay in the history and
/// every call into it fails with `UNDO_ECRASHED` until it is unloaded.
///
/// **Invariants** (checked in debug builds): `channel` and `pid` are set together, while the
/// runner is running and not disabled; `logged` only holds calls the running runner answered
/// with success (or their checkpoint).
final class IsolatedPluginProcess: @unchecked Sendable {
    /// What the runner read from the plugin's descriptor.
    struct Opened {
        var id = "", name = "", version = ""
        var structSize: UInt32 = 0, abiMajor: UInt32 = 0, abiMinor: UInt32 = 0
        var canDescribe = false, hasSave = false, hasLoad = false
    }

    /// An action type the plugin registered, as the host needs it (its functions stay in the
    /// runner).
    struct Registration {
        var localID: String
        var name: String
        var signature: ActionSignature
        var inverseSignature: ActionSignature?
        var coalescingKey: String?
        var isDiscardable: Bool
        var appendsOnMerge: Bool
        var hasMerge: Bool
        var localizedNames: [(locale: String, name: String)]
    }

    /// A call that changed a document, kept to make it again in a new runner.
    enum Logged {
        case perform(action: String, context: String, redo: Bool, arguments: [ActionValue])
        case inverse(action: String, context: String, arguments: [ActionValue])
        case load(context: String, bytes: [UInt8])
        case close(context: String)

        var context: String {
            switch self {
            case .perform(_, let context, _, _), .inverse(_, let context, _), .load(let context, _), .close(let context): context
            }
        }
        var size: Int {
            switch self {
            case .perform(_, _, _, let arguments), .inverse(_, _, let arguments):
                arguments.reduce(32) { $0 + $1.storageSize }
            case .load(_, let bytes): 32 + bytes.count
            case .close: 32
            }
        }
    }

    /// Why a runner stopped serving.
    struct Broken: Error {
        var reason: String
    }

    let isolation: PluginIsolation
    let runner: String
    let path: String
    private let file: Int32
    private let hostName: String
    private let hostVersion: String
    private let locale: String
    private let route: PluginCallRoute
    let log: @Sendable (PluginLogMessage) -> Void
    private let lock = RecursiveMutex()

    private(set) var opened = Opened()
    private(set) var registrations: [Registration] = []
    private var pid: pid_t = 0
    /// The runner's process id (0 when none runs), for tests that kill it.
    var processID: pid_t { lock.withLock { pid } }
    private var channel: WireChannel?
    /// The running runner's record socket (see IsolatedPluginProcess+Records.swift).
    private var recordLink: RecordLink?
    private let ownerBox = Locked(WeakPlugin())
    struct WeakPlugin { weak var plugin: LoadedPlugin? }
    /// The host's plugin this process runs (set once it is made), which records apply to.
    var owner: LoadedPlugin? {
        get { ownerBox.withLock { $0.plugin } }
        set { ownerBox.withLock { $0.plugin = newValue } }
    }
    private(set) var consecutiveCrashes = 0
    /// How many times a runner was started again after a crash.
    private(set) var restarts = 0
    private(set) var disabledReason: String?
    private var logged: [Logged] = []
    private var loggedSize = 0
    /// The size of the last checkpoint (the bytes it loads): calls are logged until they hold
    /// more than it (and at least ``minimumLoggedCalls``), so saving costs O(1) amortized per
    /// byte logged.
    private var checkpointSize = 0
    static let minimumLoggedCalls = 64

    private init(isolation: PluginIsolation, runner: String, path: String, file: Int32, hostName: String,
                 hostVersion: String, locale: String, route: PluginCallRoute,
                 log: @escaping @Sendable (PluginLogMessage) -> Void) {
        self.isolation = isolation
        self.runner = runner
        self.path = path
        self.file = file
        self.hostName = hostName
        self.hostVersion = hostVersion
        self.locale = locale
        self.route = route
        self.log = log
    }

    deinit {
        stop()
        close(file)
    }

    /// Starts a runner for the plugin file open as `descriptor` (the one the trust checks read;
    /// a copy is kept for restarts) and reads its descriptor.
    static func start(descriptor: Int32, path: String, isolation: PluginIsolation, hostName: String, hostVersion: String,
                      locale: String, route: PluginCallRoute,
                      log: @escaping @Sendable (PluginLogMessage) -> Void) throws(PluginLoadError.Reason) -> IsolatedPluginProcess {
        guard let runner = isolation.resolvedRunner() else {
            throw .cannotOpen("cannot run it isolated: \(PluginIsolation.runnerName) was not found next to the program or library (set \(PluginIsolation.runnerEnvironmentVariable))")
        }
        let kept = fcntl(descriptor, F_DUPFD_CLOEXEC, 10)
        guard kept >= 0 else { throw .cannotOpen("cannot keep the file open: \(String(cString: strerror(errno)))") }
        let process = IsolatedPluginProcess(isolation: isolation, runner: runner, path: path, file: kept, hostName: hostName,
                                            hostVersion: hostVersion, locale: locale, route: route, log: log)
        do throws(Broken) {
            try process.launch()
            process.opened = try process.open()
        } catch {
            process.stop()
            if case .some(let reason) = process.refusal { throw reason }
            throw .cannotOpen("its isolated process failed while loading it: \(error.reason)")
        }
        return process
    }

    /// The load refusal the runner sent, when it refused (set by ``open()`` and ``initialize()``).
    private var refusal: PluginLoadError.Reason?

    /// Calls the plugin's init in the runner and reads the action types it registered.
    func initialize() throws(PluginLoadError.Reason) -> [Registration] {
        do throws(Broken) {
            registrations = try initializeRunner()
            return registrations
        } catch {
            stop()
            if let refusal { throw refusal }
            throw .cannotOpen("its isolated process failed in init: \(error.reason)")
        }
    }

    // MARK: Calls

    /// Sends one request and returns the answer; every failure of the runner is a crash
    /// (``recover()``), thrown as `UNDO_ECRASHED` naming the plugin, the action and the cause.
    /// - Parameter entry: the call to log for restarts when it succeeds (it changed a document).
    func call(_ request: WireWriter, action: String?, phase: PluginActionError.Phase, logging entry: Logged? = nil,
              canSave: Bool) throws(PluginActionError) -> WireReader {
        try lock.withLock { () throws(PluginActionError) -> WireReader in
            if let disabledReason {
                throw PluginActionError(pluginID: opened.id, actionID: action, phase: phase, code: Int32(UNDO_ECRASHED),
                                        message: disabledReason)
            }
            do {
                var answer = try exchange(request)
                consecutiveCrashes = 0
                if answer.kind == WireKind.actionFailed {
                    throw try Self.readError(&answer, pluginID: opened.id)
                }
                guard answer.kind == WireKind.ok else { throw Broken(reason: "it answered with a message of unknown kind \(answer.kind)") }
                if let entry { append(entry, canSave: canSave) }
                return answer
            } catch let error as PluginActionError {
                throw error
            } catch let error as Broken {
                let outcome = recover()
                throw PluginActionError(pluginID: opened.id, actionID: action, phase: phase, code: Int32(UNDO_ECRASHED),
                                        message: error.reason + "; " + outcome)
            } catch {
                // An answer the host cannot read: the runner is not what it should be.
                stop()
                let outcome = recover()
                throw PluginActionError(pluginID: opened.id, actionID: action, phase: phase, code: Int32(UNDO_ECRASHED),
                                        message: "its process sent a message the host cannot read; " + outcome)
            }
        }
    }

    /// Whether the plugin was disabled after crashing again and again.
    var isDisabled: Bool { lock.withLock { disabledReason != nil } }

    /// Ends the plugin: its deinit in the runner (after its documents' close_document), then the
    /// runner. A disabled plugin's runner is gone already.
    func shutdown() {
        lock.withLock {
            if channel != nil {
                _ = try? exchange(WireWriter(WireKind.deinitialize))
            }
            stop()
        }
    }

    // MARK: The log of calls

    /// Whether `link` is the record socket of the running runner.
    func isCurrent(_ link: RecordLink) -> Bool { lock.withLock { recordLink === link } }

    /// Logs a step the plugin recorded on its own, for restarts (called under the history's lock).
    func logRecorded(_ entry: Logged, canSave: Bool) {
        lock.withLock {
            guard channel != nil else { return }
            append(entry, canSave: canSave)
        }
    }

    private func append(_ entry: Logged, canSave: Bool) {
        logged.append(entry)
        loggedSize += entry.size
        if canSave, logged.count >= Self.minimumLoggedCalls, loggedSize > 2 * checkpointSize {
            checkpoint()
        }
    }

    /// Replaces the log with the documents' bytes: each document the log touched and did not
    /// close is saved (save_document) and logged as its load. When a save fails the log is kept
    /// as it is (a crash in it is handled as any other).
    private func checkpoint() {
        // Tried again only once the log has doubled, whether this one works or not: a plugin
        // that refuses to save costs a try per doubling, not one per call.
        checkpointSize = loggedSize
        var order: [String] = []
        var last: [String: Logged] = [:]
        for entry in logged {
            if last[entry.context] == nil { order.append(entry.context) }
            last[entry.context] = entry
        }
        var loads: [Logged] = []
        for context in order {
            if case .close? = last[context] { continue }
            var request = WireWriter(WireKind.save)
            request.string(context)
            do throws(Broken) {
                var answer = try exchange(request)
                guard answer.kind == WireKind.ok, let bytes = try? answer.raw() else { return }
                loads.append(.load(context: context, bytes: bytes))
            } catch {
                log(PluginLogMessage(pluginID: opened.id, level: .error,
                                     message: "save_document for a checkpoint of its isolated process failed: \(error.reason); \(recover())"))
                return
            }
        }
        logged = loads
        loggedSize = loads.reduce(0) { $0 + $1.size }
        checkpointSize = loggedSize
    }

    // MARK: Crashes

    /// After a crash: starts a runner again and makes the logged calls again, up to the crash
    /// limit; past it the plugin is disabled.
    /// - Returns: what happened, for the error message.
    private func recover() -> String {
        stop()
        consecutiveCrashes += 1
        var lastFailure = ""
        while consecutiveCrashes < PluginIsolation.crashesBeforeDisabling {
            do throws(Broken) {
                try restart()
                restarts += 1
                return "the plugin was started again and its documents restored"
            } catch {
                stop()
                lastFailure = error.reason
                consecutiveCrashes += 1
            }
        }
        let reason = "plugin \(opened.id) crashed \(PluginIsolation.crashesBeforeDisabling) times in a row and is disabled"
            + (lastFailure.isEmpty ? "" : " (last: \(lastFailure))")
            + ": its steps stay in the history but cannot be done or undone until it is unloaded"
        disabledReason = reason
        log(PluginLogMessage(pluginID: opened.id, level: .error, message: reason))
        return reason
    }

    private func restart() throws(Broken) {
        try launch()
        let again = try open()
        guard again.id == opened.id else { throw Broken(reason: "the file now holds plugin \(again.id)") }
        let actions = try initializeRunner()
        guard actions.map(\.localID) == registrations.map(\.localID) else {
            throw Broken(reason: "it registered other action types when started again")
        }
        for entry in logged {
            var request: WireWriter
            switch entry {
            case .perform(let action, let context, let redo, let arguments):
                request = WireWriter(WireKind.perform)
                request.string(action); request.string(context); request.bool(redo); request.values(arguments)
            case .inverse(let action, let context, let arguments):
                request = WireWriter(WireKind.inverse)
                request.string(action); request.string(context); request.values(arguments)
            case .load(let context, let bytes):
                request = WireWriter(WireKind.load)
                request.string(context); request.raw(bytes)
            case .close(let context):
                request = WireWriter(WireKind.close)
                request.string(context)
            }
            let answer = try exchange(request)
            guard answer.kind == WireKind.ok else {
                throw Broken(reason: "a call made again to restore its documents failed")
            }
        }
    }

    // MARK: The runner

    private func launch() throws(Broken) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw Broken(reason: "socketpair: \(String(cString: strerror(errno)))")
        }
        var recordEnds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &recordEnds) == 0 else {
            close(ends[0])
            close(ends[1])
            throw Broken(reason: "socketpair: \(String(cString: strerror(errno)))")
        }
        // Above the descriptors the runner gets (3, 4 and 5), so the dup2s cannot overwrite each other.
        let childEnd = fcntl(ends[1], F_DUPFD_CLOEXEC, 10)
        close(ends[1])
        defer { close(childEnd) }
        let childRecordEnd = fcntl(recordEnds[1], F_DUPFD_CLOEXEC, 10)
        close(recordEnds[1])
        defer { close(childRecordEnd) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, childEnd, 3)
        posix_spawn_file_actions_adddup2(&actions, file, 4)
        posix_spawn_file_actions_adddup2(&actions, childRecordEnd, 5)
        let arguments = [runner, "3", "4", "5"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, runner, &actions, nil, argv, environ)
        guard result == 0 else {
            close(ends[0])
            close(recordEnds[0])
            throw Broken(reason: "cannot start \(runner): \(String(cString: strerror(result)))")
        }
        pid = child
        channel = WireChannel(descriptor: ends[0])
        let link = RecordLink(descriptor: recordEnds[0], process: self)
        // Without its thread, records are refused (the runner's send fails), calls still work.
        if link.start() { recordLink = link }
    }

    /// Kills and reaps the runner (when there is one) and closes the socket.
    /// - Returns: how it ended (its signal or exit status), when known.
    @discardableResult
    private func stop() -> String? {
        guard let channel else { return nil }
        close(channel.descriptor)
        self.channel = nil
        recordLink?.close()
        recordLink = nil
        assert(pid > 0, "a channel without a process")
        guard pid > 0 else { return nil }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
        pid = 0
        guard reaped > 0 else { return nil }
        let signal = status & 0x7F
        if signal == 0 { return "its process exited with status \((status >> 8) & 0xFF)" }
        return "its process was killed by \(Self.signalName(signal))"
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
                                      SIGILL: "SIGILL", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP",
                                      SIGSYS: "SIGSYS", SIGPIPE: "SIGPIPE", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT"]
        return "signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
    }

    /// One request and its answer; the runner's log messages before the answer go to the log.
    /// - Throws: ``Broken`` naming how the runner ended (its signal or status, or the watchdog).
    private func exchange(_ request: WireWriter) throws(Broken) -> WireReader {
        guard let channel else { throw Broken(reason: "its process is not running") }
        let deadline = WireChannel.monotonicNanoseconds() + UInt64(max(isolation.watchdogMilliseconds, 1)) * 1_000_000
        do throws(WireChannel.Failure) {
            try channel.transmit(request.framed)
            while true {
                let body = try channel.receive(until: deadline)
                guard var answer = try? WireReader(body) else { throw WireChannel.Failure.malformed }
                if answer.kind == WireKind.log {
                    guard let level = try? answer.i32(), let text = try? answer.string() else { throw WireChannel.Failure.malformed }
                    log(PluginLogMessage(pluginID: opened.id.isEmpty ? path : opened.id,
                                         level: PluginLogMessage.Level(rawValue: level) ?? .error, message: text))
                    continue
                }
                return answer
            }
        } catch {
            let ended = stop()
            switch error {
            case .timedOut:
                throw Broken(reason: "it did not answer within \(isolation.watchdogMilliseconds) ms (the watchdog), so its process was stopped")
            case .malformed:
                throw Broken(reason: "its process sent a message the host cannot read, so it was stopped")
            case .closed:
                throw Broken(reason: ended ?? "its process ended")
            }
        }
    }

    private func open() throws(Broken) -> Opened {
        var request = WireWriter(WireKind.open)
        request.string(path)
        request.string(hostName)
        request.string(hostVersion)
        request.string(locale)
        request.string(route.rawValue)
        var answer = try exchange(request)
        if answer.kind == WireKind.loadFailed {
            refusal = (try? IsolatedLoadFailure.read(&answer)) ?? .cannotOpen("its isolated process refused it")
            throw Broken(reason: "the plugin was refused")
        }
        do throws(WireReader.Malformed) {
            var opened = Opened()
            opened.id = try answer.string()
            opened.name = try answer.string()
            opened.version = try answer.string()
            opened.structSize = try answer.u32()
            opened.abiMajor = try answer.u32()
            opened.abiMinor = try answer.u32()
            opened.canDescribe = try answer.bool()
            opened.hasSave = try answer.bool()
            opened.hasLoad = try answer.bool()
            return opened
        } catch {
            throw Broken(reason: "its process sent a message the host cannot read")
        }
    }

    private func initializeRunner() throws(Broken) -> [Registration] {
        var answer = try exchange(WireWriter(WireKind.initialize))
        if answer.kind == WireKind.loadFailed {
            refusal = (try? IsolatedLoadFailure.read(&answer)) ?? .cannotOpen("its isolated process refused it")
            throw Broken(reason: "the plugin was refused")
        }
        do throws(WireReader.Malformed) {
            var result: [Registration] = []
            let count = try answer.u32()
            for _ in 0..<count {
                let localID = try answer.string()
                let name = try answer.string()
                let signature = try Self.readSignature(&answer)
                let inverse = try answer.bool() ? try Self.readSignature(&answer) : nil
                let key = try answer.optionalString()
                let discardable = try answer.bool()
                let appends = try answer.bool()
                let merges = try answer.bool()
                var names: [(locale: String, name: String)] = []
                for _ in 0..<(try answer.u32()) { names.append((try answer.string(), try answer.string())) }
                result.append(Registration(localID: localID, name: name, signature: signature, inverseSignature: inverse,
                                           coalescingKey: key, isDiscardable: discardable, appendsOnMerge: appends,
                                           hasMerge: merges, localizedNames: names))
            }
            return result
        } catch {
            throw Broken(reason: "its process sent a message the host cannot read")
        }
    }

    private static func readSignature(_ reader: inout WireReader) throws(WireReader.Malformed) -> ActionSignature {
        var parameters: [ActionParameter] = []
        for _ in 0..<(try reader.u32()) {
            let name = try reader.string()
            guard let type = ActionValueType(rawValue: try reader.u32()) else { throw WireReader.Malformed() }
            parameters.append(ActionParameter(name, type))
        }
        return ActionSignature(parameters)
    }

    static func readError(_ reader: inout WireReader, pluginID: String) throws(WireReader.Malformed) -> PluginActionError {
        let action = try reader.optionalString()
        guard let phase = PluginActionError.Phase(rawValue: try reader.string()) else { throw WireReader.Malformed() }
        return PluginActionError(pluginID: pluginID, actionID: action, phase: phase, code: try reader.i32(),
                                 message: try reader.string())
    }
}
