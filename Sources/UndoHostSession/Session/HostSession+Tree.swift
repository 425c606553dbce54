import UndoCore
import UndoPluginABI
import UndoPluginHost

extension HostSession {
    /// Runs `earlier`, `later`, `goto` or `tree`.
    func run(tree command: TreeCommand) throws(SessionError) -> CommandOutcome.Body {
        switch command {
        case .tree(let dot, let times):
            var view = withStack { HistoryTreeView(stack: $0, now: $0.currentTime) }
            view.showsTimes = times
            return .tree(view, dot: dot)
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
        case .earlier(let distance), .later(let distance):
            guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
            let earlier = command.jsonName == "earlier"
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
