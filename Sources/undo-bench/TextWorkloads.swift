import Glibc
import UndoCore
import UndoPluginHost

// The real-text row (docs/performance.md, "Real text"): a person's editing replayed through the
// bundled text editor plugin (libUndoPluginTextEditor.so, Plugins/TextEditor) with text.insert
// and text.delete, beside the synthetic workloads, whose counter plugin does next to nothing per
// call. The trace is generated here, of the shape of the public automerge-paper trace (259,778
// edits of a paper: about 70% one-character inserts in typing runs, 30% one-character deletes
// in backspace runs, the cursor jumping between runs, about 105,000 characters at the end), so
// nothing is fetched and every run replays the same edits.

enum TextWorkloads {
    static let pluginFile = "libUndoPluginTextEditor.so"
    static let context = UndoContext("paper")
    /// The length of the automerge-paper trace, the default.
    static let paperEdits = 259_778

    /// One edit: a character typed at `position`, or (`character` nil) the one at `position`
    /// deleted.
    struct Edit {
        var position: Int
        var character: UInt8?
    }

    /// `n` edits of the paper trace's shape, and the text they leave. Deterministic (a fixed
    /// xorshift seed). Runs: typing runs of 1-20 characters, backspace runs of 1-8; before a
    /// run the cursor jumps anywhere in the text one time in four, else stays where the last
    /// run left it. Typing runs start about half of the time, so about 70% of the edits insert.
    /// - Complexity: O(n × text length) (the model text is an array).
    static func trace(_ n: Int) -> (edits: [Edit], text: [UInt8]) {
        var random = Xorshift(seed: 0x9E37_79B9_7F4A_7C15)
        var edits: [Edit] = []
        edits.reserveCapacity(n)
        var text: [UInt8] = []
        var cursor = 0
        var typed = 0
        while edits.count < n {
            if random.next(4) == 0 { cursor = random.next(text.count + 1) }
            let typing = text.isEmpty || random.next(100) < 48
            var run = typing ? 1 + random.next(20) : 1 + random.next(8)
            while run > 0 && edits.count < n {
                if typing {
                    // Words of letters between spaces, as prose is.
                    let character = typed % 7 == 6 ? UInt8(ascii: " ") : UInt8(ascii: "a") + UInt8(random.next(26))
                    text.insert(character, at: cursor)
                    edits.append(Edit(position: cursor, character: character))
                    cursor += 1
                    typed += 1
                } else {
                    guard cursor > 0 else { break }
                    cursor -= 1
                    text.remove(at: cursor)
                    edits.append(Edit(position: cursor, character: nil))
                }
                run -= 1
            }
        }
        return (edits, text)
    }

    /// A host with the text editor loaded (found like the bundled plugins).
    static func makeHost() throws -> PluginHost {
        let host = PluginHost(history: SharedUndoHistory(UndoStack()))
        for folder in PluginHost.bundledPluginFolders where access(folder + "/" + pluginFile, R_OK) == 0 {
            try host.load(file: folder + "/" + pluginFile)
            return host
        }
        throw BenchError("\(pluginFile) not found in \(PluginHost.bundledPluginFolders); build it with "
                         + "`swift build -c release --product UndoPluginTextEditor` (same scratch path)")
    }

    /// text: replays `n` edits (each a text.insert or text.delete call in the "paper" context,
    /// typing coalesced by the history as an editor's is), then undoes every step and redoes
    /// every step. ops = n + 2 × steps. Besides the anchors' fields: the steps, ns per edit,
    /// per undo and per redo, and the heap per edit and per step.
    static func run(_ n: Int) throws -> BenchResult {
        let (edits, want) = trace(n)
        var result = BenchResult(workload: "text", n: n, ops: n)
        var host: PluginHost! = try makeHost()
        result.noteRoute(of: host)
        let insert = try host.actionType("text.insert")
        let delete = try host.actionType("text.delete")
        // The arguments made before the clock starts, as an editor has its keystroke at hand.
        let characters = (0..<256).map { ActionValue.string(String(UnicodeScalar(UInt8($0)))) }
        let heapBefore = heapInUse()

        var clock = Stopwatch()
        do {
            let plugins: PluginHost = host
            for edit in edits {
                if let character = edit.character {
                    try plugins.perform(insert, [.i64(Int64(edit.position)), characters[Int(character)]], in: context)
                } else {
                    try plugins.perform(delete, [.i64(Int64(edit.position)), .i64(1)], in: context)
                }
            }
        }
        result.pushMs = clock.lap()
        let heap = Double(heapInUse() - heapBefore)
        let wantText = String(decoding: want, as: UTF8.self)
        let pushOK = try host.describe(context, plugin: "org.undohost.text") == wantText

        let steps = host.history.withStack { $0.undoCount }
        _ = clock.lap()
        for _ in 0..<steps { try host.undo() }
        result.undoMs = clock.lap()
        let undoOK = try host.describe(context, plugin: "org.undohost.text").isEmpty

        _ = clock.lap()
        for _ in 0..<steps { try host.redo() }
        result.redoMs = clock.lap()
        let redoOK = try host.describe(context, plugin: "org.undohost.text") == wantText

        result.ok = pushOK && undoOK && redoOK && steps > 0 && host.history.withStack { $0.count } == steps
        result.ops = n + 2 * steps
        result.totalMs = result.pushMs + result.undoMs + result.redoMs
        result.heapBytesPerN = n > 0 ? heap / Double(n) : 0
        result.extra += [
            ("steps", "\(steps)"), ("chars", "\(want.count)"),
            ("ns_per_edit", fixed(n > 0 ? result.pushMs * 1e6 / Double(n) : 0, 1)),
            ("ns_per_undo", fixed(steps > 0 ? result.undoMs * 1e6 / Double(steps) : 0, 1)),
            ("ns_per_redo", fixed(steps > 0 ? result.redoMs * 1e6 / Double(steps) : 0, 1)),
            ("heap_bytes_per_step", fixed(steps > 0 ? heap / Double(steps) : 0, 1)),
        ]

        _ = clock.lap()
        host = nil
        result.freeMs = clock.lap()
        return result
    }
}

/// A small deterministic generator (xorshift64*): the trace is the same on every run.
struct Xorshift {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 1 : seed }

    /// A number in `0..<bound` (`bound` > 0).
    mutating func next(_ bound: Int) -> Int {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Int((state &* 0x2545_F491_4F6C_DD1D) >> 33) % bound
    }
}
