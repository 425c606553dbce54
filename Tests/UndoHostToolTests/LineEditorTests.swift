import Testing
import UndoHostSession

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
        #expect(editor.rendering(prompt: "> ") == "\r> 문서x\u{1B}[K\u{1B}[3D")
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
}
