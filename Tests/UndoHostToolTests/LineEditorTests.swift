import Testing
import UndoHostSession
import UndoHostTerminal

/// The line editor and key decoder alone (the pseudo-terminal tests drive them end to end).
@Suite("Line editor and key decoding")
struct LineEditorTests {
    private func type(_ text: String, into editor: inout LineEditor) {
        for character in text { _ = editor.apply(.character(character)) }
    }

    @Test("Cursor movement and insertion in the middle")
    func insertInTheMiddle() {
        var editor = LineEditor()
        type("undo 3", into: &editor)
        _ = editor.apply(.left)
        _ = editor.apply(.left)
        type(" to", into: &editor)
        #expect(editor.text == "undo to 3")
        #expect(editor.cursor == 7)
        _ = editor.apply(.home)
        _ = editor.apply(.delete)
        #expect(editor.text == "ndo to 3")
        _ = editor.apply(.end)
        _ = editor.apply(.backspace)
        #expect(editor.text == "ndo to ")
        _ = editor.apply(.eraseToStart)
        #expect(editor.text == "")
    }

    @Test("Graphemes are edited whole: one backspace removes a Korean syllable or an emoji")
    func graphemes() {
        var editor = LineEditor()
        type("ab한👍🏽", into: &editor)
        _ = editor.apply(.backspace)
        _ = editor.apply(.left)
        _ = editor.apply(.backspace)
        #expect(editor.text == "a한")
    }

    @Test("Up and down walk the history and come back to the line being typed")
    func history() {
        var editor = LineEditor()
        type("menu", into: &editor)
        #expect(editor.apply(.enter) == .submitted("menu"))
        type("history", into: &editor)
        #expect(editor.apply(.enter) == .submitted("history"))
        type("dr", into: &editor)
        _ = editor.apply(.up)
        #expect(editor.text == "history")
        _ = editor.apply(.up)
        _ = editor.apply(.up)
        #expect(editor.text == "menu")
        _ = editor.apply(.down)
        _ = editor.apply(.down)
        #expect(editor.text == "dr")
        #expect(editor.history == ["menu", "history"])
    }

    @Test("Ctrl+D ends input only on an empty line; Ctrl+C drops the line")
    func controlKeys() {
        var editor = LineEditor()
        #expect(editor.apply(.endOfInput) == .endOfInput)
        type("abc", into: &editor)
        _ = editor.apply(.home)
        #expect(editor.apply(.endOfInput) == .editing)
        #expect(editor.text == "bc")
        #expect(editor.apply(.interrupt) == .cancelled)
        #expect(editor.text == "")
        #expect(editor.history.isEmpty)
    }

    @Test("The redraw puts the cursor back where it is, counting wide characters twice")
    func rendering() {
        var editor = LineEditor()
        type("문서x", into: &editor)
        _ = editor.apply(.left)
        _ = editor.apply(.left)
        var renderer = LineRenderer()
        #expect(renderer.render(prompt: "> ", editor: editor, width: 80) == "\r\u{1B}[J> 문서x\r\u{1B}[4C")
    }

    @Test("A line wider than the terminal: the redraw goes back up to the prompt's row, and a wide character that does not fit moves to the next row")
    func renderingAcrossRows() {
        var editor = LineEditor()
        type("abcdefghij", into: &editor)  // "> " + 10 = 12 columns on 5-column rows: 3 rows
        var renderer = LineRenderer()
        #expect(renderer.render(prompt: "> ", editor: editor, width: 5) == "\r\u{1B}[J> abcdefghij\r\u{1B}[2C")
        #expect(renderer.cursorRow == 2)
        _ = editor.apply(.home)
        // Up two rows to the prompt, then from the end (row 2) up to the cursor (row 0).
        #expect(renderer.render(prompt: "> ", editor: editor, width: 5) == "\u{1B}[2A\r\u{1B}[J> abcdefghij\u{1B}[2A\r\u{1B}[2C")
        #expect(renderer.leave() == "\u{1B}[2B\r\n")

        // Ending exactly at the last column: the cursor is put on the next row.
        var exact = LineEditor()
        type("abc", into: &exact)
        var renderer2 = LineRenderer()
        #expect(renderer2.render(prompt: "> ", editor: exact, width: 5) == "\r\u{1B}[J> abc\r\n\r")
        #expect(renderer2.cursorRow == 1)

        // "> 문" is 4 columns; "서" (2) does not fit in the last one and starts row 1.
        #expect(LineRenderer.position(after: 4, of: [1, 1, 2, 2], width: 5) == (1, 2))
    }

    @Test("Escape sequences, split across reads, become keys")
    func decoding() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.decode(Array("a\u{1B}[".utf8)) == [.character("a")])
        #expect(decoder.hasPending)
        #expect(decoder.decode(Array("D\u{1B}[3~\u{1B}OH\u{1B}[1;5C".utf8)) == [.left, .delete, .home, .right])
        #expect(decoder.decode([0xED, 0x95]) == [])
        #expect(decoder.decode([0x9C, 0x0D, 0x7F, 0x04]) == [.character("한"), .enter, .backspace, .endOfInput])
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.flush() == [.ignored])
    }

    @Test("The Edit menu's keys: Ctrl+Z, Ctrl+Y, and Shift+Ctrl+Z in the CSI u and modifyOtherKeys forms")
    func editKeys() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.decode([0x1A, 0x19]) == [.undo, .redo])
        #expect(decoder.decode(Array("\u{1B}[122;5u\u{1B}[122;6u\u{1B}[90;6u\u{1B}[121;5u".utf8)) == [.undo, .redo, .redo, .redo])
        #expect(decoder.decode(Array("\u{1B}[27;5;122~\u{1B}[27;6;90~\u{1B}[27;5;121~".utf8)) == [.undo, .redo, .redo])
        // Other modified keys are not these (Ctrl+Alt+Z, Ctrl+A in CSI u), and Ctrl+Delete stays Delete.
        #expect(decoder.decode(Array("\u{1B}[122;7u\u{1B}[97;5u\u{1B}[3;5~".utf8)) == [.ignored, .ignored, .delete])

        // They act only at an empty prompt.
        var editor = LineEditor()
        #expect(editor.apply(.undo) == .shortcut("undo"))
        #expect(editor.apply(.redo) == .shortcut("redo"))
        _ = editor.apply(.character("m"))
        #expect(editor.apply(.undo) == .editing)
        #expect(editor.text == "m")
    }
}
