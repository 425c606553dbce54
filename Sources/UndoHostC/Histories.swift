#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoHostAPI
import UndoHostJournal
import UndoJournal
import UndoPluginHost

// Creating, destroying and explaining histories. Each function implements the declaration of
// the same name in undo_host.h (`@c @implementation` checks the signature against it). They are
// public because optimized builds hide internal symbols, @c or not, from the shared library.

/// Runs a call on the live history behind `handle` (UNDO_EHANDLE for NULL, stale and foreign
/// handles); see ``ClientHistory/call(changing:_:)``.
func withClient(_ handle: OpaquePointer?, changing: Bool = true,
                _ body: (ClientHistory) throws(ClientFailure) -> Int32) -> Int32 {
    guard let history = HandleRegistry.lookup(handle) else { return Int32(UNDO_EHANDLE) }
    return history.call(changing: changing) { () throws(ClientFailure) -> Int32 in try body(history) }
}

/// Why this thread's last call without a history (undo_history_create, undo_journal_inspect)
/// failed: undo_history_last_error(NULL).
let creationMessages = ThreadMessages()

/// The message for stale and foreign handles: static, never freed.
nonisolated(unsafe) private let staleHandleMessage: UnsafePointer<CChar> = UnsafePointer(strdup("stale or foreign handle")!)

@c @implementation
public func undo_library_version() -> UInt32 {
    UInt32(UNDO_ABI_VERSION_MAJOR * 1000 + UNDO_ABI_VERSION_MINOR)
}

@c @implementation
public func undo_history_create(_ options: UnsafePointer<undo_history_options>?,
                         _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    do throws(ClientFailure) {
        guard let out else { throw .invalid("out is NULL") }
        let settings = try options.map { (pointer) throws(ClientFailure) in
            try GrowableStruct.read(pointer, minimum: HistoryOptions.minimumSize, "options")
        }
        let history = try HistoryOptions.makeHistory(settings)
        out.pointee = try HandleRegistry.add(history)
        creationMessages.clear()
        return Int32(UNDO_OK)
    } catch {
        creationMessages.set(error.message)
        return error.code
    }
}

@c @implementation
public func undo_history_destroy(_ h: OpaquePointer?) -> Int32 {
    guard h != nil else { return Int32(UNDO_OK) }
    guard let history = HandleRegistry.remove(h) else { return Int32(UNDO_EHANDLE) }
    // The handle is stale from here on. From inside the history's own observer or plugin code
    // the close waits for the call under way to return (found by fuzzing: closing at once left
    // that call with a history taken apart). Plugins unload when the last reference goes: here,
    // or when a call still under way (on this thread or another) returns.
    history.destroy()
    return Int32(UNDO_OK)
}

@c @implementation
public func undo_history_last_error(_ h: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard h != nil else { return creationMessages.current }
    guard let history = HandleRegistry.lookup(h) else { return staleHandleMessage }
    return history.messages.current
}

/// Reading undo_history_options.
enum HistoryOptions {
    static let minimumSize = MemoryLayout<undo_history_options>.offset(of: \.reserved)! + 4 * MemoryLayout<UnsafeRawPointer>.size

    static func makeHistory(_ options: undo_history_options?) throws(ClientFailure) -> ClientHistory {
        let options = options ?? undo_history_options()
        try ReservedFields.check(options)
        let knownFlags = UInt32(UNDO_HISTORY_ALLOW_WRITABLE_PLUGINS) | UInt32(UNDO_HISTORY_ISOLATE_PLUGINS)
        guard options.flags & ~knownFlags == 0 else {
            throw .invalid("options.flags has unknown bits (\(options.flags & ~knownFlags))")
        }
        let window: Duration? = switch options.coalescing_window_ms {
        case 0: .milliseconds(500)
        case ..<0: nil
        default: .milliseconds(options.coalescing_window_ms)
        }
        // Monotonic until a journal opens on it, then the wall clock (times that survive a restart).
        let clock = JournalClock(before: SystemUndoClock())
        let stack = UndoStack(countLimit: try limit(options.count_limit, "count_limit"),
                              memoryLimit: try limit(options.memory_limit, "memory_limit"),
                              coalescingWindow: window, clock: clock, formatter: UndoTitleFormatter(locale: try locale(options.locale)))
        let hostName = try CText.readOptional(options.host_name, "options.host_name") ?? "libundohost"
        let hostVersion = try CText.readOptional(options.host_version, "options.host_version")
            ?? "\(UNDO_ABI_VERSION_MAJOR).\(UNDO_ABI_VERSION_MINOR)"
        let trust = PluginTrustPolicy(allowWritable: options.flags & UInt32(UNDO_HISTORY_ALLOW_WRITABLE_PLUGINS) != 0)
        let host = PluginHost(history: SharedUndoHistory(stack), hostName: hostName, hostVersion: hostVersion,
                              trust: trust)
        if options.flags & UInt32(UNDO_HISTORY_ISOLATE_PLUGINS) != 0 { host.isolation = PluginIsolation() }
        return ClientHistory(host: host, clock: clock)
    }

    private static func limit(_ value: UInt64, _ what: String) throws(ClientFailure) -> Int? {
        guard value > 0 else { return nil }
        guard let limit = Int(exactly: value) else { throw .range("options.\(what) \(value) is too large") }
        return limit
    }

    private static func locale(_ pointer: UnsafePointer<CChar>?) throws(ClientFailure) -> UndoLocale {
        guard let name = try CText.readOptional(pointer, "options.locale"), !name.isEmpty else { return .english }
        if name.contains("/") {
            do {
                return try UndoLocale.load(contentsOfFile: name)
            } catch {
                throw .invalid("options.locale: cannot use \(name): \(error)")
            }
        }
        guard let builtIn = UndoLocale.builtIn(name) else { throw .invalid("options.locale: no built-in locale \"\(name)\"") }
        return builtIn
    }
}
