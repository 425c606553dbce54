import Foundation
import Testing
import UndoCore
import UndoTestSupport

/// Two undo-host processes creating one new journal at once: one owns it, the other is refused
/// as busy (or opens it after the first is done); neither leaves a file every later open
/// refuses as damaged.
@Suite struct JournalCreationRaceTests {
    static let plugins = ["libUndoPluginTextEditor.so"].flatMap {
        ["--plugins", UndoHostProcess.productsFolder.appendingPathComponent($0).path]
    }

    @Test("Two processes creating one journal at once never leave a damaged file", .timeLimit(.minutes(5)))
    func twoProcessesCreatingAtOnce() throws {
        let folder = try TemporaryFolder()
        for round in 0..<40 {
            let path = folder.url.appendingPathComponent("race-\(round).undojournal").path
            let outcomes = Locked<[UndoHostProcess.Outcome]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                if let outcome = try? UndoHostProcess.run(Self.plugins + ["--journal", path], input: "") {
                    outcomes.withLock { $0.append(outcome) }
                }
            }
            for outcome in outcomes.withLock({ $0 }) {
                #expect(!outcome.standardError.contains("damaged") && !outcome.standardError.contains("not an undo journal"),
                        "round \(round): \(outcome.standardError)")
                #expect(outcome.status == 0 || outcome.standardError.contains("already open"), "round \(round): \(outcome.standardError)")
            }
            let after = try UndoHostProcess.run(Self.plugins + ["--journal", path], input: "")
            #expect(after.status == 0, "round \(round): \(after.standardError)")
        }
    }
}
