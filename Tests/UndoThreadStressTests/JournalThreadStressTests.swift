import Foundation
import Testing
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost
import UndoTestSupport

/// Checkpoints taken while other threads perform, undo and redo through a journaled host: every
/// change is kept once, in the checkpoint or after it, so the journal reopens to the documents
/// and the history the threads left. Runs under ThreadSanitizer too (scripts/sanitizers.sh tsan).
@Suite(.serialized)
struct JournalThreadStressTests {
    static let workerCount = 3
    static let rounds = (ProcessInfo.processInfo.environment["UNDOHOST_STRESS_ROUNDS"].flatMap(Int.init) ?? 2000) / 5

    @Test(arguments: JournalDurability.allCases)
    func checkpointsRaceNoChange(durability: JournalDurability) throws {
        let folder = try TemporaryFolder("stress")
        defer { withExtendedLifetime(folder) {} }  // removed at the end, with the journal's -wal and -shm
        let path = folder.path("stress.undojournal")
        let host = try StressFixtures.makeHost()
        // Full durability syncs every change: fewer rounds keep the test short.
        let rounds = durability == .full ? Self.rounds / 10 : Self.rounds
        let journal = try HostJournal.open(path: path, durability: durability, host: host)
        let failures = FailureLog()
        let workersLeft = Counter(Self.workerCount)
        let checkpoints = Counter()
        var threads: [() -> Void] = (0..<Self.workerCount).map { index in
            {
                let context = UndoContext("doc-\(index)")
                for round in 0..<rounds {
                    do {
                        switch round % 5 {
                        case 3: try host.undo(count: 1, in: context)
                        case 4: try host.redo(count: 1, in: context)
                        default:
                            try host.breakCoalescing()
                            try host.perform("text.insert", [.i64(0), .string("\(index)")], in: context)
                        }
                    } catch {
                        failures.add("worker \(index) round \(round): \(error)")
                    }
                }
                workersLeft.decrement()
            }
        }
        threads.append {
            while workersLeft.value > 0 {
                do {
                    try journal.checkpoint()
                    checkpoints.increment()
                } catch {
                    failures.add("checkpoint: \(error)")
                }
            }
        }
        runConcurrently(threads)
        #expect(failures.all.isEmpty, "\(failures.all.prefix(10).joined(separator: "\n"))")
        #expect(checkpoints.value > 0)
        let contexts = (0..<Self.workerCount).map { UndoContext("doc-\($0)") }
        func seen(_ host: PluginHost) throws -> [String] {
            try contexts.map { try host.describe($0, plugin: "org.undohost.text") }
                + [host.history.withStack { "\($0.tree.map(\.id)) \($0.currentState)" }]
        }
        let before = try seen(host)
        journal.close()
        let reopenedHost = try StressFixtures.makeHost()
        let reopened = try HostJournal.open(path: path, durability: durability, host: reopenedHost)
        #expect(reopened.restoredCheckpoint != nil)
        #expect(try seen(reopenedHost) == before)
        reopenedHost.history.withStack { $0.checkInvariants() }
        reopened.close()
    }
}
