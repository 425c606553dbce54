import Foundation
import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// Fault injection: a scripted session with groups (nested, spanning documents), coalescing
/// runs, merges, an annulled merge, per-document undo, the save point and revert, and count and
/// memory limits (lowered while a group is open). For EVERY n, the session's n-th plugin call
/// (a perform, redo or inverse of the faults fixture) fails once, and then:
///   - the failing operation changed nothing: history, titles, dirty flags and every document
///     are as before it, and as in the same session without the fault;
///   - undoing everything left one step at a time, then redoing it all, passes each document
///     only through states it had in the session, exactly as the fault-free history does;
///   - in a second run, doing the failed operation again and finishing the session ends exactly
///     where the fault-free session ends (the failure left no hidden damage).
@Suite(.serialized) struct FaultInjectionTests {  // one test sets the environment the fixture reads
    typealias FailAt = @convention(c) (Int64) -> Void
    typealias Calls = @convention(c) () -> Int64
    typealias Fired = @convention(c) () -> Int32

    static let plugin = "org.undohost.test.faults"
    static let shown = [(plugin, "a"), (plugin, "b")]

    /// The history's limits at the start; the script lowers them to 3 steps and 1000 bytes
    /// while a group is open, then raises them to 9 and 3000, and the sweep runs once per
    /// configuration.
    struct Limits: Sendable, CustomStringConvertible {
        var count: Int?
        var memory: Int?
        var description: String { "count \(count.map(String.init) ?? "none"), memory \(memory.map(String.init) ?? "none")" }
    }
    static let configurations = [Limits(count: nil, memory: nil), Limits(count: 7, memory: 1700), Limits(count: 5, memory: 1200)]

    static func perform(_ action: String, _ text: String, _ context: String) -> SessionOperation {
        .perform("faults." + action, [.string(text)], in: context)
    }
    static func shift(_ delta: Int64, _ context: String) -> SessionOperation {
        .perform("faults.shift", [.i64(delta)], in: context)
    }

    static let script: [SessionOperation] = [
        perform("append", "Hel", "a"),
        perform("append", "lo", "a"),                  // merges into "Hello"
        perform("append", "x", "b"),
        shift(3, "a"),
        shift(-3, "a"),                                // annuls the shift before it
        shift(5, "a"),
        perform("mark", "p", "b"),
        perform("mark", "q", "b"),                     // a coalesced run (no merge)
        perform("mark", "r", "b"),
        .markSaved("a"),
        .beginGroup("Edit Both"),                      // a group spanning documents
        perform("append", " world", "a"),
        perform("replace", "B!", "b"),
        shift(2, "b"),
        shift(4, "b"),                                 // merges inside the group
        perform("mark", "g", "a"),
        .endGroup,
        .undo(1), .redo(1), .undo(3), .redo(3), .undo(2),
        .redoIn("b"),
        perform("append", "!", "a"),                   // ends the group's redo
        .undoIn("b"),
        shift(7, "b"),                                 // ends b's redo
        .breakCoalescing,
        shift(1, "b"),
        perform("replace", String(repeating: "long text ", count: 90), "a"),  // over the memory limit
        .revertToSaved("a"),
        .undo(1),                                      // undoes the revert
        .redo(1),
        .beginGroup("Outer"),
        perform("append", "1", "b"),
        .beginGroup("Inner"),
        perform("mark", "i", "a"),
        perform("replace", "inner", "b"),
        .endGroup,
        .setLimits(count: 2, memory: 1000),           // evicts while a group is open
        shift(-2, "a"),
        .endGroup,
        .setLimits(count: 9, memory: 3000),
        .markSaved("b"),
        .beginGroup("Tidy"),
        shift(10, "a"), perform("mark", "t", "a"), perform("replace", "tidy", "a"),
        .endGroup,
        .undo(1), .redo(1),
        perform("append", "c", "a"), perform("append", "d", "b"), perform("append", "e", "a"),
        .breakCoalescing,
        perform("append", "f", "a"), perform("mark", "m", "b"), perform("mark", "n", "b"),
        .undo(3), .redo(2),
        .revertToSaved("b"),
        .undo(2), .redo(2),
        perform("replace", "end", "b"),
        .undoIn("a"), .undoIn("a"),
        .undo(50), .redo(50),
    ]

    /// The session without faults: the snapshot before each operation (and after the last),
    /// the errors it met, and how many plugin calls it made.
    struct Reference {
        var snapshots: [HistorySnapshot] = []
        var errors: [Int: String] = [:]
        var calls: Int64 = 0
        /// Every state each document had, up to (and including) before operation k.
        func statesSeen(before k: Int) -> [Set<String>] {
            (0..<Self.width(snapshots)).map { index in Set(snapshots[0...k].map { $0.documents[index] }) }
        }
        static func width(_ snapshots: [HistorySnapshot]) -> Int { snapshots.first?.documents.count ?? 0 }
        /// The operations after which the oldest step was gone though nothing undid, reverted
        /// or annulled it: evicted by a limit.
        func evictions(in script: [SessionOperation]) -> [Int] {
            script.indices.filter { index in
                let (before, after) = (snapshots[index], snapshots[index + 1])
                guard before.steps.count >= 2, let oldest = before.steps.first, oldest.isApplied else { return false }
                switch script[index] {
                case .perform, .endGroup, .setLimits: return !after.steps.contains { $0.serial == oldest.serial }
                default: return false
                }
            }
        }
    }

    func makeSession(_ path: String, _ limits: Limits) throws -> ScriptedSession {
        try ScriptedSession(plugins: [path], shown: Self.shown, countLimit: limits.count, memoryLimit: limits.memory)
    }

    func reference(_ path: String, _ limits: Limits, failAt: FailAt, calls: Calls) throws -> Reference {
        let session = try makeSession(path, limits)
        failAt(0)
        var reference = Reference()
        for (index, operation) in Self.script.enumerated() {
            reference.snapshots.append(try session.snapshot())
            if let error = session.apply(operation) { reference.errors[index] = "\(error)" }
        }
        reference.snapshots.append(try session.snapshot())
        reference.calls = calls()
        return reference
    }

    /// The undo-everything/redo-everything trace of the fault-free session after `k` operations.
    func referenceTrace(_ path: String, _ limits: Limits, after k: Int) throws -> [[String]] {
        let session = try makeSession(path, limits)
        try Fixtures.function("faults_fail_at", in: path, as: FailAt.self)(0)
        for operation in Self.script.prefix(k) { session.apply(operation) }
        return try session.undoAndRedoEverything()
    }

    @Test(arguments: configurations)
    func everyFaultPointLeavesAHistoryThatStillUndoes(_ limits: Limits) throws {
        let path = try Fixtures.buildPlugin("faults.c")
        let result = try sweep(path, limits)
        let reference = result.reference

        // The script exercises what it claims to: a revert goes through, and with tight limits
        // another one finds its saved state dropped (changing nothing); the limits evict steps,
        // lowered while a group is open, and before that when the session starts with them;
        // groups and runs of several members; nothing else fails without a fault.
        // (A floor under the 90 to 94 calls it makes, by the limits; it made 102 to 106 before
        // issue 32's copies. Measured operation by operation: the two `undoIn("a")` near the end
        // pass b's steps, which stay as a branch and come back as copies; the limit of 9 steps
        // the script set counts them all, so the 4 oldest states go and the last `undo(50)` and
        // `redo(50)` run 4 and 5 calls instead of 9 and 11 — in every configuration, the
        // script's own limits ruling by then.)
        #expect(reference.calls >= 85, "only \(reference.calls) plugin calls")
        #expect(reference.snapshots.last!.steps.count <= 9)
        #expect(reference.snapshots.contains { $0.steps.contains { $0.name == "Revert to Saved" } })
        #expect(reference.errors.values.allSatisfy { $0.contains("can no longer be reached") },
                "the fault-free session failed: \(reference.errors)")
        if limits.count == nil { #expect(reference.errors.isEmpty) }
        let lowering = Self.script.firstIndex { if case .setLimits = $0 { true } else { false } }!
        let evictions = reference.evictions(in: Self.script)
        // (Unless the memory limit left no more than the new count: a revert holds its own
        // copies of the steps it took back, and with 1700 bytes it is all that is left.)
        #expect(evictions.contains(lowering) || reference.snapshots[lowering].steps.count <= 2)
        #expect(evictions.contains { $0 < lowering } == (limits.count != nil), "evictions at \(evictions)")
        #expect(reference.snapshots.contains { snapshot in snapshot.steps.contains { $0.memberCount > 1 } })

        #expect(result.faultPoints == Int(reference.calls))
        #expect(result.operationsHit.count > Self.script.count * 3 / 4, "faults hit only \(result.operationsHit.count) operations")
        #expect(result.problems.isEmpty, "\(result.problems.count) problems, the first: \(result.problems.prefix(5).joined(separator: "\n"))")
        print("fault injection (\(limits)): \(result.faultPoints) fault points in \(result.operationsHit.count) of \(Self.script.count) operations")
    }

    /// The same sweep against a plugin that breaks the contract (its append changes the text
    /// even when it then fails): the checks notice, at every fault in an append.
    @Test func theSweepCatchesAPluginThatChangesThingsBeforeFailing() throws {
        let path = try Fixtures.buildPlugin("faults.c", defines: ["FAULTS_SLOPPY_APPEND"])
        let result = try sweep(path, Self.configurations[0])
        #expect(result.problems.contains { $0.contains("faults.append") && $0.contains("changed the history") })
        #expect(result.problems.contains { $0.contains("retrying did not end like the reference") })
        #expect(result.problems.contains { $0.contains("a state it never had") })
    }

    /// Found by the test above: a redo that hands back a longer inverse argument (the document
    /// changed since) made the history's running cost drift from its steps' costs.
    @Test func aRedoWithOtherInverseArgumentsKeepsTheCostsInStep() throws {
        let path = try Fixtures.buildPlugin("faults.c", defines: ["FAULTS_SLOPPY_APPEND"])
        let session = try ScriptedSession(plugins: [path], shown: Self.shown, memoryLimit: 100_000)
        for operation in [Self.perform("append", "x", "a"), Self.perform("replace", "y", "a"), .undo(2), .redo(2), .undo(1), .redo(1)] {
            #expect(session.apply(operation) == nil)
            _ = try session.snapshot() // checks the invariants, the running cost among them
        }
        #expect(try session.documentStates()[0] == "y|0|")
    }

    struct SweepResult {
        var reference: Reference
        var faultPoints = 0
        var operationsHit = Set<Int>()
        /// What went wrong, one line each (collected, so a test can also expect some).
        var problems: [String] = []
    }

    /// Runs the session twice per fault point: run A checks the failure and undoes and redoes
    /// everything left, run B retries the failed operation and finishes the session.
    func sweep(_ path: String, _ limits: Limits) throws -> SweepResult {
        let failAt = try Fixtures.function("faults_fail_at", in: path, as: FailAt.self)
        let calls = try Fixtures.function("faults_calls", in: path, as: Calls.self)
        let fired = try Fixtures.function("faults_fired", in: path, as: Fired.self)
        var result = SweepResult(reference: try reference(path, limits, failAt: failAt, calls: calls))
        let reference = result.reference
        if ProcessInfo.processInfo.environment["UNDOHOST_SHOW_REFERENCE"] != nil {
            for (index, operation) in Self.script.enumerated() { print("\(operation)\n\(reference.snapshots[index + 1])") }
        }
        func check(_ condition: Bool, _ problem: @autoclosure () -> String) {
            if !condition { result.problems.append(problem()) }
        }

        var traces: [Int: [[String]]] = [:]
        for n in 1...reference.calls {
            // Run A: the failure, then undo and redo everything left.
            let session = try makeSession(path, limits)
            failAt(n)
            var failedAt: Int?
            for (index, operation) in Self.script.enumerated() {
                let before = try session.snapshot()
                let error = session.apply(operation)
                guard fired() != 0 else { continue }
                failedAt = index
                let label = "fault at call \(n), in operation \(index) (\(operation))"
                check(error.map { "\($0)".contains("injected fault at call \(n)") } == true,
                      "\(label): \(error.map { "\($0)" } ?? "no error")")
                let after = try session.snapshot()
                check(after == before, "\(label) changed the history:\nbefore:\n\(before)\nafter:\n\(after)")
                check(before == reference.snapshots[index], "\(label): the run went off the reference before the fault")
                if traces[index] == nil {
                    do {
                        traces[index] = try referenceTrace(path, limits, after: index)
                    } catch {
                        // Only a plugin that breaks the contract gets here: the fault-free
                        // session's own steps no longer undo.
                        result.problems.append("\(label): the fault-free history does not undo: \(error)")
                        traces[index] = []
                    }
                }
                let trace: [[String]]
                do {
                    trace = try session.undoAndRedoEverything()
                } catch {
                    result.problems.append("\(label): undoing and redoing everything failed: \(error)")
                    break
                }
                check(trace == traces[index], "\(label): undoing and redoing everything differs from the fault-free history")
                let seen = reference.statesSeen(before: index)
                for states in trace {
                    for (document, state) in states.enumerated() where !seen[document].contains(state) {
                        result.problems.append("\(label): document \(document) reached \(state.debugDescription), a state it never had")
                    }
                }
                if before.position == before.steps.count && before.groupDepth == 0 {
                    check(trace.last ?? before.documents == before.documents, "\(label): redoing everything did not come back")
                }
                break
            }
            guard let failedAt else {
                result.problems.append("call \(n) never came: the session is not deterministic")
                continue
            }
            result.faultPoints += 1
            result.operationsHit.insert(failedAt)

            // Run B: the same failure, then the operation again, and the rest of the session.
            let retry = try makeSession(path, limits)
            failAt(n)
            for (index, operation) in Self.script.enumerated() {
                let error = retry.apply(operation)
                if index == failedAt {
                    check(error != nil, "fault at call \(n): no error the second time")
                    check(retry.apply(operation) == nil, "fault at call \(n): retrying operation \(index) failed")
                }
            }
            check(try retry.snapshot() == reference.snapshots.last!, "fault at call \(n): retrying did not end like the reference")
        }
        return result
    }

    /// The fixture's environment variable arms the fault at init, for runs outside the tests.
    @Test func theEnvironmentArmsTheFault() throws {
        let path = try Fixtures.buildPlugin("faults.c")
        setenv("UNDOHOST_FAULT_AT", "2", 1)
        defer { unsetenv("UNDOHOST_FAULT_AT") }
        let session = try makeSession(path, Self.configurations[0])
        #expect(session.apply(Self.perform("append", "a", "a")) == nil)
        let error = session.apply(Self.perform("append", "b", "a"))
        #expect(error.map { "\($0)" } == "faults.append perform failed: injected fault at call 2 [UNDO_EPLUGIN]")
        #expect(try session.documentStates() == ["a|0|", "|0|"])
    }
}
