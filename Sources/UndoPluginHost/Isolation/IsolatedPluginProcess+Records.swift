#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoPluginABI

/// The steps an isolated plugin records on its own (`undo_host.record` from a thread of its
/// own, outside any call the host made): the runner sends each on a second socket, served by a
/// thread of the host's (``RecordLink``), so a record never waits behind a call the host is
/// making on the first socket, nor a call behind a record.
///
/// The host applies a record through the same path as an in-process record
/// (``PluginHost/recordPluginStep(_:then:)``: the history, then the journal) and logs it, under
/// the history's lock, for restarts (``IsolatedPluginProcess/Logged/perform``: a new runner
/// performs the step again, as a redo). The answer is the result code (and the refusal's text),
/// which the runner returns to the plugin's thread.
extension IsolatedPluginProcess {
    /// One runner's record socket and the thread serving it.
    ///
    /// **Invariants:** `descriptor` stays open until the serving thread ends (it closes it, under
    /// `state`'s lock); ``close()`` only shuts it down (waking the thread), never closes it, so
    /// a descriptor number is never used after another open reused it.
    final class RecordLink: @unchecked Sendable {
        let channel: WireChannel
        weak var process: IsolatedPluginProcess?
        /// Whether the descriptor was closed (by the serving thread, as it ends).
        private let closed = Locked(false)

        init(descriptor: Int32, process: IsolatedPluginProcess) {
            channel = WireChannel(descriptor: descriptor)
            self.process = process
        }

        /// Starts the serving thread; `false` when it cannot be started (the descriptor is then closed).
        func start() -> Bool {
            var thread = pthread_t()
            let retained = Unmanaged.passRetained(self)
            let status = pthread_create(&thread, nil, { argument in
                guard let argument else { return nil }
                Unmanaged<RecordLink>.fromOpaque(argument).takeRetainedValue().serve()
                return nil
            }, retained.toOpaque())
            guard status == 0 else {
                retained.release()
                finish()
                return false
            }
            pthread_detach(thread)
            return true
        }

        /// Wakes the serving thread so it ends (the runner is being stopped).
        func close() {
            closed.withLock { isClosed in
                if !isClosed { shutDownDescriptor(channel.descriptor) }
            }
        }

        private func finish() {
            closed.withLock { isClosed in
                if !isClosed { closeDescriptor(channel.descriptor) }
                isClosed = true
            }
        }

        private func serve() {
            defer { finish() }
            while true {
                guard let body = try? channel.receive(until: nil), var request = try? WireReader(body),
                      request.kind == WireKind.recordRequest else { return }
                var answer = WireWriter(WireKind.recordAnswer)
                let (code, message): (Int32, String)
                if let process {
                    (code, message) = process.applyRecord(&request, from: self)
                } else {
                    (code, message) = (Int32(UNDO_ESTATE), "the plugin is not loaded in a host")
                }
                answer.i32(code)
                answer.string(message)
                guard (try? channel.transmit(answer.framed)) != nil else { return }
            }
        }
    }

    /// Records the step a ``WireKind/recordRequest`` holds (its arguments were checked in the
    /// runner against the same action type; their count and types are checked again here).
    /// - Returns: the result code and, for a refusal, what was wrong.
    /// - Parameter link: the record socket it came on: a record from a runner that has ended
    ///   since (a crash and a restart while the record waited) is refused, as the change it
    ///   records ended with that runner.
    func applyRecord(_ request: inout WireReader, from link: RecordLink) -> (Int32, String) {
        let actionID: String, contextName: String, values: [ActionValue], inverseValues: [ActionValue]
        do throws(WireReader.Malformed) {
            actionID = try request.string()
            contextName = try request.string()
            values = try request.values()
            inverseValues = try request.values()
        } catch {
            return (Int32(UNDO_EPLUGIN), "its process sent a record the host cannot read")
        }
        guard let plugin = owner, plugin.isLoaded, let host = plugin.host else {
            return (Int32(UNDO_ESTATE), "the plugin is not loaded in a host")
        }
        guard let action = plugin.action(localID: actionID) else {
            return (Int32(UNDO_ENOTFOUND), "no action type \(actionID)")
        }
        let inverseTypes = (action.inverseSignature ?? action.signature).parameters.map(\.type)
        guard values.map(\.type) == action.signature.parameters.map(\.type), inverseValues.map(\.type) == inverseTypes else {
            return (Int32(UNDO_EINVAL), "\(action.shortID): the arguments do not match the action type")
        }
        let command = PluginCommand(action: action, arguments: values, inverseArguments: inverseValues,
                                    context: UndoContext(contextName), performed: true)
        let canSave = plugin.canSaveDocuments
        do {
            // Under the history's lock, which every call (and so every restart) holds: the runner
            // cannot end between the check and the record.
            let refusal: (Int32, String)? = try host.history.withStack { _ in
                guard isCurrent(link) else {
                    return (Int32(UNDO_ECRASHED), "its process ended before the step could be recorded (the change ended with it)")
                }
                try host.recordPluginStep(command) {
                    // As every call's entry: the log keeps the history's order.
                    self.logRecorded(.perform(action: actionID, context: contextName, redo: true, arguments: values),
                                     canSave: canSave)
                }
                return nil
            }
            if let refusal { return refusal }
        } catch let error as PluginHostError {
            return (error.code, error.description)
        } catch let error as UndoError {
            return (PluginHostError.history(error).code, error.description)
        } catch {
            return (Int32(UNDO_ESTATE), String(describing: error))
        }
        return (Int32(UNDO_OK), "")
    }
}

/// `close(2)`, named apart from ``IsolatedPluginProcess/RecordLink/close()``.
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

/// `shutdown(2)` of both directions, named apart from ``IsolatedPluginProcess/shutdown()``.
private func shutDownDescriptor(_ descriptor: Int32) { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
