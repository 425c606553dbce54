import Glibc
import UndoCore
import UndoPluginHost

// The four anchor workloads through the plugin path: every change is an action of a real
// shared object (libUndoBenchCounterPlugin.so, Plugins/BenchCounter) that the PluginHost loads
// with its loader and calls as it calls every plugin (direct, or through ffi_call with
// UNDOHOST_PLUGIN_CALLS=libffi), recorded as PluginCommand steps in the host's shared
// history. Same definitions, checks and `ops` as CoreWorkloads; the model (the counter, the
// typed document) lives in the plugin and is read back with describe() for the checks.
// Actions are resolved once by id (`PluginHost.actionType(_:)`) and performed as resolved action
// types (`PluginHost.perform(_:_:in:)` with an `ActionType`), as a program that performs the
// same action many times would; the arguments are still checked on every call.

enum PluginWorkloads {
    static let pluginID = "org.undohost.bench"
    static let pluginFile = "libUndoBenchCounterPlugin.so"
    static let typingContext = UndoContext("typing")

    /// A host with the benchmark plugin loaded, found like the bundled plugins: next to this
    /// program, or in the folders of $UNDOHOST_PLUGIN_PATH.
    /// `isolated`: the plugin runs in a process of its own (PluginIsolation, issue 31), so
    /// every call is a round trip to undo-plugin-runner (the plugin-isolated-* rows).
    static func makeHost(_ stack: UndoStack = UndoStack(), isolated: Bool = false) throws -> PluginHost {
        let host = PluginHost(history: SharedUndoHistory(stack))
        if isolated { host.isolation = PluginIsolation() }
        let folders = PluginHost.bundledPluginFolders
        for folder in folders {
            let path = folder + "/" + pluginFile
            if access(path, R_OK) == 0 {
                try host.load(file: path)
                return host
            }
        }
        throw BenchError("\(pluginFile) not found in \(folders); build it with "
                         + "`swift build -c release --product UndoBenchCounterPlugin` (same scratch path)")
    }

    /// The counter, as the plugin describes it in `context` (any but "typing").
    static func counter(_ host: PluginHost, in context: UndoContext = .global) throws -> Int64 {
        let text = try host.describe(context, plugin: pluginID)
        guard let value = Int64(text) else { throw BenchError("bad counter description: \(text)") }
        return value
    }

    /// pushundoredo: as CoreWorkloads.pushUndoRedo, each step a bench.add call.
    /// `document`: every step in that context instead of the global one, as undo-host makes
    /// them (the plugin-pushundoredo-doc row): the document is made the current context first,
    /// as undo-host does when one is opened, so undo and redo act on it.
    static func pushUndoRedo(_ n: Int, isolated: Bool = false, in document: UndoContext? = nil) throws -> BenchResult {
        let name = document != nil ? "plugin-pushundoredo-doc" : isolated ? "plugin-isolated-pushundoredo" : "plugin-pushundoredo"
        var result = BenchResult(workload: name, n: n, ops: 3 * n)
        var host: PluginHost! = try makeHost(isolated: isolated)
        result.noteRoute(of: host)
        let add = try host.actionType("bench.add")
        let context = document ?? .global
        if let document { try host.setCurrentContext(document) }
        let heapBefore = heapInUse()

        var clock = Stopwatch()
        for i in 0..<n {
            try host.perform(add, argument: .i64(Int64(i % 7 + 1)), in: context)
        }
        result.pushMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0
        let afterPush = try counter(host, in: context)
        // Every step is in the document: none in the global context (when it is another).
        let inContext = host.history.withStack { $0.canUndo(in: context) && (document == nil || !$0.canUndo(in: .global)) }

        _ = clock.lap()
        for _ in 0..<n { try host.undo() }
        result.undoMs = clock.lap()
        let afterUndo = try counter(host, in: context)

        _ = clock.lap()
        for _ in 0..<n { try host.redo() }
        result.redoMs = clock.lap()

        let want = expectedSum(n, modulus: 7)
        let afterRedo = try counter(host, in: context)
        let (count, position) = host.history.withStack { ($0.count, $0.undoCount) }
        result.ok = afterPush == want && afterUndo == 0 && afterRedo == want && count == n && position == n
            && inContext == (n > 0)
        result.totalMs = result.pushMs + result.undoMs + result.redoMs

        _ = clock.lap()
        host = nil
        result.freeMs = clock.lap()
        return result
    }

    /// typing: as CoreWorkloads.typing, each keystroke a bench.type call with one character
    /// in the "typing" context; the host joins a run into one step by appending (the action
    /// type declares UNDO_MERGE_BY_APPEND): every keystroke is made a step and performed, and
    /// the ordinary merge appends its text to the run's step. The history
    /// has no coalescing window (runs end on the explicit break every 100 characters).
    static func typing(_ n: Int, isolated: Bool = false) throws -> BenchResult {
        var result = BenchResult(workload: isolated ? "plugin-isolated-typing" : "plugin-typing", n: n, ops: 3 * n)
        result.extra = [("coalescing_window", "none")]
        var host: PluginHost! = try makeHost(UndoStack(coalescingWindow: nil), isolated: isolated)
        result.noteRoute(of: host)
        let type = try host.actionType("bench.type")
        let letters = (0..<26).map { ActionValue.string(String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0)))) }
        let heapBefore = heapInUse()

        var clock = Stopwatch()
        do {
            // Keystroke i types letters[i % 26]; the letter and the run's length are counted
            // along instead of divided out.
            let plugins: PluginHost = host
            var letter = 0
            var typedInRun = 0
            for _ in 0..<n {
                try plugins.perform(type, argument: letters[letter], in: typingContext)
                letter = letter == 25 ? 0 : letter + 1
                typedInRun += 1
                if typedInRun == 100 {
                    plugins.history.withStack { $0.breakCoalescing() }
                    typedInRun = 0
                }
            }
        }
        result.pushMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0
        let pushOK = try host.describe(typingContext, plugin: pluginID).utf8.count == n

        let steps = host.history.withStack { $0.undoCount }
        _ = clock.lap()
        for _ in 0..<steps { try host.undo() }
        result.undoMs = clock.lap()
        let undoOK = try host.describe(typingContext, plugin: pluginID).isEmpty

        _ = clock.lap()
        for _ in 0..<steps { try host.redo() }
        result.redoMs = clock.lap()

        let text = Array(try host.describe(typingContext, plugin: pluginID).utf8)
        var contentOK = text.count == n
        for i in 0..<n where contentOK {
            contentOK = text[i] == UInt8(ascii: "a") + UInt8(i % 26)
        }
        result.ok = pushOK && undoOK && contentOK && host.history.withStack { $0.count } == (n + 99) / 100
        result.totalMs = result.pushMs + result.undoMs + result.redoMs

        _ = clock.lap()
        host = nil
        result.freeMs = clock.lap()
        return result
    }

    /// macro: as CoreWorkloads.macro, groups of 10 bench.add calls.
    static func macro(_ requested: Int) throws -> BenchResult {
        let groups = requested / 10
        let n = groups * 10
        var result = BenchResult(workload: "plugin-macro", n: n, ops: 3 * n)
        var host: PluginHost! = try makeHost()
        result.noteRoute(of: host)
        let add = try host.actionType("bench.add")
        let heapBefore = heapInUse()

        var clock = Stopwatch()
        for group in 0..<groups {
            try host.history.withStack { try $0.beginGroup(named: "Macro") }
            for child in 0..<10 {
                let i = group * 10 + child
                try host.perform(add, argument: .i64(Int64(i % 7 + 1)))
            }
            try host.history.withStack { try $0.endGroup() }
        }
        result.pushMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0
        let afterPush = try counter(host)

        _ = clock.lap()
        for _ in 0..<groups { try host.undo() }
        result.undoMs = clock.lap()
        let afterUndo = try counter(host)

        _ = clock.lap()
        for _ in 0..<groups { try host.redo() }
        result.redoMs = clock.lap()

        let want = expectedSum(n, modulus: 7)
        let afterRedo = try counter(host)
        let (count, position) = host.history.withStack { ($0.count, $0.undoCount) }
        result.ok = afterPush == want && afterUndo == 0 && afterRedo == want
            && count == groups && position == groups
        result.totalMs = result.pushMs + result.undoMs + result.redoMs

        _ = clock.lap()
        host = nil
        result.freeMs = clock.lap()
        return result
    }

    /// labels: as CoreWorkloads.labels; the four names are the plugin's four action types, and
    /// the titles come from the shared history's undoMenuTitle / redoMenuTitle.
    static func labels(_ n: Int) throws -> BenchResult {
        let walk = n / 2
        var result = BenchResult(workload: "plugin-labels", n: n, ops: 2 * walk)
        var host: PluginHost! = try makeHost()
        result.noteRoute(of: host)
        let actions = try ["bench.add", "bench.move", "bench.delete", "bench.rename"].map { try host.actionType($0) }
        let heapBefore = heapInUse()

        var clock = Stopwatch()
        for i in 0..<n {
            try host.perform(actions[i % 4], argument: .i64(Int64(i % 4 + 1)))
        }
        result.pushMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0

        var sums = LabelSums()
        do {
            // Constants: the optional `host` variable, captured, would be checked for exclusive
            // access on every read.
            let plugins: PluginHost = host
            let history = plugins.history
            _ = clock.lap()
            for _ in 0..<walk {
                try plugins.undo()
                history.withStack { sums.add($0.undoMenuTitle, $0.redoMenuTitle) }
            }
            result.undoMs = clock.lap()
            for _ in 0..<walk {
                try plugins.redo()
                history.withStack { sums.add($0.undoMenuTitle, $0.redoMenuTitle) }
            }
            result.redoMs = clock.lap()
        }

        let want = LabelWalk.expected(n)
        let finalCounter = try counter(host)
        result.ok = sums.lengthSum == want.lengthSum && sums.lastCharacterSum == want.lastCharacterSum
            && finalCounter == expectedSum(n, modulus: 4) && host.history.withStack { $0.undoCount } == n
        result.totalMs = result.undoMs + result.redoMs

        _ = clock.lap()
        host = nil
        result.freeMs = clock.lap()
        return result
    }
}

extension BenchResult {
    /// Records how the host calls the plugin: `calls=direct` or `calls=libffi` after the
    /// line, and `impl=undohost-libffi` for the second (UNDOHOST_PLUGIN_CALLS=libffi).
    mutating func noteRoute(of host: PluginHost) {
        let route = host.callRoute
        extra.append(("calls", route.rawValue))
        if route == .libffi { impl = "undohost-libffi" }
    }
}

/// A failure of the benchmark itself (not of a check).
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
