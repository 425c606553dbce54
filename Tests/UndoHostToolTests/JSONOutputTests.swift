import Foundation
import Testing
import UndoTestSupport

/// `--json`: one JSON object per command, one per line, that a program can read.
@Suite("--json output")
struct JSONOutputTests {
    /// Runs commands from standard input with --json and parses every line.
    private func objects(_ input: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (Int32, [[String: Any]]) {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--json"], input: input, sourceLocation: sourceLocation)
        var objects: [[String: Any]] = []
        for line in run.lines {
            let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
            objects.append(try #require(value as? [String: Any], "not an object: \(line)", sourceLocation: sourceLocation))
        }
        return (run.status, objects)
    }

    @Test("Every command gives one object with the command, ok, and the state after it")
    func oneObjectPerCommand() throws {
        let (status, objects) = try objects("""
            doc letter
            text.insert 0 "Hi"
            # comments and blank lines give nothing

            text.bold 0 2
            menu
            """)
        #expect(status == 0)
        #expect(objects.map { $0["command"] as? String } == ["doc", "perform", "perform", "menu"])
        #expect(objects.allSatisfy { $0["ok"] as? Bool == true })
        #expect(objects.map { $0["line"] as? Int } == [1, 2, 5, 6])
        #expect(objects[1]["action"] as? String == "text.insert")
        #expect(objects[1]["fullID"] as? String == "org.undohost.text/insert")
        let state = try #require(objects[3]["state"] as? [String: Any])
        #expect(state["document"] as? String == "letter")
        #expect(state["undoTitle"] as? String == "Undo Bold")
        #expect(state["redoTitle"] as? String == "Redo")
        #expect(state["canRedo"] as? Bool == false)
        #expect(state["dirty"] as? Bool == true)
        #expect(state["position"] as? Int == 2)
        let menu = try #require(objects[3]["menu"] as? [String: Any])
        let items = try #require(menu["items"] as? [[String: Any]])
        #expect(items.map { $0["title"] as? String } == ["Undo Bold", "Redo"])
        #expect(items.map { $0["shortcut"] as? String } == ["Ctrl+Z", "Ctrl+Y"])
        #expect(items.map { $0["enabled"] as? Bool } == [true, false])
    }

    @Test("An undo reports its result: the step, the changed places, and the highlighted text")
    func undoResult() throws {
        let (_, objects) = try objects("""
            text.insert 0 "Hello world"
            text.bold 6 5
            undo
            """)
        let undo = try #require(objects.last)
        #expect(undo["title"] as? String == "Undo Bold")
        let result = try #require(undo["result"] as? [String: Any])
        #expect(result["direction"] as? String == "undo")
        #expect(result["name"] as? String == "Bold")
        let changes = try #require(result["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes.first?["location"] as? Int == 6)
        #expect(changes.first?["length"] as? Int == 5)
        let documents = try #require(undo["documents"] as? [[String: Any]])
        #expect(documents.first?["text"] as? String == "Hello world")
        let highlights = try #require(documents.first?["highlights"] as? [[String: Any]])
        #expect(highlights.map { $0["text"] as? String } == ["world"])
    }

    @Test("History, alert and plugins as data")
    func listings() throws {
        let (_, objects) = try objects("""
            canvas.add 1 "rect" 0 0 1 1 0
            save
            canvas.move 1 2 2
            undo
            history
            alert
            plugins
            """)
        let history = try #require(objects[4]["history"] as? [String: Any])
        #expect(history["position"] as? Int == 1)
        let steps = try #require(history["steps"] as? [[String: Any]])
        #expect(steps.map { $0["name"] as? String } == ["Add Shape", "Move"])
        #expect(steps.map { $0["applied"] as? Bool } == [true, false])
        #expect(steps.map { $0["savePoint"] as? Bool } == [true, false])

        let alert = try #require(objects[5]["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "Undo Add Shape")
        let choices = try #require(alert["choices"] as? [[String: Any]])
        #expect(choices.map { $0["title"] as? String } == ["Undo Add Shape", "Redo Move", "Cancel"])
        #expect(choices.map { $0["key"] as? String } == ["u", "r", "c"])

        let plugins = try #require(objects[6]["plugins"] as? [[String: Any]])
        #expect(plugins.compactMap { $0["id"] as? String }.sorted() == ["org.undohost.canvas", "org.undohost.text"])
        let text = try #require(plugins.first { $0["id"] as? String == "org.undohost.text" })
        let actions = try #require(text["actions"] as? [[String: Any]])
        let insert = try #require(actions.first { $0["id"] as? String == "text.insert" })
        #expect(insert["name"] as? String == "Typing")
        #expect(insert["signature"] as? String == "(position: i64, text: string)")
        #expect(insert["coalesces"] as? Bool == true)
        let parameters = try #require(insert["parameters"] as? [[String: Any]])
        #expect(parameters.map { $0["type"] as? String } == ["i64", "string"])
    }

    @Test("An error is an object too, on standard output, and the failing line left the history as it was")
    func errorLeavesHistoryUnchanged() throws {
        let (status, objects) = try objects("""
            text.insert 0 "abc"
            text.insert 1 "x"
            text.delete 2 10
            menu
            """)
        #expect(status == 1)
        #expect(objects.count == 3, "the run stops at the error")
        let failed = objects[2]
        #expect(failed["ok"] as? Bool == false)
        #expect(failed["line"] as? Int == 3)
        let error = try #require(failed["error"] as? [String: Any])
        #expect(error["kind"] as? String == "plugin")
        #expect((error["message"] as? String)?.contains("outside the document") == true)
        let before = try #require(objects[1]["state"] as? [String: Any])
        let after = try #require(failed["state"] as? [String: Any])
        #expect(NSDictionary(dictionary: before) == NSDictionary(dictionary: after))
    }

    @Test("Argument errors carry the column of the argument at fault")
    func argumentColumn() throws {
        let (_, objects) = try objects("text.insert 0 42")
        let error = try #require(objects.first?["error"] as? [String: Any])
        #expect(error["kind"] as? String == "arguments")
        #expect(error["column"] as? Int == 15)
        #expect(error["hint"] as? String == "expected text.insert(position: i64, text: string)")
    }

    @Test("The demo in --json is one object per command, all succeeding")
    func demoAsJSON() throws {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--json", "demo"])
        #expect(run.status == 0)
        let objects = try run.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.count >= 20)
        #expect(objects.allSatisfy { $0["ok"] as? Bool == true })
        #expect(objects.contains { $0["title"] as? String == "Revert to Saved" })
    }
}
