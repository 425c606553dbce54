import Foundation
import Testing
import UndoCore
@testable import UndoHostSession
import UndoTestSupport

/// What people who used undo-host from the outside found (issue 33), each as it works now.
@Suite("What outsiders found")
struct OutsiderFindingsTests {
    @Test("unload counts the steps of every branch that left, as close does")
    func unloadCountsEveryBranch() throws {
        // Two shapes on the branch left behind, one on the current branch, and one of each branch
        // shared below the fork: four steps leave.
        let run = try UndoHostProcess.runScript("""
            canvas.add 1 "rect" 0 0 1 1 0
            canvas.add 2 "rect" 0 0 1 1 0
            canvas.add 3 "rect" 0 0 1 1 0
            undo 2
            canvas.add 4 "rect" 0 0 1 1 0
            unload canvas
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("Unloaded org.undohost.canvas: 4 steps left the history\n"), "\(run.standardOutput)")
    }

    @Test("A plugin --plugins names that is refused fails the run (the others load and the session runs)")
    func aRefusedPluginFailsTheRun() throws {
        let folder = try TemporaryFolder()
        let notAPlugin = folder.url.appendingPathComponent("libnot.so").path
        try Data("not an ELF file".utf8).write(to: URL(fileURLWithPath: notAPlugin))
        let text = UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginTextEditor.so").path
        let run = try UndoHostProcess.run(["--plugins", text, "--plugins", notAPlugin, "run", "-"],
                                          input: "text.insert 0 \"still runs\"\nshow\n")
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("still runs"))
        #expect(run.standardError.contains("cannot load \(notAPlugin)"), "\(run.standardError)")
        let fine = try UndoHostProcess.run(["--plugins", text, "plugins"])
        #expect(fine.status == 0)
    }

    @Test("--durability and --checkpoint-every without --journal are refused, naming the option")
    func journalOptionsNeedAJournal() throws {
        for option in [["--durability", "normal"], ["--checkpoint-every", "5"]] {
            let run = try UndoHostProcess.run(option + ["plugins"])
            #expect(run.status == 2)
            #expect(run.standardError.hasPrefix("undo-host: \(option[0]) applies to a journal: give --journal FILE too, "
                                                + "or leave \(option[0]) out\n"), "\(run.standardError)")
            #expect(run.standardOutput.isEmpty)
        }
    }

    @Test("Descriptions quote a deleted quote escaped, and control characters in a description stay off the terminal")
    func descriptionsAreEscapedWhereShown() throws {
        let run = try UndoHostProcess.runScript("""
            text.insert 0 "say \\"hi\\"\\tnow"
            text.delete 4 1
            history
            """)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("  1  Typing \"say \\\"hi\\\"\\tnow\"  untitled\n"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("> 2  Delete \"\\\"\"               untitled\n"), "\(run.standardOutput)")

        // A description given through the C API or Swift may hold any character: shown escaped.
        struct Described: UndoCommand {
            var historyDescription: String? { "Paste\tthree\nlines\u{1b}[2J" }
            var name: String? { "Paste" }
            mutating func perform(_ changes: inout UndoChanges) throws {}
            mutating func undo(_ changes: inout UndoChanges) throws {}
        }
        let stack = UndoStack()
        try stack.perform(Described())
        let text = HistoryPanelView(stack: stack).rendered(style: .plain)
        // Tabs and line breaks become spaces (the history text's whitespace is collapsed); any
        // other control character is shown escaped, so none reaches the terminal.
        #expect(text.hasSuffix("\n> 1  Paste three lines\\u{1b}[2J"), "\(text)")
        #expect(!text.contains("\t") && !text.contains("\u{1b}"))
        #expect(text.split(separator: "\n").count == 3)
    }
}
