import Testing
import UndoCore
import UndoHostSession
import UndoHostTerminal

/// How reported changes land on a description: ranges skip markup, objects are lines.
@Suite("Document view highlighting")
struct DocumentViewTests {
    private let doc = UndoContext("d")

    private func render(_ text: String, _ changes: [UndoChange], style: TextStyle = .plain) -> String {
        DocumentView(document: "d", source: "P", text: text, changes: changes).rendered(style: style)
    }

    @Test("A range counts characters of the text, not the markup tags")
    func rangeSkipsMarkup() {
        let view = render("ab<b>cd</b>ef", [UndoChange(context: doc, location: 1, length: 4)])
        #expect(view == "d (P)\n  a[b<b>cd</b>e]f")
    }

    @Test("Positions count Unicode scalars, like the plugins")
    func scalars() {
        let view = render("안녕 world", [UndoChange(context: doc, location: 3, length: 5)])
        #expect(view == "d (P)\n  안녕 [world]")
    }

    @Test("A point (length 0) shows where text went; in a terminal as a reverse-video bar")
    func point() {
        #expect(render("Hello", [UndoChange(context: doc, location: 5, length: 0)]) == "d (P)\n  Hello[]")
        #expect(render("Hello", [UndoChange(context: doc, location: 2, length: 0)], style: .terminal)
            == "\u{1B}[1md\u{1B}[22m (P)\n  He\u{1B}[7m|\u{1B}[27mllo")
    }

    @Test("An object id is the line starting with #id (not #id1…)")
    func objectLine() {
        let text = "#1 a\n#12 b\n#2 c"
        #expect(render(text, [UndoChange(context: doc, location: 1)]) == "d (P)\n  [#1 a]\n  #12 b\n  #2 c")
        #expect(render(text, [UndoChange(context: doc, location: 12)]) == "d (P)\n  #1 a\n  [#12 b]\n  #2 c")
        #expect(render(text, [UndoChange(context: doc, location: 9)]) == "d (P)\n  #1 a\n  #12 b\n  #2 c\n  (changed and no longer there: #9)")
    }

    @Test("Places beyond the text, even at the ends of Int64, are clamped, never a trap")
    func outOfRange() {
        #expect(render("abc", [UndoChange(context: doc, location: .max, length: .max)]) == "d (P)\n  abc[]")
        #expect(render("abc", [UndoChange(context: doc, location: -5, length: 2)]) == "d (P)\n  [ab]c")
        #expect(render("", [UndoChange(context: doc, location: 3, length: 1)]) == "d (P): empty")
    }

    @Test("Overlapping ranges are one highlight; other documents' changes are ignored")
    func merging() {
        let changes = [UndoChange(context: doc, location: 0, length: 3), UndoChange(context: doc, location: 2, length: 3),
                       UndoChange(context: UndoContext("other"), location: 6, length: 1)]
        let view = DocumentView(document: "d", source: "P", text: "abcdefgh", changes: changes.filter { $0.context == doc })
        #expect(view.highlights == [DocumentView.Highlight(start: 0, length: 5)])
        #expect(view.rendered(style: .plain) == "d (P)\n  [abcde]fgh")
    }
}
