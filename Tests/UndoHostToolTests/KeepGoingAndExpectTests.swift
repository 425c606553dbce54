import Foundation
import Testing
import UndoTestSupport

/// A whole error suite in one script: `--keep-going`, `expect CODE COMMAND`, error code names
/// in text and `--json`, comments anywhere, stable history numbers.
@Suite("Scripts: --keep-going, expect, error codes, comments, history numbers")
struct KeepGoingAndExpectTests {
    @Test("--keep-going reports every error and goes on; the exit status says errors happened")
    func keepGoing() throws {
        let script = "text.insert 0 \"ab\"\nudno\ntext.delete 5 1\nshow\n"
        let stopped = try UndoHostProcess.runScript(script)
        #expect(stopped.status == 1)
        #expect(stopped.standardOutput == "")

        let run = try UndoHostProcess.runScript(script, extraArguments: ["--keep-going"])
        #expect(run.status == 1)
        #expect(run.standardOutput == "untitled (Text Editor)\n  ab\n")
        #expect(run.standardError == """
            session.undo:2: UNDO_ENOTFOUND: unknown command udno
              hint: did you mean undo?
            session.undo:3: UNDO_ERANGE: text.delete: perform failed: range 5+1 is outside the document (length 2)
              hint: the plugin refused; nothing was changed

            """)

        // Piped input and --json too.
        let piped = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--keep-going", "--json"], input: script)
        #expect(piped.status == 1)
        #expect(piped.lines.count == 4)
        #expect(piped.lines.last?.contains("\"command\":\"show\",\"ok\":true") == true)
    }

    @Test("expect CODE COMMAND passes when the command fails with that code, and is an error otherwise")
    func expectations() throws {
        let suite = try UndoHostProcess.runScript("""
            text.insert 0 "ab"
            expect UNDO_ERANGE text.delete 99 1
            expect UNDO_ETYPE text.insert 0 5      # a number where a string goes
            expect UNDO_ECOUNT text.insert 0
            expect UNDO_ENOTFOUND udno
            expect UNDO_EEMPTY redo
            expect undo_einval group begin "unclosed
            show
            """)
        #expect(suite.status == 0, "\(suite.standardError)")
        #expect(suite.standardError == "")
        #expect(suite.standardOutput == "untitled (Text Editor)\n  ab\n")

        let wrong = try UndoHostProcess.runScript("""
            text.insert 0 "ab"
            expect UNDO_ETYPE text.delete 99 1
            expect UNDO_ERANGE text.delete 0 1
            expect UNDO_ERANG undo
            show
            """, extraArguments: ["--keep-going"])
        #expect(wrong.status == 1)
        #expect(wrong.standardError == """
            session.undo:2: UNDO_ERANGE: expected UNDO_ETYPE, got UNDO_ERANGE: text.delete: perform failed: range 99+1 is outside the document (length 2)
              hint: the plugin refused; nothing was changed
            session.undo:3: UNDO_ESTATE: expected UNDO_ERANGE, but perform succeeded
              hint: its change stays; the command was meant to fail with UNDO_ERANGE
            session.undo:4: UNDO_EINVAL: expect: UNDO_ERANG is not an error code
              hint: did you mean UNDO_ERANGE?

            """)
        // The succeeding command's change stayed.
        #expect(wrong.standardOutput == "untitled (Text Editor)\n  b\n")
    }

    @Test("--json: errors carry the code's name and number, and every object the state (an unended group's too)")
    func jsonErrors() throws {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["--json", "--keep-going"], input: """
            text.delete 1 1
            expect UNDO_ERANGE text.delete 1 1
            group begin "G"
            """)
        #expect(run.status == 1)
        let objects = try run.lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.count == 4)
        for object in objects { #expect(object["state"] is [String: Any], "\(object)") }
        let error = try #require(objects[0]["error"] as? [String: Any])
        #expect(error["code"] as? String == "UNDO_ERANGE")
        #expect(error["codeNumber"] as? Int == -4)
        #expect(objects[1]["ok"] as? Bool == true)
        #expect((objects[1]["expected"] as? [String: Any])?["code"] as? String == "UNDO_ERANGE")
        #expect(objects[3]["command"] as? String == "end")
        #expect((objects[3]["error"] as? [String: Any])?["code"] as? String == "UNDO_ESTATE")
        #expect((objects[3]["state"] as? [String: Any])?["openGroups"] as? Int == 1)
    }

    @Test("# starts a comment anywhere outside a quoted string")
    func comments() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "a # b"   # not part of the text
            show # the document
            menu#no space needed
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("untitled (Text Editor)\n  a # b\nEdit (untitled)\n"))
    }

    @Test("History numbers stay with their steps, so undo to N means the same step in every listing; groups are labelled")
    func stableHistoryNumbers() throws {
        let run = try UndoHostProcess.runScript("""
            doc a
            text.insert 0 "1"
            doc b
            text.insert 0 "2"
            group begin "Pair"
            text.insert 0 "x"
            text.bold 0 1
            group end
            doc a
            close a
            doc b
            history
            undo to 2
            history
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("""
            Closed a: 1 step left the history; now in b
            History (2 of 2 done)
                 Start
              2  Typing "2"  b
            > 3  Pair        b  group of 2 actions
            Undo to step 2 (1 step, newest Pair)
            """), "\(run.standardOutput)")
        #expect(run.standardOutput.hasSuffix("""
            History (1 of 2 done)
                 Start
            > 2  Typing "2"  b
              3  Pair        b  group of 2 actions, undone

            """))
    }

    @Test("Help and the usage fit 80 columns, wrapped at word boundaries")
    func helpFits80Columns() throws {
        let help = try UndoHostProcess.run(["--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        let lines = help.lines
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        #expect(help.standardOutput.contains("  load [--allow-writable-plugins] [--isolated] PATH\n"))
        let session = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["run", "-"], input: "help\n")
        #expect(session.lines.allSatisfy { $0.count <= 80 }, "\(session.lines.filter { $0.count > 80 })")
    }
}
