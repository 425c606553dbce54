import Foundation
import Testing
@testable import UndoHostSession
import UndoTestSupport

/// A script is read as lines whatever its line endings, in bounded pieces; what cannot be read
/// is an error naming its line, never a quiet end of the input; quitting with a group open fails.
@Suite("Scripts: line endings, bounded lines, no silent success")
struct ScriptInputTests {
    static let script = ["# a comment first", "doc letter.txt", "text.insert 0 \"Hello\"", "show"]

    @Test("CRLF and CR line endings run every line", arguments: ["\r\n", "\r", "\n"])
    func lineEndings(_ ending: String) throws {
        let run = try UndoHostProcess.runScript(Self.script.joined(separator: ending) + ending)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("letter.txt (Text Editor)"))
        #expect(run.standardOutput.contains("  Hello"))
        let piped = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["run", "-"], input: Self.script.joined(separator: ending))
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(piped.standardOutput.contains("  Hello"))
    }

    @Test("The reader splits at LF, CRLF and CR, across pieces, and keeps empty lines")
    func readerSplitsLines() {
        func lines(_ text: String, limit: Int = 100) -> [String] {
            let reader = ScriptLineReader(text: text, limit: limit)
            var result: [String] = []
            while let next = reader.next() {
                switch next {
                case .success(let line): result.append(line)
                case .failure(let failure): result.append("error \(failure)")
                }
            }
            return result
        }
        #expect(lines("a\r\nb\rc\n\nd") == ["a", "b", "c", "", "d"])
        #expect(lines("a\r\r\nb\n\r") == ["a", "", "b", ""])
        #expect(lines("") == [])
        #expect(lines("12345\n123456\nx", limit: 5) == ["12345", "error tooLong(line: 2)"])
    }

    @Test("A line over the limit on standard input is an error naming it; the rest is not run as if the input ended")
    func overlongLineOnStandardInput() throws {
        let long = String(repeating: "x", count: ScriptLineReader.maximumLineBytes + 1)
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["run", "-"],
                                          input: "doc a.txt\n" + long + "\nshow\n")
        #expect(run.status == 1)
        #expect(run.standardError.hasPrefix("<stdin>:2: UNDO_ELIMIT: line 2 is longer than \(ScriptLineReader.maximumLineBytes) bytes"),
                "\(run.standardError.prefix(200))")
        #expect(!run.standardOutput.contains("a.txt (Text Editor)"))
        // In a session without a terminal too.
        let session = try UndoHostProcess.run(UndoHostProcess.samplePlugins, input: long)
        #expect(session.status == 1)
        #expect(session.standardError.contains("<stdin>:1: UNDO_ELIMIT: line 1 is longer than"))
    }

    @Test("run /dev/zero ends with an error after one line's worth, not with the machine's memory")
    func runDevZero() throws {
        let run = try UndoHostProcess.run(["run", "/dev/zero"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("/dev/zero:1: UNDO_ELIMIT: line 1 is longer than \(ScriptLineReader.maximumLineBytes) bytes; nothing after it was read"))
    }

    @Test("A line that is not UTF-8 is an error naming it")
    func notUTF8() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("bad.undo")
        try Data("doc a.txt\n".utf8 + [0xff, 0xfe, 0x0a] + "show\n".utf8).write(to: file)
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["run", file.path])
        #expect(run.status == 1)
        #expect(run.standardError.contains(":2: UNDO_EUTF8: line 2 is not UTF-8 text"))
    }

    @Test("quit with a group open fails and names the group")
    func quitWithAGroupOpen() throws {
        let run = try UndoHostProcess.runScript("doc a.txt\ngroup begin \"Both\"\ntext.insert 0 \"x\"\nquit\n")
        #expect(run.status == 1)
        #expect(run.standardError.contains("session.undo:2: UNDO_ESTATE: group \"Both\" was begun here and never ended"), "\(run.standardError)")
        let closed = try UndoHostProcess.runScript("doc a.txt\ngroup begin\ntext.insert 0 \"x\"\ngroup end\nquit\n")
        #expect(closed.status == 0, "\(closed.standardError)")
    }
}

extension ScriptInputTests {
    @Test("A document name over 4096 bytes is refused by doc, as contexts are everywhere")
    func longDocumentNames() throws {
        let name = String(repeating: "n", count: 1_000_000)
        let run = try UndoHostProcess.runScript("doc \(name)\ntext.insert 0 \"x\"\n")
        #expect(run.status == 1)
        #expect(run.standardError.hasPrefix("session.undo:1: UNDO_ELIMIT: a document name is at most 4096 bytes; this one is 1000000"),
                "\(run.standardError.prefix(300))")
        let fits = try UndoHostProcess.runScript("doc \(String(repeating: "n", count: 4096))\ntext.insert 0 \"x\"\ndoc\n")
        #expect(fits.status == 0, "\(fits.standardError.prefix(300))")
    }

    @Test("One step in each of 2,000 documents: every document is listed with its one step")
    func manyDocuments() throws {
        let count = 2000
        var script = ""
        for index in 0..<count { script += "doc d\(index)\ntext.insert 0 \"x\"\n" }
        script += "doc\n"
        let run = try UndoHostProcess.runScript(script)
        #expect(run.status == 0, "\(run.standardError.prefix(300))")
        #expect(run.standardOutput.contains("d1999"))
    }
}
