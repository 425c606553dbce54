#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CUndoHostSupport
import UndoCore
import UndoPluginABI

/// The other end of an isolated plugin (`undo-plugin-runner`): a process that holds one plugin,
/// loaded the ordinary way into a host of its own, and answers the calls the real host sends
/// over the socket (``IsolatedPluginProcess``). Every call goes through the same code as an
/// in-process call (``ActionType/invokePerform(_:changes:)`` and the rest), so the
/// plugin sees the same ABI, the same callbacks and the same checks; what those calls hand
/// back (inverse arguments, coalescing key, description, changes, obsolete mark, the plugin's
/// error) travels back in the answer.
package enum IsolatedPluginServer {
    /// Serves the calls arriving on `socket` for the plugin file open as `file` until the host
    /// asks it to end (deinitialize) or closes its end.
    /// - Returns: the process's exit status: 0 after an orderly end, 2 when the host's messages
    ///   could not be read.
    /// Whether this process is a runner (set once, before the plugin is loaded).
    nonisolated(unsafe) static var isServing = false

    /// The socket to the host's record thread (`nil` until ``serve(socket:file:records:)``
    /// starts); its lock makes one record at a time go and come back.
    private static let recordChannel = Locked<WireChannel?>(nil)

    /// Sends a step the plugin recorded on its own to the host and waits for its answer (the
    /// calling thread, the plugin's, blocks until then).
    /// - Returns: the host's result code and, for a refusal, what was wrong.
    static func forwardRecord(action: String, context: String, arguments: [ActionValue],
                              inverseArguments: [ActionValue]) -> (Int32, String) {
        recordChannel.withLock { channel in
            guard let channel else { return (Int32(UNDO_ESTATE), "the host's record socket is not open") }
            var request = WireWriter(WireKind.recordRequest)
            request.string(action)
            request.string(context)
            request.values(arguments)
            request.values(inverseArguments)
            do throws(WireChannel.Failure) {
                try channel.transmit(request.framed)
                guard var answer = try? WireReader(try channel.receive(until: nil)), answer.kind == WireKind.recordAnswer,
                      let code = try? answer.i32(), let message = try? answer.string() else {
                    return (Int32(UNDO_ESTATE), "the host sent an answer the runner cannot read")
                }
                return (code, message)
            } catch {
                return (Int32(UNDO_ESTATE), "the host did not answer the record")
            }
        }
    }

    package static func serve(socket: Int32, file: Int32, records: Int32? = nil) -> Int32 {
        isServing = true
        if let records { recordChannel.withLock { $0 = WireChannel(descriptor: records) } }
        // A host that ends (killed while the plugin loops, say) ends this process too.
        guard undo__exit_when_closed(socket) == 0 else { return 2 }
        let session = Session(channel: WireChannel(descriptor: socket), file: file)
        while true {
            let body: [UInt8]
            do throws(WireChannel.Failure) {
                body = try session.channel.receive(until: nil)
            } catch {
                return error == .closed ? 0 : 2
            }
            do throws(WireReader.Malformed) {
                var request = try WireReader(body)
                let answer = try session.answer(&request)
                session.flushLog()
                try? session.channel.transmit(answer.framed)
                if request.kind == WireKind.deinitialize { return 0 }
            } catch {
                return 2
            }
        }
    }

    private final class Session: @unchecked Sendable {
        let channel: WireChannel
        let file: Int32
        var host: PluginHost?
        var library: DynamicLibrary?
        var descriptor: PluginDescriptor?
        var path = ""
        var plugin: LoadedPlugin?
        let pendingLog = Locked<[PluginLogMessage]>([])

        init(channel: WireChannel, file: Int32) {
            self.channel = channel
            self.file = file
        }

        /// Sends the plugin's log messages written since the last answer (a plugin's own
        /// threads may log at any time; they reach the host with the next answer).
        func flushLog() {
            let messages = pendingLog.withLock { pending in
                defer { pending = [] }
                return pending
            }
            for message in messages {
                var writer = WireWriter(WireKind.log)
                writer.i32(message.level.rawValue)
                writer.string(message.message)
                try? channel.transmit(writer.framed)
            }
        }

        func answer(_ request: inout WireReader) throws(WireReader.Malformed) -> WireWriter {
            switch request.kind {
            case WireKind.open: return try open(&request)
            case WireKind.initialize: return initialize()
            default: break
            }
            guard let plugin, plugin.isLoaded else {
                var writer = WireWriter(WireKind.actionFailed)
                Self.write(PluginActionError(pluginID: descriptor?.id ?? "?", actionID: nil, phase: .perform,
                                             code: Int32(UNDO_ESTATE), message: "the plugin is not loaded in its process"),
                           to: &writer)
                return writer
            }
            do {
                switch request.kind {
                case WireKind.perform: return try perform(&request, plugin)
                case WireKind.inverse: return try inverse(&request, plugin)
                case WireKind.merge: return try merge(&request, plugin)
                case WireKind.describe:
                    let text = try plugin.describe(UndoContext(try request.string()))
                    var writer = WireWriter(WireKind.ok)
                    writer.string(text)
                    return writer
                case WireKind.save:
                    let bytes = try plugin.saveDocument(UndoContext(try request.string()))
                    var writer = WireWriter(WireKind.ok)
                    writer.raw(bytes)
                    return writer
                case WireKind.load:
                    let context = UndoContext(try request.string())
                    let bytes = try request.raw()
                    try plugin.serialized { () throws(PluginActionError) in try plugin.loadDocument(bytes, into: context) }
                    return WireWriter(WireKind.ok)
                case WireKind.close:
                    plugin.closeContext(UndoContext(try request.string()))
                    return WireWriter(WireKind.ok)
                case WireKind.keptDocuments:
                    var writer = WireWriter(WireKind.ok)
                    let kept = plugin.keptDocuments().map(\.name).sorted()
                    writer.u32(UInt32(kept.count))
                    for name in kept { writer.string(name) }
                    return writer
                case WireKind.deinitialize:
                    plugin.deinitialize()
                    return WireWriter(WireKind.ok)
                default:
                    throw WireReader.Malformed()
                }
            } catch let error as PluginActionError {
                var writer = WireWriter(WireKind.actionFailed)
                Self.write(error, to: &writer)
                return writer
            } catch {
                throw WireReader.Malformed()
            }
        }

        private func open(_ request: inout WireReader) throws(WireReader.Malformed) -> WireWriter {
            path = try request.string()
            let hostName = try request.string()
            let hostVersion = try request.string()
            let locale = try request.string()
            let route = PluginCallRoute(rawValue: try request.string()) ?? .direct
            let log = pendingLog
            let host = PluginHost(hostName: hostName, hostVersion: hostVersion, trust: .standard) { message in
                log.withLock { $0.append(message) }
            }
            host.locale = locale
            host.callRoute = route
            self.host = host
            do throws(PluginLoadError.Reason) {
                let status: FileStatus
                do throws(FileStatus.Failure) {
                    status = try FileStatus(descriptor: file)
                } catch {
                    throw .cannotOpen("\(error)")
                }
                do {
                    library = try DynamicLibrary(openingDescriptor: file, identity: status.identity, path: path)
                } catch {
                    throw .cannotOpen(error.message)
                }
                guard let entryAddress = library?.symbol(named: "undo_plugin_entry"),
                      let entry = undo__entry_fn_of(entryAddress) else { throw .missingEntry }
                guard let raw = entry() else { throw .entryReturnedNull }
                let descriptor = try PluginDescriptor(reading: raw)
                self.descriptor = descriptor
                var writer = WireWriter(WireKind.ok)
                writer.string(descriptor.id)
                writer.string(descriptor.name)
                writer.string(descriptor.version)
                writer.u32(descriptor.raw.struct_size)
                writer.u32(descriptor.raw.abi_major)
                writer.u32(descriptor.raw.abi_minor)
                writer.bool(descriptor.raw.describe != nil || descriptor.raw.describe_v2 != nil)
                writer.bool(descriptor.raw.save_document != nil)
                writer.bool(descriptor.raw.load_document != nil)
                return writer
            } catch {
                var writer = WireWriter(WireKind.loadFailed)
                IsolatedLoadFailure.write(error, to: &writer)
                return writer
            }
        }

        private func initialize() -> WireWriter {
            guard let host, let library, let descriptor, plugin == nil else {
                var writer = WireWriter(WireKind.loadFailed)
                IsolatedLoadFailure.write(.cannotOpen("initialize before open"), to: &writer)
                return writer
            }
            let plugin = LoadedPlugin(path: path, library: library, descriptor: descriptor, host: host)
            do throws(PluginLoadError.Reason) {
                try LoaderLock.run { () throws(PluginLoadError.Reason) in try plugin.initialize() }
            } catch {
                var writer = WireWriter(WireKind.loadFailed)
                IsolatedLoadFailure.write(error, to: &writer)
                return writer
            }
            host.add(plugin)
            self.plugin = plugin
            var writer = WireWriter(WireKind.ok)
            let actions = plugin.actions
            writer.u32(UInt32(actions.count))
            for action in actions {
                writer.string(action.localID)
                writer.string(action.name)
                Self.write(action.signature, to: &writer)
                writer.bool(action.inverseSignature != nil)
                if let inverse = action.inverseSignature { Self.write(inverse, to: &writer) }
                writer.optionalString(action.coalescingKey)
                writer.bool(action.isDiscardable)
                writer.bool(action.appendsOnMerge)
                writer.bool(action.mergeFunction != nil)
                let names = action.localizedNames
                writer.u32(UInt32(names.count))
                for entry in names {
                    writer.string(entry.locale)
                    writer.string(entry.name)
                }
            }
            return writer
        }

        private func action(_ request: inout WireReader, _ plugin: LoadedPlugin) throws(WireReader.Malformed) -> ActionType {
            guard let action = plugin.action(localID: try request.string()) else { throw WireReader.Malformed() }
            return action
        }

        private func perform(_ request: inout WireReader, _ plugin: LoadedPlugin) throws(any Error) -> WireWriter {
            let action = try action(&request, plugin)
            let context = UndoContext(try request.string())
            let redo = try request.bool()
            let arguments = try request.values()
            var state = PluginStep.State(context: context, arguments: ActionValueList(arguments), inverseArguments: nil,
                                         performed: redo)
            var changes = UndoChanges()
            try plugin.serialized { () throws(PluginActionError) in
                try action.invokePerform(&state, changes: &changes)
            }
            var writer = WireWriter(WireKind.ok)
            writer.bool(changes.isObsolete)
            writer.optionalValues(state.inverseArguments)
            switch state.coalescing {
            case .actionType: writer.u8(0)
            case .never: writer.u8(1)
            case .key(let key):
                writer.u8(2)
                writer.string(key.rawValue)
            }
            writer.optionalString(state.description)
            Self.write(changes, to: &writer)
            return writer
        }

        private func inverse(_ request: inout WireReader, _ plugin: LoadedPlugin) throws(any Error) -> WireWriter {
            let action = try action(&request, plugin)
            let context = UndoContext(try request.string())
            let arguments = try request.values()
            var changes = UndoChanges()
            try plugin.serialized { () throws(PluginActionError) in
                try action.invokeInverse(arguments, context: context, changes: &changes)
            }
            var writer = WireWriter(WireKind.ok)
            writer.bool(changes.isObsolete)
            Self.write(changes, to: &writer)
            return writer
        }

        private func merge(_ request: inout WireReader, _ plugin: LoadedPlugin) throws(any Error) -> WireWriter {
            let action = try action(&request, plugin)
            let context = UndoContext(try request.string())
            func step(_ request: inout WireReader) throws(WireReader.Malformed) -> PluginStep {
                let arguments = try request.values()
                let inverse = try request.optionalValues()
                let performed = try request.bool()
                var step = PluginStep(context: context, arguments: arguments, inverseArguments: inverse, performed: performed)
                step.description = try request.optionalString()
                return step
            }
            let previous = try step(&request)
            let next = try step(&request)
            let outcome = plugin.serialized { action.invokeMerge(previous: previous, next: next) }
            var writer = WireWriter(WireKind.ok)
            switch outcome {
            case nil: writer.u8(0)
            case .annulled?: writer.u8(2)
            case .merged(let merged)?:
                writer.u8(1)
                writer.values(merged.arguments)
                writer.optionalValues(merged.inverseArguments)
                writer.optionalString(merged.description)
            }
            return writer
        }

        static func write(_ signature: ActionSignature, to writer: inout WireWriter) {
            writer.u32(UInt32(signature.parameters.count))
            for parameter in signature.parameters {
                writer.string(parameter.name)
                writer.u32(parameter.type.rawValue)
            }
        }

        static func write(_ changes: UndoChanges, to writer: inout WireWriter) {
            writer.u32(UInt32(changes.all.count))
            for change in changes.all {
                writer.string(change.context.name)
                writer.bool(change.location != nil)
                writer.i64(change.location ?? 0)
                writer.bool(change.length != nil)
                writer.i64(change.length ?? 0)
            }
        }

        static func write(_ error: PluginActionError, to writer: inout WireWriter) {
            writer.optionalString(error.actionID)
            writer.string(error.phase.rawValue)
            writer.i32(error.code)
            writer.string(error.message)
        }
    }
}

/// A refused load, as it crosses from the runner to the host.
enum IsolatedLoadFailure {
    static func write(_ reason: PluginLoadError.Reason, to writer: inout WireWriter) {
        switch reason {
        case .missingEntry: writer.u8(1)
        case .entryReturnedNull: writer.u8(2)
        case .incompatibleVersion(let major, let minor):
            writer.u8(3); writer.u32(major); writer.u32(minor)
        case .descriptorTooSmall(let size, let minimum):
            writer.u8(4); writer.u32(size); writer.u32(minimum)
        case .descriptorTooLarge(let size, let maximum):
            writer.u8(5); writer.u32(size); writer.u32(maximum)
        case .invalidDescriptor(let what):
            writer.u8(6); writer.string(what)
        case .initFailed(let code, let message):
            writer.u8(7); writer.i32(code); writer.optionalString(message)
        case .actionRefused(let action, let code, let message):
            writer.u8(8); writer.string(action); writer.i32(code); writer.string(message)
        case .invalidFile(let message):
            writer.u8(9); writer.string(message)
        default:
            writer.u8(0); writer.string(PluginLoadError(path: "", reason: reason).explanation)
        }
    }

    static func read(_ reader: inout WireReader) throws(WireReader.Malformed) -> PluginLoadError.Reason {
        switch try reader.u8() {
        case 1: return .missingEntry
        case 2: return .entryReturnedNull
        case 3: return .incompatibleVersion(major: try reader.u32(), minor: try reader.u32())
        case 4: return .descriptorTooSmall(size: try reader.u32(), minimum: try reader.u32())
        case 5: return .descriptorTooLarge(size: try reader.u32(), maximum: try reader.u32())
        case 6: return .invalidDescriptor(try reader.string())
        case 7: return .initFailed(code: try reader.i32(), message: try reader.optionalString())
        case 8: return .actionRefused(action: try reader.string(), code: try reader.i32(), message: try reader.string())
        case 9: return .invalidFile(try reader.string())
        default: return .cannotOpen(try reader.string())
        }
    }
}
