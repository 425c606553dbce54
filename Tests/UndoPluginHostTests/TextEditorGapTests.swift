import Testing
import UndoCore
@testable import UndoPluginHost

/// The bundled text editor keeps a document as a gap buffer: an edit moves only the characters
/// between the last edit and this one. Built with its count of moved characters switched on
/// (the fixture `text_editor_counting.c` compiles the plugin's own source).
@Suite("The text editor's gap buffer")
struct TextEditorGapTests {
    private let doc = UndoContext("doc")
    typealias Moved = @convention(c) () -> UInt64

    private func editor() throws -> (PluginHost, Moved) {
        let path = try Fixtures.buildPlugin("text_editor_counting.c",
                                            flags: ["-I", Fixtures.root + "/Plugins/TextEditor/include"])
        let (host, _) = makeHost()
        _ = try host.load(file: path)
        return (host, try Fixtures.function("text_editor_moved_characters", in: path, as: Moved.self))
    }

    private func insert(_ host: PluginHost, _ position: Int, _ text: String) throws {
        _ = try host.perform(try host.actionType("text.insert"), [.i64(Int64(position)), .string(text)], in: doc)
    }

    private func delete(_ host: PluginHost, _ position: Int, _ length: Int) throws {
        _ = try host.perform(try host.actionType("text.delete"), [.i64(Int64(position)), .i64(Int64(length))], in: doc)
    }

    private static func letters(_ count: Int, from first: Int = 0) -> String {
        String((first..<(first + count)).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
    }

    @Test("Typing, undoing, redoing and backspacing where the cursor is move nothing; a jump moves what it passes")
    func editsMoveWhatTheyPass() throws {
        let (host, moved) = try editor()
        // 10^5 characters typed at the end: the gap is always there.
        for chunk in 0..<100 { try insert(host, chunk * 1000, Self.letters(1000, from: chunk * 1000)) }
        #expect(moved() == 0)
        var expected = Array(Self.letters(100_000).unicodeScalars)
        host.history.withStack { $0.breakCoalescing() }

        // 1,000 keystrokes in the middle: the gap moves there once (50,000 characters), then
        // every keystroke lands in it. One array moved the 50,000 after it per keystroke.
        var before = moved()
        for i in 0..<1000 { try insert(host, 50_000 + i, "x") }
        #expect(moved() - before == 50_000)
        expected.insert(contentsOf: Array(repeating: "x", count: 1000), at: 50_000)
        #expect(try host.describe(doc, plugin: "org.undohost.text").unicodeScalars.elementsEqual(expected))

        // The run undone and redone at the gap: nothing moves.
        before = moved()
        try host.undo()
        #expect(try host.describe(doc, plugin: "org.undohost.text") == Self.letters(100_000))
        try host.redo()
        #expect(moved() - before == 0)
        #expect(try host.describe(doc, plugin: "org.undohost.text").unicodeScalars.elementsEqual(expected))

        // A backspace run at the gap: nothing moves.
        host.history.withStack { $0.breakCoalescing() }
        before = moved()
        for i in 0..<100 { try delete(host, 50_999 - i, 1) }
        #expect(moved() - before == 0)
        expected.removeSubrange(50_900..<51_000)

        // A jump to the start moves the characters between (50,890), once.
        before = moved()
        try insert(host, 10, "jump")
        #expect(moved() - before == 50_890)
        expected.insert(contentsOf: "jump".unicodeScalars, at: 10)
        #expect(try host.describe(doc, plugin: "org.undohost.text").unicodeScalars.elementsEqual(expected))
    }

    /// A document as the saved format writes it: "UHT", version 1, the count, the styles, the
    /// characters (4 bytes each, little-endian).
    private static func saved(_ chars: [Unicode.Scalar], _ styles: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = Array("UHT".utf8) + [1]
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(chars.count) >> (8 * $0)) }
        bytes += styles
        for c in chars { bytes += (0..<4).map { UInt8(truncatingIfNeeded: c.value >> (8 * $0)) } }
        return bytes
    }

    @Test("Random edits, styles, undos and redos leave the document a model keeps", arguments: 0..<6)
    func randomEditsMatchAModel(seed: UInt64) throws {
        let (host, _) = try editor()
        var random = SplitMix(seed: seed)
        let alphabet = Array("ab\u{e9}\u{1F600}\n c".unicodeScalars)
        var chars: [Unicode.Scalar] = []
        var styles: [UInt8] = []
        // The document after each step of the history (merged steps replace the last).
        var states: [([Unicode.Scalar], [UInt8])] = [([], [])]
        for _ in 0..<400 {
            let undoCount = host.history.withStack { $0.undoCount }
            let roll = random.next(below: 100)
            let travels = (roll < 10 && undoCount > 0) || (roll >= 10 && roll < 18 && host.history.withStack { $0.redoCount } > 0)
            if travels {
                if roll < 10 { try host.undo() } else { try host.redo() }
            } else if roll < 55 || chars.isEmpty {
                let position = random.next(below: chars.count + 1)
                let text = (0..<(1 + random.next(below: 6))).map { _ in alphabet[random.next(below: alphabet.count)] }
                try insert(host, position, String(String.UnicodeScalarView(text)))
                chars.insert(contentsOf: text, at: position)
                styles.insert(contentsOf: Array(repeating: 0, count: text.count), at: position)
            } else if roll < 80 {
                let position = random.next(below: chars.count)
                let length = 1 + random.next(below: min(5, chars.count - position))
                try delete(host, position, length)
                chars.removeSubrange(position..<(position + length))
                styles.removeSubrange(position..<(position + length))
            } else {
                let position = random.next(below: chars.count)
                let length = 1 + random.next(below: min(20, chars.count - position))
                let style: UInt8 = roll < 90 ? 1 : 2
                _ = try host.perform(try host.actionType(style == 1 ? "text.bold" : "text.italic"),
                                 [.i64(Int64(position)), .i64(Int64(length))], in: doc)
                let all = styles[position..<(position + length)].allSatisfy { $0 & style != 0 }
                for i in position..<(position + length) { styles[i] = all ? styles[i] & ~style : styles[i] | style }
            }
            let now = host.history.withStack { $0.undoCount }
            if travels {
                (chars, styles) = states[now]  // an undo or a redo: the state of that step
            } else {
                states.removeSubrange(min(now + 1, states.count)...)
                if now == states.count { states.append((chars, styles)) } else { states[now] = (chars, styles) }
            }
            let bytes = try host.saveDocumentState(plugin: "org.undohost.text", context: doc)
            #expect(bytes == Self.saved(chars, styles), "seed \(seed)")
            if bytes != Self.saved(chars, styles) { return }
        }
        // Loaded into a new document (its gap after what it read), then edited in its middle
        // and at its start: the saves still match.
        let copy = UndoContext("copy")
        try host.loadDocumentState(Self.saved(chars, styles), plugin: "org.undohost.text", context: copy)
        let middle = chars.count / 2
        _ = try host.perform(try host.actionType("text.insert"), [.i64(Int64(middle)), .string("\u{e9}x")], in: copy)
        chars.insert(contentsOf: "\u{e9}x".unicodeScalars, at: middle)
        styles.insert(contentsOf: [0, 0], at: middle)
        _ = try host.perform(try host.actionType("text.delete"), [.i64(0), .i64(1)], in: copy)
        chars.removeFirst()
        styles.removeFirst()
        #expect(try host.saveDocumentState(plugin: "org.undohost.text", context: copy) == Self.saved(chars, styles))
    }
}

extension SplitMix {
    /// A number in `0 ..< bound`, the same for a seed on every run.
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
