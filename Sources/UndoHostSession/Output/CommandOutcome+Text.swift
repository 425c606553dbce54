import UndoHostTerminal

extension CommandOutcome {
    /// What a person reads after the command (empty when there is nothing to say). Errors are
    /// not in it: the front end prints them with their place (see ``SessionError``).
    public func text(style: TextStyle, layout: TextLayout = .standard, words: SessionText = .english) -> String {
        func fitted(_ view: DocumentView) -> DocumentView { view.fitted(to: layout) }
        switch body {
        case .none, .performed, .expectedFailure: return ""
        case .message(let message), .checkpoint(_, let message): return message
        case .performedNothing(let action, _): return words.performedNothing(action)
        case .moved(let title, let result, let views):
            var lines = [style.bold(title)]
            if result.obsoleteCount > 0 {
                lines.append(words.leftHistory(obsolete: result.obsoleteCount, moved: result.stepCount, name: result.name))
            }
            return (lines + views.map { fitted($0).rendered(style: style, words: words) }).joined(separator: "\n")
        case .menu(let menu): return menu.rendered(style: style, words: words)
        case .history(let history): return history.rendered(style: style, words: words)
        case .tree(let tree, let dot): return dot ? tree.dot : tree.rendered(style: style, words: words)
        case .alert(let alert, let picked):
            var text = alert.rendered(style: style, words: words)
            switch picked {
            case nil: break
            case .cancelled?: text += "\n" + words.cancelled
            case .moved(let outcome)?: text += "\n" + outcome.text(style: style, layout: layout, words: words)
            }
            return text
        case .documents(let views): return views.map { fitted($0).rendered(style: style, words: words) }.joined(separator: "\n")
        case .documentList(let current, let documents):
            let width = documents.map(\.name.terminalWidth).max() ?? 0
            return ([words.documents] + documents.map { document in
                let marker = document.name == current ? "> " : "  "
                let steps = words.steps(document.steps)
                return "  " + marker + document.name.padded(to: width) + "  " + steps + (document.isDirty ? ", " + words.edited : "")
            }).joined(separator: "\n")
        case .plugins(let plugins):
            guard !plugins.isEmpty else { return words.noPluginsLoaded }
            return plugins.map { plugin in
                let signatures = plugin.actions.map { $0.id + $0.signature }
                let width = signatures.map(\.count).max() ?? 0
                var lines = ["\(plugin.id) \(plugin.version) \"\(plugin.name)\"", "  " + words.from(plugin.path)]
                for (action, signature) in zip(plugin.actions, signatures) {
                    var notes: [String] = []
                    if action.coalesces { notes.append(words.coalesces) }
                    if action.discardable { notes.append(words.discardable) }
                    let line = "  " + signature.padded(to: width) + "  " + action.name.padded(to: 14) + "  " + notes.joined(separator: ", ")
                    lines.append(line.trimmingTrailingSpaces)
                }
                return lines.joined(separator: "\n")
            }.joined(separator: "\n")
        case .help(let text): return text
        }
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
