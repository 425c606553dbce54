#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoPluginABI
import UndoPluginHost

extension HostSession {
    /// Runs `earlier`, `later`, `goto` or `tree`.
    func run(tree command: TreeCommand) throws(SessionError) -> CommandOutcome.Body {
        switch command {
        case .tree(let dot, let times, let clock, let document):
            var view = withStack { HistoryTreeView(stack: $0, now: $0.currentTime) }
            if document {
                // The states `earlier --doc` and `later --doc` go through, and the one they count from.
                let context = UndoContext(currentDocument)
                let (states, at) = withStack { ($0.documentStates(of: context), $0.documentState(of: context)) }
                view.keepOnly(states: Set(states.map(Int.init)), current: Int(at))
            }
            view.showsTimes = times
            if clock { view.wallClockNow = Int64(time(nil)) }
            return .tree(view, dot: dot)
        case .showAt(let state, let name):
            let name = name ?? currentDocument
            let owners = describingPlugins(of: name)
            let texts = try look(at: state, owners.map { (UndoContext(name), $0.id) }, what: "show --at")
            var views: [DocumentView] = []
            for (index, plugin) in owners.enumerated() where !texts[index].isEmpty || describedByOwners(name) {
                views.append(DocumentView(document: name, source: words.atState(plugin.name, state), text: texts[index], changes: []))
            }
            if views.isEmpty { views.append(DocumentView(document: name, source: words.noPluginHasIt, text: "", changes: [])) }
            return .documents(views)
        case .diff(let from, let to):
            let name = currentDocument
            let owners = describingPlugins(of: name)
            let documents = owners.map { (UndoContext(name), $0.id) }
            let before = try look(at: from, documents, what: "diff")
            // At the current state the look runs no step: the documents as they are.
            let after = try look(at: to ?? withStack { $0.currentState }, documents, what: "diff")
            var lines: [String] = []
            for (index, plugin) in owners.enumerated() where !(before[index].isEmpty && after[index].isEmpty && !describedByOwners(name)) {
                lines.append(words.diffHeading(name, plugin.name, from: from, to: to))
                let difference = LineDifference(before[index], after[index])
                lines += difference.isEmpty ? [words.noDifference] : difference.lines
            }
            return .message(lines.joined(separator: "\n"))
        case .goTo(let id):
            guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
            let start = withStack { $0.currentState }
            let result: UndoResult?
            do throws(PluginHostError) {
                result = try host.goTo(state: id)
            } catch .history(.stateNotFound) {
                throw SessionError(.history, words.noState(id), code: ErrorReport(UndoError.stateNotFound(id)).code,
                                   hint: words.treeHint)
            } catch {
                throw sessionError(error, what: "goto")
            }
            guard let result else { return .message(words.alreadyAtState(id)) }
            return try travelled(words.goToState(id), from: start, result)
        case .goToInDocument(let id):
            guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
            let document = currentDocument
            let name = words.goToState(id)
            let result: UndoResult?
            do throws(PluginHostError) {
                result = try host.goTo(state: id, in: UndoContext(document), named: name)
            } catch .history(.stateNotFound) {
                throw SessionError(.history, words.noState(id), code: ErrorReport(UndoError.stateNotFound(id)).code,
                                   hint: words.treeHint)
            } catch {
                throw sessionError(error, what: "goto --doc")
            }
            guard let result else { return .message(words.documentAlreadyAt(id, document)) }
            return try moved(words.goToDocumentState(id, document), result)
        case .earlierInDocument(let count), .laterInDocument(let count):
            guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
            let earlier = command.jsonName == "earlier"
            let document = UndoContext(currentDocument)
            guard let target = withStack({ $0.documentTravelTarget(count, in: document, earlier: earlier) }) else {
                if count == 0 {
                    return .message(words.zeroDistance(command.jsonName + " --doc 0", state: withStack { $0.documentState(of: document) }))
                }
                throw SessionError(.nothingToDo, words.nothingFurther(in: document.name, earlier: earlier), hint: words.treeHint)
            }
            let name = words.goToState(target)
            let result = try hostCall(command.jsonName + " --doc", { () throws(PluginHostError) in
                earlier ? try host.earlier(count, in: document, named: name) : try host.later(count, in: document, named: name)
            })
            guard let result else { return .message(words.documentAlreadyAt(target, document.name)) }
            return try moved(words.goToDocumentState(target, document.name), result)
        case .earlier(let distance), .later(let distance):
            guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
            let earlier = command.jsonName == "earlier"
            if distance.isZero {
                return .message(words.zeroDistance(command.jsonName + " " + distance.description, state: withStack { $0.currentState }))
            }
            let start = withStack { $0.currentState }
            let result: UndoResult?
            do throws(PluginHostError) {
                result = earlier ? try host.earlier(distance) : try host.later(distance)
            } catch {
                throw sessionError(error, what: command.jsonName)
            }
            guard let result else {
                throw SessionError(.nothingToDo, words.nothingFurther(earlier: earlier), hint: words.treeHint)
            }
            return try travelled(words.travel(earlier: earlier, distance.description), from: start, result)
        }
    }

    /// The plugins that show document `name`: those that acted in it through this session, or
    /// (none did) every plugin that describes documents, as `show` picks them.
    private func describingPlugins(of name: String) -> [PluginSummaryRef] {
        let known = documents.plugins(of: name)
        let owners = host.plugins.filter { $0.canDescribe && known.contains($0.id) }
        return (owners.isEmpty ? host.plugins.filter(\.canDescribe) : owners).map { PluginSummaryRef(id: $0.id, name: $0.name) }
    }

    private func describedByOwners(_ name: String) -> Bool {
        let known = documents.plugins(of: name)
        return host.plugins.contains { $0.canDescribe && known.contains($0.id) }
    }

    /// The views of `documents` as at `state`, without a move (nothing recorded).
    private func look(at state: UInt32, _ documents: [(UndoContext, String)], what: String) throws(SessionError) -> [String] {
        guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
        do throws(PluginHostError) {
            return try host.describe(documents.map { (context: $0.0, plugin: $0.1) }, atState: state)
        } catch {
            throw sessionError(error, what: what)
        }
    }

    /// The body of a move across the tree: where it arrived, how many steps it ran, the changed documents.
    private func travelled(_ what: String, from start: UInt32, _ result: UndoResult) throws(SessionError) -> CommandOutcome.Body {
        let state = withStack { $0.currentState }
        travelDirection = Self.direction(from: start, to: state, parents: withStack { $0.tree.map { ($0.id, $0.parent) } })
        return try moved(words.travelled(what, state: Int(state), steps: result.stepCount), result)
    }

    /// How a move from state `start` to state `end` went: "undo" (back along the way it came),
    /// "redo" (forward on it), or "across" (back to a fork, then forward on another branch).
    /// - Parameter parents: each state's parent, from the tree (a move changes no parent).
    /// - Complexity: O(states).
    static func direction(from start: UInt32, to end: UInt32, parents: [(UInt32, UInt32)]) -> String {
        let parent = Dictionary(parents, uniquingKeysWith: { first, _ in first })
        var onTheWay: Set<UInt32> = [0]
        var state = start
        while state != 0, onTheWay.insert(state).inserted { state = parent[state] ?? 0 }
        var meeting = end
        while !onTheWay.contains(meeting) { meeting = parent[meeting] ?? 0 }
        switch (meeting != start, meeting != end) {
        case (true, true): return "across"
        case (true, false): return "undo"
        default: return "redo"
        }
    }
}

/// A plugin named for a look: its id and display name.
struct PluginSummaryRef {
    var id: String
    var name: String
}

/// Two texts line by line: the lines both share at the start and at the end are left out, the
/// rest of the first is removed (`- `) and the rest of the second added (`+ `). Not the
/// smallest difference, but a true one, found in time linear in the texts.
struct LineDifference {
    var lines: [String] = []
    var isEmpty: Bool { lines.isEmpty }

    init(_ before: String, _ after: String) {
        let old = before.split(separator: "\n", omittingEmptySubsequences: false)
        let new = after.split(separator: "\n", omittingEmptySubsequences: false)
        var start = 0
        while start < old.count && start < new.count && old[start] == new[start] { start += 1 }
        var oldEnd = old.count, newEnd = new.count
        while oldEnd > start && newEnd > start && old[oldEnd - 1] == new[newEnd - 1] {
            oldEnd -= 1
            newEnd -= 1
        }
        for line in old[start..<oldEnd] { lines.append("- " + line) }
        for line in new[start..<newEnd] { lines.append("+ " + line) }
    }
}
