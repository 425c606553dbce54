import UndoCodableJournal
import UndoCore
import UndoJournal

/// One change of the scripted session.
enum Step {
    case type(document: String, offset: Int, text: String, coalesces: Bool)
    case delete(document: String, offset: Int)
    case breakCoalescing
    case undo
    case undoWhole(count: Int)
    case redo
    case beginGroup(String)
    case endGroup
    case cancelGroup
    case markSaved
    case goTo(UInt32)
    case earlier(UndoTravel)
    case later(UndoTravel)
    case context(String)
    case countLimit(Int)
    case revert
}

/// The scripted session: change `index` (1, 2, …) is chosen from the index and the seed alone,
/// and from the history and the documents as they are before it, so a process that resumes a
/// journal at change n makes the same change n + 1 as an uninterrupted run.
///
/// By default one document, without `revertToSaved`; `--contexts` switches between two
/// documents and `--reverts` reverts to saved (the crash test runs both in one of its cases).
enum CrashScript {
    /// What the session may do beyond the default: switch between two documents, revert to saved.
    struct Extras: OptionSet {
        let rawValue: Int
        static let contexts = Extras(rawValue: 1)
        static let reverts = Extras(rawValue: 2)
    }

    static func step(_ index: Int, seed: UInt64, stack: UndoStack, documents: Documents, extras: Extras = []) -> Step {
        var hash = (seed &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(index)
        hash = (hash ^ (hash >> 31)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 33
        let document = stack.currentContext?.name ?? "a"
        let length = documents.text(document).count
        let pick = Int(hash >> 8 & 0xFFFF)
        func typing() -> Step { .type(document: document, offset: length, text: "w\(index) ", coalesces: true) }
        func deleting() -> Step { length > 0 ? .delete(document: document, offset: pick % length) : typing() }
        if index == 1 { return .context("a") }   // the one document, so saves and undo have a context
        if index == 150 { return .countLimit(120) }   // from here on the oldest steps are evicted
        if stack.groupDepth > 0 {
            switch hash % 8 {
            case 0...3: return .type(document: document, offset: pick % (length + 1), text: "g\(index)", coalesces: false)
            case 4: return deleting()
            case 5, 6: return .endGroup
            default: return .cancelGroup
            }
        }
        switch hash % 24 {
        case 0...6: return typing()
        case 7: return .type(document: document, offset: 0, text: "<\(index)>", coalesces: false)
        case 8, 9: return deleting()
        case 10: return .breakCoalescing
        case 11, 12: return .undo
        case 13: return .undoWhole(count: 2)
        case 14, 15: return .redo
        case 16: return .beginGroup("Group \(index)")
        case 17: return .markSaved
        case 18:
            let tree = stack.tree
            return .goTo(tree.isEmpty ? 0 : tree[pick % tree.count].id)
        case 19: return .earlier(.states(2))
        case 20: return .later(.states(1))
        case 21 where extras.contains(.contexts): return .context(document == "a" ? "b" : "a")
        case 22 where extras.contains(.reverts) && stack.canRevertToSaved(UndoContext(document)): return .revert
        case 21, 22: return .earlier(.saves(1))
        default: return .later(.saves(1))
        }
    }

    /// Makes `step` through the journal: one journaled change.
    static func apply(_ step: Step, to journal: UndoStackJournal, _ documents: Documents) throws {
        switch step {
        case .type(let document, let offset, let text, let coalesces):
            try journal.perform(TypeText(documents, document, at: offset, text, coalesces: coalesces))
        case .delete(let document, let offset): try journal.perform(DeleteText(documents, document, at: offset, count: 1))
        case .breakCoalescing: try journal.breakCoalescing()
        case .undo: try journal.undo()
        case .undoWhole(let count): try journal.undo(count: count, in: nil)
        case .redo: try journal.redo()
        case .beginGroup(let name): try journal.beginGroup(named: name)
        case .endGroup: try journal.endGroup()
        case .cancelGroup: try journal.cancelGroup()
        case .markSaved: try journal.markSaved()
        case .goTo(let state): try journal.goTo(state: state)
        case .earlier(let distance): try journal.earlier(distance)
        case .later(let distance): try journal.later(distance)
        case .context(let name): try journal.setCurrentContext(UndoContext(name))
        case .countLimit(let limit): try journal.setCountLimit(limit)
        case .revert: try journal.revertToSaved()
        }
    }

    /// Makes `step` on a history in memory, without a journal: the reference.
    static func apply(_ step: Step, to stack: UndoStack, _ documents: Documents) throws {
        switch step {
        case .type(let document, let offset, let text, let coalesces):
            try stack.perform(TypeText(documents, document, at: offset, text, coalesces: coalesces))
        case .delete(let document, let offset): try stack.perform(DeleteText(documents, document, at: offset, count: 1))
        case .breakCoalescing: stack.breakCoalescing()
        case .undo: try stack.undo()
        case .undoWhole(let count): try stack.undo(count: count, in: nil)
        case .redo: try stack.redo()
        case .beginGroup(let name): try stack.beginGroup(named: name)
        case .endGroup: try stack.endGroup()
        case .cancelGroup: try stack.cancelGroup()
        case .markSaved: try stack.markSaved()
        case .goTo(let state): try stack.goTo(state: state)
        case .earlier(let distance): try stack.earlier(distance)
        case .later(let distance): try stack.later(distance)
        case .context(let name): stack.currentContext = UndoContext(name)
        case .countLimit(let limit): stack.countLimit = limit
        case .revert: try stack.revertToSaved()
        }
    }

    /// FNV-1a (64 bits, `RowChecksum`) of everything a reopened journal must give back: the documents, the
    /// whole tree (with each step's time when `withTimes`), the position, the current state and
    /// context, saves, titles, the open groups and the limit.
    static func digest(_ stack: UndoStack, _ documents: Documents, withTimes: Bool) -> String {
        var text = ""
        for name in documents.texts.keys.sorted() { text += "doc \(name)=\(documents.texts[name]!)\n" }
        for node in stack.tree {
            text += "node \(node.id) \(node.parent) \(node.name ?? "-") \(node.context.name) \(node.branch) "
                + "\(node.isApplied) \(node.isCurrent) \(node.wasSaved) \(node.isSavePoint)"
                + (withTimes ? " \(node.time)\n" : "\n")
        }
        text += "at \(stack.position)/\(stack.count) state \(stack.currentState) context \(stack.currentContext?.name ?? "-")\n"
        for name in ["a", "b"] {
            text += "\(name) dirty \(stack.isDirty(UndoContext(name))) revert \(stack.canRevertToSaved(UndoContext(name)))\n"
        }
        text += "\(stack.undoMenuTitle(in: nil)) | \(stack.redoMenuTitle(in: nil)) | groups \(stack.groupDepth) "
            + "| limit \(stack.countLimit.map(String.init) ?? "-") | start saved \(stack.wasStartSaved)"
        var checksum = RowChecksum()
        checksum.mix(text.utf8)
        return String(UInt64(bitPattern: checksum.value), radix: 16)
    }
}
