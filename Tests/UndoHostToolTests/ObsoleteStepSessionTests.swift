import Foundation
import Testing
import UndoHostSession
import UndoTestSupport

/// Obsolete steps (Qt's setObsolete) at undo-host. A step can only find on undo or redo that it
/// changes nothing when its document changed outside the history, which the bundled plugins
/// never allow (each document's state is its own); so these scripts load the test plugin
/// Tests/UndoPluginHostTests/Fixtures/obsolete.c, whose three values every document shares. The
/// bundled canvas shows the other case: `canvas.recolor` to a shape's own color adds no step.
@Suite("Scripts: obsolete steps")
struct ObsoleteStepSessionTests {
    static let source = SourceTree.path("Tests/UndoPluginHostTests/Fixtures/obsolete.c")

    /// Runs `script` with the obsolete fixture loaded too.
    static func run(_ script: String, _ arguments: [String] = []) throws -> UndoHostProcess.Outcome {
        let folder = try TemporaryFolder()
        let plugin = folder.url.appendingPathComponent("libobsolete.so").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-std=c99", "-shared", "-fPIC", "-I", SourceTree.include, "-o", plugin, source]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed for \(source)")
        return try UndoHostProcess.runScript(script, extraArguments: ["--plugins", plugin] + arguments)
    }

    static let undoScript = """
        doc a
        obsolete.set 0 5
        doc b
        obsolete.set 1 1
        obsolete.set 0 0
        doc a
        undo
        history
        menu
        """

    @Test("an undo in which the step left the history says so; the history and menu follow")
    func undoOfAnObsoleteStep() throws {
        let run = try Self.run(Self.undoScript)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == """
            Undo Set
            Set changed nothing any more: it left the history
            a (Obsolete)
              a=0,b=1,c=0|merges=1|merge_rc=-9|describe_rc=-9|stale_rc=-9|fail_rc=0
            History (2 of 2 done)
                 Start
              2  Set    b
            > 3  Set    b
            Edit (a)
              Undo    Ctrl+Z  (disabled)
              Redo    Ctrl+Y  (disabled)

            """, "\(run.standardOutput)")
    }

    @Test("--json: result.obsolete counts the steps that left; state.position and count follow")
    func undoOfAnObsoleteStepInJSON() throws {
        let run = try Self.run(Self.undoScript, ["--json"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let undo = try #require(lines.first { $0.contains("\"command\":\"undo\"") })
        #expect(undo.contains("\"steps\":1,\"obsolete\":1"), "\(undo)")
        #expect(undo.contains("\"position\":2,\"count\":2"), "\(undo)")
    }

    @Test("a redo in which the step left, an ordinary undo (obsolete 0), a jump, and Korean")
    func redoOfAnObsoleteStep() throws {
        let script = """
            doc a
            obsolete.set 0 5
            obsolete.set 1 5
            undo 2
            doc b
            obsolete.set 0 5
            doc a
            redo 2
            menu
            """
        let run = try Self.run(script)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Redo 2 steps (newest Set)\n1 of the 2 steps changed nothing any more: it left the history\n"),
                "\(run.standardOutput)")
        #expect(run.standardOutput.contains("Undo Set    Ctrl+Z\n  Redo        Ctrl+Y  (disabled)"), "\(run.standardOutput)")
        let json = try Self.run(script, ["--json"])
        let moves = json.standardOutput.split(separator: "\n").filter { $0.contains("\"result\":") }
        #expect(moves.count == 2)
        #expect(moves.first?.contains("\"steps\":2,\"obsolete\":0") == true)
        #expect(moves.last?.contains("\"steps\":2,\"obsolete\":1") == true)
        let korean = try Self.run(script, ["--locale", "ko"])
        #expect(korean.standardOutput.contains("단계 2개 중 1개는 더 이상 바꾸는 것이 없어 기록에서 빠졌습니다"), "\(korean.standardOutput)")
    }

    @Test("canvas.recolor to the shape's own color adds no step")
    func aRecolorThatChangesNothingAddsNoStep() throws {
        let run = try UndoHostProcess.runScript("""
            canvas.add 1 "rect" 0 0 10 10 0xff0000
            canvas.recolor 1 0xff0000
            history
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == """
            canvas.recolor changed nothing: no step was added
            History (1 of 1 done)
                 Start
            > 1  Add "rect 1"  untitled

            """, "\(run.standardOutput)")
    }

    @Test("--json and Korean: a perform that adds no step says so; the state is as before")
    func aPerformThatAddsNoStepInJSONAndKorean() throws {
        let script = """
            canvas.add 1 "rect" 0 0 10 10 0xff0000
            save
            canvas.recolor 1 0xff0000
            canvas.recolor 1 0x00ff00
            """
        let json = try UndoHostProcess.runScript(script, extraArguments: ["--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let performs = json.standardOutput.split(separator: "\n").filter { $0.contains("\"command\":\"perform\"") }
        #expect(performs.count == 3)
        #expect(performs.map { $0.contains("\"obsolete\":true") } == [false, true, false], "\(performs)")
        #expect(performs[1].contains("\"dirty\":false,\"position\":1,\"count\":1"), "\(performs[1])")
        #expect(performs[2].contains("\"dirty\":true,\"position\":2,\"count\":2"), "\(performs[2])")
        let korean = try UndoHostProcess.runScript(script, extraArguments: ["--locale", "ko"])
        #expect(korean.standardOutput.contains("canvas.recolor: 바꾸는 것이 없어 단계를 더하지 않았습니다\n"), "\(korean.standardOutput)")
        #expect(!korean.standardOutput.contains("changed nothing"))
    }

    /// undo-host check walks a plugin whose performs are often obsolete (each document with its
    /// own values): a perform that adds no step keeps the redo steps and must change nothing.
    @Test("check passes a plugin with obsolete performs")
    func checkModelsObsoletePerforms() throws {
        let folder = try TemporaryFolder()
        let plugin = folder.url.appendingPathComponent("libobsolete.so").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-std=c99", "-shared", "-fPIC", "-DOBSOLETE_PER_DOCUMENT", "-I", SourceTree.include,
                             "-o", plugin, Self.source]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        for seed in [1, 2, 3] {
            let outcome = try UndoHostProcess.run(["check", "--seed", String(seed), plugin])
            // Nothing fails; the fixture's `fail` action always refuses (for the host's tests),
            // so its round trip cannot run, which is not a pass (exit status 1).
            #expect(!outcome.lines.contains { $0.hasPrefix("  FAIL") }, "seed \(seed):\n\(outcome.standardOutput)\(outcome.standardError)")
            #expect(outcome.lines.filter { $0.hasPrefix("  NOT RUN") } == ["  NOT RUN  round-trip/fail"], "\(outcome.standardOutput)")
            #expect(outcome.status == 1)
            #expect(outcome.lines.contains("  pass  round-trip/set"), "\(outcome.standardOutput)")
        }
    }
}
