import UndoCore
import UndoHostTerminal

/// The whole history as a tree, drawn top-down the way undotree and vundo draw it: each state
/// under the one it follows; where a state has several, the others branch off to the right
/// (`├─`) before the line goes on with the one on the way to the current state (or the newest).
/// The current state is `@`, the others `o`; each state shows its step's description (as
/// `history` does); "saved" marks a state that is its document's saved content now, "was saved"
/// one saved before and not now; "redo" the state `redo` goes to next; each state names its
/// document when the history has several.
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
        /// Whether its document's saved content is this state now.
        public var isSavePoint: Bool
        /// Whether `redo` goes to this state next.
        public var isNextRedo: Bool
        /// The name, or the step's description when it has one (what `history` lists).
        public var text: String
    }

    public var nodes: [Node]
    public var current: Int
    /// The clock's nanoseconds now, for ages.
    public var now: UInt64
    /// Whether the text shows each state's age.
    public var showsTimes = false
    /// The wall clock's seconds since 1970 at ``now``: with it, the text shows each state's time
    /// of day (UTC) too.
    public var wallClockNow: Int64?

    public init(stack: UndoStack, now: UInt64) {
        current = Int(stack.currentState)
        self.now = now
        let formatter = stack.formatter
        nodes = stack.tree.map { node in
            // An unnamed state's name is empty here, and named in the reader's language when shown.
            Node(id: Int(node.id), parent: Int(node.parent), name: node.name.flatMap(formatter.displayName) ?? "",
                 document: node.context.name, time: node.time, branch: node.branch, isApplied: node.isApplied,
                 isCurrent: node.isCurrent, wasSaved: node.wasSaved, description: node.description,
                 isSavePoint: node.isSavePoint, isNextRedo: node.isNextRedo,
                 text: formatter.historyText(name: node.name, description: node.description) ?? "")
        }
    }

    /// Keeps a document's own states (`tree --doc`): `states`, those
    /// ``UndoStack/documentStates(of:)`` lists and `earlier --doc`/`later --doc` go through (its
    /// steps and the groups that changed it; neither a document move's step nor a copy). Each
    /// hangs under the nearest state before it that is kept (0: the start), so the drawing is that
    /// document's own tree, and `current` (``UndoStack/documentState(of:)``) is marked current.
    /// - Complexity: O(states), each state's nearest kept ancestor found once.
    public mutating func keepOnly(states: Set<Int>, current: Int) {
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var nearest: [Int: Int] = [0: 0]
        func nearestKept(_ start: Int) -> Int {
            var chain: [Int] = []
            var id = start
            while nearest[id] == nil, let node = byID[id] {
                if states.contains(id) { nearest[id] = id; break }
                chain.append(id)
                id = node.parent
            }
            let found = nearest[id] ?? 0
            for passed in chain { nearest[passed] = found }
            return found
        }
        self.current = current
        nodes = nodes.compactMap { node in
            guard states.contains(node.id) else { return nil }
            var kept = node
            kept.parent = nearestKept(node.parent)
            kept.isCurrent = node.id == current
            return kept
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
        // A branch is a line from the start to a state with none after it: counted in the drawing
        // itself, as a document's own tree (``keepOnly(states:current:)``) hangs states of several
        // branches of the whole history in one line.
        let branches = nodes.count { children[$0.id] == nil }
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
        let shown = node.map { $0.text.isEmpty ? words.unnamed : $0.text.escapedForOneLine } ?? words.start
        var text = prefix + (isCurrent ? "@ " : "o ") + String(id) + "  " + shown
        var notes: [String] = []
        if let node {
            if namesDocuments { notes.append(node.document.isEmpty ? words.global : node.document.escapedForOneLine) }
            if showsTimes { notes.append(words.ago(seconds: (now >= node.time ? now - node.time : 0) / 1_000_000_000)) }
            if let wallClockNow { notes.append(Self.timeOfDay(wallClockNow - Int64((now >= node.time ? now - node.time : 0) / 1_000_000_000))) }
            if node.isSavePoint { notes.append(words.saved) } else if node.wasSaved { notes.append(words.wasSaved) }
            if node.isNextRedo { notes.append(words.nextRedo) }
        }
        if isCurrent { notes.append(words.current) }
        if !notes.isEmpty { text += "  (" + notes.joined(separator: ", ") + ")" }
        let onTheWay = id == 0 || node?.isApplied == true
        return onTheWay ? text : style.dimmed(text)
    }

    /// "14:05:09": the time of day, UTC, of `seconds` since 1970.
    static func timeOfDay(_ seconds: Int64) -> String {
        let day = ((seconds % 86400) + 86400) % 86400
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return two(day / 3600) + ":" + two(day / 60 % 60) + ":" + two(day % 60) + " UTC"
    }

    /// "4s ago", "3m ago", "2h ago", "1d ago" (``SessionText/ago(seconds:)``).
    static func age(_ nanoseconds: UInt64, words: SessionText = .english) -> String {
        words.ago(seconds: nanoseconds / 1_000_000_000)
    }

    /// The tree in Graphviz's DOT language (`dot -Tsvg`): a box per state, an arrow from each to
    /// the states that follow it; the way to the current state bold, the current state filled,
    /// the saved states with a double border (gray when saved before and not now).
    public var dot: String {
        var lines = ["digraph history {", "    rankdir=TB;", "    node [shape=box, fontname=\"Helvetica\"];"]
        lines.append("    s0 [label=\"0 Start\"\(current == 0 ? ", style=filled, fillcolor=lightblue" : "")];")
        for node in nodes {
            var attributes = ["label=\"\(node.id) \(Self.escaped(node.name.isEmpty ? SessionText.english.unnamed : node.name))\(node.document.isEmpty ? "" : "\\n" + Self.escaped(node.document))\""]
            if node.isCurrent { attributes.append("style=filled, fillcolor=lightblue") }
            if node.isSavePoint { attributes.append("peripheries=2") } else if node.wasSaved { attributes.append("peripheries=2, color=gray") }
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
                         ("saved", .bool(node.wasSaved)), ("savedNow", .bool(node.isSavePoint)),
                         ("redo", .bool(node.isNextRedo)), ("text", .string(node.text))])
            })),
        ])
    }
}
