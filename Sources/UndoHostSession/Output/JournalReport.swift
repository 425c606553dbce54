#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoHostJournal
import UndoPluginHost
import UndoHostTerminal

/// `undo-host journal FILE` as a person reads it (text) or a program does (`--json`): the
/// journal's summary, and with `--changes` one line per change. The change lines use the command
/// language (the same in every locale, as scripts do); the labels are the session's words.
struct JournalReport {
    let contents: JournalContents
    let words: SessionText

    /// The summary, then the changes when asked.
    /// - Complexity: O(*n*) in the changes.
    func text(changes listing: Bool, verified: Bool) -> String {
        var lines = [words.journalHeading(contents.path)]
        func row(_ label: String, _ values: [String]) {
            let padded = label + String(repeating: " ", count: max(1, 13 - label.terminalWidth))
            for (index, value) in values.enumerated() {
                lines.append("  " + (index == 0 ? padded : String(repeating: " ", count: padded.terminalWidth)) + value)
            }
        }
        row(words.journalFormat, [String(contents.format) + (contents.identity.map { " (\(words.journalIdentity) \($0))" } ?? "")])
        row(words.journalSize, [words.journalBytes(contents.fileBytes, wal: contents.walBytes)])
        if let pid = contents.openBy { row(words.journalOpen, [words.journalOpenBy(pid)]) }
        row(words.journalPlugins, contents.plugins.isEmpty ? [words.journalNone] : contents.plugins.map { plugin in
            "\(plugin.id) \(plugin.versions.joined(separator: ", ")): " + words.journalPerforms(plugin.performs)
                + (plugin.path.map { "; " + words.journalLoadedFrom($0) } ?? "")
        })
        row(words.journalDocuments, contents.documents.isEmpty ? [words.journalNone] : contents.documents.map { document in
            ActionValue.string(document.name).description
                + (document.plugins.isEmpty ? "" : " (\(document.plugins.joined(separator: ", ")))")
                + ": " + words.journalPerforms(document.performs)
                + (document.inCheckpoint ? "; " + words.journalInCheckpoint : "")
        })
        if let first = contents.changes.first, let last = contents.changes.last {
            let kinds = contents.kinds.map { "\($0.count) \($0.kind)" }.joined(separator: ", ")
            row(words.journalChanges, [words.journalChangeRange(count: contents.changes.count, first: first.sequence, last: last.sequence,
                                                                 from: Self.time(first.time), to: Self.time(last.time)),
                                       kinds])
        } else {
            row(words.journalChanges, [words.journalNone])
        }
        if let checkpoint = contents.checkpoint {
            row(words.journalCheckpoint, [words.journalCheckpointSummary(after: checkpoint.sequence, at: Self.time(checkpoint.time),
                                                                         steps: checkpoint.steps, documents: checkpoint.documents.count,
                                                                         bytes: checkpoint.documentBytes)
                                           + (contents.checkpointPieces > 0 ? words.journalPieces(contents.checkpointPieces) : "")])
        } else {
            row(words.journalCheckpoint, [words.journalNone])
        }
        if verified {
            row(words.journalVerified, [words.journalVerifiedSummary(changes: contents.changes.count, checkpointRows: contents.checkpointRows)])
        }
        if listing {
            lines.append("")
            let width = String(contents.changes.last?.sequence ?? 0).count
            for change in contents.changes {
                let number = String(change.sequence)
                lines.append(String(repeating: " ", count: width - number.count) + number + "  " + Self.time(change.time)
                             + "  " + Self.text(of: change.change))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One JSON object (see docs/undo-host.md).
    func json(changes listing: Bool, verified: Bool) -> String {
        var members: [(String, JSONValue)] = [
            ("journal", .string(contents.path)), ("format", .int(contents.format)),
            ("identity", contents.identity.map { .string($0) } ?? .null),
            ("bytes", .int(contents.fileBytes)), ("walBytes", .int(contents.walBytes)),
            ("openBy", contents.openBy.map { .int(Int64($0)) } ?? .null),
            ("plugins", .array(contents.plugins.map { plugin in
                .object([("id", .string(plugin.id)), ("versions", .array(plugin.versions.map { .string($0) })),
                         ("path", plugin.path.map { .string($0) } ?? .null), ("performs", .int(Int64(plugin.performs)))])
            })),
            ("documents", .array(contents.documents.map { document in
                .object([("name", .string(document.name)), ("plugins", .array(document.plugins.map { .string($0) })),
                         ("performs", .int(Int64(document.performs))), ("inCheckpoint", .bool(document.inCheckpoint))])
            })),
            ("changes", .object([
                ("count", .int(Int64(contents.changes.count))),
                ("first", contents.changes.first.map { .int($0.sequence) } ?? .null),
                ("last", contents.changes.last.map { .int($0.sequence) } ?? .null),
                ("kinds", .object(contents.kinds.map { ($0.kind, .int(Int64($0.count))) })),
            ])),
            ("checkpoint", contents.checkpoint.map { checkpoint in
                .object([("after", .int(checkpoint.sequence)), ("time", .string(Self.time(checkpoint.time))),
                         ("steps", .int(Int64(checkpoint.steps))), ("documents", .int(Int64(checkpoint.documents.count))),
                         ("documentBytes", .int(Int64(checkpoint.documentBytes))), ("rows", .int(Int64(contents.checkpointRows))),
                         ("pieces", .int(Int64(contents.checkpointPieces)))])
            } ?? .null),
        ]
        if verified { members.append(("verified", .bool(true))) }
        if listing {
            members.append(("changeList", .array(contents.changes.map { change in
                .object([("sequence", .int(change.sequence)), ("time", .string(Self.time(change.time))),
                         ("nanoseconds", .int(Int64(bitPattern: change.time))), ("kind", .string(change.change.kind)),
                         ("text", .string(Self.text(of: change.change)))])
            })))
        }
        return JSONValue.object(members).serialized
    }

    /// "2026-11-28 05:48:31.120" (UTC, milliseconds) from nanoseconds since 1970.
    static func time(_ nanoseconds: UInt64) -> String {
        var seconds = time_t(nanoseconds / 1_000_000_000)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return String(nanoseconds) }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(nanoseconds / 1_000_000 % 1000)
        let millis = String(milliseconds)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))."
            + String(repeating: "0", count: 3 - millis.count) + millis
    }

    /// A change in the command language: what a script would say to make it.
    static func text(of change: HostChange) -> String {
        func quoted(_ text: String) -> String { ActionValue.string(text).description }
        func inDocument(_ context: String?) -> String { context.map { " in " + quoted($0) } ?? "" }
        switch change {
        case .perform(let step):
            return "perform " + step.action + (step.arguments.isEmpty ? "" : " " + step.arguments) + " in " + quoted(step.context)
                + (step.description.map { "  (\(quoted($0)))" } ?? step.name.map { "  (\(quoted($0)))" } ?? "")
        case .closeContext(let name): return "close " + quoted(name)
        case .load(let path, let plugin, let version): return "load \(plugin) \(version) from " + quoted(path)
        case .unload(let plugin): return "unload " + plugin
        case .history(let operation):
            switch operation {
            case .undo(let count, let scope), .redo(let count, let scope):
                let scopeText: String = switch scope {
                case .current: ""
                case .whole: " (whole history)"
                case .context(let name): " in " + quoted(name)
                }
                return operation.kind + " \(count)" + scopeText
            case .move(let position): return "move to position \(position)"
            case .goTo(let state): return "goto \(state)"
            case .earlier(let travel): return "earlier \(travel)"
            case .later(let travel): return "later \(travel)"
            case .travelFoundNoState: return "earlier or later: no state found"
            case .beginGroup(let name, let context, let description):
                return "group begin" + (name.map { " " + quoted($0) } ?? "") + inDocument(context)
                    + (description.map { " --description " + quoted($0) } ?? "")
            case .endGroup: return "group end"
            case .cancelGroup: return "group cancel"
            case .breakCoalescing: return "break"
            case .markSaved(let context): return "save" + inDocument(context)
            case .forgetSavePoint(let context): return "save --forget" + inDocument(context)
            case .revertToSaved(let context, let name): return "revert" + inDocument(context) + "  (" + quoted(name) + ")"
            case .goToInDocument(let state, let context, let name): return "goto --doc \(quoted(context)) \(state)  (" + quoted(name) + ")"
            case .earlierInDocument(let count, let context, _): return "earlier --doc \(quoted(context)) \(count)"
            case .laterInDocument(let count, let context, _): return "later --doc \(quoted(context)) \(count)"
            case .limits(let count, let memory):
                return "limit " + (count.map(String.init) ?? "none") + (memory.map { ", memory \($0) bytes" } ?? "")
            case .coalescingWindow(let seconds, let attoseconds):
                guard let seconds else { return "coalescing window none" }
                let milliseconds = seconds * 1000 + (attoseconds ?? 0) / 1_000_000_000_000_000
                return "coalescing window \(milliseconds) ms"
            case .currentContext(let name): return "document " + (name.map(quoted) ?? "none")
            case .pauseRecording: return "pause recording"
            case .resumeRecording: return "resume recording"
            case .removeAll(let context): return "forget every step" + inDocument(context)
            }
        }
    }
}
