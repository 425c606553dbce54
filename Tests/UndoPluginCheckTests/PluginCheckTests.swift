import Foundation
import Testing
import UndoTestSupport

/// `undo-host check` run as a plugin author runs it: the bundled plugins pass; every plugin of
/// the zoo (Fixtures/zoo.c, one mistake each) is caught by the test meant for its mistake.
@Suite struct PluginCheckTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let include = SourceTree.include

    /// Builds a fixture into `folder` (only this user may write there, as the host requires).
    static func build(_ source: String, defines: [String] = [], name: String, in folder: TemporaryFolder) throws -> String {
        let output = folder.url.appendingPathComponent(name + ".so").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-std=c99", "-shared", "-fPIC", "-I", include] + defines.map { "-D" + $0 }
            + ["-o", output, fixtures.appendingPathComponent(source).path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed for \(source) \(defines)")
        return output
    }

    static func privateFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.url.path)
        return folder
    }

    /// The names of the failed tests in check's text report.
    static func failed(_ outcome: UndoHostProcess.Outcome) -> [String] {
        outcome.lines.filter { $0.hasPrefix("  FAIL  ") }.map { String($0.dropFirst(8)) }
    }

    @Test func bundledPluginsPass() throws {
        let plugins = ["libUndoPluginTextEditor.so", "libUndoPluginCanvas.so", "libUndoPluginSwiftNotes.so"]
            .map { UndoHostProcess.productsFolder.appendingPathComponent($0).path }
        for seed in [1, 2, 3] {
            let outcome = try UndoHostProcess.run(["check", "--seed", String(seed),
                                                   "--timeout", String(Sanitizers.checkTimeout(30))] + plugins)
            #expect(outcome.status == 0, "seed \(seed):\n\(outcome.standardOutput)\(outcome.standardError)")
            #expect(outcome.lines.last?.hasPrefix("40 tests: 40 passed, 0 failed") == true, "\(outcome.lines.last ?? "")")
        }
    }

    @Test func theCorrectZooPluginPasses() throws {
        let folder = try Self.privateFolder()
        let plugin = try Self.build("zoo.c", name: "zoo", in: folder)
        let outcome = try UndoHostProcess.run(["check", "--seed", "5", plugin])
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        #expect(Self.failed(outcome).isEmpty)
    }

    @Test(arguments: [
        ("ZOO_INVERSE_FORGETS", "round-trip/set", "did not restore the state before the step"),
        ("ZOO_MERGE_DROPS", "merge/add", "did not restore"),
        ("ZOO_PERFORM_CRASHES", "round-trip/set", "crashed: the plugin killed the test's process with signal 11"),
        ("ZOO_PERFORM_HANGS", "round-trip/set", "hung: the test did not finish in 2 s"),
        ("ZOO_PERFORM_NOTHING", "round-trip/set", "reported success"),
        ("ZOO_DESCRIBE_GROWS", "describe", "asked for a"),
        ("ZOO_SHARED_STATE", "threads", "while another instance was called from another thread"),
    ])
    func eachZooMistakeIsCaughtByItsTest(define: String, test: String, message: String) throws {
        let folder = try Self.privateFolder()
        let plugin = try Self.build("zoo.c", defines: [define], name: define, in: folder)
        // Under AddressSanitizer (scripts/sanitizers.sh) the sanitizer would catch the crash and
        // exit instead: leave SIGSEGV to the process, as in an ordinary build.
        let environment = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map {
            ["ASAN_OPTIONS": $0 + ":handle_segv=0"]
        } ?? [:]
        let outcome = try UndoHostProcess.run(["check", "--seed", "1", "--timeout", "2", "--only", test, plugin],
                                              environment: environment)
        #expect(outcome.status == 1)
        #expect(Self.failed(outcome) == [test], "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains(message), "\(outcome.standardOutput)")
        // The other tests of a plugin that fails only in perform or merge still run.
        if define == "ZOO_MERGE_DROPS" || define == "ZOO_INVERSE_FORGETS" {
            let all = try UndoHostProcess.run(["check", "--seed", "1", "--filter", "descriptor", plugin])
            #expect(all.status == 0)
        }
    }

    /// `undo-host --isolate check` (issue 31): a plugin that crashes or hangs in a call is
    /// reported with the action and the arguments of that call, from its test's own process.
    @Test(arguments: [("ZOO_PERFORM_CRASHES", "SIGSEGV"), ("ZOO_PERFORM_HANGS", "watchdog")])
    func aCrashUnderIsolationNamesTheActionAndArguments(define: String, cause: String) throws {
        let folder = try Self.privateFolder()
        let plugin = try Self.build("zoo.c", defines: [define], name: define, in: folder)
        let outcome = try UndoHostProcess.run(["--isolate", "--plugin-watchdog", "500", "check", "--seed", "1",
                                               "--timeout", "20", "--only", "round-trip/set", plugin])
        #expect(outcome.status == 1)
        #expect(Self.failed(outcome) == ["round-trip/set"], "\(outcome.standardOutput)")
        for expected in ["UNDO_ECRASHED", cause, "zoo.set"] {
            #expect(outcome.standardOutput.contains(expected), "\(expected): \(outcome.standardOutput)")
        }
        #expect(outcome.standardOutput.contains("zoo.set ") || outcome.standardOutput.contains("zoo.set("),
                "the arguments: \(outcome.standardOutput)")
    }

    /// save-load (ABI 1.7): the correct zoo with save and load passes it; a load that loses
    /// the state or takes any bytes fails it; a descriptor with only save_document fails
    /// descriptor, and gets no save-load test.
    /// A plugin that registers no action type fails the descriptor test; the tests that
    /// perform actions skip, saying why (they used to pick from no actions and trap).
    @Test func aPluginWithoutActionsFailsOnceAndSkipsTheRest() throws {
        let folder = try Self.privateFolder()
        let plugin = try Self.build("zoo.c", defines: ["ZOO_NO_ACTIONS"], name: "empty", in: folder)
        let outcome = try UndoHostProcess.run(["check", "--seed", "3", plugin])
        #expect(outcome.status == 1)
        #expect(Self.failed(outcome) == ["descriptor"], "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("registers no action type"), "\(outcome.standardOutput)")
        #expect(!outcome.standardOutput.contains("crashed"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("there is nothing to perform"), "\(outcome.standardOutput)")
    }

    @Test func saveAndLoadMistakesAreCaught() throws {
        let folder = try Self.privateFolder()
        let correct = try Self.build("zoo.c", defines: ["ZOO_SAVES"], name: "saves", in: folder)
        let passed = try UndoHostProcess.run(["check", "--seed", "3", "--only", "save-load", correct])
        #expect(passed.status == 0, "\(passed.standardOutput)")
        #expect(passed.lines.contains("  pass  save-load"), "\(passed.standardOutput)")
        for (define, message) in [("ZOO_LOAD_LOSES", "loaded into a new document, the document is"),
                                  ("ZOO_LOAD_ANYTHING", "loading 32 random bytes succeeded")] {
            let plugin = try Self.build("zoo.c", defines: ["ZOO_SAVES", define], name: define, in: folder)
            let outcome = try UndoHostProcess.run(["check", "--seed", "1", "--only", "save-load", plugin])
            #expect(outcome.status == 1)
            #expect(Self.failed(outcome) == ["save-load"], "\(outcome.standardOutput)")
            #expect(outcome.standardOutput.contains(message), "\(outcome.standardOutput)")
        }
        let half = try Self.build("zoo.c", defines: ["ZOO_SAVES", "ZOO_ONLY_SAVE"], name: "half", in: folder)
        let outcome = try UndoHostProcess.run(["check", "--seed", "1", "--filter", "descriptor", half])
        #expect(Self.failed(outcome) == ["descriptor"], "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("sets only one of save_document and load_document"), "\(outcome.standardOutput)")
        let list = try UndoHostProcess.run(["check", "--list", half])
        #expect(!list.lines.contains("  save-load"))
    }

    /// describe-range (ABI 1.8): run only for a plugin with describe_range; the correct zoo
    /// passes it, one whose parts lose their last character fails it with the two views.
    @Test func describeRangeMistakesAreCaught() throws {
        let folder = try Self.privateFolder()
        let correct = try Self.build("zoo.c", defines: ["ZOO_RANGES"], name: "ranges", in: folder)
        let passed = try UndoHostProcess.run(["check", "--seed", "3", "--only", "describe-range", correct])
        #expect(passed.status == 0, "\(passed.standardOutput)")
        #expect(passed.lines.contains("  pass  describe-range"), "\(passed.standardOutput)")
        let short = try Self.build("zoo.c", defines: ["ZOO_RANGES", "ZOO_RANGE_SHORT"], name: "short", in: folder)
        let outcome = try UndoHostProcess.run(["check", "--seed", "1", "--only", "describe-range", short])
        #expect(outcome.status == 1)
        #expect(Self.failed(outcome) == ["describe-range"], "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("but describe shows"), "\(outcome.standardOutput)")
        let without = try Self.build("zoo.c", name: "without", in: folder)
        let list = try UndoHostProcess.run(["check", "--list", without])
        #expect(!list.lines.contains("  describe-range"))
    }

    /// The sample Canvas as it was: a move's inverse subtracted the move again, so moving by
    /// 1e16 from x = 1 undid to x = 0. The edge values find it (the fixed sample passes above).
    @Test func edgeValuesFindTheCanvasMoveThatSubtracts() throws {
        let folder = try Self.privateFolder()
        let plugin = try Self.build("canvas_subtracting_move.c", name: "canvas_subtracting_move", in: folder)
        for seed in [1, 2, 3] {
            let outcome = try UndoHostProcess.run(["check", "--seed", String(seed), "--filter", "move", plugin])
            #expect(outcome.status == 1)
            #expect(!Self.failed(outcome).isEmpty, "seed \(seed): \(outcome.standardOutput)")
            #expect(outcome.standardOutput.contains("1e+16"), "seed \(seed): \(outcome.standardOutput)")
        }
    }

    /// Style is a warning, not a failure: lower-case action names ("add card") pass, with a
    /// warning naming the title the host shows.
    @Test func lowerCaseNamesAreWarningsNotFailures() throws {
        let folder = try Self.privateFolder()
        let plugin = try Self.build("board.c", defines: ["BOARD_LOWERCASE_NAMES"], name: "lowercase", in: folder)
        let outcome = try UndoHostProcess.run(["check", "--seed", "1", "--only", "descriptor", plugin])
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        #expect(outcome.lines.contains("  pass  descriptor"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("warning: board.add name \"add card\": starts with a lowercase letter; "
                                                + "the host title-cases it in menus (\"Undo Add Card\")"), "\(outcome.standardOutput)")
        #expect(outcome.lines.last?.hasPrefix("1 tests: 1 passed, 0 failed, 0 skipped, 2 warnings") == true, "\(outcome.standardOutput)")
        let json = try UndoHostProcess.run(["check", "--json", "--seed", "1", "--only", "descriptor", plugin])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["warnings"] as? Int == 2)
        let tests = try #require(((object["plugins"] as? [[String: Any]])?.first?["tests"]) as? [[String: Any]])
        #expect((tests.first?["warnings"] as? [String])?.count == 2)
    }

    /// An action whose objects have ids no generated number finds (a board's cards, from #1000
    /// on) runs with ids read from describe; one that never succeeds is NOT RUN, not a pass.
    @Test func actionsRunWithValuesFromTheDocumentOrAreNotRun() throws {
        let folder = try Self.privateFolder()
        let board = try Self.build("board.c", name: "board", in: folder)
        for seed in ["1", "2", "3"] {
            let outcome = try UndoHostProcess.run(["check", "--seed", seed, "--only", "round-trip/move", board])
            #expect(outcome.status == 0, "seed \(seed): \(outcome.standardOutput)")
            #expect(outcome.lines.contains("  pass  round-trip/move"), "seed \(seed): \(outcome.standardOutput)")
            #expect(!outcome.standardOutput.contains("never succeeded"), "seed \(seed): \(outcome.standardOutput)")
        }
        let never = try Self.build("board.c", defines: ["BOARD_MOVE_NEVER"], name: "never", in: folder)
        let outcome = try UndoHostProcess.run(["check", "--seed", "1", "--filter", "round-trip", never])
        #expect(outcome.status == 1, "\(outcome.standardOutput)")
        #expect(outcome.lines.contains("  NOT RUN  round-trip/move"), "\(outcome.standardOutput)")
        #expect(outcome.lines.contains("  pass  round-trip/add"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("board.move never succeeded"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("moving is not written yet"), "\(outcome.standardOutput)")
        #expect(outcome.lines.last(where: { $0.contains(" tests: ") })?.contains("1 NOT RUN") == true, "\(outcome.standardOutput)")
        let json = try UndoHostProcess.run(["check", "--json", "--seed", "1", "--only", "round-trip/move", never])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["notRun"] as? Int == 1)
        let tests = try #require(((object["plugins"] as? [[String: Any]])?.first?["tests"]) as? [[String: Any]])
        #expect(tests.first?["status"] as? String == "not-run")
    }

    /// A failed undo names the step (its number, document and the perform that made it) and
    /// shows how the document differs, line by line, however long it is.
    @Test func aFailedUndoNamesTheStepAndShowsTheDifference() throws {
        let folder = try Self.privateFolder()
        let plugin = try Self.build("board.c", defines: ["BOARD_MOVE_TO_TOP"], name: "top", in: folder)
        let outcome = try UndoHostProcess.run(["check", "--seed", "1", "--only", "round-trip/move", plugin])
        #expect(outcome.status == 1)
        #expect(Self.failed(outcome) == ["round-trip/move"], "\(outcome.standardOutput)")
        let text = outcome.standardOutput
        #expect(text.contains("undo of step "), "\(text)")
        #expect(text.contains(", made by perform board.move("), "\(text)")
        #expect(text.contains("did not restore the state before the step"), "\(text)")
        #expect(text.contains("(- expected, + actual;"), "\(text)")
        #expect(outcome.lines.contains { $0.hasPrefix("            - \"#10") }, "\(text)")
        #expect(outcome.lines.contains { $0.hasPrefix("            + \"#10") }, "\(text)")
    }

    /// Strings at the 4,096-byte limits: a perform that fails after it changed the document
    /// (its description too long, set after the change) is caught.
    @Test func aPerformThatFailsAfterChangingTheDocumentIsCaught() throws {
        let folder = try Self.privateFolder()
        let late = try Self.build("board.c", defines: ["BOARD_DESCRIBES_LATE"], name: "late", in: folder)
        let outcome = try UndoHostProcess.run(["check", "--seed", "1", "--only", "round-trip/add", late])
        #expect(outcome.status == 1)
        #expect(Self.failed(outcome) == ["round-trip/add"], "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("bytes)) in"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("set_description: the description is longer than 4096 bytes [UNDO_ELIMIT]) but changed the document"),
                "\(outcome.standardOutput)")
        // The board that cuts its description passes.
        let board = try Self.build("board.c", name: "board", in: folder)
        let passed = try UndoHostProcess.run(["check", "--seed", "1", "--only", "round-trip/add", board])
        #expect(passed.status == 0, "\(passed.standardOutput)")
    }

    /// The host says so when a perform failed after its plugin changed the document, instead of
    /// "nothing was changed"; a plugin that fails cleanly still gets "nothing was changed".
    @Test func theHostSaysWhenAFailedPerformChangedTheDocument() throws {
        let folder = try Self.privateFolder()
        let late = try Self.build("board.c", defines: ["BOARD_DESCRIBES_LATE"], name: "late", in: folder)
        let title = String(repeating: "x", count: 4097)
        let outcome = try UndoHostProcess.run(["--plugins", late], input: "board.add \"\(title)\"\n")
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("set_description: the description is longer than 4096 bytes"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("hint: the plugin changed document untitled before it failed, and the history is unchanged"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("nothing was changed"), "\(outcome.standardError)")
        let board = try Self.build("board.c", name: "board", in: folder)
        let clean = try UndoHostProcess.run(["--plugins", board], input: "board.move 5 0\n")
        #expect(clean.status == 1)
        #expect(clean.standardError.contains("the plugin refused; nothing was changed"), "\(clean.standardError)")
    }

    @Test func theSameSeedMakesTheSameReport() throws {
        let folder = try Self.privateFolder()
        let plugin = try Self.build("zoo.c", defines: ["ZOO_INVERSE_FORGETS"], name: "forgets", in: folder)
        let first = try UndoHostProcess.run(["check", "--seed", "42", plugin])
        let second = try UndoHostProcess.run(["check", "--seed", "42", "--in-process", plugin])
        #expect(first.standardOutput == second.standardOutput)
        #expect(first.status == 1 && second.status == 1)
    }

    @Test func listJSONAndOnlyFailed() throws {
        let folder = try Self.privateFolder()
        let plugin = try Self.build("zoo.c", defines: ["ZOO_INVERSE_FORGETS"], name: "forgets", in: folder)
        let list = try UndoHostProcess.run(["check", "--list", plugin])
        #expect(list.status == 0)
        #expect(list.lines == ["org.example.zoo 1.0.0 (\(plugin))", "  descriptor", "  describe", "  round-trip/add",
                               "  round-trip/set", "  merge/add", "  bad-arguments", "  many-documents", "  load-unload", "  threads"])

        let json = try UndoHostProcess.run(["check", "--json", "--seed", "1", "--filter", "set", plugin])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["seed"] as? Int == 1)
        #expect(object["failed"] as? Int == 1)
        let tests = try #require(((object["plugins"] as? [[String: Any]])?.first?["tests"]) as? [[String: Any]])
        #expect(tests.map { $0["name"] as? String } == ["round-trip/set"])
        #expect(tests.first?["status"] as? String == "failed")

        let onlyFailed = try UndoHostProcess.run(["check", "--only-failed", "--seed", "1", plugin])
        #expect(onlyFailed.lines.allSatisfy { !$0.hasPrefix("  pass") })
        #expect(Self.failed(onlyFailed).contains("round-trip/set"))
    }

    @Test func usageErrors() throws {
        let none = try UndoHostProcess.run(["check"])
        #expect(none.status == 2)
        #expect(none.standardError.contains("name at least one plugin file"))
        let missing = try UndoHostProcess.run(["check", "--seed", "1", "/nonexistent/plugin.so"])
        #expect(missing.status == 1)
        #expect(missing.standardOutput.contains("FAIL  load"))
    }

    /// `new-plugin` writes a C plugin; the build command it prints builds it, and it passes check.
    @Test func aNewCPluginBuildsAndPassesCheckAsWritten() throws {
        let folder = try Self.privateFolder()
        let written = try UndoHostProcess.run(["new-plugin", "hello-world"], directory: folder.url)
        #expect(written.status == 0, "\(written.standardError)")
        #expect(written.lines.first == "Wrote hello-world/hello-world.c. Build, check and load it:")
        let build = try #require(written.lines.dropFirst().first?.trimmingCharacters(in: .whitespaces))
        #expect(build.hasPrefix("cc -std=c99 -Wall -shared -fPIC -I /"))
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", build + " -Wextra -pedantic -Werror"]
        shell.currentDirectoryURL = folder.url
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "\(build) failed")
        let checked = try UndoHostProcess.run(["check", "--seed", "9", "hello-world/libhello-world.so"], directory: folder.url)
        #expect(checked.status == 0, "\(checked.standardOutput)")
        #expect(checked.standardOutput.contains("org.example.hello_world 0.1.0"))
        #expect(checked.lines.contains("  pass  round-trip/set"))

        // Nothing is overwritten; a name that cannot be an id is refused.
        let again = try UndoHostProcess.run(["new-plugin", "hello-world"], directory: folder.url)
        #expect(again.status == 2)
        #expect(again.standardError.contains("hello-world already exists; nothing was written"))
        let bad = try UndoHostProcess.run(["new-plugin", "9 lives"], directory: folder.url)
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("use ASCII letters, digits, - and _"))
    }
}
