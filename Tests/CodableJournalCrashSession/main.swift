#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCodableJournal
import UndoCore

// The process the crash test (Tests/UndoCodableJournalTests/CrashTests.swift) kills: it makes a
// scripted session through an UndoStackJournal and writes a line after every change the journal
// acknowledged, so the test knows which changes a reopened journal must hold.
//
//   crash-session reference COUNT SEED [--contexts] [--reverts]
//       the session in memory, without a journal: "change K TIMELESS STEP" for the start (K = 0)
//       and after each change
//   crash-session run PATH full|normal COUNT SEED [KILL_AFTER] [--contexts] [--reverts]
//       opens (replays) the journal: "restored N TIMELESS FULL"; then makes changes N+1 … COUNT:
//       "change K TIMELESS FULL" after each; with KILL_AFTER, sends itself SIGKILL right after
//       acknowledging that many changes. TIMELESS and FULL are digests of the documents and the
//       history, FULL with each step's time.

/// Writes a line straight to the file descriptor: a line written is never lost in a buffer
/// when the process is killed.
func emit(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { exit(3) }
            offset += written
        }
    }
}

func fail(_ message: String) -> Never {
    var line = "crash-session: " + message + "\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}

// --contexts, --reverts: two documents, reverts to saved (see CrashScript).
let extras = CrashScript.Extras(rawValue: (CommandLine.arguments.contains("--contexts") ? CrashScript.Extras.contexts.rawValue : 0)
    | (CommandLine.arguments.contains("--reverts") ? CrashScript.Extras.reverts.rawValue : 0))
let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--contexts" && $0 != "--reverts" }
func number(_ index: Int) -> Int {
    guard index < arguments.count, let value = Int(arguments[index]), value >= 0 else { fail("bad arguments: \(arguments)") }
    return value
}

do {
    switch arguments.first {
    case "reference":
        let count = number(1), seed = UInt64(number(2))
        let documents = Documents()
        let stack = UndoStack(coalescingWindow: nil)
        emit("change 0 \(CrashScript.digest(stack, documents, withTimes: false)) start")
        for index in 1...count {
            let step = CrashScript.step(index, seed: seed, stack: stack, documents: documents, extras: extras)
            do { try CrashScript.apply(step, to: stack, documents) } catch { fail("change \(index) (\(step)): \(error)") }
            emit("change \(index) \(CrashScript.digest(stack, documents, withTimes: false)) \(step)")
        }
    case "run":
        guard arguments.count >= 5, let durability = UndoStackJournal.Durability(rawValue: arguments[2]) else {
            fail("bad arguments: \(arguments)")
        }
        let count = number(3), seed = UInt64(number(4))
        let killAfter = arguments.count > 5 ? number(5) : nil
        let documents = Documents()
        let journal = try UndoStackJournal(path: arguments[1], durability: durability,
                                           commands: [TypeText.self, DeleteText.self], model: documents,
                                           makeStack: { UndoStack(coalescingWindow: nil, clock: $0) })
        let stack = journal.stack
        emit("restored \(journal.restoredCount) \(CrashScript.digest(stack, documents, withTimes: false)) "
             + CrashScript.digest(stack, documents, withTimes: true))
        var made = 0
        for index in stride(from: journal.restoredCount + 1, through: count, by: 1) {
            let step = CrashScript.step(index, seed: seed, stack: stack, documents: documents, extras: extras)
            do { try CrashScript.apply(step, to: journal, documents) } catch { fail("change \(index) (\(step)): \(error)") }
            emit("change \(index) \(CrashScript.digest(stack, documents, withTimes: false)) "
                 + CrashScript.digest(stack, documents, withTimes: true))
            made += 1
            if made == killAfter { kill(getpid(), SIGKILL) }
        }
    default:
        fail("usage: crash-session reference COUNT SEED | run PATH full|normal COUNT SEED [KILL_AFTER]")
    }
} catch {
    fail("\(error)")
}
