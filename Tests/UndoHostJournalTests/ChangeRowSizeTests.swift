import Testing
import UndoCore
@testable import UndoHostJournal
import UndoJournal
import UndoPluginHost

/// A change row's byte count (what automatic checkpoints and the replay's batches count) is
/// the bytes of the values the row is written with, counted without building them.
@Suite struct ChangeRowSizeTests {
    static func bytes(of values: [SQLiteConnection.Value]) -> Int {
        values.reduce(0) { total, value in
            switch value {
            case .integer: total + 8
            case .text(let text): total + text.utf8.count
            case .blob(let bytes): total + bytes.count
            }
        }
    }

    static let changes: [HostChange] = [
        .perform(PluginStepRecord(plugin: "org.example.text", pluginVersion: "1.2.0", action: "text.insert",
                                  context: "létter.txt", arguments: "[0,\"Dear Ann\"]", name: "Typing",
                                  inverseArguments: "[0,8]", description: "Typing \"Dear Ann\"", coalescing: .key("typing"))),
        .perform(.call(plugin: "p", pluginVersion: "1.0.0", action: "a.b", context: "", arguments: "[]")),
        .history(.undo(count: 3, scope: .context("b"))),
        .history(.beginGroup(name: "Edit Both", context: nil, description: "two documents")),
        .history(.earlier(try! UndoTravel(parsing: "10s"))),
        .load(path: "/opt/plugins/libtext.so", plugin: "org.example.text", pluginVersion: "1.2.0"),
        .closeContext("sketch"),
    ]

    @Test(arguments: changes)
    func theCountIsTheBytesOfTheValuesWritten(_ change: HostChange) {
        let row = ChangeRow.Row(sequence: 7, time: 1_000, change: change)
        #expect(row.byteCount == Self.bytes(of: row.values))
        #expect(row.byteCount > 6 * 8)
    }
}
