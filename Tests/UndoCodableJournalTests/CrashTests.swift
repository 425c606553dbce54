import Foundation
import Testing
import UndoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The crash test: a scripted session of several hundred changes (typing that coalesces, inserts
/// and deletes, groups ended and cancelled, undos and redos, branches, moves by state and by
/// save, saves, a count limit that evicts) is made through an `UndoStackJournal` in a child
/// process (Tests/CodableJournalCrashSession), which is killed with SIGKILL, reopened, resumed
/// and killed again, over and over. After each kill the journal must reopen to exactly the
/// documents and history of the last change the process acknowledged — times included — or,
/// when the kill came between writing a change and printing its acknowledgement, to those of
/// that next change; never anything else. Every state is compared with a reference run of the
/// same script on an `UndoStack` in memory, with no journal.
@Suite("History journal: SIGKILL at hundreds of points")
struct CrashTests {
    /// The child, built into the products folder.
    static var executable: String { BuildProducts.path("CodableJournalCrashSession") }

    /// One line of the child: `restored N TIMELESS FULL` or `change K TIMELESS FULL`.
    struct Report {
        var restored: Bool
        var sequence: Int
        var timeless: String
        var full: String

        init?(_ line: Substring) {
            let fields = line.split(separator: " ")
            guard fields.count >= 3, fields[0] == "restored" || fields[0] == "change", let sequence = Int(fields[1]) else {
                return nil
            }
            restored = fields[0] == "restored"
            self.sequence = sequence
            timeless = String(fields[2])
            full = fields.count > 3 ? String(fields[3]) : ""
        }
    }

    /// The child, its output read line by line.
    final class Child {
        let process = Process()
        private let output = Pipe()
        private var buffer = Data()

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: CrashTests.executable)
            process.arguments = arguments
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// The next line, or `nil` at the end of the output.
        func readLine() -> Substring? {
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return Substring(line)
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
            }
        }

        /// Every line up to the end of the output.
        func remainingLines() -> [Substring] {
            var lines: [Substring] = []
            while let line = readLine() { lines.append(line) }
            return lines
        }
    }

    /// The reference: the script on an `UndoStack` in memory; element k is the state after change
    /// k (0: the start).
    static func reference(count: Int, seed: UInt64, extras: [String]) throws -> [String] {
        let child = try Child(["reference", "\(count)", "\(seed)"] + extras)
        let reports = child.remainingLines().compactMap(Report.init)
        child.process.waitUntilExit()
        #expect(child.process.terminationStatus == 0)
        #expect(reports.map(\.sequence) == Array(0...count))
        return reports.map(\.timeless)
    }

    @Test("Killed at hundreds of points, the journal reopens to the last acknowledged change",
          arguments: [("full", 800, 11 as UInt64, [String]()), ("normal", 450, 12 as UInt64, []),
                       // Two documents switched between, and reverts to saved.
                       ("normal", 450, 13 as UInt64, ["--contexts", "--reverts"])])
    func killedAtManyPoints(durability: String, count: Int, seed: UInt64, extras: [String]) throws {
        // A kill point: the change acknowledged last before a kill; each run adds a new one. On a
        // loaded machine a child goes further before the test's kill lands, so the session has
        // room for three times the changes and stops once it has the kill points it needs.
        let wanted = durability == "full" ? 200 : 100
        let count = count * 3
        let reference = try Self.reference(count: count, seed: seed, extras: extras)
        let path = JournalFiles.newPath()
        var random = seed
        func next(_ bound: Int) -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int((random >> 33) % UInt64(bound))
        }
        // The last change acknowledged, and its full digest (the state with the steps' times).
        var acknowledged = 0
        var acknowledgedDigest: String?
        var killPoints = Set<Int>()
        var runs = 0
        var killedItself = false
        while true {
            runs += 1
            // Odd runs kill themselves right after acknowledging 1…4 changes: a kill between
            // changes. Even runs are killed by the test once it has read 1…4 acknowledgements,
            // while the child goes on: a kill anywhere, often inside the next write.
            let selfKill = runs % 2 == 1
            let quota = 1 + next(4)
            let child = try Child(["run", path, durability, "\(count)", "\(seed)"] + (selfKill ? ["\(quota)"] : []) + extras)
            guard let first = child.readLine().flatMap(Report.init), first.restored else {
                Issue.record("run \(runs): the journal did not reopen")
                return
            }
            // Reopened: to the last acknowledged change, or (killed between writing a change and
            // acknowledging it) to that next one; exactly the reference's state.
            let lost = first.sequence < acknowledged
            #expect(!lost, "run \(runs): reopened at change \(first.sequence), but \(acknowledged) was acknowledged")
            #expect(first.sequence <= acknowledged + 1,
                    "run \(runs): reopened at change \(first.sequence), beyond the one in flight after \(acknowledged)")
            #expect(first.timeless == reference[first.sequence],
                    "run \(runs): the state reopened at change \(first.sequence) is not the reference's")
            if first.sequence == acknowledged, let acknowledgedDigest {
                #expect(first.full == acknowledgedDigest,
                        "run \(runs): change \(acknowledged) reopened with other times or history than it was made with")
            }
            if killedItself {
                #expect(first.sequence == acknowledged, "run \(runs): a change never started came back")
            }
            if lost || first.sequence > acknowledged + 1 { return }
            acknowledged = first.sequence
            acknowledgedDigest = first.full
            if acknowledged == count || killPoints.count >= wanted { break }

            var lines: [Substring] = []
            if selfKill {
                lines = child.remainingLines()
            } else {
                while lines.count < quota, let line = child.readLine() { lines.append(line) }
                kill(child.process.processIdentifier, SIGKILL)
                lines += child.remainingLines()
            }
            child.process.waitUntilExit()
            let reports = lines.compactMap(Report.init)
            #expect(reports.map(\.sequence) == Array((acknowledged + 1)..<(acknowledged + 1 + reports.count)))
            for report in reports where report.timeless != reference[report.sequence] {
                Issue.record("run \(runs): change \(report.sequence) made a state other than the reference's")
            }
            if let last = reports.last {
                acknowledged = last.sequence
                acknowledgedDigest = last.full
            }
            killedItself = selfKill
            if acknowledged < count {
                #expect(child.process.terminationReason == .uncaughtSignal && child.process.terminationStatus == SIGKILL,
                        "run \(runs) ended without being killed")
                killPoints.insert(acknowledged)
            }
        }
        #expect(killPoints.count >= wanted, "\(killPoints.count) kill points in \(acknowledged) changes")
        print("crash test (\(durability) \(extras.joined(separator: " "))): \(acknowledged) of \(count) changes, \(runs) runs, "
              + "\(killPoints.count) kill points")
    }
}
