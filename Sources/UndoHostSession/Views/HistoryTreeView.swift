import UndoCore
import UndoHostTerminal

/// The whole history as a tree, drawn top-down the way undotree and vundo draw it: each state
/// under the one it follows; where a state has several, the others branch off to the right
/// (`├─`) before the line goes on with the one on the way to the current state (or the newest).
/// The current state is `@`, the others `o`; "saved" marks a state that was saved; each state
/// names its document when the history has several.
public struct HistoryTreeView: Sendable, Equatable {
    public struct Node: Sendable, Equatable {
        public var id: Int
        public var parent: Int
        public var name: String
        public var document: String
        /// The clock's nanoseconds when the state was made.
        public var time: UInt64
        /// 0: the current branch.
        public var branch: Int
        public var isApplied: Bool
        public var isCurrent: Bool
        public var wasSaved: Bool
        /// The step's description for history lists, if it has one.
        public var description: String? = nil
    }

    public var nodes: [Node]
    public var current: Int
    /// The clock's nanoseconds now, for ages.
    public var now: UInt64
    /// Whether the text shows each state's age.
    public var showsTimes = false

    public init(stack: UndoStack, now: UInt64) {
        current = Int(stack.currentState)
        self.now = now
        let formatter = stack.formatter
        nodes = stack.tree.map { node in
            // An unnamed state's name is empty here, and named in the reader's language when shown.
            Node(id: Int(node.id), parent: Int(node.parent), name: node.name.flatMap(formatter.displayName) ?? "",
                 document: node.context.name, time: node.time, branch: node.branch, isApplied: node.isApplied,
                 isCurrent: node.isCurrent, wasSaved: node.wasSaved, description: node.historyDescription)
        }
    }

    /// The children of each state (0: the start), oldest first.
    private var children: [Int: [Int]] {
        var children: [Int: [Int]] = [:]
        for node in nodes { children[node.parent, default: []].append(node.id) }
        for key in children.keys { children[key]!.sort() }
        return children
    }

    /// The drawing, one state a line.
    /// - Complexity: O(states × depth of branching), iterative (no recursion on deep trees).
    public func rendered(style: TextStyle, words: SessionText = .english) -> String {
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let children = self.children
        let branches = Set(nodes.map(\.branch)).count
        let summary = nodes.isEmpty ? words.noSteps : words.treeSummary(steps: nodes.count, branches: max(branches, 1), at: current)
        var lines = [style.bold(words.historyTree) + " (\(summary))"]
        // Work items: a state, the prefix of its own line, and that of the lines below it.
        let namesDocuments = Set(nodes.map(\.document)).count > 1
        var work: [(id: Int, first: String, rest: String)] = [(0, "", "")]
        while let (id, first, rest) = work.popLast() {
            lines.append(line(for: id, node: byID[id], prefix: first, namesDocuments: namesDocuments, style: style, words: words))
            let kids = children[id] ?? []
            guard !kids.isEmpty else { continue }
            // The line goes on with the child on the way to the current state, else the newest.
            let main = kids.first { byID[$0]?.isApplied == true } ?? kids[kids.count - 1]
            work.append((main, rest, rest))
            for side in kids.reversed() where side != main {
                work.append((side, rest + "├─", rest + "│ "))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func line(for id: Int, node: Node?, prefix: String, namesDocuments: Bool, style: TextStyle,
                      words: SessionText) -> String {
        let isCurrent = id == current
        let name = node.map { $0.name.isEmpty ? words.unnamed : $0.name.escapedForOneLine } ?? words.start
        var text = prefix + (isCurrent ? "@ " : "o ") + String(id) + "  " + name
        var notes: [String] = []
        if let node {
            if namesDocuments { notes.append(node.document.isEmpty ? words.global : node.document.escapedForOneLine) }
            if showsTimes { notes.append(words.ago(seconds: (now >= node.time ? now - node.time : 0) / 1_000_000_000)) }
            if node.wasSaved { notes.append(words.saved) }
        }
        if isCurrent { notes.append(words.current) }
        if !notes.isEmpty { text += "  (" + notes.joined(separator: ", ") + ")" }
        let onTheWay = id == 0 || node?.isApplied == true
        return onTheWay ? text : style.dimmed(text)
    }

    /// "4s ago", "3m ago", "2h ago", "1d ago" (``SessionText/ago(seconds:)``).
    static func age(_ nanoseconds: UInt64, words: SessionText = .english) -> String {
        words.ago(seconds: nanoseconds / 1_000_000_000)
    }

    /// The tree in Graphviz's DOT language (`dot -Tsvg`): a box per state, an arrow from each to
    /// the states that follow it; the way to the current state bold, the current state filled,
    /// saved states with a double border.
    public var dot: String {
        var lines = ["digraph history {", "    rankdir=TB;", "    node [shape=box, fontname=\"Helvetica\"];"]
        lines.append("    s0 [label=\"0 Start\"\(current == 0 ? ", style=filled, fillcolor=lightblue" : "")];")
        for node in nodes {
            var attributes = ["label=\"\(node.id) \(Self.escaped(node.name.isEmpty ? SessionText.english.unnamed : node.name))\(node.document.isEmpty ? "" : "\\n" + Self.escaped(node.document))\""]
            if node.isCurrent { attributes.append("style=filled, fillcolor=lightblue") }
            if node.wasSaved { attributes.append("peripheries=2") }
            lines.append("    s\(node.id) [\(attributes.joined(separator: ", "))];")
            lines.append("    s\(node.parent) -> s\(node.id)\(node.isApplied ? " [style=bold]" : "");")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    var json: JSONValue {
        .object([
            ("current", .integer(current)),
            ("states", .array(nodes.map { node in
                .object([("id", .integer(node.id)), ("parent", .integer(node.parent)),
                         ("name", .string(node.name.isEmpty ? SessionText.english.unnamed : node.name)),
                         ("description", node.description.map(JSONValue.string) ?? .null),
                         ("document", .string(node.document)), ("branch", .integer(node.branch)),
                         ("ageMilliseconds", .integer(Int((now >= node.time ? now - node.time : 0) / 1_000_000))),
                         ("applied", .bool(node.isApplied)), ("current", .bool(node.isCurrent)),
                         ("saved", .bool(node.wasSaved))])
            })),
        ])
    }
}
