/// Draws the prompt and the line being edited across as many terminal rows as they take, as
/// readline does: it remembers the row the cursor was left on, so each redraw goes back up to
/// the prompt's first row, clears to the end of the screen and writes the line again. Wide
/// characters that do not fit at the end of a row move to the next one, as terminals do.
public struct LineRenderer: Sendable {
    public init() {}

    /// The row of the cursor after the last draw, counted from the prompt's first row.
    public private(set) var cursorRow = 0
    /// The row the end of the line was on after the last draw.
    public private(set) var endRow = 0

    /// Where each position of `cells` (the prompt's and the line's characters) ends up:
    /// the row and column after placing `count` of them, on a terminal `width` columns wide.
    /// - Complexity: O(count).
    public static func position(after count: Int, of widths: [Int], width: Int) -> (row: Int, column: Int) {
        var row = 0
        var column = 0
        for cellWidth in widths.prefix(count) {
            if column + cellWidth > width {
                row += 1
                column = 0
            }
            column += cellWidth
        }
        // At the last column the terminal waits to wrap; the cursor is shown on the next row.
        if column >= width {
            row += 1
            column = 0
        }
        return (row, column)
    }

    /// The output that redraws `prompt` and the editor's line with the cursor in place.
    /// - Complexity: O(length of the line).
    public mutating func render(prompt: String, editor: LineEditor, width: Int) -> String {
        let width = max(width, 2)
        let widths = prompt.map(\.terminalWidth) + editor.characters.map(\.terminalWidth)
        var output = cursorRow > 0 ? "\u{1B}[\(cursorRow)A" : ""
        output += "\r\u{1B}[J" + prompt + editor.text
        let end = Self.position(after: widths.count, of: widths, width: width)
        // Ending exactly at the last column: move onto the next row, where the cursor is counted.
        if end.column == 0 && !widths.isEmpty { output += "\r\n" }
        let cursor = Self.position(after: prompt.count + editor.cursor, of: widths, width: width)
        if end.row > cursor.row { output += "\u{1B}[\(end.row - cursor.row)A" }
        output += "\r"
        if cursor.column > 0 { output += "\u{1B}[\(cursor.column)C" }
        cursorRow = cursor.row
        endRow = end.row
        return output
    }

    /// The output that leaves the line (after Enter, Ctrl+C or a listing): the cursor goes
    /// below its last row, and the next draw starts a new line.
    public mutating func leave() -> String {
        let down = endRow - cursorRow
        cursorRow = 0
        endRow = 0
        return (down > 0 ? "\u{1B}[\(down)B" : "") + "\r\n"
    }

    /// Forgets the rows drawn (the screen was cleared).
    public mutating func reset() {
        cursorRow = 0
        endRow = 0
    }
}
