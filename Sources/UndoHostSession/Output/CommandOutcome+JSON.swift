import UndoCore

extension CommandOutcome {
    /// The outcome as one JSON object: the command, whether it succeeded, what it showed or
    /// did, and the state of the history after it.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("command", .string(command)), ("ok", .bool(succeeded))]
        if let error { members.append(("error", error.json)) }
        members += bodyMembers
        members.append(("state", state.json))
        return .object(members)
    }

    private var bodyMembers: [(String, JSONValue)] {
        switch body {
        case .none: return []
        case .performed(let action, let fullID):
            return [("action", .string(action)), ("fullID", .string(fullID)), ("obsolete", .bool(false))]
        case .performedNothing(let action, let fullID):
            return [("action", .string(action)), ("fullID", .string(fullID)), ("obsolete", .bool(true))]
        case .message(let message): return [("message", .string(message))]
        case .moved(let title, let result, let views):
            var resultJSON = result.json
            if let travelDirection, case .object(var members) = resultJSON, let at = members.firstIndex(where: { $0.0 == "direction" }) {
                members[at].1 = .string(travelDirection)
                resultJSON = .object(members)
            }
            return [("title", .string(title)), ("result", resultJSON), ("documents", .array(views.map(\.json)))]
        case .menu(let menu): return [("menu", menu.json)]
        case .history(let history): return [("history", history.json)]
        case .tree(let tree, let dot): return dot ? [("dot", .string(tree.dot))] : [("tree", tree.json)]
        case .alert(let alert, let picked):
            var members: [(String, JSONValue)] = [("alert", alert.json)]
            switch picked {
            case nil: break
            case .cancelled?: members.append(("picked", .object([("kind", "cancel")])))
            case .moved(let outcome)?:
                members.append(("picked", .object([("kind", .string(outcome.command))] + outcome.bodyMembers)))
            }
            return members
        case .documents(let views): return [("documents", .array(views.map(\.json)))]
        case .documentList(let current, let documents):
            return [("current", .string(current)),
                    ("documents", .array(documents.map { document in
                        .object([("name", .string(document.name)), ("steps", .integer(document.steps)),
                                 ("dirty", .bool(document.isDirty))])
                    }))]
        case .plugins(let plugins): return [("plugins", .array(plugins.map(\.json)))]
        case .help(let text): return [("help", .string(text))]
        case .expectedFailure(let error): return [("expected", error.json)]
        case .checkpoint(let info, let message):
            var names: [String] = []
            var seen: Set<String> = []
            for document in info.documents where seen.insert(document.context.name).inserted { names.append(document.context.name) }
            return [("message", .string(message)),
                    ("checkpoint", .object([("after", .integer(Int(info.sequence))), ("steps", .integer(info.steps)),
                                            ("documents", .array(names.map { .string($0) })),
                                            ("bytes", .integer(info.documentBytes))]))]
        }
    }
}

extension SessionState {
    var json: JSONValue {
        .object([("document", .string(document)), ("canUndo", .bool(canUndo)), ("canRedo", .bool(canRedo)),
                 ("undoTitle", .string(undoTitle)), ("redoTitle", .string(redoTitle)), ("dirty", .bool(isDirty)),
                 ("position", .integer(position)), ("count", .integer(count)), ("openGroups", .integer(openGroups))])
    }
}

extension UndoResult {
    var json: JSONValue {
        .object([("direction", .string(direction == .undo ? "undo" : "redo")), ("name", .optional(name)),
                 ("document", .string(context.name)), ("steps", .integer(stepCount)),
                 ("obsolete", .integer(obsoleteCount)),
                 ("changes", .array(changes.map { change in
                     .object([("document", .string(change.context.name)), ("location", .optional(change.location)),
                              ("length", .optional(change.length))])
                 }))])
    }
}

extension PluginSummary {
    var json: JSONValue {
        .object([("id", .string(id)), ("name", .string(name)), ("version", .string(version)), ("path", .string(path)),
                 ("actions", .array(actions.map { action in
                     .object([("id", .string(action.id)), ("fullID", .string(action.fullID)), ("name", .string(action.name)),
                              ("signature", .string(action.signature)),
                              ("parameters", .array(action.parameters.map { .object([("name", .string($0.name)), ("type", .string($0.type))]) })),
                              ("coalesces", .bool(action.coalesces)), ("discardable", .bool(action.discardable))])
                 }))])
    }
}
