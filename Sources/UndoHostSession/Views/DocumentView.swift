import UndoCore
import UndoHostTerminal

/// A document as its plugin describes it, with the places the last undo or redo changed
/// highlighted, and the view moved so the first of them is in sight (the HIG: show the result
/// of an undo or redo, never leave it invisible).
///
/// How a reported change maps onto the description (the convention of the sample plugins,
/// documented for plugin authors in docs/undo-host.md, "What show highlights"):
/// - location and length (a range; length 0 is a point): characters of the text, counted in
///   Unicode scalars, where markup tags such as `<b>` and `</i>` take no room;
/// - location alone (an object id): the line that starts with `#<id>`;
/// - neither (the whole document): every line.
public struct DocumentView: Sendable, Equatable {
    /// A highlighted span of the description, in scalar offsets of `text` (empty: a point).
    public struct Highlight: Sendable, Equatable {
        public var start: Int
        public var length: Int
        public init(start: Int, length: Int) {
            self.start = start
            self.length = length
        }
    }

    public var document: String
    /// Who shows the document (the plugin's name).
    public var source: String
    /// The plugin's description, as it gave it.
    public var text: String
    public var highlights: [Highlight]
    /// Object ids reported changed that the description no longer shows (a shape whose adding
    /// was undone), so the view can still say what changed.
    public var vanishedObjects: [Int64]

    /// Where an excerpt sits in its document: what `text` shows is `range` of a document of
    /// `extent` units (the units of the plugin's change locations), the rest left out.
    public struct Excerpt: Sendable, Equatable {
        public var range: Range<Int64>
        public var extent: Int64
        public init(range: Range<Int64>, extent: Int64) {
            self.range = range
            self.extent = extent
        }
    }

    /// Set when `text` is only the part of a large document around the last change
    /// (`HostSession.excerptThreshold`), `nil` when it is the whole document.
    public var excerpt: Excerpt?

    /// The most lines and columns shown; longer documents scroll to the first highlight.
    public var height = 12
    public var width = 78
    /// Shown whole (`show --all`): never scrolled or cut.
    public var isWhole = false

    /// The view sized for `layout` (a whole view stays whole).
    func fitted(to layout: TextLayout) -> DocumentView {
        var view = self
        // Large enough for any document, small enough that adding to it cannot overflow.
        view.height = isWhole ? Int(Int32.max) : layout.documentRows
        view.width = isWhole ? Int(Int32.max) : layout.width - 2
        return view
    }

    /// - Complexity: O(text + changes × log changes): the text is read once (lines and object
    ///   lines indexed in one pass), whatever the number of changes.
    public init(document: String, source: String, text: String, changes: [UndoChange]) {
        self.document = document
        self.source = source
        self.text = text
        var highlights: [Highlight] = []
        var vanished: [Int64] = []
        var map = VisibleTextMap(text)
        var wholeDocument = false
        for change in changes {
            switch (change.location, change.length) {
            case (nil, _):
                wholeDocument = true
            case (let location?, nil):
                if let line = map.objectLine(id: location) { highlights.append(line) } else { vanished.append(location) }
            case (let location?, let length?):
                highlights.append(map.span(visibleStart: location, length: max(0, length)))
            }
        }
        DocumentViewWork.note(changes.count)
        // Every line once, however many changes named the whole document.
        if wholeDocument { highlights.append(contentsOf: map.lineSpans.filter { $0.length > 0 }) }
        self.highlights = Self.merged(highlights)
        vanishedObjects = Array(Set(vanished)).sorted()
    }

    /// Sorted, with overlapping or touching ranges joined, and points at or inside a range
    /// (or repeated) dropped.
    static func merged(_ highlights: [Highlight]) -> [Highlight] {
        var result: [Highlight] = []
        for highlight in highlights.sorted(by: { ($0.start, $0.length) < ($1.start, $1.length) }) {
            if let last = result.last {
                let lastEnd = last.start + last.length
                if highlight.length == 0 {
                    if highlight.start >= last.start && highlight.start <= lastEnd { continue }
                } else if last.length == 0 && last.start == highlight.start {
                    result[result.count - 1] = highlight
                    continue
                } else if last.length > 0 && highlight.start <= lastEnd {
                    result[result.count - 1].length = max(lastEnd, highlight.start + highlight.length) - last.start
                    continue
                }
            }
            result.append(highlight)
        }
        return result
    }

    // MARK: Rendering

    /// The heading and the document's lines (indented), scrolled and cut to the view's size.
    public func rendered(style: TextStyle, words: SessionText = .english) -> String {
        var output = [style.bold(document) + " (\(source))" + (text.isEmpty && excerpt == nil ? ": " + words.empty : "")]
        let above = excerpt.map { Int($0.range.lowerBound) } ?? 0
        let below = excerpt.map { Int($0.extent - $0.range.upperBound) } ?? 0
        if above > 0 { output.append("  ... " + words.charactersAbove(above) + (below > 0 ? "" : " " + words.excerptHint)) }
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else {
            if below > 0 { output.append("  ... " + words.charactersBelow(below) + " " + words.excerptHint) }
            return (output + vanishedNote(words)).joined(separator: "\n")
        }

        // Lines as scalar ranges.
        var lines: [Range<Int>] = []
        var lineStart = 0
        for (index, scalar) in scalars.enumerated() where scalar == "\n" {
            lines.append(lineStart..<index)
            lineStart = index + 1
        }
        lines.append(lineStart..<scalars.count)
        DocumentViewWork.note(scalars.count)

        // Scroll: the first highlight's line sits a third of the way down.
        let focusOffset = highlights.first?.start
        let focusLine = focusOffset.map { offset in Self.firstIndex(in: lines) { $0.upperBound >= offset } ?? 0 } ?? 0
        var first = 0
        if lines.count > height {
            first = min(max(0, focusLine - height / 3), lines.count - height)
        }
        let last = min(lines.count, first + height)
        if first > 0 { output.append("  ... " + words.linesAbove(first)) }
        for line in lines[first..<last] {
            output.append("  " + render(line: line, scalars: scalars, style: style))
        }
        if last < lines.count {
            let below = lines.count - last
            output.append("  ... " + words.linesBelow(below))
        }
        if below > 0 { output.append("  ... " + words.charactersBelow(below) + " " + words.excerptHint) }
        return (output + vanishedNote(words)).joined(separator: "\n")
    }

    /// The first index of `items` whose element satisfies `isAtOrPast`, which must be false
    /// then true along the array (a binary search).
    static func firstIndex<T>(in items: [T], where isAtOrPast: (T) -> Bool) -> Int? {
        var low = 0
        var high = items.count
        while low < high {
            let middle = low + (high - low) / 2
            if isAtOrPast(items[middle]) { high = middle } else { low = middle + 1 }
        }
        DocumentViewWork.note(items.count.bitWidth - items.count.leadingZeroBitCount + 1)
        return low < items.count ? low : nil
    }

    private func vanishedNote(_ words: SessionText) -> [String] {
        vanishedObjects.isEmpty ? [] : ["  (" + words.vanished + ": " + vanishedObjects.map { "#\($0)" }.joined(separator: ", ") + ")"]
    }

    /// One line with its highlights; a line wider than the view is cut around its first highlight.
    private func render(line: Range<Int>, scalars: [Unicode.Scalar], style: TextStyle) -> String {
        var visible = line
        let widths = scalars[line].map { Character($0).terminalWidth }
        let total = widths.reduce(0, +)
        // The highlights touching this line: merged highlights are sorted and their ends never
        // go down, so a binary search finds the first and the rest follow it (a whole view of
        // many lines and many highlights stays linear).
        let first = Self.firstIndex(in: highlights) { $0.start + $0.length >= line.lowerBound } ?? highlights.count
        var past = first
        while past < highlights.count && highlights[past].start <= line.upperBound { past += 1 }
        let onLine = highlights[first..<past]
        DocumentViewWork.note(line.count + onLine.count)
        // The indent, and the room the highlight marks take ([ and ] without a terminal).
        let marks = style == .plain ? 2 * onLine.count : 1
        let available = width - 2 - marks
        var cutBefore = false
        var cutAfter = false
        if total > available {
            let focus = onLine.first?.start ?? line.lowerBound
            var start = max(line.lowerBound, min(focus, line.upperBound))
            // Back up about a third of the view so the highlight has context on its left.
            var room = available / 3
            while start > line.lowerBound && room > 0 {
                start -= 1
                room -= widths[start - line.lowerBound]
            }
            var end = start
            var used = 0
            let budget = available - 2 // the two ellipses
            while end < line.upperBound && used + widths[end - line.lowerBound] <= budget {
                used += widths[end - line.lowerBound]
                end += 1
            }
            // Use what is left at the end to show more on the left.
            while start > line.lowerBound && used + widths[start - 1 - line.lowerBound] <= budget {
                start -= 1
                used += widths[start - line.lowerBound]
            }
            visible = start..<end
            cutBefore = start > line.lowerBound
            cutAfter = end < line.upperBound
        }
        var output = cutBefore ? "…" : ""
        var position = visible.lowerBound
        var plain = String.UnicodeScalarView()
        func flushPlain() {
            output += String(plain)
            plain.removeAll()
        }
        for highlight in onLine {
            let start = highlight.start
            let end = highlight.start + highlight.length
            // The part of this highlight on the visible part of the line.
            let from = max(start, visible.lowerBound)
            let to = min(end, visible.upperBound)
            let isPointHere = highlight.length == 0 && start >= visible.lowerBound && start <= visible.upperBound
            guard (from < to) || isPointHere, from >= position else { continue }
            plain.append(contentsOf: scalars[position..<from])
            flushPlain()
            output += style.highlighted(String(String.UnicodeScalarView(scalars[from..<max(from, to)])))
            position = max(from, to)
        }
        plain.append(contentsOf: scalars[position..<visible.upperBound])
        flushPlain()
        return output + (cutAfter ? "…" : "")
    }

    var json: JSONValue {
        // Once, not once per highlight.
        let scalars = Array(text.unicodeScalars)
        DocumentViewWork.note(scalars.count + highlights.count)
        return .object([
            ("document", .string(document)),
            ("source", .string(source)),
            ("text", .string(text)),
            ("highlights", .array(highlights.map { highlight in
                let start = min(highlight.start, scalars.count)
                let end = min(highlight.start + highlight.length, scalars.count)
                return .object([("start", .integer(highlight.start)), ("length", .integer(highlight.length)),
                                ("text", .string(String(String.UnicodeScalarView(scalars[start..<end]))))])
            })),
            ("vanished", .array(vanishedObjects.map { .int($0) })),
            // Where the text sits in its document when it is only the part around the change.
            ("excerpt", excerpt.map { excerpt in
                .object([("start", .int(excerpt.range.lowerBound)), ("end", .int(excerpt.range.upperBound)),
                         ("extent", .int(excerpt.extent))])
            } ?? .null),
        ])
    }
}

/// Maps visible character offsets (markup tags take no room) to scalar offsets of a
/// description, and finds the lines of objects. Built in one pass over the text; the lines
/// and the object lines are indexed once, the first time they are asked for.
struct VisibleTextMap {
    let scalars: [Unicode.Scalar]
    /// The scalar offset of each visible character, in order.
    let visibleOffsets: [Int]
    /// Every line as a span (without its newline).
    let lineSpans: [DocumentView.Highlight]
    /// The first line starting with "#<id>" (and not "#<id><digit>") for each id; built on
    /// the first object change.
    private var objectLines: [Int64: DocumentView.Highlight]?

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var offsets: [Int] = []
        var spans: [DocumentView.Highlight] = []
        var lineStart = 0
        var index = 0
        while index < scalars.count {
            if let tagLength = Self.markupTagLength(at: index, in: scalars) {
                index += tagLength
                continue
            }
            if scalars[index] == "\n" {
                spans.append(DocumentView.Highlight(start: lineStart, length: index - lineStart))
                lineStart = index + 1
            }
            offsets.append(index)
            index += 1
        }
        spans.append(DocumentView.Highlight(start: lineStart, length: scalars.count - lineStart))
        visibleOffsets = offsets
        lineSpans = spans
        DocumentViewWork.note(scalars.count)
    }

    /// The length of a markup tag at `index` (`<b>`, `</i>`: a '<', an optional '/', one to
    /// eight ASCII letters, a '>'), or `nil`.
    static func markupTagLength(at index: Int, in scalars: [Unicode.Scalar]) -> Int? {
        guard scalars[index] == "<" else { return nil }
        var cursor = index + 1
        if cursor < scalars.count && scalars[cursor] == "/" { cursor += 1 }
        let lettersStart = cursor
        while cursor < scalars.count && (("a"..."z").contains(scalars[cursor]) || ("A"..."Z").contains(scalars[cursor])) {
            cursor += 1
        }
        let letters = cursor - lettersStart
        guard letters >= 1 && letters <= 8, cursor < scalars.count, scalars[cursor] == ">" else { return nil }
        return cursor + 1 - index
    }

    /// The scalar span of `length` visible characters from visible offset `start`.
    func span(visibleStart start: Int64, length: Int64) -> DocumentView.Highlight {
        // Plugins report any Int64: clamp to the text before adding, so nothing overflows.
        let count = Int64(visibleOffsets.count)
        let start = min(max(start, 0), count)
        let length = min(max(length, 0), count)
        let begin = scalarOffset(ofVisible: start)
        guard length > 0 else { return DocumentView.Highlight(start: begin, length: 0) }
        let lastVisible = start + length - 1
        let end = lastVisible < count ? visibleOffsets[Int(lastVisible)] + 1 : scalars.count
        return DocumentView.Highlight(start: begin, length: max(0, end - begin))
    }

    /// Where visible character `offset` is; past the end, the end of the text.
    private func scalarOffset(ofVisible offset: Int64) -> Int {
        guard offset >= 0 else { return 0 }
        return offset < visibleOffsets.count ? visibleOffsets[Int(offset)] : scalars.count
    }

    /// The line starting with "#<id>" (and not "#<id><digit>").
    /// - Complexity: O(text) the first time (all object lines are indexed), O(1) after.
    mutating func objectLine(id: Int64) -> DocumentView.Highlight? {
        if objectLines == nil { objectLines = indexObjectLines() }
        return objectLines?[id]
    }

    /// One pass over the lines: each line that starts with "#" and the way `"#\(id)"` writes an
    /// id (an optional "-", digits without a leading zero unless the id is 0) is that id's line,
    /// unless an earlier line already is.
    private func indexObjectLines() -> [Int64: DocumentView.Highlight] {
        var lines: [Int64: DocumentView.Highlight] = [:]
        var read = 0
        for line in lineSpans {
            let end = line.start + line.length
            guard line.length > 1, scalars[line.start] == "#" else { continue }
            var cursor = line.start + 1
            let negative = scalars[cursor] == "-"
            if negative { cursor += 1 }
            let digitsStart = cursor
            var digits = ""
            while cursor < end, ("0"..."9").contains(scalars[cursor]), cursor - digitsStart <= 20 {
                digits.unicodeScalars.append(scalars[cursor])
                cursor += 1
            }
            read += cursor - line.start
            // "#0", "#12": written as "\(id)" writes it; "#012", "#-0" and too many digits are not an id.
            guard !digits.isEmpty, cursor == end || !("0"..."9").contains(scalars[cursor]),
                  digits == "0" ? !negative : !digits.hasPrefix("0"),
                  let id = Int64((negative ? "-" : "") + digits) else { continue }
            if lines[id] == nil { lines[id] = line }
        }
        DocumentViewWork.note(lineSpans.count + read)
        return lines
    }
}
