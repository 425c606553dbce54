/// A small terminal: what a screen of `columns` × `rows` shows after the bytes a program wrote,
/// for the sequences undo-host uses (printing with the wrap at the last column, CR, LF,
/// cursor up/down/left/right, erase to the end of the line or screen, home and clear), SGR
/// attributes ignored. Enough to check that a redraw leaves no stale copy of a line.
struct ScreenEmulator {
    let columns: Int
    let rows: Int
    private(set) var cells: [[Character]]
    private(set) var row = 0
    private(set) var column = 0
    /// The cursor is past the last column: the next character starts a new row.
    private var pendingWrap = false

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// The rows as text, trailing spaces removed, trailing empty rows dropped.
    var lines: [String] {
        var lines = cells.map { row in String(row[..<(row.lastIndex { $0 != " " }.map { $0 + 1 } ?? 0)]) }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    mutating func feed(_ text: String) {
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "\r\n":
                column = 0
                lineFeed()
            case "\r": column = 0; pendingWrap = false
            case "\n": lineFeed()
            case "\u{1B}":
                guard index < characters.count, characters[index] == "[" else { continue }
                index += 1
                var parameter = ""
                while index < characters.count, characters[index].isNumber || characters[index] == ";" || characters[index] == "?" {
                    parameter.append(characters[index])
                    index += 1
                }
                guard index < characters.count else { return }
                let final = characters[index]
                index += 1
                control(final, Int(parameter.split(separator: ";").first ?? "") ?? 0)
            default:
                guard character.asciiValue.map({ $0 >= 0x20 }) ?? true else { continue }
                if pendingWrap {
                    column = 0
                    lineFeed()
                }
                cells[row][column] = character
                if column == columns - 1 { pendingWrap = true } else { column += 1 }
            }
        }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if row == rows - 1 {
            cells.removeFirst()
            cells.append(Array(repeating: " ", count: columns))
        } else {
            row += 1
        }
    }

    private mutating func control(_ final: Character, _ parameter: Int) {
        let count = max(parameter, 1)
        pendingWrap = false
        switch final {
        case "A": row = max(0, row - count)
        case "B": row = min(rows - 1, row + count)
        case "C": column = min(columns - 1, column + count)
        case "D": column = max(0, column - count)
        case "H": row = 0; column = 0
        case "K": for c in column..<columns { cells[row][c] = " " }
        case "J":
            if parameter == 2 {
                cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
            } else {
                for c in column..<columns { cells[row][c] = " " }
                for r in (row + 1)..<max(row + 1, rows) { cells[r] = Array(repeating: " ", count: columns) }
            }
        default: break // SGR (m) and others: no change to the text
        }
    }
}
