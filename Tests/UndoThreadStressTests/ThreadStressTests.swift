import Foundation
import Testing
import UndoCore
import UndoPluginHost
import UndoTestSupport

/// Several threads performing, undoing, redoing and reading titles at once, across the C
/// plugins and the Swift plugin, in several contexts of one PluginHost and its shared history.
///
/// Afterwards the history must be intact (`checkInvariants`), undoing everything must empty
/// every document, and redoing what was done must bring back exactly what each document showed.
/// The same suite runs under ThreadSanitizer (scripts/sanitizers.sh tsan), which must report
/// nothing. UNDOHOST_STRESS_ROUNDS sets the operations per worker thread (default 2000).
@Suite(.serialized)
struct ThreadStressTests {
    static let workerCount = 6
    static let rounds = ProcessInfo.processInfo.environment["UNDOHOST_STRESS_ROUNDS"].flatMap(Int.init) ?? 2000

    static let plugins = ["org.undohost.text", "org.undohost.canvas", "org.undohost.notes"]

    @Test func threadsShareOneHistoryAcrossPluginsAndContexts() throws {
        let host = try StressFixtures.makeHost()
        let failures = FailureLog()
        let observed = Counter()
        let observation = host.history.withStack { stack in
            stack.observe { state, _ in
                // Observers run on the changing thread with the history locked.
                if state.position > state.count { failures.add("observer: position \(state.position) > count \(state.count)") }
                observed.increment()
            }
        }
        defer { host.history.withStack { _ in observation.cancel() } }

        let contexts = (0..<Self.workerCount).map { UndoContext("doc-\($0)") } + [UndoContext.global]
        let workersLeft = Counter(Self.workerCount)
        var threads: [() -> Void] = (0..<Self.workerCount).map { index in
            {
                var worker = StressWorker(host: host, index: index, contexts: contexts, failures: failures)
                worker.run(rounds: Self.rounds)
                workersLeft.decrement()
            }
        }
        // The reader and the loader keep going while any worker runs.
        threads.append { StressReader(host: host, contexts: contexts, failures: failures).run(while: workersLeft) }
        threads.append { StressLoader(host: host, failures: failures).run(while: workersLeft) }
        runConcurrently(threads)

        #expect(failures.all.isEmpty, "\(failures.all.prefix(20).joined(separator: "\n"))")
        #expect(observed.value > 0)
        host.history.withStack { $0.checkInvariants() }
        #expect(!host.plugins.contains { $0.id == StressLoader.pluginID }, "the loader thread unloads its plugin at the end")

        // Undo everything: every document is empty again. Redo what was done: each shows what it
        // showed before, and the titles are back too (steps that were undone stay redoable).
        let before = try documents(host, contexts)
        let titlesBefore = host.history.withStack { [$0.undoMenuTitle(in: nil), $0.redoMenuTitle(in: nil)] }
        let (stepCount, doneCount) = host.history.withStack { ($0.count, $0.undoCount) }
        #expect(doneCount > 0)
        try host.history.withStack { stack in
            while try stack.undo(in: nil) != nil {}
            stack.checkInvariants()
            #expect(stack.undoCount == 0 && stack.count == stepCount)
        }
        for (key, shown) in try documents(host, contexts) {
            #expect(shown == "", "\(key) after undoing everything: \(shown.debugDescription)")
        }
        try host.history.withStack { stack in
            for _ in 0..<doneCount {
                let redone = try stack.redo(in: nil)
                #expect(redone != nil)
            }
            stack.checkInvariants()
            #expect(stack.undoCount == doneCount && stack.count == stepCount)
        }
        #expect(try documents(host, contexts) == before)
        #expect(host.history.withStack { [$0.undoMenuTitle(in: nil), $0.redoMenuTitle(in: nil)] } == titlesBefore)
    }

    /// What each plugin shows for each context, keyed "plugin context".
    private func documents(_ host: PluginHost, _ contexts: [UndoContext]) throws -> [String: String] {
        var shown: [String: String] = [:]
        for plugin in Self.plugins {
            for context in contexts {
                shown["\(plugin) \(context.name)"] = try host.describe(context, plugin: plugin)
            }
        }
        return shown
    }
}

/// Starts every body on its own thread at the same moment and waits for all of them.
func runConcurrently(_ bodies: [() -> Void]) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for body in bodies {
        done.enter()
        // Thread rather than a dispatch queue: each body gets a thread of its own even on a
        // machine with fewer cores than bodies.
        nonisolated(unsafe) let body = body
        let thread = Thread {
            start.wait()
            body()
            done.leave()
        }
        thread.stackSize = 4 << 20
        thread.start()
    }
    for _ in bodies { start.signal() }
    done.wait()
}

/// One worker: performs into its own document and the shared global one, undoes and redoes
/// (the newest step anywhere, or its own document's), groups steps, saves and reverts.
struct StressWorker {
    let host: PluginHost
    let index: Int
    let contexts: [UndoContext]
    let failures: FailureLog
    var random: SplitMix64
    var nextShape: UInt64

    init(host: PluginHost, index: Int, contexts: [UndoContext], failures: FailureLog) {
        self.host = host
        self.index = index
        self.contexts = contexts
        self.failures = failures
        random = SplitMix64(seed: UInt64(index) &* 0x9E37_79B9 &+ 1)
        nextShape = UInt64(index) * 1_000_000
    }

    var ownContext: UndoContext { contexts[index] }

    mutating func run(rounds: Int) {
        for round in 0..<rounds {
            let context = random.next(4) == 0 ? UndoContext.global : ownContext
            switch random.next(14) {
            case 0, 1, 2: perform(randomAction(), in: context)
            case 3: perform(randomAction(), in: ownContext)
            case 4, 5: move { try $0.undo(in: nil) }
            case 6: move { try $0.redo(in: nil) }
            case 7: move { [own = ownContext] in try $0.undo(in: own) }
            case 8: move { [own = ownContext] in try $0.redo(in: own) }
            case 9: group(in: context)
            case 10:
                // Through the host's own undo, which maps plugin failures.
                do { try host.undo() } catch { failures.add("worker \(index): host.undo failed: \(error)") }
            case 11: saveOrRevert()
            case 12: host.history.withStack { _ = $0.undoMenuTitle; _ = $0.alert; _ = $0.steps.count }
            default: host.history.withStack { $0.breakCoalescing() }
            }
            if round % 50 == 0 { host.history.withStack { $0.checkInvariants() } }
        }
    }

    /// An action of one of the three plugins with valid arguments (it may still fail, for
    /// example deleting from an empty text: that must change nothing).
    mutating func randomAction() -> (String, [ActionValue]) {
        switch random.next(9) {
        case 0, 1: return ("text.insert", [.i64(0), .string(["a", "bc", "é", "👍🏽", " "][random.next(5)])])
        case 2: return ("text.delete", [.i64(0), .i64(1)])
        case 3: return ("text.bold", [.i64(0), .i64(1)])
        case 4:
            nextShape += 1
            return ("canvas.add", [.u64(nextShape), .string("rect"), .f64(1), .f64(2), .f64(3), .f64(4), .u32(0xFF)])
        case 5: return ("canvas.move", [.u64(nextShape), .f64(1), .f64(-1)])
        case 6: return ("notes.write", [.string("note \(index)"), .i32(Int32(random.next(5)))])
        case 7: return ("notes.prioritize", [.u32(0), .i32(Int32(random.next(5)))])
        default: return ("notes.erase", [.u32(0)])
        }
    }

    func perform(_ action: (String, [ActionValue]), in context: UndoContext) {
        do {
            try host.perform(action.0, action.1, in: context)
        } catch {
            // A plugin may refuse (nothing to delete here): that is fine and changes nothing.
            // Anything else (a busy history, a re-entrant call) is a failure of the host.
            guard case .actionFailed = error else { return failures.add("worker \(index): \(action.0) failed: \(error)") }
        }
    }

    /// An undo or redo on the shared stack: with consistent documents it never fails.
    func move(_ body: (UndoStack) throws -> UndoResult?) {
        do {
            _ = try host.history.withStack(body)
        } catch {
            failures.add("worker \(index): undo or redo failed: \(error)")
        }
    }

    /// A group of two steps, opened and closed while holding the history, so other threads
    /// never see it open.
    mutating func group(in context: UndoContext) {
        let first = randomAction()
        let second = randomAction()
        do {
            try host.history.withStack { stack in
                try stack.beginGroup(named: "Batch \(index)", context: context)
                defer {
                    do { try stack.endGroup() } catch { failures.add("worker \(index): endGroup failed: \(error)") }
                }
                perform(first, in: context)
                perform(second, in: ownContext)
            }
        } catch {
            failures.add("worker \(index): beginGroup failed: \(error)")
        }
    }

    mutating func saveOrRevert() {
        do {
            try host.history.withStack { [ownContext] stack in
                if stack.isDirty(ownContext) && random.next(2) == 0 {
                    if stack.canRevertToSaved(ownContext) { _ = try stack.revertToSaved(ownContext) }
                } else {
                    try stack.markSaved(ownContext)
                    if stack.isDirty(ownContext) { failures.add("worker \(index): dirty right after markSaved") }
                }
            }
        } catch {
            failures.add("worker \(index): save or revert failed: \(error)")
        }
    }
}

/// Reads titles, the alert, the step list and every document while the workers change them.
struct StressReader {
    let host: PluginHost
    let contexts: [UndoContext]
    let failures: FailureLog

    func run(while workersLeft: Counter) {
        var round = 0
        while workersLeft.value > 0 {
            round += 1
            let context = contexts[round % contexts.count]
            let (undoTitle, redoTitle, alert, steps, count) = host.history.withStack {
                ($0.undoMenuTitle(in: context), $0.redoMenuTitle(in: context), $0.alert(in: context), $0.steps, $0.count)
            }
            if !undoTitle.hasPrefix("Undo") || !redoTitle.hasPrefix("Redo") {
                failures.add("reader: titles \(undoTitle.debugDescription) / \(redoTitle.debugDescription)")
            }
            if alert.actions.last?.kind != .cancel { failures.add("reader: alert without Cancel last") }
            if steps.count != count { failures.add("reader: \(steps.count) steps listed of \(count)") }
            for plugin in ThreadStressTests.plugins {
                do {
                    _ = try host.describe(context, plugin: plugin)
                } catch {
                    failures.add("reader: describe \(plugin) \(context.name) failed: \(error)")
                }
            }
            _ = host.plugins.map(\.id)
            _ = host.actionTypes.count
        }
    }
}

/// Loads and unloads a fourth plugin while the others are in use, performing with it in
/// between: its steps join the history and leave it on unload.
struct StressLoader {
    static let pluginID = "org.undohost.bench"
    let host: PluginHost
    let failures: FailureLog

    func run(while workersLeft: Counter) {
        var round = 0
        while workersLeft.value > 0 {
            round += 1
            do {
                try host.load(file: StressFixtures.benchCounter)
                for amount in 1...5 {
                    try host.perform(Self.pluginID + "/add", [.i64(Int64(amount))], in: UndoContext("bench-\(round % 2)"))
                }
                try host.unload(Self.pluginID)
            } catch {
                failures.add("loader: round \(round): \(error)")
                _ = try? host.unload(Self.pluginID)
            }
        }
    }
}

enum StressFixtures {
    /// The build products folder, where SwiftPM puts the plugins.
    static let products = BuildProducts.folder

    /// The benchmark's counter plugin (not a bundled plugin, so not loaded by folder).
    static let benchCounter: String = {
        let names = ["libUndoBenchCounterPlugin.so", "libUndoPluginBenchCounter.so"]
        let found = names.first { FileManager.default.fileExists(atPath: products + "/" + $0) }
        return products + "/" + (found ?? names[0])
    }()

    /// A host with the two C sample plugins and the Swift one; no coalescing time limit, so a
    /// slow (sanitized) run coalesces like a fast one.
    static func makeHost() throws -> PluginHost {
        let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil)), log: { _ in })
        for plugin in ["TextEditor", "Canvas", "SwiftNotes"] {
            try host.load(file: products + "/libUndoPlugin\(plugin).so")
        }
        return host
    }
}

/// Failures seen on other threads, reported by the test thread (issues recorded off the
/// test's own task would not be attributed to it).
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    var all: [String] { lock.withLock { messages } }
    func add(_ message: String) { lock.withLock { messages.append(message) } }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int
    init(_ count: Int = 0) { self.count = count }
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
    func decrement() { lock.withLock { count -= 1 } }
}

/// A small, seeded generator, so a failing interleaving's choices can be replayed.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
