import Testing
import UndoCore
import UndoPluginHost
@testable import UndoHostSession
import UndoTestSupport

/// Showing the result of undo all / redo all reads the text once, not once per change: counted
/// in units of text and highlights read (DocumentViewWork), never timed.
@Suite("Document view scaling")
struct DocumentViewScalingTests {
    private let doc = UndoContext("d")

    /// Work done by `body`, counted for this task only.
    private func work(_ body: () throws -> Void) rethrows -> Int {
        let counter = DocumentViewWork()
        try DocumentViewWork.$current.withValue(counter) { try body() }
        return counter.total
    }

    @Test("Many object, range and whole-document changes: the view's work is linear in text + changes",
          arguments: [1_000, 4_000])
    func manyChanges(count: Int) {
        let text = (0..<count).map { "#\($0) shape <b>\($0)</b>" }.joined(separator: "\n")
        let textLength = text.unicodeScalars.count
        var changes: [UndoChange] = []
        for id in 0..<count {
            changes.append(UndoChange(context: doc, location: Int64(id)))
            changes.append(UndoChange(context: doc, location: Int64(id * 5), length: 2))
            changes.append(UndoChange(context: doc))
        }
        var view = DocumentView(document: "d", source: "P", text: text, changes: [])
        let units = work {
            view = DocumentView(document: "d", source: "P", text: text, changes: changes)
            _ = view.rendered(style: .plain)
            var whole = view
            whole.isWhole = true
            whole.height = Int(Int32.max)
            whole.width = Int(Int32.max)
            _ = whole.rendered(style: .terminal)
            _ = view.json
        }
        // Reading the text once per change would be count × textLength (≥ 3 × 10^7 here).
        #expect(units <= 20 * (textLength + changes.count), "\(units) units for \(textLength) scalars, \(changes.count) changes")
        // Every line is highlighted (the whole document changed): each starts inside a highlight.
        var lineStart = 0
        var next = 0
        var uncovered = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            while next < view.highlights.count && view.highlights[next].start + view.highlights[next].length <= lineStart { next += 1 }
            if next == view.highlights.count || view.highlights[next].start > lineStart { uncovered += 1 }
            lineStart += line.unicodeScalars.count + 1
        }
        #expect(uncovered == 0)
    }

    @Test("Object lines are found by id as before: first line, not #id followed by a digit, not #0id")
    func objectLinesIndexed() {
        let text = "#012 z\n#12 a\n#1 b\n#1 again\n#-3 c\n#0 d\n#99999999999999999999 e"
        func line(_ id: Int64) -> [DocumentView.Highlight] {
            DocumentView(document: "d", source: "P", text: text, changes: [UndoChange(context: doc, location: id)]).highlights
        }
        #expect(line(12) == [DocumentView.Highlight(start: 7, length: 5)])
        #expect(line(1) == [DocumentView.Highlight(start: 13, length: 4)])
        #expect(line(-3) == [DocumentView.Highlight(start: 27, length: 5)])
        #expect(line(0) == [DocumentView.Highlight(start: 33, length: 4)])
        #expect(line(Int64.max).isEmpty)
    }

    @Test("undo all and redo all of N canvas steps through the session: work O(N + text), not O(N × text)",
          arguments: [500, 2_000])
    func undoAllThroughTheSession(steps: Int) throws {
        let host = PluginHost()
        _ = try host.load(file: UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginCanvas.so").path)
        let session = HostSession(host: host)
        #expect(session.run("doc d")?.error == nil)
        for id in 1...steps {
            let outcome = session.run("canvas.add \(id) \"rect\" \(id % 100) 10 4 3 0xff0000")
            #expect(outcome?.error == nil)
        }
        var shown = ""
        let undoUnits = try work {
            let outcome = try #require(session.run("undo to 0"))
            #expect(outcome.error == nil)
            shown = outcome.text(style: .plain, layout: TextLayout(width: 80, height: 24))
        }
        #expect(shown.contains("d (Canvas"), "\(shown.prefix(200))")
        var redone = ""
        let redoUnits = try work {
            let outcome = try #require(session.run("redo to \(steps)"))
            #expect(outcome.error == nil)
            redone = outcome.text(style: .plain, layout: TextLayout(width: 80, height: 24))
        }
        let text = try host.describe(UndoContext("d"), plugin: host.plugins.first { $0.canDescribe }!.id)
        let textLength = text.unicodeScalars.count
        #expect(textLength > 10 * steps, "the redone canvas describes every shape")
        #expect(redone.contains("[#"), "the redone shapes are highlighted: \(redone.prefix(300))")
        // Per change a read of the whole description would be steps × textLength.
        #expect(undoUnits <= 20 * (steps + textLength), "undo all: \(undoUnits) units")
        #expect(redoUnits <= 20 * (steps + textLength), "redo all: \(redoUnits) units for \(steps) steps, \(textLength) scalars")
    }
}
