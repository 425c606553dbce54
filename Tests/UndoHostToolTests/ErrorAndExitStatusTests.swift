import Foundation
import Testing
import UndoTestSupport

/// Mistakes in scripts and on the command line: one line saying what and where, a hint, the
/// documented exit status, never a trap; and the failing line changes nothing.
@Suite("Errors: FILE:LINE, hints and exit statuses")
struct ErrorAndExitStatusTests {
    /// Runs a script expected to fail; returns its standard error.
    private func failure(_ script: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let run = try UndoHostProcess.runScript(script, named: "bad.undo", sourceLocation: sourceLocation)
        #expect(run.status == 1, "a script error exits with 1", sourceLocation: sourceLocation)
        #expect(!run.standardError.contains("Fatal error"), sourceLocation: sourceLocation)
        return run.standardError
    }

    @Test("An unknown command names the closest command")
    func unknownCommand() throws {
        #expect(try failure("menu\nudno\n") == """
            bad.undo:2: UNDO_ENOTFOUND: unknown command udno
              hint: did you mean undo?

            """)
    }

    @Test("An unknown action names the closest action id with its signature")
    func unknownAction() throws {
        #expect(try failure("text.insrt 0 \"hi\"") == """
            bad.undo:1: UNDO_ENOTFOUND: unknown action text.insrt
              hint: did you mean text.insert? text.insert(position: i64, text: string)

            """)
    }

    @Test("Wrong arguments say which argument and the expected signature", arguments: [
        ("text.insert 0 5", "UNDO_ETYPE: text.insert: argument 2 (text): expected string, got i64"),
        ("text.insert 0", "UNDO_ECOUNT: text.insert: expected 2 arguments, got 1"),
        ("text.insert 0 \"a\" 7", "UNDO_ECOUNT: text.insert: expected 2 arguments, got 3"),
        ("text.insert 1.5 \"a\"", "UNDO_ETYPE: text.insert: argument 1 (position): expected i64, got f64"),
        ("text.insert 0 hello", "UNDO_EINVAL: text.insert: unexpected hello: strings need double quotes (\"hello\") and bytes x\"...\""),
    ])
    func wrongArguments(line: String, message: String) throws {
        #expect(try failure(line) == """
            bad.undo:1: \(message)
              hint: expected text.insert(position: i64, text: string)

            """)
    }

    @Test("A number out of range for its parameter is refused before the plugin runs")
    func numberOutOfRange() throws {
        let errors = try failure("canvas.recolor 1 0x1ffffffff")
        #expect(errors.hasPrefix("bad.undo:1: UNDO_ERANGE: canvas.recolor: argument 2 (color): "))
        #expect(errors.contains("does not fit in u32"))
        #expect(errors.contains("hint: expected canvas.recolor(id: u64, color: u32)"))
    }

    @Test("A plugin that refuses the action: its own reason, and nothing changed")
    func pluginRefuses() throws {
        #expect(try failure("text.insert 0 \"ab\"\ntext.delete 1 5") == """
            bad.undo:2: UNDO_ERANGE: text.delete: perform failed: range 1+5 is outside the document (length 2)
              hint: the plugin refused; nothing was changed

            """)
    }

    @Test("The run stops at the first error: later lines do not run")
    func stopsAtFirstError() throws {
        let run = try UndoHostProcess.runScript("menu\nbogus\nmenu\n")
        #expect(run.status == 1)
        #expect(run.lines.first == "Edit (untitled)")
        #expect(run.lines.filter { $0.hasPrefix("Edit") }.count == 1)
    }

    @Test("History commands used wrongly", arguments: [
        ("undo", "bad.undo:1: UNDO_EEMPTY: nothing to undo in untitled"),
        ("group end", "bad.undo:1: UNDO_ESTATE: group end: no group is open"),
        ("text.insert 0 \"a\"\nundo to 5", "bad.undo:2: UNDO_ENOTFOUND: undo to 5: there is no step 5 in the history"),
        ("text.insert 0 \"a\"\nundo\nundo to 1", "bad.undo:3: UNDO_ESTATE: undo to 1: the history is at step 0, before it"),
        ("group begin \"G\"\ntext.insert 0 \"a\"\nundo", "bad.undo:3: UNDO_ESTATE: a group \"G\" is open"),
        ("redo 0", "bad.undo:1: UNDO_EINVAL: redo: \"0\" is not a number of steps"),
        ("alert 7", "bad.undo:1: UNDO_EINVAL: alert: \"7\" is not one of its choices"),
        ("close nowhere", "bad.undo:1: UNDO_ENOTFOUND: no document nowhere is open"),
        ("revert", "bad.undo:1: UNDO_EEMPTY: nothing to revert: untitled is as it was saved"),
        ("group begin \"unfinished", "bad.undo:1: UNDO_EINVAL: group: the quoted name has no closing quote"),
        ("unload org.undohost.txt", "bad.undo:1: UNDO_ENOTFOUND: no plugin org.undohost.txt is loaded"),
    ])
    func historyMistakes(script: String, firstLine: String) throws {
        let errors = try failure(script)
        #expect(errors.components(separatedBy: "\n").first == firstLine)
        #expect(errors.contains("\n  hint: "))
    }

    @Test("A group begun and never ended is an error at the line that began it")
    func unendedGroup() throws {
        #expect(try failure("menu\ngroup begin \"Paste\"\ntext.insert 0 \"a\"\n") == """
            bad.undo:2: UNDO_ESTATE: group "Paste" was begun here and never ended
              hint: add group end after its last action

            """)
    }

    @Test("A plugin that fails to load: one line naming the file and why; the others work")
    func badPluginFile() throws {
        let folder = try TemporaryFolder()
        try Data("not a shared object".utf8).write(to: folder.url.appendingPathComponent("libBroken.so"))
        let run = try UndoHostProcess.run(
            ["--plugins", folder.url.path, "--plugins", UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginTextEditor.so").path],
            input: "text.insert 0 \"still works\"\nshow\n")
        #expect(run.status == 0)
        let warning = "undo-host: warning: cannot load \(folder.url.path)/libBroken.so: "
        #expect(run.standardError.hasPrefix(warning), "got \(run.standardError)")
        #expect(run.standardError.hasSuffix("\n  hint: a plugin is a shared object (.so) built for this machine; the other plugins are loaded\n"))
        #expect(run.standardError.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 2)
        #expect(run.standardOutput == "untitled (Text Editor)\n  still works\n")
    }

    @Test("load of a file that is not a plugin is a script error with the reason")
    func loadCommandFailure() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: file)
        let errors = try failure("load \(file.path)")
        #expect(errors.hasPrefix("bad.undo:1: UNDO_ELOAD: cannot load \(file.path): "))
        #expect(errors.contains("\n  hint: "))
    }

    @Test("Usage errors exit with 2", arguments: [
        (["--jsn"], "undo-host: Unknown option '--jsn'. Did you mean '--json'?"),
        (["--allow-writeable-plugins"], "undo-host: Unknown option '--allow-writeable-plugins'. Did you mean '--allow-writable-plugins'?"),
        (["run"], "undo-host: Missing expected argument '<FILE>'"),
        (["run", "a", "b"], "undo-host: Unexpected argument 'b'"),
        (["dmeo"], "undo-host: unknown mode dmeo (did you mean demo?)"),
        (["--json", "plugns"], "undo-host: unknown mode plugns (did you mean plugins?)"),
        (["--plugins", "/nonexistent"], "undo-host: --plugins /nonexistent: no such file or folder"),
        (["--locale", "xx"], "undo-host: unknown locale xx: use en, ko or the path of a locale file"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try UndoHostProcess.run(arguments)
        #expect(run.status == 2)
        #expect(run.standardOutput == "")
        #expect(run.standardError == message + "\nRun undo-host --help for the usage.\n")
    }

    @Test("A script file that cannot be read: the reason, exit status 2, and no advice about --help (the arguments were right)")
    func missingScriptFile() throws {
        let run = try UndoHostProcess.run(["run", "/nonexistent/script.undo"])
        #expect(run.status == 2)
        #expect(run.standardOutput == "")
        #expect(run.standardError == "undo-host: cannot read /nonexistent/script.undo: No such file or directory\n")
    }

    @Test("--version and --help exit with 0")
    func versionAndHelp() throws {
        let version = try UndoHostProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput == "undo-host 1.4.0 (plugin ABI 1.8)\n")
        let help = try UndoHostProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: undo-host [--plugins PATH]... [--allow-writable-plugins] [--json]\n"))
        #expect(help.standardOutput.contains("--keep-going"))
        // The help mode says the same.
        #expect(try UndoHostProcess.run(["help"]).standardOutput == help.standardOutput)
        #expect(help.standardOutput.contains("Exit status: 0 success, 1 script error, 2 usage error."))
        #expect(help.standardOutput.contains("undo to N"))
    }
}
