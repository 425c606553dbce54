import Glibc
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost

// Journaled changes per second (HostJournal, docs/reliability.md) beside the in-memory history:
// N bench.add actions of the benchmark plugin into a history without a journal, with a journal
// in `normal` durability (group commit) and in `full` (a sync per change; at most 2,000 of
// them, as each waits for the disk); then the normal journal reopened (every change replayed)
// and its counter checked; then checkpointed (the 10^5 steps and the counter's bytes written,
// the changes dropped) and reopened from the checkpoint (no step run again).

enum JournalWorkloads {
    /// Prints one line per mode; false when a check failed.
    static func run(_ n: Int) throws -> Bool {
        let folder = "/tmp/undo-bench-journal-\(getpid())"
        mkdir(folder, 0o700)
        defer {
            for name in ["normal", "full"] {
                for suffix in ["", "-wal", "-shm"] { unlink(folder + "/" + name + suffix) }
            }
            rmdir(folder)
        }
        let want = expectedSum(n, modulus: 7)
        var ok = true

        let memory = try measure(n, journal: nil)
        print("journal mode=memory n=\(n) changes_per_s=\(Int(memory.rate))")
        ok = ok && memory.counter == want

        let normal = try measure(n, journal: (folder + "/normal", .normal))
        var stopwatch = Stopwatch()
        let (host, clock) = try makeHost()
        let reopened = try HostJournal.open(path: folder + "/normal", durability: .normal, host: host, clock: clock)
        let reopenMs = stopwatch.lap()
        let restoredCounter = try PluginWorkloads.counter(host)
        print("journal mode=normal n=\(n) changes_per_s=\(Int(normal.rate)) reopen_ms=\((reopenMs * 10).rounded() / 10)"
              + " restored=\(reopened.restoredCount)")
        ok = ok && normal.counter == want && restoredCounter == want && reopened.restoredCount == n

        _ = stopwatch.lap()
        let checkpoint = try reopened.checkpoint()
        let checkpointMs = stopwatch.lap()
        reopened.close()
        let (fresh, freshClock) = try makeHost()
        _ = stopwatch.lap()
        let fromCheckpoint = try HostJournal.open(path: folder + "/normal", durability: .normal, host: fresh, clock: freshClock)
        let checkpointReopenMs = stopwatch.lap()
        let checkpointCounter = try PluginWorkloads.counter(fresh)
        let steps = fresh.history.withStack { $0.count }
        fromCheckpoint.close()
        print("journal mode=checkpoint n=\(n) steps=\(checkpoint.steps) checkpoint_ms=\((checkpointMs * 10).rounded() / 10)"
              + " reopen_ms=\((checkpointReopenMs * 10).rounded() / 10) replayed=\(fromCheckpoint.restoredCount)")
        ok = ok && checkpoint.steps == n && checkpointCounter == want && steps == n && fromCheckpoint.restoredCount == 0

        let fullCount = min(n, 2_000)
        let full = try measure(fullCount, journal: (folder + "/full", .full))
        print("journal mode=full n=\(fullCount) changes_per_s=\(Int(full.rate))")
        ok = ok && full.counter == expectedSum(fullCount, modulus: 7)
        return ok
    }

    static func makeHost() throws -> (PluginHost, JournalClock) {
        let clock = JournalClock()
        return (try PluginWorkloads.makeHost(UndoStack(clock: clock)), clock)
    }

    /// N changes (and, with a journal, its closing commit), timed.
    static func measure(_ n: Int, journal: (path: String, durability: JournalDurability)?) throws
        -> (rate: Double, counter: Int64)
    {
        let (host, clock) = try makeHost()
        let add = try host.actionType("bench.add")
        let opened = try journal.map { try HostJournal.open(path: $0.path, durability: $0.durability, host: host, clock: clock) }
        var stopwatch = Stopwatch()
        for i in 0..<n {
            try host.perform(add, argument: .i64(Int64(i % 7 + 1)))
        }
        opened?.close()
        let ms = stopwatch.lap()
        return (Double(n) / max(ms, 0.001) * 1000, try PluginWorkloads.counter(host))
    }
}
