import Foundation

/// The Swift examples of the documentation (Tests/DocsTests/Examples): each is compiled with the
/// tests, and run here so a document can show what it prints (`<!-- check: output NAME -->`).
enum DocExamples {
    static func printedOutput(of name: String) throws -> String {
        let output = PrintedText()
        try PrintedText.$current.withValue(output) {
            switch name {
            case "quick-start": try quickStart()
            case "undo-manager": try undoManager()
            case "titles": try titles()
            case "groups-and-save-points": try groupsAndSavePoints()
            case "step-texts": try stepTexts()
            case "branches-and-time-travel": try branchesAndTimeTravel()
            case "moves-of-one-document": try movesOfOneDocument()
            case "plugin-host": try pluginHost()
            case "trust-policy": try trustPolicy()
            case "history-journal": try historyJournal()
            case "journal": try journal()
            case "journal-checkpoint": try journalCheckpoint()
            default: throw DocsCheckError("no example \(name) in DocExamples.printedOutput(of:)")
            }
        }
        return output.text
    }
}

/// What an example printed. Each example runs on one thread; the lock only makes that safe to
/// state.
final class PrintedText: Sendable {
    @TaskLocal static var current: PrintedText?
    private let lock = NSLock()
    nonisolated(unsafe) private var collected = ""
    var text: String { lock.withLock { collected } }
    func append(_ text: String) { lock.withLock { collected += text } }
}

/// The examples' `print`: what Swift's would print, kept for the check while an example runs.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { String(describing: $0) }.joined(separator: separator) + terminator
    if let output = PrintedText.current { output.append(text) } else { Swift.print(text, terminator: "") }
}
