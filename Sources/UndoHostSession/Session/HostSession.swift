import UndoCore
import UndoPluginABI
import UndoPluginHost
import UndoJournal

/// A session of the host: the plugins, the one shared history, the current document and what
/// the last undo or redo changed. Runs one command line at a time and says what it did; the
/// terminal, script and `--json` front ends only show that.
///
/// A failing command changes nothing: ids, arguments and the command's own words are checked
/// before anything is performed, and the history leaves itself unchanged when an action fails.
public final class HostSession {
    public let host: PluginHost
    /// The document (history context) commands act on and the menu, alert and `show` are about.
    public internal(set) var currentDocument: String
    /// Documents in the order they were opened, with the plugins that acted in each (to ask
    /// them for its description), indexed by name.
    var documents = DocumentList()
    /// The changes of the last undo, redo or revert: highlighted by `show` until the next change.
    var lastChanges: [UndoChange]?
    /// Documents changed by an action inside each open group, by the group's depth (1: the
    /// outermost): a cancelled group's changes leave with it, an ended one's join its parent's.
    var changedInOpenGroups: [Int: Set<String>] = [:]
    /// How the last move across the tree went ("undo", "redo", "across"), for its outcome.
    var travelDirection: String?
    /// Names of the groups begun and not yet ended, innermost last.
    public internal(set) var openGroupNames: [String?] = []
    /// The room text output has (help wraps to its width).
    public var layout: TextLayout = .standard
    /// The language of everything the session says (by default that of the plugin host's
    /// locale, so it matches the menu titles).
    public var words: SessionText
    /// The plugin host's journal (`--journal`) and when it takes its
    /// checkpoints (see HostSession+Checkpoint.swift).
    var checkpoints = CheckpointSchedule()
    /// The watchdog of plugins `load --isolated` loads (`--plugin-watchdog`), in milliseconds.
    public var isolationWatchdog = PluginIsolation.defaultWatchdogMilliseconds

    /// The document a session starts in.
    public static let firstDocument = "untitled"

    /// - Parameter history: the shared history (by default one that coalesces until a break,
    ///   a different action or an undo, with no time limit: a script runs at machine speed and a
    ///   person types commands slowly, and both mean the same steps).
    public init(host: PluginHost) {
        self.host = host
        words = SessionText.forLocale(host.locale)
        currentDocument = Self.firstDocument
        addDocument(Self.firstDocument, plugins: [])
        withStack { $0.currentContext = UndoContext(Self.firstDocument) }
    }

    /// Makes the history and host the executable uses.
    public static func makeHost(locale: UndoLocale = .english, clock: any UndoClock = SystemUndoClock()) -> PluginHost {
        let stack = UndoStack(coalescingWindow: nil, clock: clock, formatter: UndoTitleFormatter(locale: locale))
        return PluginHost(history: SharedUndoHistory(stack), hostName: "undo-host", hostVersion: UndoHostTool.version)
    }

    func withStack<R>(_ body: (UndoStack) throws -> R) rethrows -> R {
        try host.history.withStack(body)
    }

    /// The values the title bar and the menu show now.
    public var state: SessionState {
        withStack { stack in
            SessionState(document: currentDocument, canUndo: stack.canUndo, canRedo: stack.canRedo,
                         undoTitle: stack.undoMenuTitle, redoTitle: stack.redoMenuTitle,
                         isDirty: stack.isDirty() || changedInOpenGroups.contains { $0.key <= stack.groupDepth && $0.value.contains(currentDocument) },
                         position: stack.position, count: stack.count,
                         openGroups: stack.groupDepth)
        }
    }

    // MARK: Running commands

    /// Parses and runs one line. `nil` for a blank line or a comment.
    public func run(_ line: String) -> CommandOutcome? {
        let command: SessionCommand?
        do {
            command = try SessionCommand.parse(line, words: words)
        } catch {
            let word = line.split(separator: " ").first.map(String.init) ?? line
            return CommandOutcome(command: word, body: .none, error: error, state: state)
        }
        guard let command else { return nil }
        return run(command)
    }

    /// Runs one command (and, when it was not run by another one and its changes reached the
    /// count, an automatic checkpoint after it).
    public func run(_ command: SessionCommand) -> CommandOutcome {
        checkpoints.commandDepth += 1
        defer {
            checkpoints.commandDepth -= 1
            if checkpoints.commandDepth == 0 { checkpointIfDue() }
        }
        let body: CommandOutcome.Body
        do {
            body = try execute(command)
        } catch {
            // A word that is neither a command nor an action is not a perform.
            let label = error.kind == .unknownCommand ? "unknown" : command.jsonName
            return CommandOutcome(command: label, body: .none, error: error, state: state)
        }
        var outcome = CommandOutcome(command: command.jsonName, body: body, error: nil, state: state)
        if case .quit = command { outcome.endsSession = true }
        if case .tree = command {
            outcome.travelDirection = travelDirection
            travelDirection = nil
        }
        return outcome
    }

    private func execute(_ command: SessionCommand) throws(SessionError) -> CommandOutcome.Body {
        switch command {
        case .perform(let action, let arguments, let column):
            let (performed, outcome) = try perform(action, arguments: arguments, argumentColumn: column)
            // Inside a group the history has no step yet, so it does not call the document
            // changed: the session remembers it until the group ends (the prompt's "*").
            let depth = withStack { $0.groupDepth }
            if outcome == .recorded, !performed.isDiscardable, depth > 0 {
                changedInOpenGroups[depth, default: []].insert(currentDocument)
            }
            guard outcome != .obsolete else { return .performedNothing(action: performed.shortID, fullID: performed.fullID) }
            return .performed(action: performed.shortID, fullID: performed.fullID)
        case .undo(let amount): return try move(.undo, amount)
        case .redo(let amount): return try move(.redo, amount)
        case .groupBegin(let name, let description):
            try hostCall("group begin") { () throws(PluginHostError) in
                try host.beginGroup(named: name, description: description, context: UndoContext(currentDocument))
            }
            openGroupNames.append(name)
            return .none
        case .groupEnd:
            guard !openGroupNames.isEmpty else {
                throw SessionError(.history, "group end: " + words.noGroupOpen, hint: words.beginGroupHint)
            }
            let depth = withStack { $0.groupDepth }
            try hostCall("group end") { () throws(PluginHostError) in try host.endGroup() }
            openGroupNames.removeLast()
            // The ended group's changes are its parent's now (or the history's own step).
            if let changed = changedInOpenGroups.removeValue(forKey: depth), depth > 1 {
                changedInOpenGroups[depth - 1, default: []].formUnion(changed)
            }
            lastChanges = nil
            return .none
        case .groupCancel: return try cancelGroup()
        case .breakCoalescing:
            try hostCall("break") { () throws(PluginHostError) in try host.breakCoalescing() }
            return .none
        case .save:
            try hostCall("save") { () throws(PluginHostError) in try host.markSaved(UndoContext(currentDocument)) }
            return .message(words.saved(currentDocument))
        case .forgetSave:
            try hostCall("save --forget") { () throws(PluginHostError) in try host.forgetSavePoint(UndoContext(currentDocument)) }
            return .message(words.forgotSave(currentDocument))
        case .revert: return try revert()
        case .limit(let count):
            if let count {
                let memory = withStack(\.memoryLimit)
                try hostCall("limit") { () throws(PluginHostError) in try host.setLimits(count: count, memory: memory) }
            }
            return .message(words.limit(withStack { $0.countLimit }, kept: withStack { $0.treeCount }))
        case .document(let name?): return try openDocument(name)
        case .document(nil): return documentList()
        case .close(let name): return try close(name ?? currentDocument)
        case .menu: return .menu(withStack { EditMenuView(stack: $0, document: currentDocument) })
        case .history(let values): return .history(withStack { HistoryPanelView(stack: $0, showsValues: values) })
        case .alert(let choice): return try alert(choice: choice)
        case .show(let name, let whole):
            var views = try views(of: name ?? currentDocument, changes: lastChanges ?? [])
            for index in views.indices { views[index].isWhole = whole }
            return .documents(views)
        case .plugins: return .plugins(pluginSummaries)
        case .load(let path, let allowWritable, let isolated): return try load(path, allowWritable: allowWritable, isolated: isolated)
        case .unload(let id): return try unload(id)
        case .help(let topic): return .help(try help(topic))
        case .quit: return .none
        case .expect(let code, let line): return try expect(code, from: line)
        case .tree(let command): return try run(tree: command)
        case .checkpoint: return try checkpoint()
        }
    }

    // MARK: Actions

    private func perform(_ actionID: String, arguments: String, argumentColumn: Int)
        throws(SessionError) -> (ActionType, UndoPerformOutcome)
    {
        let action = try resolve(actionID)
        let context = UndoContext(currentDocument)
        let outcome: UndoPerformOutcome
        // Enough of the document to tell after a failed perform whether the plugin changed it
        // before failing: the history is then unchanged, but the document is not. O(1) for a
        // long document of a plugin that describes ranges (HostSession+FailedPerform.swift).
        let before = documentBeforePerform(context, plugin: action.pluginID)
        do throws(PluginHostError) {
            outcome = try host.perform(action, argumentText: arguments, in: context)
        } catch {
            var sessionError = describe(error, action: action, arguments: arguments, argumentColumn: argumentColumn)
            if case .actionFailed(let failure) = error,
               let changed = documentChanged(by: failure, before: before, in: context, plugin: action.pluginID)
            {
                sessionError.hint = words.changedDespiteFailure(changed)
            }
            throw sessionError
        }
        noteDocument(currentDocument, usedBy: action.pluginID)
        lastChanges = nil
        return (action, outcome)
    }

    /// The action named `id`, or an error with the closest id (or command) as a hint.
    func resolve(_ id: String) throws(SessionError) -> ActionType {
        do throws(PluginHostError) {
            return try host.actionType(id)
        } catch {
            switch error {
            case .ambiguousAction(_, let candidates):
                throw SessionError(.ambiguousAction, words.ambiguous(id),
                                   hint: words.writeOneOf(candidates.joined(separator: ", ")))
            default:
                let actions = host.actionTypes
                let isActionLike = id.contains(".") || id.contains("/")
                let candidates = isActionLike ? actions.map(\.shortID)
                    : SessionCommand.names + actions.map(\.shortID) + actions.map(\.localID)
                let hint: String
                if let closest = Suggestion.closest(to: id, among: candidates) {
                    if !SessionCommand.names.contains(closest), let action = try? host.actionType(closest) {
                        hint = words.didYouMean(action.shortID) + " \(action.shortID)\(action.signature)"
                    } else {
                        hint = words.didYouMean(closest)
                    }
                } else if actions.isEmpty {
                    hint = words.noPluginsHint
                } else {
                    hint = words.listActionsHint
                }
                throw SessionError(isActionLike ? .unknownAction : .unknownCommand,
                                   isActionLike ? words.unknownAction(id) : words.unknownCommand(id), hint: hint)
            }
        }
    }

    /// A host error as a session error, with the argument's column in the whole line.
    private func describe(_ error: PluginHostError, action: ActionType, arguments: String, argumentColumn: Int) -> SessionError {
        switch error {
        case .invalidArguments(_, let signature, let argumentError):
            var place: [String] = []
            if let index = argumentError.index {
                place.append(words.argument(index + 1) + (argumentError.parameter.map { " (\($0))" } ?? ""))
            }
            let column = argumentError.column.map { argumentColumn + Self.characterOffset(ofScalar: $0 - 1, in: arguments) }
                ?? (arguments.isEmpty ? nil : argumentColumn)
            let prefix = action.shortID + ": " + (place.isEmpty ? "" : place.joined() + ": ")
            return SessionError(.arguments, prefix + argumentError.reason, code: ErrorReport(error).code,
                                hint: words.expected(signature), column: column)
        default:
            return sessionError(error, what: action.shortID)
        }
    }

    /// Converts a scalar offset (the argument parser's columns) to a Character offset.
    static func characterOffset(ofScalar offset: Int, in text: String) -> Int {
        var scalars = 0
        var characters = 0
        for character in text {
            if scalars >= offset { break }
            scalars += character.unicodeScalars.count
            characters += 1
        }
        return characters
    }

    /// A host error as a session error: the code of ``ErrorReport`` (the one the C API returns),
    /// the message in the session's words.
    func sessionError(_ error: PluginHostError, what: String) -> SessionError {
        let report = ErrorReport(error)
        switch error {
        case .actionFailed(let failure):
            let phase: SessionText.PhaseWord = switch failure.phase {
            case .perform: .perform
            case .redo: .redo
            case .undo: .undo
            case .describe: .describe
            case .save: .save
            case .load: .load
            case .merge: .merge
            case .close: .close
            }
            return SessionError(.plugin, words.failed(failure.actionID ?? failure.pluginID, phase: words.phase(phase), failure.message),
                                code: report.code,
                                hint: failure.code == Int32(UNDO_ECRASHED) ? words.pluginCrashedHint : words.pluginRefusedHint)
        case .history(let undoError):
            return historyError(undoError)
        case .unknownPlugin(let id):
            let closest = Suggestion.closest(to: id, among: host.plugins.map(\.id))
            return SessionError(.plugin, words.noPlugin(id), code: report.code,
                                hint: closest.map(words.didYouMean) ?? words.listPluginsHint)
        default:
            return SessionError(.plugin, "\(what): \(report.message)", code: report.code)
        }
    }

    func historyError(_ error: UndoError) -> SessionError {
        let code = ErrorReport(error).code
        switch error {
        case .groupOpen:
            return SessionError(.history, words.groupOpen(openGroupNames.last ?? nil), code: code, hint: words.endGroupHint)
        case .actionFailed(let step, let underlying):
            return SessionError(.plugin, (step.map { "\($0): " } ?? "") + String(describing: underlying), code: code,
                                hint: words.historyUnchangedHint)
        case .noSavePoint(let context):
            return SessionError(.history, words.noSavePoint(context.name), code: code, hint: words.gotoSavedHint)
        case .savePointUnreachable(let context):
            return SessionError(.history, words.savePointDropped(context.name), code: code, hint: words.gotoSavedHint)
        case .revertCrossesOtherDocuments(let context, let step):
            return SessionError(.history, words.revertCrossesOtherDocuments(context.name, step: step ?? words.unnamed),
                                code: code, hint: words.gotoSavedHint)
        case .moveCrossesOtherDocuments(let context, let step):
            return SessionError(.history, words.moveCrossesOtherDocuments(context.name, step: step ?? words.unnamed),
                                code: code, hint: words.gotoEveryDocumentHint)
        default:
            return SessionError(.history, error.description, code: code)
        }
    }

    /// Runs a host call (which its journal records), with its errors as session errors.
    func hostCall<R>(_ what: String, _ body: () throws(PluginHostError) -> R) throws(SessionError) -> R {
        do throws(PluginHostError) {
            return try body()
        } catch {
            throw sessionError(error, what: what)
        }
    }

    /// Runs a history call, with its errors as session errors.
    func historyCall<R>(_ body: (UndoStack) throws -> R) throws(SessionError) -> R {
        do {
            return try withStack(body)
        } catch let error as UndoError {
            throw historyError(error)
        } catch {
            throw SessionError(.history, String(describing: error))
        }
    }

    // MARK: Documents

    func noteDocument(_ name: String, usedBy pluginID: String) {
        documents.note(name, usedBy: pluginID)
    }

    /// Appends a document, indexed by name (see ``DocumentList``).
    func addDocument(_ name: String, plugins: [String]) {
        documents.append(name, plugins: plugins)
    }

    private func openDocument(_ name: String) throws(SessionError) -> CommandOutcome.Body {
        guard name.utf8.count <= UndoStack.maximumNameBytes else {
            throw SessionError(.arguments, words.documentNameTooLong(limit: UndoStack.maximumNameBytes, bytes: name.utf8.count),
                               code: UNDO_ELIMIT)
        }
        if !documents.contains(name) { addDocument(name, plugins: []) }
        // Choosing the document that is already current changes nothing, and writes nothing.
        if withStack({ $0.currentContext?.name }) != name {
            try hostCall("doc") { () throws(PluginHostError) in try host.setCurrentContext(UndoContext(name)) }
        }
        currentDocument = name
        lastChanges = nil
        return .none
    }

    private func documentList() -> CommandOutcome.Body {
        // One pass over the steps, not one per document.
        var stepCounts: [String: Int] = [:]
        for step in withStack(\.steps) { stepCounts[step.context.name, default: 0] += 1 }
        let summaries = documents.map { document in
            DocumentSummary(name: document.name,
                            isDirty: withStack { $0.isDirty(UndoContext(document.name)) },
                            steps: stepCounts[document.name] ?? 0)
        }
        return .documentList(current: currentDocument, documents: summaries)
    }

    private func close(_ name: String) throws(SessionError) -> CommandOutcome.Body {
        guard documents.contains(name) else {
            let closest = Suggestion.closest(to: name, among: documents.map(\.name))
            throw SessionError(.document, words.noDocument(name),
                               hint: closest.map(words.didYouMean) ?? words.listDocumentsHint)
        }
        guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
        // Through the plugin host, so the plugins forget the document too.
        let removed: Int
        do throws(PluginHostError) {
            removed = try host.closeContext(UndoContext(name))
        } catch {
            throw sessionError(error, what: "close")
        }
        documents.remove(name)  // O(1) amortized: closing n documents is O(n), not a rebuild each
        lastChanges = nil
        if currentDocument == name {
            _ = try? openDocument(documents.last?.name ?? Self.firstDocument)
        }
        return .message(words.closed(name, removed: removed, now: currentDocument))
    }

    /// The document as each plugin that has it describes it, with `changes` highlighted; with
    /// `excerpts`, a large document only around the changes (``excerptView(of:plugin:source:changes:)``).
    func views(of name: String, changes: [UndoChange], excerpts: Bool = false) throws(SessionError) -> [DocumentView] {
        let context = UndoContext(name)
        let known = documents.plugins(of: name)
        let relevant = changes.filter { $0.context == context }
        var views: [DocumentView] = []
        // The plugins that acted in the document; if none did through this session (a plugin
        // recorded its own steps), those that describe it as something.
        let owners = host.plugins.filter { $0.canDescribe && known.contains($0.id) }
        for plugin in owners.isEmpty ? host.plugins.filter(\.canDescribe) : owners {
            if excerpts, !owners.isEmpty,
               let view = try excerptView(of: name, plugin: plugin.id, source: plugin.name, changes: relevant) {
                views.append(view)
                continue
            }
            var text: String
            do throws(PluginHostError) {
                // A view over 16 MiB (a document of hundreds of megabytes) is shown cut, saying so.
                let view = try host.view(of: context, plugin: plugin.id)
                text = view.text
                if view.isCut { text += "\n" + words.viewCut(shown: view.text.utf8.count, of: view.length) }
            } catch {
                throw sessionError(error, what: "show")
            }
            guard !owners.isEmpty || !text.isEmpty else { continue }
            views.append(DocumentView(document: name, source: plugin.name, text: text, changes: relevant))
        }
        if views.isEmpty {
            views.append(DocumentView(document: name, source: words.noPluginHasIt, text: "", changes: []))
        }
        return views
    }

    // MARK: Undo and redo

    private func move(_ direction: UndoResult.Direction, _ amount: SessionCommand.UndoAmount) throws(SessionError) -> CommandOutcome.Body {
        let verb = direction == .undo ? "undo" : "redo"
        // Titles name the step before it moves (the menu item the person chose).
        let title = withStack { direction == .undo ? $0.undoMenuTitle : $0.redoMenuTitle }
        let result: UndoResult?
        switch amount {
        case .steps(let count):
            do throws(PluginHostError) {
                result = direction == .undo ? try host.undo(count: count) : try host.redo(count: count)
            } catch {
                throw sessionError(error, what: verb)
            }
            guard let result else {
                throw SessionError(.nothingToDo, words.nothingTo(undo: direction == .undo, in: currentDocument),
                                   hint: words.disabledItemHint(undo: direction == .undo))
            }
            let formatter = withStack(\.formatter)
            let newest = result.name.flatMap(formatter.displayName)
            let shown = result.stepCount > 1
                ? words.movedSteps(undo: direction == .undo, count: result.stepCount, newest: newest) : title
            return try moved(shown, result)
        case .to(let target):
            // N is the number the history listing shows (the step's serial, stable while it
            // stays); the position to go to is the count of steps up to and including it.
            let (steps, position) = withStack { ($0.steps, $0.position) }
            let destination: Int
            if target == 0 {
                destination = 0
            } else if let step = steps.first(where: { Int($0.serial) == target }) {
                destination = step.index + 1
            } else {
                throw SessionError(.history, words.noStep(undo: direction == .undo, target), code: UNDO_ENOTFOUND,
                                   hint: words.stepNumbersHint)
            }
            let current = position == 0 ? 0 : Int(steps[position - 1].serial)
            if direction == .undo && destination > position {
                throw SessionError(.history, words.alreadyPast(undo: true, target: target, current: current),
                                   hint: words.use("redo to \(target)"))
            }
            if direction == .redo && destination < position {
                throw SessionError(.history, words.alreadyPast(undo: false, target: target, current: current),
                                   hint: words.use("undo to \(target)"))
            }
            guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
            guard let result = try hostCall(verb, { () throws(PluginHostError) in try host.move(to: destination) }) else {
                return .message(words.alreadyAt(target))
            }
            let formatter = withStack(\.formatter)
            let name = result.name.flatMap(formatter.displayName)
            return try moved(words.movedTo(undo: direction == .undo, target: target, count: result.stepCount, newest: name), result)
        }
    }

    /// `group cancel`: the open group's changes taken back, shown as an undo of them.
    private func cancelGroup() throws(SessionError) -> CommandOutcome.Body {
        guard let name = openGroupNames.last else {
            throw SessionError(.history, "group cancel: " + words.noGroupOpen, hint: words.beginGroupHint)
        }
        let result: UndoResult?
        do throws(PluginHostError) {
            result = try host.cancelGroup()
        } catch {
            // A cancel that could not even put its changes back closed the group all the same.
            if withStack(\.groupDepth) < openGroupNames.count { openGroupNames.removeLast() }
            throw sessionError(error, what: "group cancel")
        }
        openGroupNames.removeLast()
        // Taken back: this group's changes are no longer changes (its parent's stay).
        changedInOpenGroups.removeValue(forKey: withStack { $0.groupDepth } + 1)
        guard let result else { return .message(words.cancelledGroup(name, changes: false)) }
        return try moved(words.cancelledGroup(name, changes: true), result)
    }

    private func revert() throws(SessionError) -> CommandOutcome.Body {
        guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
        let name = words.revertToSaved
        guard let result = try hostCall("revert", { () throws(PluginHostError) in
            try host.revertToSaved(UndoContext(currentDocument), named: name)
        }) else {
            throw SessionError(.nothingToDo, words.nothingToRevert(currentDocument), hint: words.revertHint)
        }
        return try moved(name, result)
    }

    /// The body of a move: its title and the changed documents, highlighted.
    func moved(_ title: String, _ result: UndoResult) throws(SessionError) -> CommandOutcome.Body {
        lastChanges = result.changes
        // The changes of each document in one pass (in the order the documents first appear), so
        // undoing 10^5 steps in 10^4 documents does not read every change once per document.
        var contexts: [UndoContext] = []
        var changesByContext: [UndoContext: [UndoChange]] = [:]
        for change in result.changes {
            if changesByContext[change.context] == nil { contexts.append(change.context) }
            changesByContext[change.context, default: []].append(change)
        }
        if contexts.isEmpty { contexts = [result.context] }
        var views: [DocumentView] = []
        for context in contexts {
            views += try self.views(of: context.name, changes: changesByContext[context] ?? [], excerpts: true)
        }
        return .moved(title: title, result: result, views: views)
    }

    // MARK: Alert

    /// The alert now; with a choice, also what picking it did.
    private func alert(choice: String?) throws(SessionError) -> CommandOutcome.Body {
        let view = withStack { AlertView(alert: $0.alert) }
        guard let choice else { return .alert(view, picked: nil) }
        guard let picked = view.choice(for: choice) else {
            throw SessionError(.syntax, words.notAChoice(choice),
                               hint: words.chooseHint(view.choices.map { words.choiceOption($0.number, $0.key, $0.title) }))
        }
        switch picked.kind {
        case .cancel:
            return .alert(view, picked: .cancelled)
        case .undo, .redo:
            let command: SessionCommand = picked.kind == .undo ? .undo(.steps(1)) : .redo(.steps(1))
            let outcome = run(command)
            if let error = outcome.error { throw error }
            return .alert(view, picked: .moved(outcome))
        }
    }

    // MARK: What would be lost

    /// How many steps (or group members) of the plugin `id` (its id or short name) the history
    /// holds: what unloading it would take away.
    /// - Complexity: O(steps and group members).
    public func steps(ofPlugin id: String) -> Int {
        guard let plugin = host.plugins.first(where: { $0.id == id || $0.shortName == id }) else { return 0 }
        func count(_ command: any UndoCommand) -> Int {
            if let step = command as? PluginCommand { return step.action.pluginID == plugin.id ? 1 : 0 }
            if let group = UndoGroup.group(in: command) { return group.members.reduce(0) { $0 + count($1) } }
            return 0
        }
        return withStack { stack in (0..<stack.count).reduce(0) { $0 + count(stack.command(at: $1)) } }
    }

    /// The open documents with unsaved changes, in the order they were opened.
    public var unsavedDocuments: [String] {
        withStack { stack in documents.map(\.name).filter { stack.isDirty(UndoContext($0)) } }
    }

    // MARK: Expected errors

    /// Runs `line`, which must fail with `code`: its error is then the answer (nothing changed);
    /// another error, or no error, is an expectation error (a command that succeeded keeps its
    /// effect).
    private func expect(_ code: Int32, from line: String) throws(SessionError) -> CommandOutcome.Body {
        let expected = ErrorReport.name(of: code)
        guard let outcome = run(line) else {
            throw SessionError(.syntax, words.expectMissingCommand, hint: words.usage(SessionCommand.usages["expect"] ?? "expect"))
        }
        guard let error = outcome.error else {
            throw SessionError(.expectation, words.expectSucceeded(expected, outcome.command),
                               hint: words.expectSucceededHint(expected))
        }
        guard error.code == code else {
            throw SessionError(.expectation, words.expectGot(expected, error.codeName, error.message),
                               code: error.code, hint: error.hint, column: error.column)
        }
        return .expectedFailure(error)
    }

    // MARK: Plugins

    var pluginSummaries: [PluginSummary] {
        host.plugins.map { plugin in
            PluginSummary(id: plugin.id, name: plugin.name, version: plugin.version, path: plugin.path,
                          actions: plugin.actionTypes.map { action in
                              PluginSummary.Action(id: action.shortID, fullID: action.fullID, name: action.displayName,
                                                   signature: action.signature.description,
                                                   parameters: action.signature.parameters.map { ($0.name, $0.type.description) },
                                                   coalesces: action.coalescingKey != nil, discardable: action.isDiscardable)
                          })
        }
    }

    private func load(_ given: String, allowWritable: Bool, isolated: Bool) throws(SessionError) -> CommandOutcome.Body {
        // The overrides apply to this load only.
        let policy = host.trustPolicy
        let isolation = host.isolation
        if allowWritable { host.trustPolicy.allowWritable = true }
        if isolated, isolation == nil { host.isolation = PluginIsolation(watchdogMilliseconds: isolationWatchdog) }
        defer {
            host.trustPolicy = policy
            host.isolation = isolation
        }
        // Typed by the person, so a relative path is taken from the current folder on purpose.
        let path = PluginHost.absolutePath(fromCurrentDirectory: given)
        var isFolder = false
        guard FileSystem.exists(path, isFolder: &isFolder) else {
            throw SessionError(.pluginLoad, words.noSuchPath(given), hint: words.pluginPathHint)
        }
        if isFolder {
            let report = host.load(folder: path)
            if let failure = report.failures.first, report.loaded.isEmpty {
                throw loadError(failure)
            }
            var lines = report.loaded.map { words.loaded($0.id, $0.version, $0.name, actions: $0.actionTypes.count) }
            lines += report.failures.map { words.skipped($0.path, $0.explanation) }
            return .message(lines.isEmpty ? words.noPlugins(in: path) : lines.joined(separator: "\n"))
        }
        do throws(PluginLoadError) {
            let plugin = try host.load(file: path)
            return .message(words.loaded(plugin.id, plugin.version, plugin.name, actions: plugin.actionTypes.count))
        } catch {
            throw loadError(error)
        }
    }

    func loadError(_ error: PluginLoadError) -> SessionError {
        SessionError(.pluginLoad, words.cannotLoad(error.path, error.explanation), code: ErrorReport(error).code,
                     hint: Self.hint(for: error, words: words))
    }

    /// What to do about a plugin that did not load, when there is something to do.
    public static func hint(for error: PluginLoadError, words: SessionText = .english) -> String? {
        switch error.reason {
        case .cannotOpen, .invalidFile: words.sharedObjectHint
        case .missingEntry: words.entryHint
        case .incompatibleVersion: words.rebuildHint
        case .duplicatePlugin: words.duplicateHint
        case .writableByOthers: words.writableHint
        default: nil
        }
    }

    private func unload(_ id: String) throws(SessionError) -> CommandOutcome.Body {
        guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
        // By its id, or by the short name of its actions ("canvas").
        let plugin = host.plugins.first { $0.id == id || $0.shortName == id }
        // Counted by the host on every branch (as close counts), not by the current branch's length.
        let removed: Int
        do throws(PluginHostError) {
            removed = try host.unload(plugin?.id ?? id)
        } catch {
            throw sessionError(error, what: "unload")
        }
        if let id = plugin?.id { documents.forget(plugin: id) }
        lastChanges = nil
        return .message(words.unloaded(plugin?.id ?? id, removed: removed))
    }
}
