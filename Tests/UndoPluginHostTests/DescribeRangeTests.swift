import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// describe_range (ABI 1.8): the view of a part of a document, from the plugin when it has the
/// function (reading only that part), else cut from the whole view the same way.
@Suite("Views of a range (describe_range)")
struct DescribeRangeTests {
    private let doc = UndoContext("doc")

    typealias SetInt = @convention(c) (Int32) -> Void
    typealias SetLength = @convention(c) (Int64) -> Void
    typealias UnitsRead = @convention(c) () -> Int64

    /// A host with the ranger fixture, whose documents are `length` characters.
    private func ranger(length: Int64, mode: Int32 = 0) throws -> (PluginHost, UnitsRead) {
        let path = try Fixtures.buildPlugin("ranger.c")
        try Fixtures.function("ranger_set_length", in: path, as: SetLength.self)(length)
        try Fixtures.function("ranger_set_mode", in: path, as: SetInt.self)(mode)
        let (host, _) = makeHost()
        _ = try host.load(file: path)
        return (host, try Fixtures.function("ranger_units_read", in: path, as: UnitsRead.self))
    }

    private static func character(_ index: Int64) -> Character {
        index % 10 == 9 ? "\n" : Character(Unicode.Scalar(UInt8(97 + index % 26)))
    }

    @Test("The plugin reads only the range asked for, in a document of 10^6 characters")
    func readsOnlyTheRange() throws {
        let (host, unitsRead) = try ranger(length: 1_000_000)
        #expect(host.describesRanges(plugin: "org.example.ranger") == true)
        let view = try host.view(of: doc, plugin: "org.example.ranger", range: 500_000..<500_030)
        #expect(view.text == String((500_000..<500_030).map(Self.character)))
        #expect(view.range == 500_000..<500_030 && view.extent == 1_000_000)
        #expect(view.byteLength == 30 && !view.isCut)
        #expect(unitsRead() == 30, "a whole describe would read 10^6")
        // Clamped to the document: past its end is the empty range at the end; a range before
        // its start begins at 0.
        let past = try host.view(of: doc, plugin: "org.example.ranger", range: 2_000_000..<2_000_010)
        #expect(past.text == "" && past.range == 1_000_000..<1_000_000 && past.extent == 1_000_000)
        let end = try host.view(of: doc, plugin: "org.example.ranger", range: 999_995..<1_000_100)
        #expect(end.range == 999_995..<1_000_000 && end.text.count == 5)
        let start = try host.view(of: doc, plugin: "org.example.ranger", range: -5..<3)
        #expect(start.range == 0..<3 && start.text == "abc")
        // A limit cuts the part's view and says so.
        let cut = try host.view(of: doc, plugin: "org.example.ranger", range: 0..<100, atMost: 10)
        #expect(cut.text == "abcdefghi\n" && cut.isCut && cut.byteLength == 100)
    }

    @Test("A plugin that sets no extent, fails, or always asks for more fails the view with the reason")
    func misbehavingPlugins() throws {
        let (noExtent, _) = try ranger(length: 100, mode: 1)
        guard case .actionFailed(let missing)? = hostError({ _ = try noExtent.view(of: doc, plugin: "org.example.ranger", range: 0..<5) }) else {
            Issue.record("no error without an extent")
            return
        }
        #expect(missing.code == Int32(UNDO_EPLUGIN) && missing.message.contains("extent"), "\(missing)")

        let (refusing, _) = try ranger(length: 100, mode: 2)
        guard case .actionFailed(let refused)? = hostError({ _ = try refusing.view(of: doc, plugin: "org.example.ranger", range: 0..<5) }) else {
            Issue.record("no error from a refusing plugin")
            return
        }
        #expect(refused.code == Int32(UNDO_EINVAL) && refused.message == "ranger refuses this range")
        #expect(refused.phase == .describe)

        let (greedy, _) = try ranger(length: 100, mode: 3)
        guard case .actionFailed(let asked)? = hostError({ _ = try greedy.view(of: doc, plugin: "org.example.ranger", range: 0..<5) }) else {
            Issue.record("no error from a plugin asking for ever more")
            return
        }
        #expect(asked.code == Int32(UNDO_EPLUGIN) && asked.message.contains("asked for"), "\(asked)")
    }

    @Test("The text editor's describe_range is the whole view cut the way the host cuts it for plugins without one")
    func textEditorAgreesWithTheCut() throws {
        let (host, _) = makeHost()
        _ = try host.load(file: Fixtures.textEditor)
        #expect(host.describesRanges(plugin: "org.undohost.text") == true)
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for round in 0..<40 {
            let length = Int64(text.unicodeScalars.count)
            let position = Int64.random(in: 0...length, using: &generator)
            switch round % 4 {
            case 0, 1:
                let inserted = ["héllo ", "wörld\n", "日本", "a<b", "x"].randomElement(using: &generator)!
                try host.perform("text.insert", [.i64(position), .string(inserted)], in: doc)
                text.unicodeScalars.insert(contentsOf: inserted.unicodeScalars, at: text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: Int(position)))
            case 2 where position < length:
                try host.perform("text.bold", [.i64(position), .i64(min(7, length - position))], in: doc)
            case 3 where position / 2 < length:
                try host.perform("text.italic", [.i64(position / 2), .i64(min(5, length - position / 2))], in: doc)
            default:
                continue
            }
        }
        let whole = try host.describe(doc, plugin: "org.undohost.text")
        let extent = Int64(text.unicodeScalars.count)
        for lower in stride(from: Int64(0), through: extent + 2, by: 3) {
            for count: Int64 in [0, 1, 4, 11, 40, extent] {
                let range = lower..<(lower + count)
                let view = try host.view(of: doc, plugin: "org.undohost.text", range: range)
                let cut = ViewExcerpt.cut(whole, range: range)
                #expect(view.text == cut.text, "\(range) of \(whole)")
                #expect(view.range == cut.range && view.extent == cut.extent && view.extent == extent)
            }
        }
        #expect(ViewExcerpt.cut(whole, range: 0..<extent).text == whole)
    }

    @Test("A plugin without describe_range is described whole and cut: tags open at the start opened, closed at the end")
    func cutForPluginsWithoutIt() throws {
        let (host, _) = makeHost()
        _ = try host.load(file: Fixtures.canvas)
        let canvas = try #require(host.plugins.first { $0.canDescribe }).id
        #expect(host.describesRanges(plugin: canvas) == false)
        try host.perform("canvas.add", argumentText: "1 \"rect\" 1 2 3 4 0xff0000", in: doc)
        let whole = try host.describe(doc, plugin: canvas)
        let extent = Int64(whole.unicodeScalars.count)
        let view = try host.view(of: doc, plugin: canvas, range: 2..<6)
        #expect(view.text == String(String.UnicodeScalarView(Array(whole.unicodeScalars)[2..<6])))
        #expect(view.range == 2..<6 && view.extent == extent)
        #expect(host.describesRanges(plugin: "org.example.none") == nil)
        #expect(hostError { _ = try host.view(of: doc, plugin: "org.example.none", range: 0..<1) } == .unknownPlugin("org.example.none"))

        #expect(ViewExcerpt.cut("Hello <b>world</b>", range: 8..<11) == ("<b>rld</b>", 8..<11, 11))
        #expect(ViewExcerpt.cut("<b>a<i>bc</i></b>d", range: 1..<2) == ("<b><i>b</i></b>", 1..<2, 4))
        #expect(ViewExcerpt.cut("<b>a<i>bc</i></b>d", range: 0..<4) == ("<b>a<i>bc</i></b>d", 0..<4, 4))
        #expect(ViewExcerpt.cut("ab <notatag", range: 3..<20) == ("<notatag", 3..<11, 11))
        #expect(ViewExcerpt.cut("abc", range: 1..<1) == ("", 1..<1, 3))
    }
}
