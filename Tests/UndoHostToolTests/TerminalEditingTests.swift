import Foundation
import Testing

/// The line editor on a narrow terminal, the Edit menu's keys at the prompt, and the questions
/// asked before work is thrown away: the built binary on a pseudo-terminal, its output played
/// on a small terminal emulator where the screen matters.
@Suite("Interactive session: long lines, Edit keys, questions")
struct TerminalEditingTests {
    static let left = "\u{1B}[D"

    /// The screen after everything received so far.
    func screen(_ terminal: PseudoTerminal, columns: Int, rows: Int) -> [String] {
        var emulator = ScreenEmulator(columns: columns, rows: rows)
        emulator.feed(terminal.transcript)
        return emulator.lines
    }

    @Test("A line wider than the terminal is edited across rows: no copies of it are left, and Ctrl+U leaves no stale rows")
    func longLinesOnANarrowTerminal() throws {
        let terminal = try PseudoTerminal(columns: 30, rows: 40)
        let banner = try terminal.waitForPrompt("untitled> ")
        // The banner is wrapped at word boundaries to the 30 columns.
        var bannerScreen = ScreenEmulator(columns: 200, rows: 40)
        bannerScreen.feed(banner)
        #expect(bannerScreen.lines.allSatisfy { $0.count <= 30 }, "\(bannerScreen.lines)")
        #expect(bannerScreen.lines.first == "undo-host 1.4.0: one undo")

        // 52 columns on 30-column rows; fixed in the middle with the left arrow.
        terminal.type("text.insert 0 \"abcdefghijklmnopqrstuvwxyz\"")
        terminal.type(String(repeating: Self.left, count: 6) + "123\r")
        try terminal.waitForPrompt("untitled*> ")
        var lines = screen(terminal, columns: 30, rows: 40)
        let first = try #require(lines.firstIndex { $0.hasPrefix("untitled> ") })
        #expect(Array(lines[first...]) == [
            "untitled> text.insert 0 \"abcde",
            "fghijklmnopqrstu123vwxyz\"",
            "untitled*>",
        ])

        // A long line erased with Ctrl+U, then a short command typed on the same prompt.
        terminal.type("text.insert 0 \"" + String(repeating: "x", count: 40) + "\"")
        terminal.type("\u{15}menu\r")
        try terminal.waitFor("Undo Typing    Ctrl+Z")
        try terminal.waitForPrompt("untitled*> ")
        lines = screen(terminal, columns: 30, rows: 40)
        #expect(!lines.contains { $0.contains("xxx") }, "\(lines)")
        #expect(Array(lines[(first + 2)...].prefix(2)) == ["untitled*> menu", "Edit (untitled)"])
        terminal.type("quit\ry")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("At an empty prompt Ctrl+Z undoes and Ctrl+Y redoes, as the Edit menu says; Shift+Ctrl+Z too where the terminal reports it")
    func editMenuKeys() throws {
        let terminal = try PseudoTerminal(arguments: ["--yes"])
        try terminal.waitForPrompt("untitled> ")
        terminal.type("text.insert 0 \"abc\"\r")
        try terminal.waitForPrompt("untitled*> ")
        terminal.type("menu\r")
        let menu = try terminal.waitForPrompt("untitled*> ")
        #expect(menu.contains("Undo Typing    Ctrl+Z\r\n"))
        #expect(menu.contains("Redo           Ctrl+Y"))

        terminal.type("\u{1A}")  // Ctrl+Z
        let undone = try terminal.waitForPrompt("untitled> ")
        #expect(undone.contains("Undo Typing"))
        terminal.type("\u{19}")  // Ctrl+Y
        let redone = try terminal.waitForPrompt("untitled*> ")
        #expect(redone.contains("Redo Typing"))
        // The screen shows the command each key ran, as if typed.
        let lines = screen(terminal, columns: 100, rows: 60)
        #expect(lines.contains("untitled*> undo") && lines.contains("untitled> redo"), "\(lines)")

        terminal.type("\u{1A}")
        try terminal.waitForPrompt("untitled> ")
        terminal.type("\u{1B}[122;6u")  // Shift+Ctrl+Z as a terminal with CSI u sends it
        #expect(try terminal.waitForPrompt("untitled*> ").contains("Redo Typing"))

        // In a line being typed the keys do nothing: the line is kept.
        terminal.type("me\u{1A}nu\r")
        try terminal.waitFor("Undo Typing    Ctrl+Z")
        try terminal.waitForPrompt("untitled*> ")
        terminal.type("quit\r")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("Unload of a plugin with steps, close of an unsaved document and quitting with unsaved documents ask first")
    func questionsBeforeThrowingWorkAway() throws {
        let terminal = try PseudoTerminal()
        try terminal.waitForPrompt("untitled> ")
        terminal.type("canvas.add 1 \"rect\" 0 0 1 1 0\r")
        try terminal.waitForPrompt("untitled*> ")

        terminal.type("unload canvas\r")
        try terminal.waitFor("Unload canvas? 1 step of it will leave the history (this cannot be undone). [y/N] ")
        terminal.type("n")
        #expect(try terminal.waitForPrompt("untitled*> ").contains("Kept; nothing was changed"))

        terminal.type("close\r")
        try terminal.waitFor("Close untitled? It has unsaved changes; its steps leave the history. [y/N] ")
        terminal.type("\r")
        try terminal.waitForPrompt("untitled*> ")

        terminal.type("quit\r")
        try terminal.waitFor("Quit? untitled has unsaved changes. [y/N] ")
        terminal.type("n")
        try terminal.waitForPrompt("untitled*> ")
        terminal.type("\u{4}")  // Ctrl+D asks the same, and "no" answers the same
        try terminal.waitFor("Quit? untitled has unsaved changes. [y/N] ")
        terminal.type("n")
        #expect(try terminal.waitForPrompt("untitled*> ").contains("Kept; nothing was changed"))

        terminal.type("unload canvas\r")
        try terminal.waitFor("[y/N] ")
        terminal.type("y")
        #expect(try terminal.waitForPrompt("untitled> ").contains("Unloaded org.undohost.canvas: 1 step left the history"))
        // Nothing unsaved now: no question.
        terminal.type("quit\r")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("--yes: no questions")
    func yesAsksNothing() throws {
        let terminal = try PseudoTerminal(arguments: ["--yes"])
        try terminal.waitForPrompt("untitled> ")
        terminal.type("text.insert 0 \"unsaved\"\r")
        try terminal.waitForPrompt("untitled*> ")
        terminal.type("quit\r")
        #expect(try terminal.waitForExit() == 0)
        #expect(!terminal.transcript.contains("[y/N]"))
    }

    @Test("show fits the terminal's rows; show --all prints the whole document")
    func showUsesTheTerminalSize() throws {
        let terminal = try PseudoTerminal(arguments: ["--yes"], columns: 80, rows: 10)
        try terminal.waitForPrompt("untitled> ")
        let text = (1...30).map { "line \($0)" }.joined(separator: "\\n")
        terminal.type("text.insert 0 \"\(text)\"\r")
        try terminal.waitForPrompt("untitled*> ")
        terminal.type("show\r")
        let shown = try terminal.waitForPrompt("untitled*> ")
        // 10 rows: the heading, 5 lines, the note below, and the prompt.
        #expect(shown.contains("  line 5\r\n  ... 25 more lines below"), "\(shown.debugDescription)")
        terminal.type("show --all\r")
        let whole = try terminal.waitForPrompt("untitled*> ")
        #expect(whole.contains("  line 1\r\n"))
        #expect(whole.contains("  line 30\r\n"))
        #expect(!whole.contains("more lines"))
        terminal.type("quit\r")
        #expect(try terminal.waitForExit() == 0)
    }
}
