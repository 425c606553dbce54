import Testing
import UndoHostSession
import UndoPluginHost

/// Reading command lines, before anything runs.
@Suite("Command parsing")
struct SessionCommandParsingTests {
    @Test("Commands and their words", arguments: [
        ("undo", SessionCommand.undo(.steps(1))),
        ("  undo 3", .undo(.steps(3))),
        ("undo to 0", .undo(.to(0))),
        ("redo to 4", .redo(.to(4))),
        ("group begin \"Paste \\\"Style\\\"\"", .groupBegin(name: "Paste \"Style\"")),
        ("group begin", .groupBegin(name: nil)),
        ("group begin \"Paste\" --description \"Paste 2 lines\"", .groupBegin(name: "Paste", description: "Paste 2 lines")),
        // The escapes of an action's string arguments (a backslash used to vanish: "A\nB" gave "AnB").
        (#"group begin "A\nB\t\\ \u{1F600}" --description "line\none""#,
         .groupBegin(name: "A\nB\t\\ \u{1F600}", description: "line\none")),
        ("group begin --description \"Paste 2 lines\" \"Paste\"", .groupBegin(name: "Paste", description: "Paste 2 lines")),
        ("group begin --description Longer", .groupBegin(name: nil, description: "Longer")),
        ("group end", .groupEnd),
        ("doc \"My Letter.txt\"", .document("My Letter.txt")),
        ("doc", .document(nil)),
        ("alert u", .alert(choice: "u")),
        ("exit", .quit),
    ])
    func parses(line: String, command: SessionCommand) throws {
        #expect(try SessionCommand.parse(line) == command)
    }

    @Test("Anything else is an action, with its argument text and where it starts")
    func actions() throws {
        #expect(try SessionCommand.parse("text.insert 0 \"a b\"")
            == .perform(action: "text.insert", arguments: "0 \"a b\"", argumentColumn: 13))
        #expect(try SessionCommand.parse("  canvas.remove   7")
            == .perform(action: "canvas.remove", arguments: "7", argumentColumn: 19))
    }

    @Test("An unknown escape in a quoted name is refused, naming it", arguments: [
        (#"group begin "a\qb""#, #"group: unknown escape \q in a quoted name"#, 15),
        (#"doc "x\u{110000}""#, #"doc: unknown escape \u{110000 in a quoted name"#, 7),
    ])
    func unknownEscapes(line: String, message: String, column: Int) {
        do {
            _ = try SessionCommand.parse(line)
            Issue.record("\(line) was accepted")
        } catch {
            #expect(error.message == message)
            #expect(error.column == column)
        }
    }

    @Test("Blank lines and comments are nothing")
    func nothing() throws {
        #expect(try SessionCommand.parse("") == nil)
        #expect(try SessionCommand.parse("   # undo") == nil)
    }

    @Test("Wrong words are refused with the usage", arguments: [
        ("undo x", "undo: \"x\" is not a number of steps"),
        ("undo to", "undo: missing argument"),
        ("menu please", "menu: unexpected \"please\""),
        ("group start", "group: unexpected \"start\""),
        ("group begin \"A\" \"B\"", "group: unexpected \"B\""),
        ("group begin \"A\" --description", "group begin --description: missing argument"),
        ("load", "load: missing argument"),
    ])
    func refuses(line: String, message: String) {
        #expect(throws: SessionError.self) { try SessionCommand.parse(line) }
        do {
            _ = try SessionCommand.parse(line)
        } catch {
            #expect(error.message == message)
            #expect(error.hint?.hasPrefix("usage: ") == true)
        }
    }

    @Test("Suggestions: transposed letters and small typos, nothing for unrelated words")
    func suggestions() {
        #expect(Suggestion.closest(to: "udno", among: SessionCommand.names) == "undo")
        #expect(Suggestion.closest(to: "histroy", among: SessionCommand.names) == "history")
        #expect(Suggestion.closest(to: "pluginz", among: SessionCommand.names) == "plugins")
        #expect(Suggestion.closest(to: "xyzzy", among: SessionCommand.names) == nil)
    }
}
