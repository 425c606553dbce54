import Foundation
import Glibc
import Testing

/// The interactive mode, driven through a pseudo-terminal like a person at a keyboard.
@Suite("Interactive session on a terminal")
struct InteractiveTerminalTests {
    static let left = "\u{1B}[D"
    static let right = "\u{1B}[C"
    static let up = "\u{1B}[A"
    static let home = "\u{1B}[H"
    static let end = "\u{1B}[F"
    static let delete = "\u{1B}[3~"
    static let backspace = "\u{7F}"
    static let reverseVideo = "\u{1B}[7m"
    static let normalVideo = "\u{1B}[27m"

    @Test("Prompt, line editing with the arrow keys, the result highlighted in reverse video, Ctrl+D to leave")
    func editAndUndo() throws {
        let terminal = try PseudoTerminal(arguments: ["--yes"])
        try terminal.waitFor("Type help for the commands")
        try terminal.waitForPrompt("untitled> ")

        terminal.type("doc notes\r")
        try terminal.waitForPrompt("notes> ")

        // Type the text with a typo ("hllo"), go back with the left arrow and insert the "e".
        terminal.type("text.insert 0 \"hllo world\"")
        terminal.type(String(repeating: Self.left, count: 10) + "e\r")
        try terminal.waitForPrompt("notes*> ")

        terminal.type("text.bold 0 5\r")
        try terminal.waitForPrompt("notes*> ")
        terminal.type("undo\r")
        let undone = try terminal.waitForPrompt("notes*> ")
        #expect(undone.contains("Undo Bold"))
        // The changed part, "hello", in reverse video: the e typed in the middle made it.
        #expect(undone.contains(Self.reverseVideo + "hello" + Self.normalVideo + " world"), "got \(undone.debugDescription)")

        terminal.type("\u{4}") // Ctrl+D on an empty line
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("Home, End, Backspace, Delete and the history with the up arrow")
    func editingKeys() throws {
        let terminal = try PseudoTerminal(arguments: ["--yes"])
        try terminal.waitForPrompt("untitled> ")
        terminal.type("text.insert 0 \"abc\"\r")
        try terminal.waitForPrompt("untitled*> ")

        // "xmenu" → Home, Delete removes the x; End, Backspace, then "u" again: "menu".
        terminal.type("xmenu" + Self.home + Self.delete + Self.end + Self.backspace + "u\r")
        let menu = try terminal.waitForPrompt("untitled*> ")
        #expect(menu.contains("Undo Typing"))
        #expect(menu.contains("Ctrl+Y"))

        // Up twice recalls "text.insert 0 \"abc\""; change the position to 3 at the start of the line.
        terminal.type(Self.up + Self.up + Self.home + String(repeating: Self.right, count: 12) + Self.delete + "3\r")
        try terminal.waitForPrompt("untitled*> ")
        terminal.type("show\r")
        let shown = try terminal.waitForPrompt("untitled*> ")
        #expect(shown.contains("  abcabc\r\n"), "got \(shown.debugDescription)")

        terminal.type("quit\r")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("quit or Ctrl+D with a group open is refused until group end; Ctrl+D twice leaves with status 1")
    func quitWithAGroupOpen() throws {
        let terminal = try PseudoTerminal(arguments: ["--yes"])
        try terminal.waitForPrompt("untitled> ")
        terminal.type("group begin \"Paste\"\r")
        try terminal.waitForPrompt("untitled+> ")
        terminal.type("text.insert 0 \"a\"\r")
        // Changed inside the open group: "*" (unsaved changes), then "+" (a group open).
        try terminal.waitForPrompt("untitled*+> ")
        terminal.type("quit\r")
        let refused = try terminal.waitForPrompt("untitled*+> ")
        #expect(refused.contains("error: UNDO_ESTATE: a group \"Paste\" is open: not quitting"), "got \(refused.debugDescription)")
        #expect(refused.contains("hint: end it with group end first"))
        terminal.type("\u{4}")
        let again = try terminal.waitForPrompt("untitled*+> ")
        #expect(again.contains("a group \"Paste\" is open: not quitting"))
        // The first Ctrl+D says what a second one does.
        #expect(again.replacingOccurrences(of: "\r\n", with: " ").contains("or press Ctrl+D again to leave without it (exit status 1)"),
                "\(again.debugDescription)")
        terminal.type("group end\r")
        try terminal.waitForPrompt("untitled*> ")
        terminal.type("quit\r")
        #expect(try terminal.waitForExit() == 0)

        // Ctrl+D twice in a row with the group still open: the session ends, status 1.
        let second = try PseudoTerminal(arguments: ["--yes"])
        try second.waitForPrompt("untitled> ")
        second.type("group begin\r")
        try second.waitForPrompt("untitled+> ")
        second.type("\u{4}")
        try second.waitForPrompt("untitled+> ")
        second.type("\u{4}")
        // It leaves, and says so, rather than "not quitting".
        #expect(try second.waitFor("leaving with group never ended (exit status 1)").contains("error: UNDO_ESTATE"))
        #expect(try second.waitForExit() == 1)
    }

    @Test("Errors are shown and the session goes on")
    func errorsDoNotEndTheSession() throws {
        let terminal = try PseudoTerminal(arguments: ["--yes"])
        try terminal.waitForPrompt("untitled> ")
        terminal.type("udno\r")
        let error = try terminal.waitForPrompt("untitled> ")
        #expect(error.contains("error: UNDO_ENOTFOUND: unknown command udno"))
        #expect(error.contains("hint: did you mean undo?"))
        terminal.type("text.insert 0 7\r")
        let arguments = try terminal.waitForPrompt("untitled> ")
        #expect(arguments.contains("error: UNDO_ETYPE: text.insert: argument 2 (text): expected string, got i64 (column 15)"))
        terminal.type("quit\r")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("The alert asks for a choice; one key picks it")
    func alertChoice() throws {
        let terminal = try PseudoTerminal(arguments: ["--yes"])
        try terminal.waitForPrompt("untitled> ")
        terminal.type("canvas.add 7 \"oval\" 1 2 3 4 0xff\r")
        try terminal.waitForPrompt("untitled*> ")
        terminal.type("alert\r")
        let alert = try terminal.waitFor("Choose 1-2 or u/c: ")
        #expect(alert.contains("Alert\u{1B}[22m: Undo Add Shape"))
        #expect(alert.contains("1) Undo Add Shape  [u]"))
        #expect(alert.contains("2) Cancel          [c]"))
        terminal.type("u")
        let picked = try terminal.waitForPrompt("untitled> ")
        #expect(picked.contains("Undo Add Shape"))
        #expect(picked.contains("(changed and no longer there: #7)"))

        terminal.type("alert\r")
        try terminal.waitFor("Choose 1-2 or r/c: ")
        terminal.type("2")
        #expect(try terminal.waitForPrompt("untitled> ").contains("Cancelled"))
        terminal.type("\u{4}")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("Tab completes a command or an action id")
    func tabCompletion() throws {
        let terminal = try PseudoTerminal(arguments: ["--yes"])
        try terminal.waitForPrompt("untitled> ")
        terminal.type("text.ins\t0 \"tab\"\r")
        try terminal.waitForPrompt("untitled*> ")
        terminal.type("hist\t\r")
        let history = try terminal.waitForPrompt("untitled*> ")
        #expect(history.contains("1  Typing \"tab\"  untitled"))
        terminal.type("quit\r")
        #expect(try terminal.waitForExit() == 0)
    }

    @Test("The terminal is put back as it was: on quit and when the program is killed by a signal")
    func terminalIsRestored() throws {
        let terminal = try PseudoTerminal(arguments: ["--yes"])
        let original = terminal.settings
        #expect(original.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
        try terminal.waitForPrompt("untitled> ")
        // At the prompt the line editor has the terminal in raw mode.
        #expect(terminal.settings.c_lflag & tcflag_t(ICANON) == 0)
        terminal.type("quit\r")
        #expect(try terminal.waitForExit() == 0)
        #expect(terminal.settings.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))

        let killed = try PseudoTerminal()
        try killed.waitForPrompt("untitled> ")
        #expect(killed.settings.c_lflag & tcflag_t(ICANON) == 0)
        kill(killed.process.processIdentifier, SIGTERM)
        _ = try killed.waitForExit()
        #expect(killed.process.terminationReason == .uncaughtSignal)
        #expect(killed.settings.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
    }
}
