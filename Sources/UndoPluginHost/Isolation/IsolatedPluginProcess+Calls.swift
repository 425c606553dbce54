import UndoCore
import UndoPluginABI

/// The calls of ``ActionType`` and ``LoadedPlugin`` made in an isolated plugin's process: each
/// sends its request and applies the answer exactly as the in-process call applies what the
/// plugin handed back (the runner ran the in-process call; see ``IsolatedPluginServer``).
extension IsolatedPluginProcess {
    func perform(_ action: ActionType, _ step: inout PluginStep.State, context: UndoContext, changes: inout UndoChanges)
        throws(PluginActionError)
    {
        let redo = step.performed
        let phase: PluginActionError.Phase = redo ? .redo : .perform
        let arguments = step.arguments.array
        var request = WireWriter(WireKind.perform)
        request.string(action.localID)
        request.string(context.name)
        request.bool(redo)
        request.values(arguments)
        var answer = try call(request, action: action.shortID, phase: phase,
                              logging: .perform(action: action.localID, context: context.name, redo: redo, arguments: arguments),
                              canSave: action.plugin.canSaveDocuments)
        do throws(WireReader.Malformed) {
            let obsolete = try answer.bool()
            let inverse = try answer.optionalValues()
            let coalescing = try answer.u8()
            let key = coalescing == 2 ? try answer.string() : nil
            let description = try answer.optionalString()
            let reported = try Self.readChanges(&answer)
            if obsolete {
                changes.append(contentsOf: reported)
                changes.markObsolete()
                return
            }
            if let inverse { step.inverseArguments = inverse }
            if !redo {
                if coalescing == 1 { step.coalescing = .never }
                if let key { step.coalescing = .key(UndoCoalescingKey(key)) }
                if let description { step.description = description }
            }
            if !reported.isEmpty { changes.append(contentsOf: reported) }
            step.performed = true
        } catch {
            throw malformed(action.shortID, phase)
        }
    }

    func inverse(_ action: ActionType, _ arguments: [ActionValue], context: UndoContext, changes: inout UndoChanges)
        throws(PluginActionError)
    {
        var request = WireWriter(WireKind.inverse)
        request.string(action.localID)
        request.string(context.name)
        request.values(arguments)
        var answer = try call(request, action: action.shortID, phase: .undo,
                              logging: .inverse(action: action.localID, context: context.name, arguments: arguments),
                              canSave: action.plugin.canSaveDocuments)
        do throws(WireReader.Malformed) {
            let obsolete = try answer.bool()
            let reported = try Self.readChanges(&answer)
            if !reported.isEmpty { changes.append(contentsOf: reported) }
            if obsolete { changes.markObsolete() }
        } catch {
            throw malformed(action.shortID, .undo)
        }
    }

    /// The merge of two steps; a crash in it is logged and refuses the merge (the steps stay
    /// two), as a merge function's error does.
    func merge(_ action: ActionType, previous: PluginStep, next: PluginStep) -> ActionType.MergeOutcome? {
        var request = WireWriter(WireKind.merge)
        request.string(action.localID)
        request.string(previous.context.name)
        for step in [previous, next] {
            request.values(step.arguments)
            request.optionalValues(step.inverseArguments)
            request.bool(step.performed)
            request.optionalString(step.description)
        }
        do throws(PluginActionError) {
            var answer = try call(request, action: action.shortID, phase: .merge, canSave: action.plugin.canSaveDocuments)
            switch try? answer.u8() {
            case 1:
                let arguments: [ActionValue], inverse: [ActionValue]?, description: String?
                do throws(WireReader.Malformed) {
                    arguments = try answer.values()
                    inverse = try answer.optionalValues()
                    description = try answer.optionalString()
                } catch {
                    return nil
                }
                var merged = PluginStep(context: previous.context, arguments: arguments, inverseArguments: inverse,
                                        performed: previous.performed)
                merged.coalescing = previous.coalescing
                merged.description = description
                merged.measuredCost = merged.currentCost
                return .merged(merged)
            case 2: return .annulled
            default: return nil
            }
        } catch {
            action.plugin.writeLog(.error, "\(error.description); the steps are kept apart")
            return nil
        }
    }

    func describe(_ context: UndoContext, canSave: Bool) throws(PluginActionError) -> String {
        var request = WireWriter(WireKind.describe)
        request.string(context.name)
        var answer = try call(request, action: nil, phase: .describe, canSave: canSave)
        guard let text = try? answer.string() else { throw malformed(nil, .describe) }
        return text
    }

    func save(_ context: UndoContext, canSave: Bool) throws(PluginActionError) -> [UInt8] {
        var request = WireWriter(WireKind.save)
        request.string(context.name)
        var answer = try call(request, action: nil, phase: .save, canSave: canSave)
        guard let bytes = try? answer.raw() else { throw malformed(nil, .save) }
        return bytes
    }

    func load(_ bytes: [UInt8], into context: UndoContext, canSave: Bool) throws(PluginActionError) {
        var request = WireWriter(WireKind.load)
        request.string(context.name)
        request.raw(bytes)
        _ = try call(request, action: nil, phase: .load, logging: .load(context: context.name, bytes: bytes), canSave: canSave)
    }

    /// Closes a document in the plugin; a crash in it is logged (the document's state is gone
    /// either way, and the restart does not bring it back: the close is logged first).
    func closeDocument(_ context: UndoContext, canSave: Bool) {
        var request = WireWriter(WireKind.close)
        request.string(context.name)
        do throws(PluginActionError) {
            _ = try call(request, action: nil, phase: .close, logging: .close(context: context.name), canSave: canSave)
        } catch {
            log(PluginLogMessage(pluginID: opened.id, level: .error, message: error.description))
        }
    }

    /// The documents whose slot holds something in the plugin's process (none when it cannot say).
    func keptDocuments() -> [UndoContext] {
        do throws(PluginActionError) {
            var answer = try call(WireWriter(WireKind.keptDocuments), action: nil, phase: .describe, canSave: false)
            guard let count = try? answer.u32() else { return [] }
            var result: [UndoContext] = []
            for _ in 0..<count {
                guard let name = try? answer.string() else { return result }
                result.append(UndoContext(name))
            }
            return result
        } catch {
            log(PluginLogMessage(pluginID: opened.id, level: .error, message: error.description))
            return []
        }
    }

    private func malformed(_ action: String?, _ phase: PluginActionError.Phase) -> PluginActionError {
        PluginActionError(pluginID: opened.id, actionID: action, phase: phase, code: Int32(UNDO_EPLUGIN),
                          message: "its process sent an answer the host cannot read")
    }

    private static func readChanges(_ reader: inout WireReader) throws(WireReader.Malformed) -> UndoChanges {
        var changes = UndoChanges()
        for _ in 0..<(try reader.u32()) {
            let context = UndoContext(try reader.string())
            let hasLocation = try reader.bool()
            let location = try reader.i64()
            let hasLength = try reader.bool()
            let length = try reader.i64()
            changes.report(context: context, location: hasLocation ? location : nil, length: hasLength ? length : nil)
        }
        return changes
    }
}

extension LoadedPlugin {
    /// init in the plugin's process: the action types it registered become this plugin's
    /// (without functions: their calls go to the process).
    func initializeIsolated(_ remote: IsolatedPluginProcess) throws(PluginLoadError.Reason) {
        let registrations = try remote.initialize()
        var actions: [ActionType] = []
        var positions: [String: Int] = [:]
        for registration in registrations {
            let action = ActionType(plugin: self, localID: registration.localID, name: registration.name,
                                    signature: registration.signature, inverseSignature: registration.inverseSignature,
                                    coalescingKey: registration.coalescingKey, isDiscardable: registration.isDiscardable,
                                    appendsOnMerge: registration.appendsOnMerge, performFunction: nil,
                                    inverseFunction: nil, mergeFunction: nil, mergesInItsProcess: registration.hasMerge)
            for entry in registration.localizedNames { _ = action.addLocalizedName(entry.name, for: entry.locale) }
            positions[action.localID] = actions.count
            actions.append(action)
        }
        installIsolated(actions: actions, positions: positions)
    }
}
