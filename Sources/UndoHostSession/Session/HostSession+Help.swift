import UndoHostTerminal
import UndoPluginHost

extension HostSession {
    /// The command reference, or the help of one command or action.
    func help(_ topic: String?) throws(SessionError) -> String {
        guard let topic else { return Self.commandReference(width: layout.width, words: words) + "\n\n" + actionReference }
        if let usage = SessionCommand.usages[topic] {
            return (words.usage(usage) + "\n  " + words.commandDescription(topic)).wrapped(to: layout.width, indent: 2)
        }
        let action = try resolve(topic)
        var text = "\(action.shortID)\(action.signature)  \"\(action.displayName)\"  (\(action.fullID))"
        if let inverse = action.inverseSignature { text += "\n  " + words.inverseTakes(inverse.description) }
        if action.coalescingKey != nil { text += "\n" + ("  " + words.coalesceNote).wrapped(to: layout.width, indent: 2) }
        return text
    }

    private var actionReference: String {
        let actions = host.actionTypes
        guard !actions.isEmpty else { return words.noActions }
        // Long signatures put the name on the next line rather than push every name right.
        let width = min(actions.map { ($0.shortID + $0.signature.description).count }.max() ?? 0, 44)
        let heading = words.actionsHeading
        return heading.wrapped(to: layout.width, indent: 2) + "\n"
            + actions.map { Self.row($0.shortID + $0.signature.description, $0.displayName, firstWidth: width, lineWidth: layout.width) }
            .joined(separator: "\n")
    }

    /// The session's commands, wrapped at word boundaries to `width` columns.
    static func commandReference(width lineWidth: Int, words: SessionText = .english) -> String {
        let shown = SessionCommand.names.filter { $0 != "exit" }
        // Longer usages put their description on the next line rather than push every
        // description right.
        let width = min(shown.compactMap { SessionCommand.usages[$0]?.count }.max() ?? 0, 22)
        let rows = [row("ACTION ARGUMENTS", words.performDescription, firstWidth: width, lineWidth: lineWidth)]
            + shown.map { row(SessionCommand.usages[$0] ?? $0, words.commandDescription($0), firstWidth: width, lineWidth: lineWidth) }
        return words.commandsHeading + "\n" + rows.joined(separator: "\n") + "\n\n" + words.helpNotes.wrapped(to: lineWidth)
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
