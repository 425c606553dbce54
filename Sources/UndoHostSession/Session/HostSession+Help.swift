import UndoPluginHost

extension HostSession {
    /// The command reference, or the help of one command or action.
    func help(_ topic: String?) throws(SessionError) -> String {
        guard let topic else { return Self.commandReference + "\n\n" + actionReference }
        if let usage = SessionCommand.usages[topic] {
            return "usage: \(usage)\n  " + (Self.commandDescriptions[topic] ?? "")
        }
        let action = try resolve(topic)
        var text = "\(action.shortID)\(action.signature)  \"\(action.name)\"  (\(action.fullID))"
        if let inverse = action.inverseSignature { text += "\n  its inverse takes \(inverse)" }
        if action.coalescingKey != nil { text += "\n  consecutive steps coalesce into one (type break to start a new one)" }
        return text
    }

    private var actionReference: String {
        let actions = host.actionTypes
        guard !actions.isEmpty else { return "No plugins are loaded: no actions." }
        let width = actions.map { ($0.shortID + $0.signature.description).count }.max() ?? 0
        return "Actions (ACTION ARGUMENTS; strings in \"quotes\", numbers as 12, -3, 0xff, 2.5):\n"
            + actions.map { "  " + ($0.shortID + $0.signature.description).padded(to: width) + "  " + $0.name }
            .joined(separator: "\n")
    }

    static let commandDescriptions: [String: String] = [
        "undo": "Undo the newest step of this document (N steps; or go back to step N of the history).",
        "redo": "Redo the next step of this document (N steps; or go forward to step N).",
        "group": "Make the actions between begin and end one step, named Name.",
        "break": "End a run of typing or dragging: the next change is a new step.",
        "save": "Mark this document as saved.",
        "revert": "Take this document back to its last save, as one step you can undo.",
        "doc": "Switch to document NAME (its own undo and redo); without NAME, list the documents.",
        "close": "Close a document: its steps leave the history, the others stay.",
        "menu": "Show the Edit menu: Undo and Redo as they are titled now, with their shortcuts.",
        "history": "List every step: > marks where the history is, saved the save points.",
        "alert": "Show the shake-to-undo alert; with a choice (1-3, u/r/c), pick it.",
        "show": "Show a document; after an undo or redo the changed part is highlighted.",
        "plugins": "List the loaded plugins and their actions.",
        "load": "Load a plugin file, or every plugin in a folder.",
        "unload": "Unload a plugin: its steps leave the history.",
        "help": "Show this help, or the help of one command or action.",
        "quit": "Leave (Ctrl+D too).",
        "exit": "Leave.",
    ]

    static var commandReference: String {
        let shown = SessionCommand.names.filter { $0 != "exit" }
        let width = shown.compactMap { SessionCommand.usages[$0]?.count }.max() ?? 0
        return "Commands:\n  " + "ACTION ARGUMENTS".padded(to: width) + "  Perform a plugin action (text.insert 0 \"Hi\").\n"
            + shown.map { "  " + (SessionCommand.usages[$0] ?? $0).padded(to: width) + "  " + (commandDescriptions[$0] ?? "") }
            .joined(separator: "\n")
    }
}
