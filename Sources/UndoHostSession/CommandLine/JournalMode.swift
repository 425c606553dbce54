import ArgumentParser
import UndoHostJournal
import UndoJournal

/// `journal FILE`: what a host journal holds, read without opening its history and without
/// writing to it (docs/undo-host.md, "Reading a journal").
struct JournalMode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Show what a journal holds: format, plugins, documents, changes, checkpoint, size.",
        discussion: """
            Reads a copy of the journal and its -wal: the files are never written, and a journal \
            open in another process can be read (the process is named). \
            Exit status: 0 read (and verified), 1 the file cannot be read or is damaged, 2 usage error.
            """)

    @ParentCommand var options: UndoHostCommand

    @Argument(help: ArgumentHelp("The journal (an SQLite file written with --journal or the C and Swift APIs).", valueName: "FILE"))
    var file: String

    @Flag(help: "List every change, oldest first, with its time (UTC).")
    var changes = false

    @Flag(help: "Check every change's row and every checkpoint row (checksums, values) and SQLite's full integrity check.")
    var verify = false

    /// Runs the mode. - Returns: the exit status.
    func execute(output: ToolOutput) -> Int32 {
        let contents: JournalContents
        do {
            contents = try JournalContents.read(path: file, thorough: verify)
        } catch {
            if options.json {
                let members: [(String, JSONValue)] = [("journal", .string(file)), ("error", .string(error.message))]
                    + (verify ? [("verified", .bool(false))] : [])
                output.write(JSONValue.object(members).serialized + "\n", error: false)
            } else {
                output.write("undo-host: \(error)\n", error: true)
            }
            return UndoHostTool.ExitStatus.scriptError
        }
        let report = JournalReport(contents: contents, words: SessionText.forLocale(options.locale))
        output.write(options.json ? report.json(changes: changes, verified: verify) + "\n"
                                  : report.text(changes: changes, verified: verify), error: false)
        return UndoHostTool.ExitStatus.success
    }
}
