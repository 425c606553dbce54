#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoPluginABI

/// The `undo_host` tables handed to plugins, and which plugin each belongs to.
///
/// A table's memory is never returned to malloc: a plugin that wrongly calls back after deinit
/// reaches a table that maps to no plugin and gets UNDO_ESTATE, not a crash. When its plugin
/// object goes (``retire(_:)``), the table's strings are freed and the table waits in a pool
/// for the next load, so memory stays flat over any number of loads and unloads: the pool holds
/// at most as many tables as were ever loaded at once. (A plugin calling back long after its
/// deinit may so reach a later plugin's table: that is a broken plugin, as with any dangling
/// pointer its host gave it, but the call still lands in a valid table.)
enum HostTables {
    private final class Registry: @unchecked Sendable {
        let lock = RecursiveMutex()
        var plugins: [UnsafeMutableRawPointer: Weak] = [:]
        /// Retired tables, their strings freed, for the next loads.
        var pool: [UnsafeMutablePointer<undo_host>] = []
    }
    private struct Weak { weak var plugin: LoadedPlugin? }
    private static let registry = Registry()

    /// - Parameter locale: the host's locale when the plugin loads (`undo_host.locale`, ABI 1.7).
    static func makeTable(hostName: String, hostVersion: String, locale: String) -> UnsafeMutablePointer<undo_host> {
        let table = registry.lock.withLock { registry.pool.popLast() } ?? .allocate(capacity: 1)
        var host = undo_host()
        host.struct_size = UInt32(MemoryLayout<undo_host>.size)
        host.abi_major = UInt32(UNDO_ABI_VERSION_MAJOR)
        host.abi_minor = UInt32(UNDO_ABI_VERSION_MINOR)
        host.host_name = UnsafePointer(hostName.withCString { strdup($0) })
        host.host_version = UnsafePointer(hostVersion.withCString { strdup($0) })
        host.register_action = { host, type in HostCallbacks.registerAction(host, type) }
        host.log = { host, level, message in HostCallbacks.log(host, level, message) }
        host.report_error = { host, code, message in HostCallbacks.reportError(host, code, message) }
        host.report_change = { call, context, location, length in
            HostCallbacks.reportChange(call, context, location, length)
        }
        host.set_inverse_arg = { call, index, value in HostCallbacks.setArgument(call, index, value, inverse: true) }
        host.set_arg = { call, index, value in HostCallbacks.setArgument(call, index, value, inverse: false) }
        host.record = { host, context, action, args, count, inverseArgs, inverseCount in
            HostCallbacks.record(host, context, action, args, count, inverseArgs, inverseCount)
        }
        host.set_close_handler = { host, handler in HostCallbacks.setCloseHandler(host, handler) }
        host.set_coalescing_key = { call, key in HostCallbacks.setCoalescingKey(call, key) }
        host.register_action_name = { host, action, locale, name in
            HostCallbacks.registerActionName(host, action, locale, name)
        }
        host.set_description = { call, text in HostCallbacks.setDescription(call, text) }
        host.locale = UnsafePointer(locale.withCString { strdup($0) })
        host.set_obsolete = { call in HostCallbacks.setObsolete(call) }
        host.write_document = { call, bytes, length in HostCallbacks.writeDocument(call, bytes, length) }
        host.read_document = { call, buffer, capacity in HostCallbacks.readDocument(call, buffer, capacity) }
        table.initialize(to: host)
        return table
    }

    static func register(_ table: UnsafeMutablePointer<undo_host>, for plugin: LoadedPlugin) {
        registry.lock.withLock { registry.plugins[UnsafeMutableRawPointer(table)] = Weak(plugin: plugin) }
    }

    static func unregister(_ table: UnsafeMutablePointer<undo_host>) {
        registry.lock.withLock { registry.plugins[UnsafeMutableRawPointer(table)] = Weak(plugin: nil) }
    }

    /// The table's plugin object is gone: the table leaves the registry, its strings are freed,
    /// and it goes to the pool for the next load.
    static func retire(_ table: UnsafeMutablePointer<undo_host>) {
        registry.lock.withLock {
            registry.plugins.removeValue(forKey: UnsafeMutableRawPointer(table))
            free(UnsafeMutableRawPointer(mutating: table.pointee.host_name))
            free(UnsafeMutableRawPointer(mutating: table.pointee.host_version))
            free(UnsafeMutableRawPointer(mutating: table.pointee.locale))
            table.pointee.host_name = nil
            table.pointee.host_version = nil
            table.pointee.locale = nil
            registry.pool.append(table)
        }
    }

    /// The loaded plugin a table belongs to; `nil` for a foreign or retired table.
    static func plugin(for table: UnsafePointer<undo_host>?) -> LoadedPlugin? {
        guard let table else { return nil }
        return registry.lock.withLock { registry.plugins[UnsafeMutableRawPointer(mutating: table)]?.plugin }
    }
}

/// The host callbacks of the `undo_host` table. Each finds its plugin (from the table) or its
/// call (from the thread's current frame) and refuses anything else.
enum HostCallbacks {
    static let ok = Int32(UNDO_OK)

    static func registerAction(_ table: UnsafePointer<undo_host>?, _ type: UnsafePointer<undo_action_type>?) -> Int32 {
        guard let plugin = HostTables.plugin(for: table) else { return Int32(UNDO_ESTATE) }
        guard let frame = CallFrame.current, frame.belongs(to: plugin.hostTable), frame.phase == .initialize else {
            plugin.writeLog(.warning, "register_action was called outside init; refused")
            if let frame = CallFrame.current, frame.belongs(to: plugin.hostTable) {
                frame.setRefusal("register_action is only allowed during init")
            }
            return Int32(UNDO_ESTATE)
        }
        return plugin.register(type, frame: frame)
    }

    /// register_action_name (ABI 1.5), from init: a name of one of the plugin's action types in
    /// one locale. A refusal, like register_action's, makes the load fail.
    static func registerActionName(_ table: UnsafePointer<undo_host>?, _ actionID: UnsafePointer<CChar>?,
                                   _ locale: UnsafePointer<CChar>?, _ name: UnsafePointer<CChar>?) -> Int32 {
        guard let plugin = HostTables.plugin(for: table) else { return Int32(UNDO_ESTATE) }
        guard let frame = CallFrame.current, frame.belongs(to: plugin.hostTable), frame.phase == .initialize else {
            plugin.writeLog(.warning, "register_action_name was called outside init; refused")
            if let frame = CallFrame.current, frame.belongs(to: plugin.hostTable) {
                frame.setRefusal("register_action_name is only allowed during init")
            }
            return Int32(UNDO_ESTATE)
        }
        func refuse(_ code: Int32, _ message: String, _ action: String?) -> Int32 {
            if frame.registrationFailure == nil {
                frame.registrationFailure = .actionRefused(action: action ?? "?", code: code,
                                                           message: "register_action_name: " + message)
            }
            frame.setRefusal("register_action_name: \(message)")
            return code
        }
        func code(_ failure: CStrings.Failure) -> Int32 {
            switch failure {
            case .tooLong: Int32(UNDO_ELIMIT)
            case .invalidUTF8: Int32(UNDO_EUTF8)
            default: Int32(UNDO_EINVAL)
            }
        }
        let id: String
        do throws(CStrings.Failure) {
            id = try CStrings.read(actionID, limit: Int(UNDO_MAX_ID_LENGTH))
        } catch {
            return refuse(code(error), CStrings.describe(error, "the action id"), nil)
        }
        frame.registrationLookups += 1
        guard let action = frame.registeredIDs[id].map({ frame.registrations[$0] }) else {
            return refuse(Int32(UNDO_ENOTFOUND), "no action type \(ActionValue.quoted(id)) was registered (register it first)", id)
        }
        let localeName: String
        do throws(CStrings.Failure) {
            localeName = try CStrings.read(locale, limit: 32)
        } catch {
            return refuse(Int32(UNDO_EINVAL), CStrings.describe(error, "the locale"), id)
        }
        guard LocalizedActionNames.isValidLocale(localeName) else {
            return refuse(Int32(UNDO_EINVAL), "locale \(ActionValue.quoted(localeName)) is not a language identifier "
                          + "(a letter, then letters, digits, '-' or '_', like \"ko\" or \"pt-BR\")", id)
        }
        let text: String
        do throws(CStrings.Failure) {
            text = try CStrings.read(name, limit: Int(UNDO_MAX_NAME_LENGTH))
        } catch {
            return refuse(code(error), CStrings.describe(error, "the name"), id)
        }
        guard action.addLocalizedName(text, for: localeName) else {
            return refuse(Int32(UNDO_EEXIST), "\(id) already has a name in locale \(localeName)", id)
        }
        return ok
    }

    static func log(_ table: UnsafePointer<undo_host>?, _ level: Int32, _ message: UnsafePointer<CChar>?) {
        guard let plugin = HostTables.plugin(for: table) else { return }
        let level = PluginLogMessage.Level(rawValue: min(max(level, 0), 3)) ?? .info
        plugin.writeLog(level, CStrings.message(message, limit: Int(UNDO_MAX_MESSAGE_LENGTH)))
    }

    static func reportError(_ table: UnsafePointer<undo_host>?, _ code: Int32, _ message: UnsafePointer<CChar>?) -> Int32 {
        guard let plugin = HostTables.plugin(for: table) else { return code }
        let text = CStrings.message(message, limit: Int(UNDO_MAX_MESSAGE_LENGTH))
        if let frame = CallFrame.current, frame.belongs(to: plugin.hostTable) {
            frame.setReportedError(code, text)
        } else {
            plugin.writeLog(.error, "\(text) [\(ErrorReport.name(of: code))]")
        }
        return code
    }

    static func reportChange(_ call: UnsafeMutablePointer<undo_call>?, _ context: UnsafePointer<CChar>?,
                             _ location: Int64, _ length: Int64) -> Int32 {
        guard let frame = CallFrame.accepting(call),
              [.perform, .redo, .inverse].contains(frame.phase) else { return Int32(UNDO_ESTATE) }
        var changed = frame.context
        if context != nil {
            do throws(CStrings.Failure) {
                changed = UndoContext(try CStrings.read(context, limit: Int(UNDO_MAX_CONTEXT_LENGTH), allowEmpty: true))
            } catch {
                frame.setRefusal("report_change: " + CStrings.describe(error, "the context"))
                return error == .invalidUTF8 ? Int32(UNDO_EUTF8) : Int32(UNDO_ELIMIT)
            }
        }
        guard frame.reportChange(context: changed, location: location >= 0 ? location : nil,
                                 length: length >= 0 ? length : nil) else { return Int32(UNDO_ELIMIT) }
        return ok
    }

    /// set_inverse_arg (from perform or merge) and set_arg (from merge).
    static func setArgument(_ call: UnsafeMutablePointer<undo_call>?, _ index: UInt32,
                            _ value: UnsafePointer<undo_value>?, inverse: Bool) -> Int32 {
        let function = inverse ? "set_inverse_arg" : "set_arg"
        guard let frame = CallFrame.accepting(call), let action = frame.action else { return Int32(UNDO_ESTATE) }
        func refuse(_ code: Int32, _ message: String) -> Int32 {
            frame.setRefusal("\(function)(\(index)): \(message)")
            return code
        }
        let signature: ActionSignature
        switch (frame.phase, inverse) {
        case (.perform, true), (.redo, true), (.merge, true):
            guard let inverseSignature = action.inverseSignature else {
                return refuse(Int32(UNDO_ESTATE), "\(action.shortID)'s inverse takes perform's arguments")
            }
            signature = inverseSignature
        case (.merge, false):
            signature = action.signature
        default:
            return refuse(Int32(UNDO_ESTATE), "not allowed in this call")
        }
        guard Int(index) < signature.parameters.count else {
            return refuse(Int32(UNDO_ERANGE), "there are only \(signature.parameters.count) parameters")
        }
        guard let value else { return refuse(Int32(UNDO_EINVAL), "the value is NULL") }
        let parameter = signature.parameters[Int(index)]
        let converted: ActionValue
        do throws(ActionArgumentError.Kind) {
            converted = try ActionValue(reading: value.pointee).converted(to: parameter.type)
        } catch {
            let failure = ActionArgumentError(error, index: Int(index), parameter: parameter.name)
            return refuse(failure.code, failure.reason)
        }
        guard frame.setOutput(converted, at: Int(index), inverse: inverse) else {
            return refuse(Int32(UNDO_ESTATE), "not allowed in this call")
        }
        return ok
    }

    /// set_coalescing_key (ABI 1.3), from perform: this step's own coalescing key, or none
    /// (NULL). On redo the step keeps the key it had: accepted and ignored.
    static func setCoalescingKey(_ call: UnsafeMutablePointer<undo_call>?, _ key: UnsafePointer<CChar>?) -> Int32 {
        guard let frame = CallFrame.accepting(call) else { return Int32(UNDO_ESTATE) }
        guard frame.phase == .perform || frame.phase == .redo else {
            frame.setRefusal("set_coalescing_key: only allowed in perform")
            return Int32(UNDO_ESTATE)
        }
        guard let key else {
            frame.setCoalescingKey(nil)
            return ok
        }
        do throws(CStrings.Failure) {
            frame.setCoalescingKey(try CStrings.read(key, limit: Int(UNDO_MAX_NAME_LENGTH)))
            return ok
        } catch {
            frame.setRefusal("set_coalescing_key: " + CStrings.describe(error, "the key"))
            return switch error {
            case .tooLong: Int32(UNDO_ELIMIT)
            case .invalidUTF8: Int32(UNDO_EUTF8)
            default: Int32(UNDO_EINVAL)
            }
        }
    }

    /// set_description (ABI 1.7), from perform or merge: the step's longer description, or
    /// none (NULL). On redo the step keeps the one it has: accepted and ignored.
    static func setDescription(_ call: UnsafeMutablePointer<undo_call>?, _ text: UnsafePointer<CChar>?) -> Int32 {
        guard let frame = CallFrame.accepting(call) else { return Int32(UNDO_ESTATE) }
        guard [.perform, .redo, .merge].contains(frame.phase) else {
            frame.setRefusal("set_description: only allowed in perform and merge")
            return Int32(UNDO_ESTATE)
        }
        guard let text else {
            frame.setDescription(nil)
            return ok
        }
        do throws(CStrings.Failure) {
            let description = try CStrings.read(text, limit: Int(UNDO_MAX_DESCRIPTION_LENGTH), allowEmpty: true)
            frame.setDescription(description.isEmpty ? nil : description)
            return ok
        } catch {
            frame.setRefusal("set_description: " + CStrings.describe(error, "the description"))
            return switch error {
            case .tooLong: Int32(UNDO_ELIMIT)
            case .invalidUTF8: Int32(UNDO_EUTF8)
            default: Int32(UNDO_EINVAL)
            }
        }
    }

    /// set_obsolete (ABI 1.7), from perform (first time or redo) or the inverse: the step
    /// changes nothing any more, so the history lets it go once the call returns UNDO_OK.
    static func setObsolete(_ call: UnsafeMutablePointer<undo_call>?) -> Int32 {
        guard let frame = CallFrame.accepting(call) else { return Int32(UNDO_ESTATE) }
        guard [.perform, .redo, .inverse].contains(frame.phase) else {
            frame.setRefusal("set_obsolete: only allowed in perform and the inverse")
            return Int32(UNDO_ESTATE)
        }
        frame.markObsolete()
        return ok
    }

    /// write_document (ABI 1.8), from save_document_v2: appends a piece of the document's state.
    static func writeDocument(_ call: UnsafeMutablePointer<undo_call>?, _ bytes: UnsafePointer<UInt8>?,
                              _ length: UInt64) -> Int32 {
        guard let frame = CallFrame.accepting(call) else { return Int32(UNDO_ESTATE) }
        guard frame.phase == .saveDocument, let pieces = frame.documentPieces else {
            frame.setRefusal("write_document: only allowed in save_document_v2")
            return Int32(UNDO_ESTATE)
        }
        guard length > 0 else { return ok }
        guard let bytes else {
            frame.setRefusal("write_document: the bytes are NULL")
            return Int32(UNDO_EINVAL)
        }
        // Weighed against the limit before a buffer is formed over the bytes: a length the
        // plugin got wrong is refused unread.
        if length > UInt64(pieces.limit - pieces.count) { pieces.markOverLimit() }
        guard !pieces.isOverLimit, pieces.append(UnsafeRawBufferPointer(start: bytes, count: Int(length))) else {
            if let failure = pieces.failure {
                // The host could not keep what was written (a journal's row, say): not the plugin's fault.
                frame.setRefusal("write_document: the host cannot keep the state: \(failure)")
                return Int32(UNDO_ESTATE)
            }
            frame.setRefusal("write_document: the document's state would be over the limit of \(pieces.limit) bytes")
            return Int32(UNDO_ELIMIT)
        }
        return ok
    }

    /// read_document (ABI 1.8), from load_document_v2: copies the next bytes of the state.
    static func readDocument(_ call: UnsafeMutablePointer<undo_call>?, _ buffer: UnsafeMutablePointer<UInt8>?,
                             _ capacity: UInt64) -> Int64 {
        guard let frame = CallFrame.accepting(call) else { return Int64(UNDO_ESTATE) }
        guard frame.phase == .loadDocument, let source = frame.documentSource else {
            frame.setRefusal("read_document: only allowed in load_document_v2")
            return Int64(UNDO_ESTATE)
        }
        guard capacity > 0 else { return 0 }
        guard let buffer else {
            frame.setRefusal("read_document: the buffer is NULL")
            return Int64(UNDO_EINVAL)
        }
        // Never more than what is left: a capacity the plugin got wrong is not written past.
        let length = Int(min(capacity, UInt64(source.count - source.bytesRead)))
        guard let copied = source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: length)) else {
            frame.setRefusal("read_document: \(source.failure ?? "the stored state cannot be read")")
            return Int64(UNDO_ESTATE)
        }
        return Int64(copied)
    }

    static func record(_ table: UnsafePointer<undo_host>?, _ context: UnsafePointer<CChar>?,
                       _ actionID: UnsafePointer<CChar>?, _ arguments: UnsafePointer<undo_value>?, _ count: UInt32,
                       _ inverseArguments: UnsafePointer<undo_value>?, _ inverseCount: UInt32) -> Int32 {
        guard let plugin = HostTables.plugin(for: table) else { return Int32(UNDO_ESTATE) }
        func refuse(_ code: Int32, _ message: String) -> Int32 {
            plugin.writeLog(.warning, "record refused: \(message) [\(ErrorReport.name(of: code))]")
            return code
        }
        guard CallFrame.current == nil else {
            return refuse(Int32(UNDO_EREENTRANT), "record was called from inside a call the host made")
        }
        guard plugin.isLoaded, let host = plugin.host else {
            return refuse(Int32(UNDO_ESTATE), "the plugin is not loaded in a host")
        }
        let id: String
        let contextName: String
        do throws(CStrings.Failure) {
            id = try CStrings.read(actionID, limit: Int(UNDO_MAX_ID_LENGTH))
            contextName = try CStrings.read(context, limit: Int(UNDO_MAX_CONTEXT_LENGTH), allowEmpty: true)
        } catch {
            let code: Int32 = switch error {
            case .invalidUTF8: Int32(UNDO_EUTF8)
            case .tooLong: Int32(UNDO_ELIMIT)
            default: Int32(UNDO_EINVAL)
            }
            return refuse(code,
                          CStrings.describe(error, "the action id or context"))
        }
        guard let action = plugin.action(localID: id) else {
            return refuse(Int32(UNDO_ENOTFOUND), "no action type \(id)")
        }
        let values: [ActionValue]
        let inverseValues: [ActionValue]
        do throws(ActionArgumentError) {
            // Both counts before either array is read: a wrong count never reads past an array.
            let expectedInverse = action.inverseSignature?.parameters.count ?? 0
            guard Int(count) == action.signature.parameters.count else {
                throw ActionArgumentError(.wrongCount(expected: action.signature.parameters.count, given: Int(count)))
            }
            guard Int(inverseCount) == expectedInverse else {
                throw ActionArgumentError(.wrongCount(expected: expectedInverse, given: Int(inverseCount)))
            }
            values = try ActionArguments.check(arguments, count: Int(count), against: action.signature)
            if let inverseSignature = action.inverseSignature {
                inverseValues = try ActionArguments.check(inverseArguments, count: Int(inverseCount), against: inverseSignature)
            } else {
                guard inverseCount == 0 else {
                    throw ActionArgumentError(.wrongCount(expected: 0, given: Int(inverseCount)))
                }
                inverseValues = values
            }
        } catch {
            return refuse(error.code, "\(action.shortID): \(error)")
        }
        if IsolatedPluginServer.isServing {
            // The runner's own history is not the host's: the step goes to the host, which
            // records it (or refuses it) as it would in-process.
            let (code, message) = IsolatedPluginServer.forwardRecord(action: id, context: contextName,
                                                                     arguments: values, inverseArguments: inverseValues)
            return code == ok ? ok : refuse(code, message)
        }
        let command = PluginCommand(action: action, arguments: values, inverseArguments: inverseValues,
                                    context: UndoContext(contextName), performed: true)
        do {
            try host.recordPluginStep(command)
        } catch let error as PluginHostError {
            return refuse(error.code, error.description)
        } catch let error as UndoError {
            return refuse(PluginHostError.history(error).code, error.description)
        } catch {
            return refuse(Int32(UNDO_ESTATE), String(describing: error))
        }
        return ok
    }
}
