import Foundation
import Testing
import UndoCore
import UndoPluginHost
@testable import UndoHostSession
import UndoTestSupport

/// After a change, an undo or a redo, a large document is shown around what changed: the view
/// reads in proportion to the change, not to the document (counted with DocumentViewWork, never
/// timed), and `show` still shows it whole.
@Suite("Document excerpts after a move")
struct DocumentExcerptTests {
    /// "line 000123 of a document of many lines, words.\n": 48 characters.
    static let lineLength = 48
    static func line(_ number: Int) -> String {
        "line " + String(repeating: "0", count: 6 - String(number).count) + "\(number) of a document of many lines, words."
    }

    /// A session with document d holding `lines` lines of the text editor.
    private func session(lines: Int) throws -> HostSession {
        let host = PluginHost()
        _ = try host.load(file: UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginTextEditor.so").path)
        let session = HostSession(host: host)
        #expect(session.run("doc d")?.error == nil)
        let text = (0..<lines).map { Self.line($0) + "\\n" }.joined()
        #expect(session.run("text.insert 0 \"\(text)\"")?.error == nil)
        #expect(session.run("break")?.error == nil)
        return session
    }

    /// Work done by `body`, counted for this task only.
    private func work(_ body: () throws -> Void) rethrows -> Int {
        let counter = DocumentViewWork()
        try DocumentViewWork.$current.withValue(counter) { try body() }
        return counter.total
    }

    private func documentViews(_ outcome: CommandOutcome) -> [DocumentView] {
        switch outcome.body {
        case .moved(_, _, let views), .documents(let views): return views
        default: return []
        }
    }

    @Test("An undo and a redo of a small edit read the same, few characters in 10^5 and 10^6 characters",
          arguments: [2_200, 22_000])
    func undoReadsInProportionToTheChange(lines: Int) throws {
        let session = try self.session(lines: lines)
        let middle = lines / 2
        #expect(session.run("text.insert \(middle * Self.lineLength + 10) \"HELLO\"")?.error == nil)
        var undone = ""
        var json = JSONValue.null
        let undoUnits = try work {
            let outcome = try #require(session.run("undo"))
            #expect(outcome.error == nil)
            undone = outcome.text(style: .plain, layout: TextLayout(width: 80, height: 24))
            json = .array(documentViews(outcome).map(\.json))
        }
        var redone = ""
        let redoUnits = try work {
            let outcome = try #require(session.run("redo"))
            #expect(outcome.error == nil)
            redone = outcome.text(style: .plain, layout: TextLayout(width: 80, height: 24))
        }
        // The whole text is 48 × lines characters (10^5 or 10^6); the excerpt about 12 lines of
        // it and the context read around them (2 × 1,024), whatever the document's length.
        #expect(undoUnits < 20_000, "undo read \(undoUnits) units of a \(lines * Self.lineLength)-character document")
        #expect(redoUnits < 20_000, "redo read \(redoUnits) units")
        let total = lines * Self.lineLength
        // 4 lines above the changed one, 7 below; the rest counted, not shown.
        let above = (middle - 4) * Self.lineLength
        let below = total - (middle + 8) * Self.lineLength + 1
        #expect(undone.contains("  ... \(SessionText.grouped(above)) more characters above\n  \(Self.line(middle - 4))\n"), "\(undone)")
        #expect(undone.contains("  line " + Self.line(middle).dropFirst(5).prefix(5) + "[]"), "\(undone)")
        #expect(undone.hasSuffix("\(Self.line(middle + 7))\n  ... \(SessionText.grouped(below)) more characters below (show: the whole document)"), "\(undone)")
        #expect(!undone.contains("more line"), "the excerpt fits the view: \(undone)")
        let changed = String(Self.line(middle).prefix(10)) + "[HELLO]" + String(Self.line(middle).dropFirst(10))
        #expect(redone.contains("  " + changed + "\n"), "\(redone)")
        #expect(redone.contains("\(SessionText.grouped(below)) more characters below"), "the redone text adds to the excerpt: \(redone)")
        // --json says where the excerpt sits, and its highlights index into its text.
        guard case .array(let views) = json, case .object(let fields)? = views.first else {
            Issue.record("no view in \(json)")
            return
        }
        let excerpt = fields.first { $0.0 == "excerpt" }?.1
        #expect(excerpt == .object([("start", .int(Int64(above))), ("end", .int(Int64(total - below))), ("extent", .int(Int64(total)))]))
        let text = fields.first { $0.0 == "text" }?.1
        #expect(text == .string((middle - 4...middle + 7).map { Self.line($0) }.joined(separator: "\n")))
    }

    @Test("A small document is shown whole after an undo, as before; show shows a large one whole")
    func smallDocumentsAndShowStayWhole() throws {
        let small = try session(lines: 100)
        #expect(small.run("text.insert 480 \"HELLO\"")?.error == nil)
        let undone = try #require(small.run("undo"))
        #expect(documentViews(undone).map(\.excerpt) == [nil])
        #expect(undone.text(style: .plain, layout: TextLayout(width: 80, height: 24)).contains("more lines above"))

        let large = try session(lines: 1_000)
        #expect(large.run("text.insert 24000 \"HELLO\"")?.error == nil)
        let moved = try #require(large.run("undo"))
        #expect(documentViews(moved).first?.excerpt == DocumentView.Excerpt(range: 23_808..<24_383, extent: 48_000))
        let shown = try #require(large.run("show"))
        #expect(documentViews(shown).map(\.excerpt) == [nil])
        #expect(documentViews(shown).first?.text.unicodeScalars.count == 48_000)
        #expect(shown.text(style: .plain, layout: TextLayout(width: 80, height: 24)).contains("more lines above"))
    }

    @Test("Markup open across the excerpt's ends is opened and closed in it; a highlight counts characters, not tags")
    func markupInAnExcerpt() throws {
        let session = try self.session(lines: 1_000)
        // Bold from line 400 to line 600; then italic inside line 500.
        #expect(session.run("text.bold \(400 * 48) \(200 * 48)")?.error == nil)
        #expect(session.run("text.italic \(500 * 48 + 5) 6")?.error == nil)
        let outcome = try #require(session.run("undo"))
        let view = try #require(documentViews(outcome).first)
        #expect(view.excerpt?.range == Int64(496 * 48)..<Int64(508 * 48 - 1))
        #expect(view.text.hasPrefix("<b>" + Self.line(496)))
        #expect(view.text.hasSuffix(Self.line(507) + "</b>"))
        let highlighted = view.text.unicodeScalars.dropFirst(view.highlights[0].start).prefix(view.highlights[0].length)
        #expect(String(highlighted) == "000500", "\(view.highlights)")
    }

    @Test("Changes spread far apart, or not ranges, show the document whole")
    func spreadChangesShowWhole() throws {
        let session = try self.session(lines: 1_000)
        #expect(session.run("text.insert 10 \"A\"")?.error == nil)
        #expect(session.run("break")?.error == nil)
        #expect(session.run("text.insert 40000 \"B\"")?.error == nil)
        let outcome = try #require(session.run("undo 2"))
        #expect(outcome.error == nil)
        #expect(documentViews(outcome).map(\.excerpt) == [nil])
        // A paste of 30,000 characters is shown whole in its excerpt, with its lines.
        let paste = (0..<625).map { _ in "p" + String(repeating: "q", count: 46) + "\\n" }.joined()
        #expect(session.run("text.insert 48 \"\(paste)\"")?.error == nil)
        #expect(session.run("undo")?.error == nil)
        let redone = try #require(session.run("redo"))
        let view = try #require(documentViews(redone).first)
        // From the document's start (one line above) to 8 lines below: the paste ends a line.
        #expect(view.excerpt?.range == 0..<Int64(30_000 + 9 * 48 - 1))
        #expect(view.highlights.count == 1 && view.highlights[0].length == 30_000)
    }

    @Test("undo-host prints the excerpt, --json reports it, and --locale ko says it in Korean")
    func throughTheBuiltProgram() throws {
        let text = (0..<300).map { Self.line($0) + "\\n" }.joined()
        let script = """
            text.insert 0 "\(text)"
            break
            text.insert 7210 "HELLO"
            undo
            show
            """
        let plain = try UndoHostProcess.runScript(script)
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(plain.standardOutput.contains("Undo Typing\nuntitled (Text Editor)\n  ... 7,008 more characters above\n  " + Self.line(146) + "\n"),
                "\(plain.standardOutput)")
        #expect(plain.standardOutput.contains("  ... 6,817 more characters below (show: the whole document)\n"))
        // show: the whole document, scrolled to the change.
        #expect(plain.standardOutput.contains("more lines above"))

        let korean = try UndoHostProcess.runScript(script, extraArguments: ["--locale", "ko"])
        #expect(korean.status == 0)
        #expect(korean.standardOutput.contains("  ... 위에 7,008자 더 있음\n"), "\(korean.standardOutput)")
        #expect(korean.standardOutput.contains("  ... 아래에 6,817자 더 있음 (문서 전체: show)\n"))

        let json = try UndoHostProcess.runScript(script, extraArguments: ["--json"])
        let lines = json.standardOutput.split(separator: "\n")
        #expect(lines.count == 5)
        let undo = try #require(JSONSerialization.jsonObject(with: Data(lines[3].utf8)) as? [String: Any])
        let documents = try #require(undo["documents"] as? [[String: Any]])
        let excerpt = try #require(documents.first?["excerpt"] as? [String: Any])
        #expect(excerpt["start"] as? Int == 7_008 && excerpt["end"] as? Int == 7_583 && excerpt["extent"] as? Int == 14_400)
        let show = try #require(JSONSerialization.jsonObject(with: Data(lines[4].utf8)) as? [String: Any])
        let shown = try #require((show["documents"] as? [[String: Any]])?.first)
        #expect(shown["excerpt"] is NSNull)
    }
}
