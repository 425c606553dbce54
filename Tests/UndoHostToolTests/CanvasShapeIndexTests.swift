import Foundation
import Testing
import UndoCore
import UndoPluginHost
@testable import UndoHostSession
import UndoTestSupport

/// The Canvas sample finds shapes through a hash table beside its list: shapes taken out of the
/// middle, put back, re-added under a used id, moved and recolored, then everything undone and
/// redone, must leave the canvas its description says, shape by shape, in order.
@Suite("Canvas shape index")
struct CanvasShapeIndexTests {
    struct Shape: Equatable {
        var id: Int
        var x: Int
        var y: Int
        var color: Int
        var line: String { "#\(id) rect x=\(x) y=\(y) w=1 h=1 color=#\(String(format: "%06x", color))" }
    }

    @Test func shapesTakenOutOfTheMiddleAndPutBackAreStillFoundById() throws {
        let host = PluginHost()
        _ = try host.load(file: UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginCanvas.so").path)
        let plugin = try #require(host.plugins.first { $0.canDescribe }).id
        let session = HostSession(host: host)
        #expect(session.run("doc d")?.error == nil)
        func run(_ line: String) { #expect(session.run(line)?.error == nil, "\(line)") }
        func described() throws -> String { try host.describe(UndoContext("d"), plugin: plugin) }

        // Ids that share probe runs in a small table and ones far apart.
        let ids = (0..<400).map { ($0 * 7919) % 100_003 + 1 }
        var model: [Shape] = []
        for (k, id) in ids.enumerated() {
            run("canvas.add \(id) \"rect\" \(k) 0 1 1 0")
            model.append(Shape(id: id, x: k, y: 0, color: 0))
        }
        for (k, id) in ids.enumerated() where k % 3 == 0 {
            run("canvas.remove \(id)")
            model.removeAll { $0.id == id }
        }
        for (k, id) in ids.enumerated() where k % 3 == 1 {
            run("canvas.move \(id) 1 2")
            if let i = model.firstIndex(where: { $0.id == id }) { model[i].x += 1; model[i].y += 2 }
        }
        for (k, id) in ids.enumerated() where k % 3 == 2 {
            run("canvas.recolor \(id) 0x00ff00")
            if let i = model.firstIndex(where: { $0.id == id }) { model[i].color = 0x00ff00 }
        }
        for (k, id) in ids.enumerated() where k % 6 == 0 {  // an id used before, now free
            run("canvas.add \(id) \"rect\" 5 5 1 1 255")
            model.append(Shape(id: id, x: 5, y: 5, color: 255))
        }
        #expect(session.run("canvas.add \(ids[1]) \"rect\" 0 0 1 1 0")?.error != nil, "a live id is refused")
        #expect(session.run("canvas.move \(ids[3]) 1 1")?.error != nil, "a removed id is not found")
        let expected = model.map(\.line).joined(separator: "\n")
        #expect(try described() == expected)

        let steps = host.history.withStack { $0.count }
        run("undo to 0")
        #expect(try described() == "")
        run("redo to \(steps)")
        #expect(try described() == expected)
        // Undoing the re-adds and recolors only brings back the state after the moves.
        run("undo \(ids.indices.filter { $0 % 6 == 0 }.count + ids.indices.filter { $0 % 3 == 2 }.count)")
        let afterMoves = model.filter { shape in !(shape.x == 5 && shape.y == 5 && shape.color == 255) }
            .map { Shape(id: $0.id, x: $0.x, y: $0.y, color: 0) }
        #expect(try described() == afterMoves.map(\.line).joined(separator: "\n"))
    }
}
