import Glibc
import UndoCodableJournal
import UndoCore
import UndoTestSupport

/// Temporary journal paths and what the tests compare.
enum JournalFiles {
    static var commands: [any UndoJournaledCommand.Type] { [InsertText.self, DeleteText.self] }

    /// A fresh path in a new temporary folder.
    static func newPath(_ name: String = "history.sqlite") -> String {
        TemporaryFolder.kept("undo-codable-journal") + "/" + name
    }

    static func bytes(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let read = fread(&buffer, 1, buffer.count, file)
            if read == 0 { break }
            result += buffer[0..<read]
        }
        return result
    }

    static func write(_ bytes: [UInt8], to path: String) {
        let file = fopen(path, "wb")!
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The path of a fixture of the tests (`file`: a test file at the top of the test folder).
    static func fixture(_ name: String, file: String = #filePath) -> String {
        var parts = file.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/Fixtures/" + name
    }
}

/// Everything a reopened journal must give back.
struct HistorySnapshot: Equatable {
    var texts: [String: String]
    var tree: [UndoTreeNode]
    var position: Int
    var count: Int
    var currentState: UInt32
    var currentContext: UndoContext?
    var dirty: [String: Bool]
    var canRevert: [String: Bool]
    var undoTitle: String
    var redoTitle: String
    var groupDepth: Int
    var countLimit: Int?
    var wasStartSaved: Bool

    init(_ journal: UndoStackJournal, _ documents: Documents) {
        let stack = journal.stack
        texts = documents.texts
        tree = stack.tree
        position = stack.position
        count = stack.count
        currentState = stack.currentState
        currentContext = stack.currentContext
        let names = ["a", "b", ""]
        dirty = Dictionary(uniqueKeysWithValues: names.map { ($0, stack.isDirty(UndoContext($0))) })
        canRevert = Dictionary(uniqueKeysWithValues: names.map { ($0, stack.canRevertToSaved(UndoContext($0))) })
        undoTitle = stack.undoMenuTitle(in: nil)
        redoTitle = stack.redoMenuTitle(in: nil)
        groupDepth = stack.groupDepth
        countLimit = stack.countLimit
        wasStartSaved = stack.wasStartSaved
    }
}
