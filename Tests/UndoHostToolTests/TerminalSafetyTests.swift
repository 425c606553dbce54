import Foundation
import Testing
@testable import UndoHostSession
import UndoHostTerminal
import UndoTestSupport

/// What reaches a terminal is text, not commands to it: control characters from scripts,
/// documents, plugins and errors are shown escaped; echoed tokens are capped; warnings under
/// --json are JSON.
@Suite("Terminal safety: escaped controls, capped errors, JSON warnings")
struct TerminalSafetyTests {
    @Test("Control characters are shown as \\xHH; the tool's own styles pass")
    func escaping() {
        #expect(TerminalText.escapingControls("plain\ttext\n") == "plain\ttext\n")
        #expect(TerminalText.escapingControls("a\u{1B}]0;pwned\u{07}b") == "a\\x1B]0;pwned\\x07b")
        #expect(TerminalText.escapingControls("\u{1B}[2J\r\u{9B}x\u{7F}") == "\\x1B[2J\\x0D\\x9Bx\\x7F")
        #expect(TerminalText.escapingControls("\u{1B}[1mbold\u{1B}[22m \u{1B}[7msel\u{1B}[27m") == "\u{1B}[1mbold\u{1B}[22m \u{1B}[7msel\u{1B}[27m")
    }

    @Test("An OSC sequence in a document name is not printed raw")
    func documentNameWithAnEscape() throws {
        let run = try UndoHostProcess.runScript("doc \"evil\u{1B}]0;title\u{07}.txt\"\ntext.insert 0 \"x\"\ndoc\nclose nothing\u{1B}[2J\n")
        #expect(!run.standardOutput.contains("\u{1B}"))
        #expect(!run.standardError.contains("\u{1B}"))
        #expect(run.standardOutput.contains("evil\\x1B]0;title\\x07.txt"), "\(run.standardOutput)")
    }

    @Test("An error echoes at most 1024 characters of a 10 MB word")
    func cappedToken() throws {
        let word = String(repeating: "w", count: 10_000_000)
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["run", "-"], input: word + "\n")
        #expect(run.status == 1)
        #expect(run.standardError.utf8.count < 4096, "\(run.standardError.utf8.count) bytes of error")
        #expect(run.standardError.contains("bytes in all)"))
    }

    @Test("Startup warnings under --json are JSON objects on standard error")
    func jsonWarnings() throws {
        let folder = try TemporaryFolder()
        let bad = folder.url.appendingPathComponent("notaplugin.so")
        try Data("not an ELF file".utf8).write(to: bad)
        let run = try UndoHostProcess.run(["--json", "--plugins", bad.path, "plugins"])
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["warning"] as? String == "cannot load")
        #expect(object["path"] as? String == bad.path)
        #expect(object["code"] as? String == "UNDO_ELOAD")
        #expect((object["message"] as? String)?.hasPrefix("not a loadable shared object") == true)
    }
}
