import Foundation
import Testing
import UndoHostSession

/// Obsolete steps (Qt's setObsolete) at undo-host, with the bundled canvas: `canvas.grid` sets a
/// size every canvas shares, so a step of one canvas can find, undone or redone, that a step of
/// another canvas already set the size it would set; `canvas.recolor` to the shape's own color
/// is never a step.
@Suite("Scripts: obsolete steps")
struct ObsoleteStepSessionTests {
    static let script = """
        doc a
        canvas.add 1 "rect" 0 0 10 10 0xff0000
        canvas.recolor 1 0xff0000
        canvas.grid 10
        doc b
        canvas.grid 0
        doc a
        undo
        history
        """

    @Test("an undo in which the step left the history says so; the history and menu follow")
    func undoOfAnObsoleteStep() throws {
        let run = try UndoHostProcess.runScript(Self.script)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == """
            Undo Grid Size
            Grid Size changed nothing any more: it left the history
            a (Canvas)
              #1 rect x=0 y=0 w=10 h=10 color=#ff0000
            History (2 of 2 done)
                 Start
              1  Add Shape  a
            > 3  Grid Size  b

            """, "\(run.standardOutput)")
    }

    @Test("--json: result.obsolete counts the steps that left")
    func undoOfAnObsoleteStepInJSON() throws {
        let run = try UndoHostProcess.runScript(Self.script, extraArguments: ["--json"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let undo = try #require(lines.first { $0.contains("\"command\":\"undo\"") })
        #expect(undo.contains("\"steps\":1,\"obsolete\":1"), "\(undo)")
        #expect(undo.contains("\"position\":2,\"count\":2"), "\(undo)")
        let performs = lines.filter { $0.contains("\"command\":\"perform\"") }
        #expect(performs.count == 4)
        // The recolor to the same color added no step: the count stayed 1.
        #expect(performs[1].contains("\"position\":1,\"count\":1"), "\(performs[1])")
    }

    @Test("a redo in which the step left, and an ordinary undo (obsolete 0), in Korean too")
    func redoOfAnObsoleteStep() throws {
        let script = """
            doc a
            canvas.grid 10
            undo
            doc b
            canvas.grid 10
            doc a
            redo
            menu
            """
        let run = try UndoHostProcess.runScript(script)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Redo Grid Size\nGrid Size changed nothing any more: it left the history\n"))
        #expect(run.standardOutput.contains("Undo    Ctrl+Z  (disabled)\n  Redo    Ctrl+Y  (disabled)"), "\(run.standardOutput)")
        let json = try UndoHostProcess.runScript(script, extraArguments: ["--json"])
        let moves = json.standardOutput.split(separator: "\n").filter { $0.contains("\"result\":") }
        #expect(moves.count == 2)
        #expect(moves.first?.contains("\"obsolete\":0") == true)
        #expect(moves.last?.contains("\"obsolete\":1") == true)
        let korean = try UndoHostProcess.runScript(script, extraArguments: ["--locale", "ko"])
        #expect(korean.standardOutput.contains("격자 크기: 더 이상 바꾸는 것이 없어 기록에서 빠졌습니다"), "\(korean.standardOutput)")
    }
}
