import Foundation
import Testing
import UndoTestSupport

/// undo-host beside Vim, move by move (issue 32): the same moves in both, the text after each.
/// Vim's texts are pinned here (`vim -u NONE -N -es` printed them); when vim is installed the
/// test runs it again and checks the pins, else that part is skipped (said in the output).
/// Where undo-host differs on purpose, the scenario pins its text and says why.
@Suite("undo-host beside Vim")
struct VimComparisonTests {
    enum Move: CustomStringConvertible {
        /// Inserts the letters at the start of the line (Vim `0i`, undo-host `text.insert 0`), one state.
        case type(String)
        case undo(Int), redo(Int)
        case earlier(String), later(String)
        /// Vim `:undo N`, undo-host `goto N`.
        case goTo(Int)
        /// Vim `:write`, undo-host `save`.
        case save
        /// Vim `:edit!` (the saved file again), undo-host `revert`.
        case revert
        /// Switch to another document (Vim: buffer; both keep each document's own undo).
        case document(String)

        var description: String {
            switch self {
            case .type(let text): "type \(text)"
            case .undo(let count): "undo \(count)"
            case .redo(let count): "redo \(count)"
            case .earlier(let distance): "earlier \(distance)"
            case .later(let distance): "later \(distance)"
            case .goTo(let state): "goto \(state)"
            case .save: "save"
            case .revert: "revert"
            case .document(let name): "doc \(name)"
            }
        }
    }

    struct Scenario: CustomTestStringConvertible, Sendable {
        var name: String
        var moves: [Move]
        /// Vim's text after each move.
        var vim: [String]
        /// Where undo-host gives another text on purpose: the move's index, undo-host's text, why.
        var differences: [Int: (text: String, reason: String)] = [:]
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "branches: goto onto a branch, undo and redo along it",
                 moves: [.type("a"), .type("b"), .type("c"), .undo(2), .type("d"), .goTo(3), .undo(1), .redo(1), .goTo(1), .goTo(4), .goTo(0)],
                 vim: ["a", "ba", "cba", "a", "da", "cba", "ba", "cba", "a", "da", ""]),
        Scenario(name: "counts: undo and redo several steps",
                 moves: [.type("a"), .type("b"), .type("c"), .type("d"), .undo(3), .redo(2), .undo(5), .redo(9)],
                 vim: ["a", "ba", "cba", "dcba", "a", "cba", "", "dcba"]),
        Scenario(name: "g- and g+ across branches",
                 moves: [.type("a"), .type("b"), .undo(1), .type("c"), .earlier("1"), .earlier("1"), .earlier("1"), .later("1"), .later("1"), .later("1")],
                 vim: ["a", "ba", "a", "ca", "ba", "a", "", "a", "ba", "ca"]),
        Scenario(name: "earlier and later by counts of states",
                 moves: [.type("a"), .type("b"), .type("c"), .undo(2), .type("d"), .earlier("3"), .later("2"), .earlier("9"), .later("9")],
                 vim: ["a", "ba", "cba", "a", "da", "a", "cba", "", "da"]),
        Scenario(name: "saves in a line: earlier 1f and later 1f",
                 moves: [.type("a"), .save, .type("b"), .type("c"), .save, .type("d"), .earlier("1f"), .earlier("1f"), .earlier("1f"), .later("1f"), .later("1f"), .later("1f")],
                 vim: ["a", "a", "ba", "cba", "cba", "dcba", "cba", "a", "", "a", "cba", "dcba"]),
        Scenario(name: "saves across branches",
                 moves: [.type("a"), .save, .type("b"), .save, .undo(2), .type("c"), .save, .earlier("1f"), .earlier("1f"), .later("1f"), .later("1f")],
                 vim: ["a", "a", "ba", "ba", "", "c", "c", "ba", "a", "ba", "c"]),
        Scenario(name: "a re-saved older state",
                 moves: [.type("a"), .save, .type("b"), .save, .undo(1), .save, .earlier("1f"), .later("1f"), .later("1f")],
                 vim: ["a", "a", "ba", "ba", "a", "a", "ba", "a", "ba"],
                 differences: [6: ("", "undo-host's stops are the saved states in the order they were made (1 then 2), each "
                                   + "once, so earlier 1f from the first saved state goes to the start; Vim orders them by "
                                   + "the writes, where writing \"a\" again made \"ba\" the write before it")]),
        Scenario(name: "time moves: back past everything and forward again",
                 moves: [.type("a"), .type("b"), .type("c"), .earlier("100s"), .later("100s"), .undo(1), .earlier("1h"), .later("1d")],
                 vim: ["a", "ba", "cba", "", "cba", "ba", "", "cba"]),
        Scenario(name: "a revert to the save, undone and redone",
                 moves: [.type("a"), .save, .type("b"), .type("c"), .revert, .undo(1), .undo(1), .redo(2)],
                 vim: ["a", "a", "ba", "cba", "a", "cba", "ba", "a"]),
        Scenario(name: "a revert after branching away from the save",
                 moves: [.type("a"), .save, .undo(1), .type("b"), .revert, .undo(1), .goTo(1), .goTo(3)],
                 vim: ["a", "a", "", "b", "a", "b", "a", "a"]),
        Scenario(name: "two documents, each with its own undo",
                 moves: [.document("x"), .type("a"), .document("y"), .type("1"), .type("2"), .document("x"), .type("b"), .undo(1),
                         .document("y"), .undo(1), .document("x"), .redo(1)],
                 vim: ["", "a", "", "1", "21", "a", "ba", "a", "21", "1", "a", "ba"]),
        Scenario(name: "two documents: earlier moves the whole history",
                 moves: [.document("x"), .type("a"), .document("y"), .type("1"), .document("x"), .type("b"), .earlier("1"),
                         .earlier("1"), .document("y")],
                 vim: ["", "a", "", "1", "a", "ba", "a", "", "1"],
                 differences: [7: ("a", "one history is shared by every document: earlier 1 went to the state made before, "
                                   + "state 1, where x is \"a\" and y is still empty; Vim keeps a tree per buffer"),
                               8: ("", "y is as at state 1: before its \"1\"")]),
    ]

    // MARK: Running the moves

    /// The text of the document after each move, at undo-host.
    static func undoHostTexts(_ moves: [Move]) throws -> [String] {
        var script = ""
        for move in moves {
            switch move {
            case .type(let text): script += "text.insert 0 \"\(text)\"\nbreak\n"
            case .undo(let count): script += "undo \(count)\n"
            case .redo(let count): script += "redo \(count)\n"
            case .earlier(let distance): script += "earlier \(distance)\n"
            case .later(let distance): script += "later \(distance)\n"
            case .goTo(let state): script += "goto \(state)\n"
            case .save: script += "save\n"
            case .revert: script += "revert\n"
            case .document(let name): script += "doc \(name)\n"
            }
            script += "show\n"
        }
        let run = try UndoHostProcess.run(["--json", "--keep-going", "--yes"], input: script)
        var texts: [String] = []
        for line in run.standardOutput.split(separator: "\n") where line.contains("\"command\":\"show\"") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let documents = object?["documents"] as? [[String: Any]]
            texts.append(documents?.first?["text"] as? String ?? "(no document)")
        }
        return texts
    }

    static var vimPath: String? {
        for folder in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: folder + "/vim") {
            return folder + "/vim"
        }
        return nil
    }

    /// The text of the buffer after each move, in Vim (`vim -u NONE -N -es`).
    static func vimTexts(_ moves: [Move], vim: String) throws -> [String] {
        let folder = try TemporaryFolder()
        let path = folder.url.path
        var script = "set nocompatible hidden noswapfile undolevels=1000 undoreload=10000\n"
        script += "let g:out = []\nedit \(path)/untitled\n"
        for move in moves {
            switch move {
            // Setting 'undolevels' to itself ends the undo block (Ex mode would join the changes).
            case .type(let text): script += "normal! 0i\(text)\nlet &g:undolevels = &g:undolevels\n"
            case .undo(let count): script += "execute \"normal! \(count)u\"\n"
            case .redo(let count): script += "execute \"normal! \(count)\\<C-R>\"\n"
            case .earlier(let distance): script += "silent! earlier \(distance)\n"
            case .later(let distance): script += "silent! later \(distance)\n"
            case .goTo(let state): script += "silent! undo \(state)\n"
            case .save: script += "silent write!\n"
            case .revert: script += "silent edit!\n"
            case .document(let name): script += "silent edit \(path)/\(name)\n"
            }
            script += "call add(g:out, getline(1))\n"
        }
        script += "call writefile(g:out, '\(path)/out.txt')\nqall!\n"
        try script.write(toFile: path + "/moves.vim", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: vim)
        process.arguments = ["-u", "NONE", "-N", "-es", "-S", path + "/moves.vim"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let out = try String(contentsOfFile: path + "/out.txt", encoding: .utf8)
        var lines = out.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    // MARK: Tests

    @Test("undo-host gives Vim's text after every move, or differs on purpose for the reason given", arguments: scenarios)
    func beside(_ scenario: Scenario) throws {
        #expect(scenario.moves.count == scenario.vim.count, "one pinned text per move")
        let texts = try Self.undoHostTexts(scenario.moves)
        #expect(texts.count == scenario.moves.count, "\(texts)")
        for (index, move) in scenario.moves.enumerated() where index < texts.count {
            let expected = scenario.differences[index]?.text ?? scenario.vim[index]
            #expect(texts[index] == expected,
                    "move \(index) (\(move)): undo-host \"\(texts[index])\", Vim \"\(scenario.vim[index])\"")
        }
        for (index, difference) in scenario.differences where !difference.reason.isEmpty {
            #expect(difference.text != scenario.vim[index], "a difference pinned where there is none (move \(index))")
        }
    }

    @Test("Vim still prints the pinned texts (skipped without vim)", .enabled(if: vimPath != nil, "vim is not installed"),
          arguments: scenarios)
    func vimPins(_ scenario: Scenario) throws {
        let texts = try Self.vimTexts(scenario.moves, vim: try #require(Self.vimPath))
        #expect(texts == scenario.vim, "\(scenario.name): Vim printed \(texts)")
    }

    @Test("At least ten scenarios, covering branches, counts, saves, a re-saved state, time, a revert, two documents")
    func coverage() {
        #expect(Self.scenarios.count >= 10)
    }
}
