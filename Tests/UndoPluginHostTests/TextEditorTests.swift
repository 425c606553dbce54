import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// The text editor sample plugin, loaded from its real .so, driven through the shared history.
@Suite struct TextEditorTests {
    let host: PluginHost
    let doc = UndoContext("a.txt")

    init() throws {
        host = makeHost().0
        try host.load(file: Fixtures.textEditor)
    }

    func text(_ context: UndoContext? = nil) throws -> String {
        try host.describe(context ?? doc, plugin: "org.undohost.text")
    }

    @Test func listsItsActionTypes() throws {
        let info = try #require(host.plugins.first)
        #expect(info.id == "org.undohost.text")
        #expect(info.name == "Text Editor")
        #expect(info.path == Fixtures.textEditor)
        #expect(info.actionTypes.map(\.description) == [
            #"text.insert(position: i64, text: string) "Typing""#,
            #"text.delete(position: i64, length: i64) "Delete""#,
            #"text.bold(position: i64, length: i64) "Bold""#,
            #"text.italic(position: i64, length: i64) "Italic""#,
        ])
        #expect(info.actionTypes[1].detailedDescription
            == #"text.delete(position: i64, length: i64) "Delete" inverse(position: i64, text: string, styles: bytes) coalesces("deleting") merges"#)
        #expect(info.actionTypes[0].detailedDescription.hasSuffix(#"coalesces("typing") merges"#))
        #expect(try host.actionType("org.undohost.text/insert") === host.actionType("text.insert"))
        #expect(try host.actionType("insert").fullID == "org.undohost.text/insert")
        #expect(throws: PluginHostError.unknownAction("text.insrt", suggestion: "text.insert")) {
            try host.actionType("text.insrt")
        }
    }

    @Test func typingCoalescesIntoOneTypingStep() throws {
        try host.perform("text.insert", [.i64(0), .string("Hel")], in: doc)
        try host.perform("text.insert", [.i64(3), .string("lo")], in: doc)
        try host.perform("text.insert", argumentText: #"5 " wörld""#, in: doc)
        #expect(try text() == "Hello wörld")
        #expect(host.stepCount == 1)
        #expect(host.undoTitle == "Undo Typing")

        let result = try #require(try host.undo())
        #expect(result.name == "Typing")
        #expect(result.changes == [UndoChange(context: doc, location: 0, length: 0)]) // one merged insert
        #expect(try text() == "")
        #expect(host.redoTitle == "Redo Typing")
        try host.redo()
        #expect(try text() == "Hello wörld")
    }

    /// The editor's merge joins only adjacent typing (insert at p, then at p + the length of the
    /// text before): typing elsewhere is a separate step, undone on its own.
    @Test func typingElsewhereIsASeparateStep() throws {
        try host.perform("text.insert", [.i64(0), .string("ac")], in: doc)
        try host.perform("text.insert", [.i64(1), .string("b")], in: doc) // not adjacent: not merged
        #expect(try text() == "abc")
        #expect(host.stepCount == 2)
        try host.undo()
        #expect(try text() == "ac")
        try host.undo()
        #expect(try text() == "")
        try host.redo(count: 2)
        #expect(try text() == "abc")
    }

    /// Inserting at 0 and again at 0 is two steps; at p and then right after the text is one.
    @Test func onlyAdjacentTypingIsOneStep() throws {
        try host.perform("text.insert", [.i64(0), .string("b")], in: doc)
        try host.perform("text.insert", [.i64(0), .string("a")], in: doc)
        #expect(try text() == "ab")
        #expect(host.stepCount == 2)
        try host.perform("text.insert", [.i64(0), .string("é")], in: doc)
        try host.perform("text.insert", [.i64(1), .string("té")], in: doc)  // after the one character before
        #expect(try text() == "étéab")
        #expect(host.stepCount == 3)
        #expect(try #require(host.newestPluginCommand).arguments == [.i64(0), .string("été")])
        try host.undo()
        #expect(try text() == "ab")
        try host.undo()
        #expect(try text() == "b")
    }

    @Test func deleteHandsBackTextAndStylesForItsInverse() throws {
        try host.perform("text.insert", [.i64(0), .string("Hello world")], in: doc)
        try host.perform("text.bold", [.i64(6), .i64(5)], in: doc)
        #expect(try text() == "Hello <b>world</b>")
        let command = try host.makeCommand("text.delete", argumentText: "4 4", in: doc)
        try host.perform(command)
        #expect(try text() == "Hell<b>rld</b>")
        #expect(host.undoTitle == "Undo Delete")
        let undone = try #require(try host.undo())
        #expect(undone.changes == [UndoChange(context: doc, location: 4, length: 4)])
        #expect(try text() == "Hello <b>world</b>")
        try host.redo()
        #expect(try text() == "Hell<b>rld</b>")
        try host.undo(count: 3)
        #expect(try text() == "")
    }

    @Test func boldAndItalicRestoreThePreviousStyles() throws {
        try host.perform("text.insert", [.i64(0), .string("Hello world")], in: doc)
        try host.perform("text.italic", [.i64(0), .i64(7)], in: doc)
        #expect(try text() == "<i>Hello w</i>orld")
        try host.perform("text.bold", [.i64(4), .i64(4)], in: doc)
        #expect(try text() == "<i>Hell</i><b><i>o w</i>o</b>rld")
        #expect(host.undoTitle == "Undo Bold")
        // Bold on a range that is all bold takes it off.
        try host.perform("text.bold", [.i64(5), .i64(2)], in: doc)
        #expect(try text() == "<i>Hell</i><b><i>o</i></b><i> w</i><b>o</b>rld")
        try host.undo()
        #expect(try text() == "<i>Hell</i><b><i>o w</i>o</b>rld")
        try host.undo()
        #expect(try text() == "<i>Hello w</i>orld")
        #expect(host.undoTitle == "Undo Italic")
        try host.undo()
        #expect(try text() == "Hello world")
        try host.redo(count: 3)
        #expect(try text() == "<i>Hell</i><b><i>o</i></b><i> w</i><b>o</b>rld")
    }

    @Test func documentsAreSeparate() throws {
        let other = UndoContext("b.txt")
        try host.perform("text.insert", [.i64(0), .string("one")], in: doc)
        try host.perform("text.insert", [.i64(0), .string("two")], in: other)
        #expect(try text() == "one")
        #expect(try text(other) == "two")
        #expect(host.stepCount == 2) // coalescing stays within a context
        try host.history.withStack { _ = try $0.undo(in: doc) }
        #expect(try text() == "")
        #expect(try text(other) == "two")
    }

    @Test func badArgumentsPerformNothing() throws {
        try host.perform("text.insert", [.i64(0), .string("keep")], in: doc)
        let cases: [(String, [ActionValue], ActionArgumentError.Kind)] = [
            ("text.insert", [.i64(0)], .wrongCount(expected: 2, given: 1)),
            ("text.insert", [.string("x"), .i64(0)], .wrongType(expected: .i64, given: .string)),
            ("text.delete", [.i64(0), .u64(.max)], .outOfRange(expected: .i64, value: "18446744073709551615")),
            ("text.insert", [.i64(0), .string("a\0b")], .embeddedNUL),
            ("text.bold", [.i64(0), .f64(1)], .wrongType(expected: .i64, given: .f64)),
        ]
        for (action, arguments, expected) in cases {
            let error = hostError { try host.perform(action, arguments, in: doc) }
            guard case .invalidArguments(_, let signature, let argumentError)? = error else {
                Issue.record("expected invalid arguments for \(action) \(arguments), got \(String(describing: error))")
                continue
            }
            #expect(argumentError.kind == expected)
            #expect(signature.hasPrefix(action + "(position: i64"))
        }
        #expect(hostError { try host.perform("text.insert", argumentText: "0 hello", in: doc) }?.code == UNDO_EINVAL)
        #expect(try text() == "keep")
        #expect(host.stepCount == 1)
    }

    @Test func aPluginRefusalIsAnErrorWithItsMessageAndChangesNothing() throws {
        try host.perform("text.insert", [.i64(0), .string("abc")], in: doc)
        let error = hostError { try host.perform("text.delete", [.i64(2), .i64(5)], in: doc) }
        guard case .actionFailed(let failure)? = error else {
            Issue.record("expected a plugin failure, got \(String(describing: error))")
            return
        }
        #expect(failure.code == UNDO_ERANGE)
        #expect(failure.message == "range 2+5 is outside the document (length 3)")
        #expect(failure.actionID == "text.delete")
        #expect(error?.description == "text.delete perform failed: range 2+5 is outside the document (length 3) [UNDO_ERANGE]")
        #expect(try text() == "abc")
        #expect(host.stepCount == 1)
        #expect(host.undoTitle == "Undo Typing")
    }

    /// Undoing an insertion checks, character by character as it decodes the inserted text,
    /// that the document still holds it there (it keeps no array of the text beside the
    /// document): with the text changed behind the history's back, the undo is refused and
    /// changes nothing; once it is back, the undo goes through.
    @Test func undoingAnInsertionTheDocumentNoLongerHoldsIsRefused() throws {
        try host.perform("text.insert", [.i64(0), .string("héllo wörld")], in: doc)
        func behindTheHistory(_ action: String, _ arguments: [ActionValue]) throws {
            host.history.withStack { $0.pauseRecording() }
            defer { host.history.withStack { $0.resumeRecording() } }
            try host.perform(action, arguments, in: doc)
        }
        try behindTheHistory("text.delete", [.i64(7), .i64(1)])  // "ö"
        try behindTheHistory("text.insert", [.i64(7), .string("o")])
        #expect(try text() == "héllo world")
        let error = hostError { try host.undo() }
        guard case .actionFailed(let failure)? = error else {
            Issue.record("expected a plugin failure, got \(String(describing: error))")
            return
        }
        #expect(failure.code == UNDO_ESTATE)
        #expect(failure.message == "the document no longer has the inserted text")
        #expect(try text() == "héllo world")
        #expect(host.undoTitle == "Undo Typing")
        try behindTheHistory("text.delete", [.i64(7), .i64(1)])
        try behindTheHistory("text.insert", [.i64(7), .string("ö")])
        try host.undo()
        #expect(try text() == "")
    }

    /// A step whose inverse takes what perform hands back (text.delete's deleted text) cannot be
    /// undone when it went into the history without being performed: the undo is refused with
    /// UNDO_ESTATE, nothing is called in the plugin, and the step stays.
    @Test func undoingAStepThatWasNeverPerformedIsRefused() throws {
        try host.perform("text.insert", [.i64(0), .string("abc")], in: doc)
        let delete = try host.makeCommand(host.actionType("text.delete"), argumentText: "0 2", in: doc)
        try host.history.withStack { try $0.record(delete) }
        #expect(host.stepCount == 2)
        let error = hostError { try host.undo() }
        guard case .actionFailed(let failure)? = error else {
            Issue.record("expected a plugin failure, got \(String(describing: error))")
            return
        }
        #expect(failure.code == UNDO_ESTATE)
        #expect(failure.phase == .undo)
        #expect(failure.actionID == "text.delete")
        #expect(failure.message == "the step was never performed, so it has no inverse arguments")
        #expect(try text() == "abc")
        #expect(host.stepCount == 2)
        #expect(host.undoTitle == "Undo Delete")
    }

    @Test func describingAnUnknownPluginFails() {
        #expect(throws: PluginHostError.unknownPlugin("org.nowhere.x")) {
            try host.describe(doc, plugin: "org.nowhere.x")
        }
    }
}
