import Glibc
import FoundationEssentials
import UndoCodableJournal
import UndoCore

// An app's own history kept in SQLite (UndoCodableJournal): changes written per second in each
// durability mode, and the time to reopen a journal of N changes (replaying them all).

enum CodableJournalWorkloads {
    /// The model: a running total the journaled commands add to.
    final class Total { var value: Int64 = 0 }

    /// Adds an amount to the total (the journal keeps the amount, never the model).
    struct Add: UndoJournaledCommand {
        static let journalName = "bench.add"
        let total: Total
        let amount: Int64

        init(_ total: Total, _ amount: Int64) {
            self.total = total
            self.amount = amount
        }

        enum CodingKeys: CodingKey { case amount }

        init(from decoder: any Decoder) throws {
            total = try decoder.journalModel(Total.self)
            amount = try decoder.container(keyedBy: CodingKeys.self).decode(Int64.self, forKey: .amount)
        }

        func perform(_ changes: inout UndoChanges) throws { total.value += amount }
        func undo(_ changes: inout UndoChanges) throws { total.value -= amount }
    }

    /// Writes `n` changes (every tenth an undo, the next a redo of it) to a new journal.
    /// - Returns: the total after them, and the milliseconds the writing took.
    static func write(_ n: Int, to path: String, durability: UndoStackJournal.Durability) throws -> (Int64, Double) {
        let total = Total()
        let journal = try UndoStackJournal(path: path, durability: durability, commands: [Add.self], model: total)
        var clock = Stopwatch()
        for i in 0..<n {
            switch i % 10 {
            case 8: try journal.undo()
            case 9: try journal.redo()
            default: try journal.perform(Add(total, Int64(i % 7 + 1)))
            }
        }
        let milliseconds = clock.lap()
        journal.close()
        return (total.value, milliseconds)
    }

    /// The total after `write(n, …)`: the performs' amounts, less the one an undo left undone at the end.
    static func expectedTotal(_ n: Int) -> Int64 {
        var total: Int64 = 0
        for i in 0..<n where i % 10 < 8 { total += Int64(i % 7 + 1) }
        if n % 10 == 9 { total -= Int64((n - 2) % 7 + 1) }
        return total
    }

    /// codable-journal: N changes written in `normal`, min(N, 2000) in `full` (each synced,
    /// so a full-size run would measure the disk for minutes), then the N-change journal
    /// reopened, which replays every change. total_ms is the reopening; the rates are extra fields.
    static func run(_ n: Int) throws -> BenchResult {
        var result = BenchResult(workload: "codable-journal", n: n, ops: n)
        var template = Array("/tmp/undo-bench-journal-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer {
            for name in ["normal.sqlite", "full.sqlite"] {
                for suffix in ["", "-wal", "-shm"] { unlink(folder + "/" + name + suffix) }
            }
            rmdir(folder)
        }
        let fullCount = min(n, 2000)
        let (fullTotal, fullMs) = try write(fullCount, to: folder + "/full.sqlite", durability: .full)
        let (normalTotal, normalMs) = try write(n, to: folder + "/normal.sqlite", durability: .normal)
        result.pushMs = normalMs

        let reopened = Total()
        let heapBefore = heapInUse()
        var clock = Stopwatch()
        var journal: UndoStackJournal! = try UndoStackJournal(path: folder + "/normal.sqlite", durability: .normal,
                                                              commands: [Add.self], model: reopened)
        result.undoMs = clock.lap()
        result.heapBytesPerN = n > 0 ? Double(heapInUse() - heapBefore) / Double(n) : 0
        let restored = journal.restoredCount
        journal = nil
        result.freeMs = clock.lap()
        result.totalMs = result.undoMs

        result.ok = restored == n && reopened.value == normalTotal && normalTotal == expectedTotal(n)
            && fullTotal == expectedTotal(fullCount)
        func perSecond(_ count: Int, _ milliseconds: Double) -> String {
            fixed(milliseconds > 0 ? Double(count) * 1000 / milliseconds : 0, 0)
        }
        result.extra = [("reopen_ms", fixed(result.undoMs, 3)),
                        ("normal_changes_per_s", perSecond(n, normalMs)),
                        ("full_changes", "\(fullCount)"), ("full_changes_per_s", perSecond(fullCount, fullMs))]
        return result
    }
}
