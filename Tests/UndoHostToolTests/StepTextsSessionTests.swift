import Foundation
import Testing
import UndoTestSupport

/// A step's two texts and its values in undo-host: after Qt's action text beside text (the
/// Edit menu names the step, the history list describes it) and the Rust crate `undo`'s
/// reading back of entries (`history --values`, `--json`).
@Suite("Scripts: step descriptions and values")
struct StepTextsSessionTests {
    @Test("The canvas describes its steps, in English and Korean; a drag's merged move describes its sum")
    func canvasDescriptions() throws {
        let script = """
            canvas.add 2 "circle" 0 0 4 4 0xff0000
            canvas.move 2 10 5
            canvas.move 2 2.5 -1
            canvas.recolor 2 0x00ff00
            canvas.recolor 2 0x0000ff
            canvas.remove 2
            menu
            history
            """
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins, input: script)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == """
            Edit (untitled)
              Undo Delete Shape    Ctrl+Z
              Redo                 Ctrl+Y  (disabled)
            History (4 of 4 done)
                 Start
              1  Add "circle 2"                untitled
              2  Move "circle 2" by (12.5, 4)  untitled
              3  Color "circle 2" #0000ff      untitled
            > 4  Delete "circle 2"             untitled

            """, "\(run.standardOutput)")
        let korean = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--locale", "ko"], input: script)
        #expect(korean.status == 0, "\(korean.standardError)")
        for description in ["\"circle 2\" 추가", "\"circle 2\" (12.5, 4)만큼 이동", "\"circle 2\" 색 #0000ff", "\"circle 2\" 삭제"] {
            #expect(korean.standardOutput.contains(description), "\(description) in \(korean.standardOutput)")
        }
    }

    @Test("The menu says Undo Typing while history lists what was typed; --values shows the arguments")
    func descriptionsAndValues() throws {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins, input: """
            text.insert 0 "hel"
            text.insert 3 "lo"
            break
            text.delete 1 3
            undo
            menu
            history
            history --values
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("""
            Edit (untitled)
              Undo Typing    Ctrl+Z
              Redo Delete    Ctrl+Y
            History (1 of 2 done)
                 Start
            > 1  Typing "hello"  untitled
              2  Delete "ell"    untitled  undone
            History (1 of 2 done)
                 Start
            > 1  Typing "hello"  untitled
                 text.insert position: 0, text: "hello"
              2  Delete "ell"    untitled  undone
                 text.delete position: 1, length: 3
                 undo with position: 1, text: "ell", styles: x"000000"

            """), "\(run.standardOutput)")
    }

    @Test("In Korean the plugin describes its step in Korean, and the inverse's label is Korean")
    func korean() throws {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--locale", "ko"], input: """
            text.insert 0 "안녕"
            text.delete 0 1
            history --values
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == """
            실행 기록 (2개 중 2개 실행됨)
                 처음
              1  "안녕" 입력  untitled
                 text.insert position: 0, text: "안녕"
            > 2  "안" 삭제    untitled
                 text.delete position: 0, length: 1
                 되돌릴 때 position: 0, text: "안", styles: x"00"

            """)
    }

    @Test("history --json carries each step's description, action type and typed arguments")
    func json() throws {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--json"], input: """
            text.insert 0 "hi"
            group begin "Pair"
            canvas.add 7 "rect" 0 0 1 1 255
            group end
            history
            """)
        #expect(run.status == 0, "\(run.standardError)")
        let last = try #require(run.lines.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let history = try #require(object["history"] as? [String: Any])
        let steps = try #require(history["steps"] as? [[String: Any]])
        try #require(steps.count == 2)
        #expect(steps[0]["name"] as? String == "Typing")
        #expect(steps[0]["description"] as? String == "Typing \"hi\"")
        #expect(steps[0]["action"] as? String == "org.undohost.text/insert")
        let arguments = try #require(steps[0]["arguments"] as? [[String: Any]])
        #expect(arguments.map { $0["name"] as? String } == ["position", "text"])
        #expect(arguments.map { $0["type"] as? String } == ["i64", "string"])
        #expect(arguments[0]["value"] as? Int == 0)
        #expect(arguments[1]["value"] as? String == "hi")
        #expect((steps[0]["inverseArguments"] as? [[String: Any]])?.count == 2)
        // A group is no plugin step: no description, action or arguments.
        #expect(steps[1]["description"] is NSNull)
        #expect(steps[1]["action"] is NSNull)
        #expect((steps[1]["arguments"] as? [Any])?.isEmpty == true)
        // The text listing does not change with --json's data: the same command name.
        #expect(object["command"] as? String == "history")
    }

    @Test("history takes only --values")
    func usage() throws {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins, input: "history --all\n")
        #expect(run.status != 0)
        #expect(run.standardError.contains("history [--values]"), "\(run.standardError)")
    }
}
