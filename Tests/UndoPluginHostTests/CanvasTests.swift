import Testing
import UndoCore
@testable import UndoPluginHost

/// The canvas sample plugin: u64, u32, f64, string and i32 values, drags and color changes
/// that merge.
@Suite struct CanvasTests {
    let host: PluginHost
    let doc = UndoContext("drawing")

    init() throws {
        host = makeHost().0
        try host.load(file: Fixtures.canvas)
        try host.perform("canvas.add", argumentText: #"1 "rect" 10 20 30 40 0xff0000"#, in: doc)
    }

    func shapes() throws -> String { try host.describe(doc, plugin: "org.undohost.canvas") }

    @Test func addsAndUndoesShapes() throws {
        #expect(try shapes() == "#1 rect x=10 y=20 w=30 h=40 color=#ff0000")
        #expect(host.undoTitle == "Undo Add Shape")
        try host.undo()
        #expect(try shapes() == "")
        try host.redo()
        #expect(try shapes() == "#1 rect x=10 y=20 w=30 h=40 color=#ff0000")
    }

    /// A step keeps the context it was made in (held by the command, not its heap block)
    /// through a copy, a perform, an undo and a redo; a long name is not a small string.
    @Test func aStepKeepsItsContext() throws {
        let other = UndoContext("a drawing with a name longer than a small string")
        let command = try host.makeCommand("canvas.add", argumentText: #"2 "oval" 1 2 3 4 0x00ff00"#, in: other)
        let copy = command
        try host.perform(command)
        #expect(copy.context == other && copy.action.shortID == "canvas.add")
        #expect(try host.describe(other, plugin: "org.undohost.canvas") == "#2 oval x=1 y=2 w=3 h=4 color=#00ff00")
        let undone = try #require(try host.undo())
        #expect(undone.context == other && undone.name == "Add Shape")
        #expect(try host.describe(other, plugin: "org.undohost.canvas") == "")
        let redone = try #require(try host.redo())
        #expect(redone.context == other)
        #expect(host.history.withStack { $0.steps.map(\.context) } == [doc, other])
    }

    @Test func aDragMergesIntoOneMove() throws {
        try host.perform("canvas.move", [.u64(1), .f64(5), .f64(0)], in: doc)
        try host.perform("canvas.move", [.u64(1), .f64(5), .f64(0)], in: doc)
        try host.perform("canvas.move", argumentText: "1 -2.5 3", in: doc)
        #expect(try shapes() == "#1 rect x=17.5 y=23 w=30 h=40 color=#ff0000")
        #expect(host.stepCount == 2)
        #expect(host.undoTitle == "Undo Move")
        let result = try #require(try host.undo())
        #expect(result.changes == [UndoChange(context: doc, location: 1)])
        #expect(try shapes() == "#1 rect x=10 y=20 w=30 h=40 color=#ff0000")
        try host.redo()
        #expect(try shapes() == "#1 rect x=17.5 y=23 w=30 h=40 color=#ff0000")
    }

    @Test func aDragBackToTheStartAnnulsItself() throws {
        try host.perform("canvas.move", [.u64(1), .f64(4), .f64(4)], in: doc)
        try host.perform("canvas.move", [.u64(1), .f64(-4), .f64(-4)], in: doc)
        #expect(try shapes() == "#1 rect x=10 y=20 w=30 h=40 color=#ff0000")
        #expect(host.stepCount == 1)
        #expect(host.undoTitle == "Undo Add Shape")
    }

    @Test func colorChangesMergeAndUndoToTheFirstColor() throws {
        try host.perform("canvas.recolor", argumentText: "1 0x00ff00", in: doc)
        try host.perform("canvas.recolor", [.u64(1), .u32(0x0000FF)], in: doc)
        #expect(try shapes() == "#1 rect x=10 y=20 w=30 h=40 color=#0000ff")
        #expect(host.stepCount == 2)
        #expect(host.undoTitle == "Undo Color Change")
        try host.undo()
        #expect(try shapes() == "#1 rect x=10 y=20 w=30 h=40 color=#ff0000")
        try host.redo()
        #expect(try shapes() == "#1 rect x=10 y=20 w=30 h=40 color=#0000ff")
    }

    @Test func removeHandsBackEverythingToPutTheShapeBackInPlace() throws {
        try host.perform("canvas.add", argumentText: #"2 "ellipse" 0 0 5 5 0x00ff00"#, in: doc)
        try host.perform("canvas.add", argumentText: #"3 "line" 1.5 -2 7 0 255"#, in: doc)
        let before = try shapes()
        try host.perform("canvas.remove", [.i64(2)], in: doc)
        #expect(try shapes() == "#1 rect x=10 y=20 w=30 h=40 color=#ff0000\n#3 line x=1.5 y=-2 w=7 h=0 color=#0000ff")
        #expect(host.undoTitle == "Undo Delete Shape")
        try host.undo()
        #expect(try shapes() == before)
        try host.redo()
        try host.undo()
        #expect(try shapes() == before)
    }

    @Test func unknownShapesAndDuplicatesAreRefusedByThePlugin() throws {
        let missing = hostError { try host.perform("canvas.move", [.u64(9), .f64(1), .f64(1)], in: doc) }
        guard case .actionFailed(let failure)? = missing else {
            Issue.record("expected a failure, got \(String(describing: missing))")
            return
        }
        #expect(failure.message == "no shape #9")
        let duplicate = hostError { try host.perform("canvas.add", argumentText: #"1 "rect" 0 0 1 1 0"#, in: doc) }
        #expect(duplicate?.description.contains("shape #1 already exists") == true)
        #expect(host.stepCount == 1)
    }
}
