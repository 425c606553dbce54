import UndoCore
import UndoPluginHost

/// What every test is given.
struct CheckSetup {
    var path: String
    var allowWritable: Bool
    /// Load the plugin isolated (`undo-host --isolate check`): a crash in a call is then that
    /// call's error, naming the action, in the test's report.
    var isolation: PluginIsolation? = nil
    /// The crashes of the test under way (set by ``CheckTest/result(_:)``).
    var crashes: CrashRecord? = nil
    var seed: UInt64
    /// Steps per random walk (`--steps`).
    var steps: Int

    func load() throws(CheckFailure) -> PluginUnderTest {
        try PluginUnderTest(path: path, allowWritable: allowWritable, isolation: isolation, crashes: crashes)
    }
}

/// One test of `undo-host check`: a name (`round-trip/move`) and what it does. Each runs in a
/// child process of its own unless `--in-process` is given.
struct CheckTest: Sendable {
    let name: String
    /// What it checks, for `--list`.
    let summary: String
    let run: @Sendable (CheckSetup, inout CheckRandom, CheckLog) throws -> Void

    /// The tests for a plugin, in the order they run: the per-action tests name its action types.
    static func tests(for plugin: PluginInfo) -> [CheckTest] {
        var tests: [CheckTest] = [descriptor, describe]
        for action in plugin.actionTypes {
            tests.append(roundTrip(action.localID))
        }
        for action in plugin.actionTypes where action.canMerge {
            tests.append(merge(action.localID))
        }
        tests += [badArguments, manyDocuments]
        if plugin.canSaveDocuments { tests.append(saveLoad) }
        if plugin.describesRanges && plugin.canDescribe { tests.append(describeRange) }
        tests += [loadUnload, threads]
        // Every test but the descriptor's performs actions: without any (the descriptor test
        // fails for it) they skip, saying why, rather than pick from nothing.
        if plugin.actionTypes.isEmpty { return [tests[0]] + tests.dropFirst().map(\.skippedForNoActions) }
        return tests
    }

    /// This test, skipped because the plugin registers no action type.
    var skippedForNoActions: CheckTest {
        CheckTest(name: name, summary: summary) { _, _, _ in
            throw CheckSkip(reason: "the plugin registers no action type: there is nothing to perform")
        }
    }

    /// Runs the test in this process.
    func result(_ setup: CheckSetup) -> CheckResult {
        var random = CheckRandom(seed: setup.seed, test: name)
        let log = CheckLog()
        var setup = setup
        let crashes = CrashRecord()
        setup.crashes = crashes
        let outcome: CheckResult
        do {
            try run(setup, &random, log)
            outcome = CheckResult(test: name, status: .passed, notes: log.notes, warnings: log.warnings)
        } catch let failure as CheckFailure {
            outcome = CheckResult(test: name, status: .failed, messages: [failure.message], notes: log.notes, warnings: log.warnings)
        } catch let skip as CheckSkip {
            outcome = CheckResult(test: name, status: .skipped, messages: [skip.reason], notes: log.notes, warnings: log.warnings)
        } catch let notRun as CheckNotRun {
            outcome = CheckResult(test: name, status: .notRun, messages: [notRun.reason], notes: log.notes, warnings: log.warnings)
        } catch {
            outcome = CheckResult(test: name, status: .failed, messages: ["\(error)"], notes: log.notes, warnings: log.warnings)
        }
        // A crash the test took for a refusal (an isolated plugin's call fails instead of ending
        // the process) fails it all the same, naming the call: also where the crash made the
        // action look like one that never succeeds (NOT RUN) or the test skip.
        if let crash = crashes.first, outcome.status != .failed {
            return CheckResult(test: name, status: .failed, messages: [crash], notes: log.notes, warnings: log.warnings)
        }
        return outcome
    }

    /// The action type of a per-action test.
    static func action(_ localID: String, of plugin: PluginUnderTest) throws -> ActionType {
        guard let action = plugin.info.actionTypes.first(where: { $0.localID == localID }) else {
            throw CheckFailure("the plugin has no action type \(localID) this time it was loaded")
        }
        return action
    }

    /// Documents with the names plugins get wrong: none, plain, non-ASCII, with a space.
    static let documentNames = ["", "doc", "d\u{F6}c \u{D55C}", "two words"]

    /// The note for a plugin without describe.
    static func noDescribeNote(_ what: String) -> String {
        "not compared: the plugin has no describe function, so \(what) only checked that every call succeeds or fails with a code from the table, not that documents are restored"
    }
}
