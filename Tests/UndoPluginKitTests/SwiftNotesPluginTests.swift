import Foundation
import Testing
import UndoCore
import UndoPluginABI
import UndoPluginHost

/// The sample plugin written in Swift with UndoPluginKit, loaded from its real .so by the same
/// loader as the C plugins and driven through the shared history.
@Suite struct SwiftNotesPluginTests {
    let host: PluginHost
    let log: LogMessages
    let list = UndoContext("groceries")

    init() throws {
        (host, log) = SwiftPluginFixtures.makeHost()
        try host.load(file: SwiftPluginFixtures.notes)
    }

    func notes(_ context: UndoContext? = nil) throws -> String {
        try host.describe(context ?? list, plugin: "org.undohost.notes")
    }

    @Test func loadsThroughTheLoaderWithItsDeclaredActions() throws {
        let info = try #require(host.plugins.first)
        #expect(info.id == "org.undohost.notes")
        #expect(info.name == "Notes (Swift)")
        #expect(info.version == "1.0.0")
        #expect(info.shortName == "notes")
        #expect(info.abiMajor == UInt32(UNDO_ABI_VERSION_MAJOR) && info.abiMinor == UInt32(UNDO_ABI_VERSION_MINOR))
        #expect(info.canDescribe)
        #expect(info.actionTypes.map(\.detailedDescription) == [
            #"notes.write(text: string, priority: i32) "New Note""#,
            #"notes.erase(index: u32) "Delete Note" inverse(index: u32, text: string, priority: i32)"#,
            #"notes.prioritize(index: u32, priority: i32) "Priority Change" inverse(index: u32, priority: i32) coalesces("priority") merges"#,
            #"notes.type(index: u32, text: string) "Typing" coalesces("typing") appends"#,
        ])
        #expect(PluginHost.isBundledPluginName("libUndoPluginSwiftNotes.so"))
    }

    @Test func exportsTheEntrySymbolLikeACPlugin() throws {
        let symbols = try SwiftPluginFixtures.run("nm", ["-D", "--defined-only", SwiftPluginFixtures.notes])
        try #require(symbols.status == 0)
        #expect(symbols.output.split(separator: "\n").contains { $0.hasSuffix(" T undo_plugin_entry") })
    }

    @Test func writesUndoesAndRedoesNotes() throws {
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: list)
        try host.perform("notes.write", argumentText: #""Bread" 0"#, in: list)
        #expect(try notes() == "#0 [2] Milk\n#1 [0] Bread")
        #expect(host.stepCount == 2)
        #expect(host.undoTitle == "Undo New Note")

        let undone = try #require(try host.undo())
        #expect(undone.name == "New Note")
        #expect(undone.context == list)
        #expect(undone.changes == [UndoChange(context: list, location: 1, length: nil)]) // note 1, an object
        #expect(try notes() == "#0 [2] Milk")
        #expect(host.redoTitle == "Redo New Note")

        let redone = try #require(try host.redo())
        #expect(redone.changes == [UndoChange(context: list, location: 1, length: nil)])
        #expect(try notes() == "#0 [2] Milk\n#1 [0] Bread")
    }

    @Test func eraseHandsBackWhatItsInverseNeeds() throws {
        for (text, priority) in [("Milk", 2), ("Eggs", 5), ("Tea", 1)] {
            try host.perform("notes.write", [.string(text), .i32(Int32(priority))], in: list)
        }
        try host.perform("notes.erase", [.u32(1)], in: list)
        #expect(try notes() == "#0 [2] Milk\n#1 [1] Tea")
        #expect(host.undoTitle == "Undo Delete Note")

        // The inverse puts the same text and priority back at the same place.
        try host.undo()
        #expect(try notes() == "#0 [2] Milk\n#1 [5] Eggs\n#2 [1] Tea")
        try host.redo()
        #expect(try notes() == "#0 [2] Milk\n#1 [1] Tea")
        try host.undo(count: 4)
        #expect(try notes() == "")
        try host.redo(count: 4)
        #expect(try notes() == "#0 [2] Milk\n#1 [1] Tea")
    }

    @Test func priorityChangesOfOneNoteMergeIntoOneStep() throws {
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: list)
        host.history.withStack { $0.breakCoalescing() }
        for priority in [3, 4, 7] as [Int32] {
            try host.perform("notes.prioritize", [.u32(0), .i32(priority)], in: list)
        }
        #expect(try notes() == "#0 [7] Milk")
        #expect(host.stepCount == 2)
        #expect(host.undoTitle == "Undo Priority Change")
        try host.undo()
        #expect(try notes() == "#0 [2] Milk") // back to before the whole run, not to 4
        try host.redo()
        #expect(try notes() == "#0 [7] Milk")
    }

    /// Typing declared with `mergesByAppending`: the host joins a run of one note's typing into
    /// one step by appending, and the inverse takes the whole run back. Typing into another
    /// note (another index) is not appended: it joins the run as a second command.
    @Test func typingIntoANoteIsJoinedByTheHost() throws {
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: list)
        try host.perform("notes.write", [.string("Tea"), .i32(1)], in: list)
        host.history.withStack { $0.breakCoalescing() }
        for text in [" and", " honey", "!"] { try host.perform("notes.type", [.u32(0), .string(text)], in: list) }
        #expect(try notes() == "#0 [2] Milk and honey!\n#1 [1] Tea")
        #expect(host.stepCount == 3)
        #expect(host.undoTitle == "Undo Typing")
        var newest = try #require(host.history.withStack { $0.steps.last })
        #expect(newest.memberCount == 0)  // one command: the three appended
        try host.undo()
        #expect(try notes() == "#0 [2] Milk\n#1 [1] Tea")
        try host.redo()
        #expect(try notes() == "#0 [2] Milk and honey!\n#1 [1] Tea")

        host.history.withStack { $0.breakCoalescing() }
        try host.perform("notes.type", [.u32(0), .string(" now")], in: list)
        try host.perform("notes.type", [.u32(1), .string(" cup")], in: list)
        // Typing into another note is not appended (the other arguments differ): a separate step.
        newest = try #require(host.history.withStack { $0.steps.last })
        #expect(host.stepCount == 5 && newest.memberCount == 0)
        try host.undo()
        #expect(try notes() == "#0 [2] Milk and honey! now\n#1 [1] Tea")
        try host.undo()
        #expect(try notes() == "#0 [2] Milk and honey!\n#1 [1] Tea")
    }

    @Test func priorityChangesBackToTheStartAnnul() throws {
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: list)
        host.history.withStack { $0.breakCoalescing() }
        try host.perform("notes.prioritize", [.u32(0), .i32(9)], in: list)
        try host.perform("notes.prioritize", [.u32(0), .i32(2)], in: list)
        #expect(try notes() == "#0 [2] Milk")
        #expect(host.stepCount == 1) // only the write is left
        #expect(host.undoTitle == "Undo New Note")
    }

    /// The merge refuses priority changes of two notes: they stay two separate steps.
    @Test func priorityChangesOfDifferentNotesStaySeparate() throws {
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: list)
        try host.perform("notes.write", [.string("Tea"), .i32(1)], in: list)
        host.history.withStack { $0.breakCoalescing() }
        try host.perform("notes.prioritize", [.u32(0), .i32(5)], in: list)
        try host.perform("notes.prioritize", [.u32(1), .i32(6)], in: list)
        #expect(host.stepCount == 4)
        try host.undo()
        #expect(try notes() == "#0 [5] Milk\n#1 [1] Tea")
        try host.undo()
        #expect(try notes() == "#0 [2] Milk\n#1 [1] Tea")
    }

    @Test func aFailingPerformChangesNothingAndExplainsWhy() throws {
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: list)
        let error = try #require(throws: PluginHostError.self) {
            try host.perform("notes.erase", [.u32(3)], in: list)
        }
        guard case .actionFailed(let failure) = error else {
            Issue.record("expected actionFailed, got \(error)")
            return
        }
        #expect(failure.code == Int32(UNDO_ERANGE))
        #expect(failure.message == #"no note 3 in "groceries" (it has 1)"#)
        #expect(failure.actionID == "notes.erase")
        #expect(try notes() == "#0 [2] Milk")
        #expect(host.stepCount == 1)
        // Wrong arguments are refused by the host before the plugin sees them.
        #expect(throws: PluginHostError.self) { try host.perform("notes.erase", [.i32(-1)], in: list) }
        #expect(throws: PluginHostError.self) { try host.perform("notes.write", [.string("x")], in: list) }
        #expect(host.stepCount == 1)
    }

    @Test func documentsAreSeparateContexts() throws {
        let other = UndoContext("todo")
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: list)
        try host.perform("notes.write", [.string("Call Ann"), .i32(1)], in: other)
        #expect(try notes() == "#0 [2] Milk")
        #expect(try notes(other) == "#0 [1] Call Ann")
        host.history.withStack { $0.currentContext = list }
        try host.undo()
        #expect(try notes() == "")
        #expect(try notes(other) == "#0 [1] Call Ann")
    }

    @Test func joinsTheSharedHistoryWithCPlugins() throws {
        try host.load(file: SwiftPluginFixtures.textEditor)
        try host.history.withStack { try $0.beginGroup(named: "Paste Recipe") }
        try host.perform("text.insert", [.i64(0), .string("Pancakes")], in: list)
        try host.perform("notes.write", [.string("Flour"), .i32(3)], in: list)
        try host.history.withStack { try $0.endGroup() }
        #expect(host.undoTitle == "Undo Paste Recipe")
        try host.undo()
        #expect(try notes() == "")
        #expect(try host.describe(list, plugin: "org.undohost.text") == "")
        try host.redo()
        #expect(try notes() == "#0 [3] Flour")
        #expect(try host.describe(list, plugin: "org.undohost.text") == "Pancakes")
    }

    @Test func eachHostGetsItsOwnInstance() throws {
        let (second, _) = SwiftPluginFixtures.makeHost()
        try second.load(file: SwiftPluginFixtures.notes)
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: list)
        try second.perform("notes.write", [.string("Rice"), .i32(4)], in: list)
        #expect(try notes() == "#0 [2] Milk")
        #expect(try second.describe(list, plugin: "org.undohost.notes") == "#0 [4] Rice")
    }

    @Test func unloadingRemovesItsStepsAndReloadingStartsAfresh() throws {
        try host.load(file: SwiftPluginFixtures.textEditor)
        try host.perform("text.insert", [.i64(0), .string("Hi")], in: list)
        try host.perform("notes.write", [.string("Milk"), .i32(2)], in: list)
        try host.unload("org.undohost.notes")
        #expect(host.stepCount == 1)
        #expect(host.undoTitle == "Undo Typing")
        try host.load(file: SwiftPluginFixtures.notes)
        #expect(try notes() == "")
        try host.perform("notes.write", [.string("Tea"), .i32(1)], in: list)
        try host.undo(count: 2)
        #expect(try notes() == "")
        #expect(try host.describe(list, plugin: "org.undohost.text") == "")
    }

    @Test func longDescriptionsAreRetriedWhole() throws {
        // Over the host's first 4096-byte buffer, with multi-byte characters across the cut.
        let long = String(repeating: "é€", count: 1500)
        try host.perform("notes.write", [.string(long), .i32(1)], in: list)
        #expect(try notes() == "#0 [1] " + long)
    }
}
