import UndoPluginHost

extension HostSession {
    /// The command reference, or the help of one command or action.
    func help(_ topic: String?) throws(SessionError) -> String {
        guard let topic else { return Self.commandReference(width: layout.width) + "\n\n" + actionReference }
        if let usage = SessionCommand.usages[topic] {
            return ("usage: \(usage)\n  " + (Self.description(of: topic))).wrapped(to: layout.width, indent: 2)
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
        // Long signatures put the name on the next line rather than push every name right.
        let width = min(actions.map { ($0.shortID + $0.signature.description).count }.max() ?? 0, 44)
        let heading = "Actions (ACTION ARGUMENTS; strings in \"quotes\", numbers as 12, -3, 0xff, 2.5):"
        return heading.wrapped(to: layout.width, indent: 2) + "\n"
            + actions.map { Self.row($0.shortID + $0.signature.description, $0.name, firstWidth: width, lineWidth: layout.width) }
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
        "show": "Show a document; after an undo or redo the changed part is highlighted. It fits the terminal; --all shows all of it.",
        "plugins": "List the loaded plugins and their actions.",
        "load": "Load a plugin file, or every plugin in a folder (--allow-writable-plugins: even one others may change).",
        "expect": "Run COMMAND, which must fail with the error CODE (UNDO_ERANGE); anything else is an error.",
        "unload": "Unload a plugin: its steps leave the history.",
        "help": "Show this help, or the help of one command or action.",
        "quit": "Leave (Ctrl+D too).",
        "exit": "Leave.",
    ]

    /// What the command `word` does, for help.
    static func description(of word: String) -> String {
        commandDescriptions[word] ?? TreeCommand.descriptions[word] ?? ""
    }

    /// The session's commands, wrapped at word boundaries to `width` columns.
    static func commandReference(width lineWidth: Int) -> String {
        let shown = SessionCommand.names.filter { $0 != "exit" }
        // Longer usages put their description on the next line rather than push every
        // description right.
        let width = min(shown.compactMap { SessionCommand.usages[$0]?.count }.max() ?? 0, 22)
        let rows = [row("ACTION ARGUMENTS", "Perform a plugin action (text.insert 0 \"Hi\").", firstWidth: width, lineWidth: lineWidth)]
            + shown.map { row(SessionCommand.usages[$0] ?? $0, description(of: $0), firstWidth: width, lineWidth: lineWidth) }
        let notes = "# starts a comment anywhere outside a quoted string. At an empty prompt Ctrl+Z undoes, "
            + "Ctrl+Y (and Shift+Ctrl+Z where the terminal tells it apart) redoes."
        return "Commands:\n" + rows.joined(separator: "\n") + "\n\n" + notes.wrapped(to: lineWidth)
    }

    /// "  FIRST  description", the description wrapped under itself; when the first column
    /// leaves it too little room, the description goes on the lines below.
    static func row(_ first: String, _ description: String, firstWidth: Int, lineWidth: Int) -> String {
        let indent = 2 + firstWidth + 2
        let wrappedFirst = ("  " + first).wrapped(to: lineWidth, indent: 4)
        if lineWidth - indent >= 24 {
            if first.terminalWidth > firstWidth {
                return wrappedFirst + "\n" + (String(repeating: " ", count: indent) + description).wrapped(to: lineWidth, indent: indent)
            }
            return ("  " + first.padded(to: firstWidth) + "  " + description).wrapped(to: lineWidth, indent: indent)
        }
        return wrappedFirst + "\n" + ("      " + description).wrapped(to: lineWidth, indent: 6)
    }
}
