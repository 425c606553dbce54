/// The session `undo-host demo` plays with the bundled plugins: typing (coalesced into one
/// step), bold, a shape drag (coalesced into one Move), undo and redo with the result
/// highlighted, and revert to saved, showing the Edit menu and the documents as it goes.
public enum DemoScript {
    /// Lines starting with `##` are headings; the demo prints each command before its output.
    public static let text = """
        ## A letter in the text editor: two bursts of typing make one step
        doc letter.txt
        text.insert 0 "Dear Ann,"
        text.insert 9 " thank you for the sketch."
        menu
        save
        text.bold 10 9
        show
        menu
        ## A sketch on the canvas: three moves of one drag make one step
        doc sketch
        canvas.add 1 "rect" 10 10 40 30 0xff0000
        canvas.add 2 "circle" 80 20 16 16 0x0000ff
        canvas.move 2 5 0
        canvas.move 2 5 0
        canvas.move 2 5 5
        menu
        ## Undo and redo show what changed
        undo
        menu
        redo
        ## Back to the letter: revert to the saved version, itself undoable
        doc letter.txt
        revert
        menu
        history
        alert
        """
}

extension DemoScript {
    /// The demo with its headings in the language of `words` (the commands stay as they are).
    public static func text(in words: SessionText) -> String {
        var headings = words.demoHeadings.makeIterator()
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("## ") ? "## " + (headings.next() ?? String(line.dropFirst(3))) : String(line)
        }.joined(separator: "\n")
    }
}
