import Foundation
import Testing
import UndoCore
@testable import UndoPluginHost

/// One operation of a scripted session against a host: what a person (or a program) does.
enum SessionOperation: CustomStringConvertible {
    case perform(String, [ActionValue], in: String)
    /// Undo and redo of the whole history, all or nothing.
    case undo(Int)
    case redo(Int)
    /// Undo and redo of one document's newest (oldest redoable) step.
    case undoIn(String)
    case redoIn(String)
    case beginGroup(String)
    case endGroup
    case breakCoalescing
    case markSaved(String)
    case revertToSaved(String)
    case setLimits(count: Int?, memory: Int?)

    var description: String {
        switch self {
        case .perform(let action, let arguments, let context):
            "\(action) \(ActionArguments.format(arguments)) in \(context)"
        case .undo(let count): "undo \(count)"
        case .redo(let count): "redo \(count)"
        case .undoIn(let context): "undo in \(context)"
        case .redoIn(let context): "redo in \(context)"
        case .beginGroup(let name): "begin group \(name)"
        case .endGroup: "end group"
        case .breakCoalescing: "break coalescing"
        case .markSaved(let context): "save \(context)"
        case .revertToSaved(let context): "revert \(context)"
        case .setLimits(let count, let memory): "limits count=\(count.map(String.init) ?? "none") memory=\(memory.map(String.init) ?? "none")"
        }
    }
}

/// What can be seen of a host's history and documents at one moment: the steps (with their
/// serials, done or not, save points), the menu titles of the whole history and of each
/// document, which documents are dirty, and each document as its plugin shows it.
struct HistorySnapshot: Equatable, CustomStringConvertible {
    var steps: [UndoStepInfo]
    var position: Int
    var groupDepth: Int
    var totalCost: Int
    var titles: [String]
    var dirty: [Bool]
    var documents: [String]

    var description: String {
        let stepLines = steps.map { "  \($0.isApplied ? "+" : "-") #\($0.serial) \($0.name ?? "-") [\($0.context.name)]"
            + ($0.memberCount > 0 ? " (\($0.memberCount) members)" : "") + ($0.isSavePoint ? " saved" : "") }
        return (["position \(position), groups open \(groupDepth), cost \(totalCost)"] + stepLines
            + ["titles \(titles)", "dirty \(dirty)", "documents \(documents)"]).joined(separator: "\n")
    }
}

/// A host with one history and the documents a session works on, shown by `plugins`.
final class ScriptedSession {
    let host: PluginHost
    let documents: [UndoContext]
    /// (plugin id, context) for every document shown in snapshots.
    let shown: [(plugin: String, context: UndoContext)]

    init(plugins: [String], shown: [(plugin: String, context: String)],
         countLimit: Int? = nil, memoryLimit: Int? = nil) throws {
        let history = SharedUndoHistory(UndoStack(countLimit: countLimit, memoryLimit: memoryLimit, coalescingWindow: nil))
        host = PluginHost(history: history, log: { _ in })
        for plugin in plugins { try host.load(file: plugin) }
        self.shown = shown.map { ($0.plugin, UndoContext($0.context)) }
        var contexts: [UndoContext] = []
        for (_, context) in self.shown where !contexts.contains(context) { contexts.append(context) }
        documents = contexts
    }

    /// Runs one operation. - Returns: the error it threw, if any.
    @discardableResult
    func apply(_ operation: SessionOperation) -> (any Error)? {
        do {
            switch operation {
            case .perform(let action, let arguments, let context):
                try host.perform(action, arguments, in: UndoContext(context))
            case .undo(let count): try host.undo(count: count)
            case .redo(let count): try host.redo(count: count)
            case .undoIn(let context): try host.history.withStack { _ = try $0.undo(in: UndoContext(context)) }
            case .redoIn(let context): try host.history.withStack { _ = try $0.redo(in: UndoContext(context)) }
            case .beginGroup(let name): try host.history.withStack { try $0.beginGroup(named: name) }
            case .endGroup: try host.history.withStack { try $0.endGroup() }
            case .breakCoalescing: host.history.withStack { $0.breakCoalescing() }
            case .markSaved(let context): try host.history.withStack { try $0.markSaved(UndoContext(context)) }
            case .revertToSaved(let context): try host.history.withStack { _ = try $0.revertToSaved(UndoContext(context)) }
            case .setLimits(let count, let memory):
                host.history.withStack {
                    $0.countLimit = count
                    $0.memoryLimit = memory
                }
            }
            return nil
        } catch {
            return error
        }
    }

    func documentStates() throws -> [String] {
        try shown.map { try host.describe($0.context, plugin: $0.plugin) }
    }

    func snapshot() throws -> HistorySnapshot {
        let (steps, position, depth, cost, titles, dirty) = host.history.withStack { stack in
            stack.checkInvariants()
            let scopes: [UndoContext?] = [nil] + documents
            let titles = scopes.flatMap { [stack.undoMenuTitle(in: $0), stack.redoMenuTitle(in: $0)] }
            return (stack.steps, stack.position, stack.groupDepth, stack.totalCost, titles, documents.map { stack.isDirty($0) })
        }
        return HistorySnapshot(steps: steps, position: position, groupDepth: depth, totalCost: cost, titles: titles,
                               dirty: dirty, documents: try documentStates())
    }

    /// Ends the open groups, undoes every step one at a time, then redoes every step one at a
    /// time. - Returns: the documents after each undo and each redo, in order.
    func undoAndRedoEverything() throws -> [[String]] {
        try host.history.withStack { stack in
            while stack.groupDepth > 0 { try stack.endGroup() }
        }
        var trace: [[String]] = []
        while host.history.withStack({ $0.canUndo(in: nil) }) {
            try host.history.withStack { _ = try $0.undo(in: nil) }
            trace.append(try documentStates())
        }
        while host.history.withStack({ $0.canRedo(in: nil) }) {
            try host.history.withStack { _ = try $0.redo(in: nil) }
            trace.append(try documentStates())
        }
        host.history.withStack { $0.checkInvariants() }
        return trace
    }
}
