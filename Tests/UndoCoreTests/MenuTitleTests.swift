import Testing
@testable import UndoCore

/// A name the app can change while its step stays in the history (a layer renamed, say).
final class Label {
    var text: String?
    init(_ text: String?) { self.text = text }
}

/// Named by its label, read anew every time.
struct Relabel: UndoCommand {
    let label: Label
    let counter: Counter
    var name: String? { label.text }
    mutating func perform(_ changes: inout UndoChanges) throws { counter.value += 1 }
    mutating func undo(_ changes: inout UndoChanges) throws { counter.value -= 1 }
}

/// Named by a string built on every read: equal names, never the same string.
struct Numbered: UndoCommand {
    let number: Int
    let counter: Counter
    var name: String? { Numbered.name(number) }
    static func name(_ number: Int) -> String? {
        number % 7 == 6 ? nil : "change of entry number \(number % 23)"
    }
    mutating func perform(_ changes: inout UndoChanges) throws { counter.value += number }
    mutating func undo(_ changes: inout UndoChanges) throws { counter.value -= number }
}

/// Named by literals: short ones (small strings) and long ones.
struct Literal: UndoCommand {
    static let names: [String?] = [
        "Add", "Move", "Delete", "Rename", nil, "bring to front", "change of address", "Typing",
        "paste as plain text", "Bold", "Italic", "send to back or front", "align along the grid",
        "Cut", "Copy", "convert to URL", "sync with iPhone", "drag-and-drop items", "Fill",
        "Stroke", "save a copy for the web", "Group", "Ungroup", "Rotate", "flip by the edge on the page",
    ]
    let index: Int
    var name: String? { Literal.names[index % Literal.names.count] }
    mutating func perform(_ changes: inout UndoChanges) throws {}
    mutating func undo(_ changes: inout UndoChanges) throws {}
}

/// Hides or shows a model; its name says what the next undo or redo does to it.
final class Visibility { var visible = true }
struct Hide: UndoCommand {
    let model: Visibility
    var name: String? { model.visible ? "Hide Layer" : "Show Layer" }
    mutating func perform(_ changes: inout UndoChanges) throws { model.visible = false }
    mutating func undo(_ changes: inout UndoChanges) throws { model.visible = true }
}

@Suite struct MenuTitles {
    /// The titles the formatter makes for the steps around the position, checked against the
    /// history's (read twice: the second read finds what the first remembered).
    func expectTitles(_ stack: UndoStack, undo: String??, redo: String??,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        for _ in 0..<2 {
            #expect(stack.undoMenuTitle == stack.formatter.undoTitle(for: undo ?? nil), sourceLocation: sourceLocation)
            #expect(stack.redoMenuTitle == stack.formatter.redoTitle(for: redo ?? nil), sourceLocation: sourceLocation)
        }
        stack.checkInvariants()
    }

    @Test func titlesFollowANameThatChangesWhileItsStepStays() throws {
        let stack = UndoStack.testing()
        let counter = Counter()
        let label = Label("Rename")
        try stack.perform(Relabel(label: label, counter: counter))
        #expect(stack.undoMenuTitle == "Undo Rename")
        label.text = "rename layer"
        #expect(stack.undoMenuTitle == "Undo Rename Layer")
        // Built at run time and too long for a small string: a string with storage of its own.
        label.text = "rename layer " + String(repeating: "x", count: 3) + " of the drawing"
        #expect(stack.undoMenuTitle == "Undo Rename Layer Xxx of the Drawing")
        try stack.undo()
        #expect(stack.undoMenuTitle == "Undo" && stack.redoMenuTitle == "Redo Rename Layer Xxx of the Drawing")
        label.text = "Move"
        #expect(stack.redoMenuTitle == "Redo Move")
        label.text = nil
        #expect(stack.redoMenuTitle == "Redo")
        try stack.redo()
        label.text = "Rename"
        #expect(stack.undoMenuTitle == "Undo Rename" && counter.value == 1)
        stack.checkInvariants()
    }

    @Test func namesBuiltOnEveryReadGetTheirTitlesThroughAWalk() throws {
        let stack = UndoStack.testing()
        let counter = Counter()
        let count = 60  // more names than the memo keeps
        for number in 0..<count { try stack.perform(Numbered(number: number, counter: counter)) }
        for position in stride(from: count, through: 0, by: -1) {
            expectTitles(stack, undo: position > 0 ? .some(Numbered.name(position - 1)) : nil,
                         redo: position < count ? .some(Numbered.name(position)) : nil)
            if position > 0 { try stack.undo() }
        }
        for position in 0...count {
            expectTitles(stack, undo: position > 0 ? .some(Numbered.name(position - 1)) : nil,
                         redo: position < count ? .some(Numbered.name(position)) : nil)
            if position < count { try stack.redo() }
        }
        #expect(counter.value == (0..<count).reduce(0, +))
    }

    /// Undoes all `count` steps, then redoes them, checking both titles before each move.
    func walkUndoingAndRedoing(_ stack: UndoStack, count: Int, name: (Int) -> String?) throws {
        for position in stride(from: count, to: 0, by: -1) {
            expectTitles(stack, undo: .some(name(position - 1)), redo: position < count ? .some(name(position)) : nil)
            try stack.undo()
        }
        for position in 0..<count {
            expectTitles(stack, undo: position > 0 ? .some(name(position - 1)) : nil, redo: .some(name(position)))
            try stack.redo()
        }
    }

    @Test func literalNamesGetTheirTitlesThroughAWalk() throws {
        let stack = UndoStack.testing()
        let count = 3 * Literal.names.count
        for index in 0..<count { try stack.perform(Literal(index: index)) }
        func name(_ index: Int) -> String? { Literal.names[index % Literal.names.count] }
        try walkUndoingAndRedoing(stack, count: count, name: name)
        expectTitles(stack, undo: .some(name(count - 1)), redo: nil)
    }

    @Test func titlesAfterMergesGroupsContextsAndTrimming() throws {
        let store = TextStore()
        let counter = Counter()
        let stack = UndoStack.testing(countLimit: 3)
        // Merged: one step, one title.
        try stack.perform(Append(store: store, text: "a", typing: true))
        try stack.perform(Append(store: store, text: "b", typing: true))
        #expect(stack.count == 1 && stack.undoMenuTitle == "Undo Typing")
        // Refused (no merge of its own): two steps, each with its title.
        stack.breakCoalescing()
        try stack.perform(Nudge(counter: counter))
        try stack.perform(Nudge(counter: counter))
        #expect(stack.count == 3 && stack.undoMenuTitle == "Undo Move")
        // A group: named by its own name, undone as one.
        try stack.beginGroup(named: "paste")
        try stack.perform(Append(store: store, text: "c"))
        try stack.perform(Append(store: store, text: "d", named: "Bold"))
        try stack.endGroup()
        #expect(stack.undoMenuTitle == "Undo Paste")
        try stack.undo()
        #expect(stack.undoMenuTitle == "Undo Move" && stack.redoMenuTitle == "Redo Paste")
        try stack.redo()
        // Trimmed to the limit: the oldest step, "Typing", is gone.
        try stack.perform(Append(store: store, text: "e", named: "Italic"))
        #expect(stack.count == 3 && stack.undoMenuTitle == "Undo Italic")
        try stack.undo(count: 3)
        #expect(stack.undoMenuTitle == "Undo" && stack.redoMenuTitle == "Redo Move" && !stack.canUndo)
        stack.checkInvariants()
        // Contexts: the titles of the current context's steps only.
        let one = UndoContext("one"), two = UndoContext("two")
        let documents = UndoStack.testing()
        try documents.perform(Append(store: store, text: "f", context: one, named: "Underline"))
        try documents.perform(Append(store: store, text: "g", context: two, named: "Strike"))
        documents.currentContext = one
        #expect(documents.undoMenuTitle == "Undo Underline" && documents.redoMenuTitle == "Redo")
        try documents.undo()
        #expect(documents.undoMenuTitle == "Undo" && documents.redoMenuTitle == "Redo Underline")
        documents.currentContext = nil
        #expect(documents.undoMenuTitle == "Undo Strike" && documents.redoMenuTitle == "Redo Underline")
        documents.checkInvariants()
    }

    @Test func eachDistinctNameIsFormattedOnceAcrossManyReads() throws {
        let stack = UndoStack.testing()
        // Eight names: nil, and "Delete", "Rename" and "Typing" of one length in UTF-8.
        let kinds = 8, count = 5 * kinds
        for index in 0..<count { try stack.perform(Literal(index: index % kinds)) }
        func name(_ index: Int) -> String? { Literal.names[index % kinds] }
        for _ in 0..<3 { try walkUndoingAndRedoing(stack, count: count, name: name) }
        #expect(stack.access { $0.titles.formatted } == kinds)
        // A new formatter: each name formatted once more, in it.
        stack.formatter = UndoTitleFormatter(locale: .korean)
        for _ in 0..<3 {
            for _ in 0..<count {
                _ = (stack.undoMenuTitle, stack.redoMenuTitle)
                try stack.undo()
            }
            try stack.redo(count: count)
        }
        #expect(stack.undoMenuTitle == stack.formatter.undoTitle(for: name(count - 1)))
        #expect(stack.access { $0.titles.formatted } == 2 * kinds)
        stack.checkInvariants()
    }

    @Test func aNewFormatterFormatsTheRememberedNamesAgain() throws {
        let stack = UndoStack.testing()
        try stack.perform(Literal(index: 6))  // "change of address"
        #expect(stack.undoMenuTitle == "Undo Change of Address")
        stack.formatter = UndoTitleFormatter(locale: .korean)
        #expect(stack.undoMenuTitle == stack.formatter.undoTitle(for: "change of address"))
        #expect(stack.undoMenuTitle != "Undo Change of Address")
        stack.checkInvariants()
    }

    @Test func aResultNamesItsStepAsTheActionLeftIt() throws {
        let model = Visibility()
        let stack = UndoStack.testing()
        try stack.perform(Hide(model: model))
        let undone = try #require(try stack.undo())
        #expect(undone.name == "Hide Layer" && undone.direction == .undo && undone.context == .global)
        #expect(stack.redoMenuTitle == "Redo Hide Layer")
        let redone = try #require(try stack.redo())
        #expect(redone.name == "Show Layer" && redone.direction == .redo && redone.stepCount == 1)
        #expect(stack.undoMenuTitle == "Undo Show Layer")
        stack.checkInvariants()
    }

    @Test func aResultCarriesOnlyItsOwnStepsChanges() throws {
        let store = TextStore()
        let counter = Counter()
        let stack = UndoStack.testing()
        try stack.perform(Add(counter: counter, amount: 1))
        stack.breakCoalescing()
        try stack.perform(Append(store: store, text: "abc"))
        let undone = try #require(try stack.undo())
        #expect(undone.changes == [UndoChange(context: .global, location: 0, length: 0)])
        stack.checkInvariants()
        let quiet = try #require(try stack.undo())  // Add reports nothing
        #expect(quiet.name == "Add" && quiet.changes.isEmpty)
        _ = try stack.redo()
        let redone = try #require(try stack.redo())
        #expect(redone.changes == [UndoChange(context: .global, location: 0, length: 3)])
        try stack.undo()  // the result dropped: its changes are not left behind
        stack.checkInvariants()
        #expect(try stack.redo()?.changes.count == 1)
    }

    @Test func aResultKeepsItsDirectionAndStepCountApart() {
        var result = UndoResult(direction: .redo, name: "Bold", context: .global, stepCount: 5)
        #expect(result.direction == .redo && result.stepCount == 5)
        result.direction = .undo
        #expect(result.direction == .undo && result.stepCount == 5)
        result.stepCount = 1 << 40
        #expect(result.direction == .undo && result.stepCount == 1 << 40)
        result.direction = .redo
        result.stepCount = 0
        #expect(result.direction == .redo && result.stepCount == 0)
        #expect(result == UndoResult(direction: .redo, name: "Bold", context: .global, stepCount: 0))
        #expect(result != UndoResult(direction: .undo, name: "Bold", context: .global, stepCount: 0))
    }

    @Test func everyFieldOfAResultIsSetApartAndCompared() {
        let change = UndoChange(context: UndoContext("a"), location: 1, length: 2)
        let start = UndoResult(direction: .undo, name: "Bold", context: .global, stepCount: 2,
                               changes: [change], obsoleteCount: 1)
        var result = start
        result.name = nil
        #expect(result.name == nil && result.context == .global && result.changes == [change] && result != start)
        result.name = "Bold"
        #expect(result == start)
        result.context = UndoContext("b")
        #expect(result.context == UndoContext("b") && result.name == "Bold" && result != start)
        result.context = .global
        result.changes.append(change)
        #expect(result.changes == [change, change] && start.changes == [change] && result != start)
        result.changes.removeLast()
        result.obsoleteCount = 0
        #expect(result.obsoleteCount == 0 && result.stepCount == 2 && result != start)
        result.obsoleteCount = 1
        #expect(result == start)
    }
}
