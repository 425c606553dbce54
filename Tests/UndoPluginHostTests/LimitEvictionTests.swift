import Foundation
import Testing
import UndoCore
@testable import UndoPluginHost

/// Count and memory limits that evict steps while a group is open, or while steps of several
/// documents interleave, with the real sample plugins: two text documents and a drawing. The
/// same session runs with and without limits, in step:
///   - after every operation the documents and their dirty flags are the same, and the limited
///     history is a run of consecutive steps of the unlimited one (eviction only ever takes the
///     oldest steps, or the farthest redo steps);
///   - at the end, undoing everything left one step at a time passes through exactly the first
///     states the unlimited history passes through, then redoing comes back the same way; the
///     same for undoing one document at a time.
@Suite struct LimitEvictionTests {
    static let text = "org.undohost.text"
    static let canvas = "org.undohost.canvas"
    static let shown = [(text, "one.txt"), (text, "two.txt"), (canvas, "drawing")]

    static func type(_ text: String, at position: Int64, _ context: String) -> SessionOperation {
        .perform("text.insert", [.i64(position), .string(text)], in: context)
    }
    static func add(_ id: UInt64, _ kind: String) -> SessionOperation {
        .perform("canvas.add", [.u64(id), .string(kind), .f64(0), .f64(0), .f64(10), .f64(10), .u32(0)], in: "drawing")
    }
    static func move(_ id: UInt64, _ dx: Double) -> SessionOperation {
        .perform("canvas.move", [.u64(id), .f64(dx), .f64(-dx)], in: "drawing")
    }

    /// The session for a configuration: its limits, tightened while groups are open (down to
    /// one step at one point), then back.
    static func script(_ limits: Limits) -> [SessionOperation] {
        let tighter = SessionOperation.setLimits(count: limits.count.map { max(1, $0 - 1) }, memory: limits.memory.map { $0 * 2 / 3 })
        let back = SessionOperation.setLimits(count: limits.count, memory: limits.memory)
        return [
            type("Hello", at: 0, "one.txt"),
            type("Dear", at: 0, "two.txt"),
            add(1, "rect"),
            type(" world", at: 5, "one.txt"),
            type(" friend", at: 4, "two.txt"),
            move(1, 3), move(1, 4),                        // merge into one move
            .markSaved("one.txt"),
            .beginGroup("Layout"),                         // a group over all three documents
            .perform("text.bold", [.i64(0), .i64(5)], in: "one.txt"),
            add(2, "ellipse"),
            type("!", at: 11, "two.txt"),
            tighter,                                       // evicts while the group is open
            move(2, 1),
            .perform("canvas.recolor", [.u64(1), .u32(0xFF0000)], in: "drawing"),
            .beginGroup("Inner"),
            .perform("text.delete", [.i64(0), .i64(2)], in: "two.txt"),
            type("ab", at: 0, "two.txt"),
            .endGroup,
            .endGroup,                                     // may be over the memory limit by itself
            back,
            type("x", at: 0, "one.txt"),
            add(3, "line"),
            type("y", at: 0, "two.txt"),
            type("z", at: 1, "one.txt"),
            .undo(2),
            .redo(1),
            type("w", at: 0, "two.txt"),                   // ends two.txt's redo
            .perform("text.italic", [.i64(0), .i64(3)], in: "one.txt"),
            .perform("canvas.remove", [.u64(2)], in: "drawing"),
            .undoIn("one.txt"),
            .beginGroup("Late"),
            type("q", at: 0, "one.txt"), move(3, 2),
            .setLimits(count: 1, memory: nil),             // only the newest step is kept
            type("r", at: 0, "two.txt"),
            .endGroup,
            back,
            // Steps of one document each, interleaved, for undoing one document at a time.
            move(3, 1), type("s", at: 0, "one.txt"), add(4, "rect"), type("t", at: 0, "two.txt"),
            .breakCoalescing,
            type("u", at: 0, "one.txt"), .perform("canvas.recolor", [.u64(4), .u32(0xFF)], in: "drawing"),
            .perform("text.bold", [.i64(0), .i64(2)], in: "two.txt"), .breakCoalescing,
            type("v", at: 0, "one.txt"), move(4, 5), type("w", at: 0, "two.txt"),
            .perform("text.delete", [.i64(0), .i64(1)], in: "one.txt"),
            .perform("canvas.remove", [.u64(1)], in: "drawing"),
        ]
    }

    struct Limits: Sendable, CustomStringConvertible {
        var count: Int?
        var memory: Int?
        var description: String { "count \(count.map(String.init) ?? "none"), memory \(memory.map(String.init) ?? "none")" }
    }

    /// Each keeps room for what the script's undo and redo take back (two steps), so that the
    /// limited session never undoes less than the unlimited one.
    static let configurations = [Limits(count: 2, memory: 700), Limits(count: 3), Limits(count: 8), Limits(memory: 900), Limits(count: 6, memory: 1500)]

    func session(_ limits: Limits?) throws -> ScriptedSession {
        try ScriptedSession(plugins: [Fixtures.textEditor, Fixtures.canvas], shown: Self.shown,
                            countLimit: limits?.count, memoryLimit: limits?.memory)
    }

    @Test(arguments: configurations)
    func evictionLeavesAHistoryThatStillUndoes(_ limits: Limits) throws {
        let limited = try session(limits)
        let unlimited = try session(nil)
        var evicted = 0
        var evictedWhileGrouped = false
        let script = Self.script(limits)
        for (index, operation) in script.enumerated() {
            let label = "operation \(index) (\(operation))"
            // The unlimited history keeps every step, so it stands for the session itself.
            if !operation.changesLimits {
                #expect(unlimited.apply(operation) == nil, "\(label) failed without limits")
            }
            let before = try limited.snapshot()
            #expect(limited.apply(operation) == nil, "\(label) failed with limits")
            let (now, reference) = (try limited.snapshot(), try unlimited.snapshot())
            #expect(now.documents == reference.documents, "\(label): the documents differ")
            #expect(now.dirty == reference.dirty, "\(label): the dirty flags differ")
            let serials = now.steps.map(\.serial)
            let all = reference.steps.map(\.serial)
            let start = all.firstIndex(of: serials.first ?? 0) ?? 0
            #expect(serials.isEmpty || Array(all.dropFirst(start).prefix(serials.count)) == serials,
                    "\(label): the limited history is not a run of the full one:\n\(now)\n---\n\(reference)")
            #expect(now.steps.allSatisfy { step in reference.steps.contains { $0.serial == step.serial && $0.isApplied == step.isApplied } })
            let gone = before.steps.filter { old in !now.steps.contains { $0.serial == old.serial } && reference.steps.contains { $0.serial == old.serial } }
            evicted += gone.count
            if !gone.isEmpty && now.groupDepth > 0 { evictedWhileGrouped = true }
        }
        #expect(evicted > 0)
        #expect(evictedWhileGrouped)
        #expect(try limited.snapshot().steps.count <= limits.count ?? .max)

        let limitedTrace = try limited.undoAndRedoEverything()
        let fullTrace = try unlimited.undoAndRedoEverything()
        let undone = limitedTrace.count / 2
        #expect(limitedTrace.count == 2 * undone)
        #expect(Array(limitedTrace.prefix(undone)) == Array(fullTrace.prefix(undone)),
                "undoing the limited history went elsewhere")
        let final = try session(nil)
        for operation in script where !operation.changesLimits { final.apply(operation) }
        let current = try final.documentStates()
        #expect(Array(limitedTrace.suffix(undone)) == Array((limitedTrace.prefix(undone).dropLast().reversed() + [current])),
                "redoing did not come back the same way")
    }

    /// Undoing one document at a time, in the limited and the unlimited history.
    @Test(arguments: configurations)
    func evictionLeavesEachDocumentUndoable(_ limits: Limits) throws {
        var undone = 0
        for document in ["one.txt", "two.txt", "drawing"] {
            var traces: [[[String]]] = []
            for sessionLimits in [limits, nil] {
                let session = try session(sessionLimits)
                for operation in Self.script(limits) where sessionLimits != nil || !operation.changesLimits {
                    session.apply(operation)
                }
                var trace: [[String]] = []
                let context = UndoContext(document)
                while session.host.history.withStack({ $0.canUndo(in: context) }) {
                    try session.host.history.withStack { _ = try $0.undo(in: context) }
                    trace.append(try session.documentStates())
                }
                _ = try session.snapshot() // the invariants
                traces.append(trace)
            }
            #expect(traces[0] == Array(traces[1].prefix(traces[0].count)), "\(document) (\(limits))")
            undone += traces[0].count
        }
        #expect(undone >= 2)
    }
}

extension SessionOperation {
    var changesLimits: Bool {
        if case .setLimits = self { true } else { false }
    }
}
