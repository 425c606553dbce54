import UndoPluginABI
import UndoPluginKit

/// One plugin instance's documents: a list of notes per context.
final class NotesBook {
    struct Note: Equatable {
        var text: String
        var priority: Int32
    }

    private var lists: [String: [Note]] = [:]

    func notes(in context: String) -> [Note] { lists[context, default: []] }

    func append(_ note: Note, in context: String) { lists[context, default: []].append(note) }

    func insert(_ note: Note, at index: Int, in context: String) throws(UndoPluginError) {
        try checkIndex(index, in: context, allowingEnd: true)
        lists[context, default: []].insert(note, at: index)
    }

    @discardableResult
    func remove(at index: Int, in context: String) throws(UndoPluginError) -> Note {
        try checkIndex(index, in: context)
        return lists[context, default: []].remove(at: index)
    }

    /// Sets a note's priority and returns the previous one.
    func setPriority(_ priority: Int32, at index: Int, in context: String) throws(UndoPluginError) -> Int32 {
        try checkIndex(index, in: context)
        let previous = lists[context, default: []][index].priority
        lists[context, default: []][index].priority = priority
        return previous
    }

    /// Adds `text` at the end of note `index`.
    func type(_ text: String, intoNote index: Int, in context: String) throws(UndoPluginError) {
        try checkIndex(index, in: context)
        lists[context, default: []][index].text += text
    }

    /// Takes `text` off the end of note `index`, refusing when the note no longer ends with it.
    func untype(_ text: String, fromNote index: Int, in context: String) throws(UndoPluginError) {
        try checkIndex(index, in: context)
        let current = lists[context, default: []][index].text
        guard current.hasSuffix(text) else {
            throw UndoPluginError(.wrongState, "note \(index) no longer ends with the typed text")
        }
        lists[context, default: []][index].text = String(current.dropLast(text.count))
    }

    /// Forgets a document the host closed.
    func close(_ context: String) { lists[context] = nil }

    /// One line per note, "#index [priority] text", for the host's display and tests.
    func text(of context: String) -> String {
        notes(in: context).enumerated().map { "#\($0.offset) [\($0.element.priority)] \($0.element.text)" }
            .joined(separator: "\n")
    }

    private func checkIndex(_ index: Int, in context: String, allowingEnd: Bool = false) throws(UndoPluginError) {
        let count = notes(in: context).count
        guard index >= 0, index < count || (allowingEnd && index == count) else {
            throw UndoPluginError(.outOfRange, "no note \(index) in \"\(context)\" (it has \(count))")
        }
    }
}
