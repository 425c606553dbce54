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
        case .tree(let dot, let times, let clock):
            var view = withStack { HistoryTreeView(stack: $0, now: $0.currentTime) }
            view.showsTimes = times
            if clock { view.wallClockNow = Int64(time(nil)) }
            return .tree(view, dot: dot)
        case .goTo(let id):
            guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
            let result: UndoResult?
            do throws(PluginHostError) {
                result = try host.goTo(state: id)
            } catch {
                throw sessionError(error, what: "goto")
            }
            guard let result else { return .message("Already at state \(id)") }
            return try travelled("Go to state \(id)", result)
        case .earlier(let distance), .later(let distance):
            guard openGroupNames.isEmpty else { throw historyError(.groupOpen) }
            let earlier = command.jsonName == "earlier"
            if distance.isZero {
                return .message(words.zeroDistance(command.jsonName + " " + distance.description, state: withStack { $0.currentState }))
            }
            let result: UndoResult?
            do throws(PluginHostError) {
                result = earlier ? try host.earlier(distance) : try host.later(distance)
            } catch {
                throw sessionError(error, what: command.jsonName)
            }
            guard let result else {
                throw SessionError(.nothingToDo, earlier ? "nothing earlier: the history is at its first state"
                                                         : "nothing later: the history is at its newest state",
                                   hint: "type tree to see every state")
            }
            return try travelled((earlier ? "Earlier " : "Later ") + distance.description, result)
        }
    }

    /// The body of a move across the tree: where it arrived, how many steps it ran, the changed documents.
    private func travelled(_ what: String, _ result: UndoResult) throws(SessionError) -> CommandOutcome.Body {
        let state = withStack { $0.currentState }
        let steps = "\(result.stepCount) step\(result.stepCount == 1 ? "" : "s")"
        return try moved("\(what): at state \(state) (\(steps))", result)
    }
}
