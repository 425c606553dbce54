import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost

/// The `journal` target: the input becomes a small journal file (format 4: a few change rows,
/// sometimes a checkpoint's rows, with valid checksums most of the time so the fuzzer gets past
/// them), which a host with the bundled plugins opens. The open must not trap or hang, and
/// either succeeds with a consistent history (`UndoStack.checkInvariants()`, the tree listed)
/// or is refused with a ``UndoJournal/JournalError``.
enum JournalFuzzing {
    /// The journal's file, in a folder of this process: in memory (/dev/shm) when there is one,
    /// as every open syncs the file.
    static let folder: String = {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        var template = Array("\(base)/undohost-fuzz-journal-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) } ?? "/tmp"
    }()
    /// Numbers the inputs' files: the regression tests run inputs on several threads at once.
    static let inputs = Atomic<Int>(0)

    /// The bundled plugins' files, loaded into each host (the libraries stay mapped: dlopen
    /// once per process, each host only registers them).
    static let pluginFiles = ["TextEditor", "Canvas", "SwiftNotes"].map { CAPISession.productsFolder + "/libUndoPlugin\($0).so" }

    /// The versions of the plugins, as the journal would have recorded them.
    typealias Plugin = (id: String, version: String, path: String)
    static let loaded: [Plugin] = {
        let host = makeHost()
        return host.plugins.map { ($0.id, $0.version, $0.path) }
    }()
    /// Named when no plugin could be loaded.
    static let none: Plugin = ("org.undohost.text", "1.0.0", "/nonexistent/libUndoPluginTextEditor.so")

    static func plugin(_ input: inout FuzzInput) -> Plugin {
        loaded.isEmpty ? none : loaded[input.choice(loaded.count)]
    }

    static func makeHost() -> PluginHost {
        let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil, clock: JournalClock())))
        for file in pluginFiles { _ = try? host.load(file: file) }
        return host
    }

    static func run(_ data: UnsafeRawBufferPointer) throws(FuzzInvariantViolation) {
        var input = FuzzInput(data)
        let path = folder + "/fuzzed-\(inputs.add(1, ordering: .relaxed).newValue).undojournal"
        let files = [path, path + "-wal", path + "-shm", path + "-journal", path + "-replay", path + "-save"]
        defer { for file in files { unlink(file) } }
        try write(&input, to: path)
        // The reader: a host with the plugins loaded, as a program makes one.
        let clock = JournalClock()
        let host = PluginHost(history: SharedUndoHistory(UndoStack(coalescingWindow: nil, clock: clock)))
        for file in pluginFiles { _ = try? host.load(file: file) }
        let journal: HostJournal
        do {
            journal = try HostJournal.open(path: path, host: host, clock: clock)
        } catch {
            // Refused: what came in is taken out again (docs/reliability.md), whatever the reason.
            guard host.history.withStack({ $0.treeCount == 0 }) else {
                throw FuzzInvariantViolation("a refused open left steps in the history: \(error)")
            }
            host.history.withStack { $0.checkInvariants() }
            guard host.plugins.count == loaded.count else {
                throw FuzzInvariantViolation("a refused open changed the plugins loaded: \(error)")
            }
            return
        }
        defer { journal.close() }
        guard host.plugins.allSatisfy({ plugin in loaded.contains { $0.path == plugin.path } }) else {
            throw FuzzInvariantViolation("the journal made the host load a file: \(host.plugins.map(\.path))")
        }
        host.history.withStack { stack in
            stack.checkInvariants()
            _ = stack.tree
        }
    }

    // MARK: Writing the file

    static let numbers: [Int64] = [0, 1, 2, 3, -1, -5, 1 << 31, Int64(UInt32.max), 1 << 62, Int64.max, Int64.min, 4]
    static let contexts = ["a", "b", "", "文書", String(repeating: "c", count: 5000)]
    static let actions = ["org.undohost.text/insert", "org.undohost.text/delete", "org.undohost.canvas/add", "text.insert",
                          "org.undohost.notes/write", "nope", ""]
    static let argumentTexts = ["0 \"x\"", "1 \"yz\"", "0 1", "5 \"q\"", "", "\"", "0 \"\\u{0}\""]

    static func number(_ input: inout FuzzInput) -> Int64 {
        input.choice(3) == 0 ? Int64(bitPattern: input.integer(UInt64.self)) : numbers[input.choice(numbers.count)]
    }

    static func text(_ input: inout FuzzInput, from list: [String]) -> String {
        input.choice(8) == 0 ? String(decoding: input.shortBytes(), as: UTF8.self) : list[input.choice(list.count)]
    }

    static func change(_ input: inout FuzzInput) -> HostChange {
        let count = Int(number(&input))
        let context = text(&input, from: contexts)
        let plugin = plugin(&input)
        let scopes: [UndoOperation.Scope] = [.whole, .current, .context(context)]
        switch input.choice(22) {
        case 0, 1, 2, 3, 4:
            let action = text(&input, from: actions)
            let arguments = text(&input, from: argumentTexts)
            if input.bool() {
                return .perform(.call(plugin: plugin.id, pluginVersion: plugin.version, action: action, context: context,
                                      arguments: arguments))
            }
            return .perform(PluginStepRecord(plugin: plugin.id, pluginVersion: plugin.version, action: action, context: context,
                                             arguments: arguments, name: "Insert", inverseArguments: input.bool() ? arguments : nil,
                                             description: nil, coalescing: input.bool() ? .never : .key("k")))
        case 5: return .history(.undo(count: count, scope: scopes[input.choice(3)]))
        case 6: return .history(.redo(count: count, scope: scopes[input.choice(3)]))
        case 7: return .history(.move(position: count))
        case 8: return .history(.goTo(state: UInt32(truncatingIfNeeded: count)))
        case 9: return .history(input.bool() ? .earlier(.states(Int(truncatingIfNeeded: Int32(truncatingIfNeeded: count))))
                                             : .later(.saves(Int(truncatingIfNeeded: Int8(truncatingIfNeeded: count)))))
        case 10: return .history(.beginGroup(name: input.bool() ? "G" : nil, context: input.bool() ? context : nil, description: nil))
        case 11: return .history(input.bool() ? .endGroup : .cancelGroup)
        case 12: return .history(.markSaved(context: input.bool() ? context : nil))
        case 13: return .history(.revertToSaved(context: input.bool() ? context : nil, name: "Revert"))
        case 14: return .history(.currentContext(input.bool() ? context : nil))
        case 15: return .history(.limits(count: input.bool() ? count : nil, memory: input.bool() ? Int(number(&input)) : nil))
        case 16: return .history(.coalescingWindow(seconds: number(&input), attoseconds: number(&input)))
        case 17: return .history(.removeAll(context: input.bool() ? context : nil))
        case 18: return .closeContext(context)
        case 19: return .load(path: input.bool() ? plugin.path : "/nonexistent/libX.so", plugin: plugin.id,
                              pluginVersion: input.bool() ? plugin.version : "9.0.0")
        case 20: return .unload(plugin: plugin.id)
        default: return .history([.breakCoalescing, .pauseRecording, .resumeRecording, .forgetSavePoint(context: context),
                                  .travelFoundNoState][input.choice(5)])
        }
    }

    /// A new journal (made by the journal's own code), then rows written into it.
    static func write(_ input: inout FuzzInput, to path: String) throws(FuzzInvariantViolation) {
        let writer = PluginHost(history: SharedUndoHistory(UndoStack()))
        do {
            try HostJournal.open(path: path, host: writer).close()
        } catch {
            throw FuzzInvariantViolation("cannot make a new journal: \(error)")
        }
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, create: false)
        } catch {
            throw FuzzInvariantViolation("cannot reopen the new journal: \(error)")
        }
        defer {
            try? connection.execute("COMMIT;")
            connection.close()
        }
        // One transaction, unsynced: the file is thrown away after the run.
        try? connection.execute("PRAGMA synchronous=OFF; BEGIN;")
        var base: Int64 = 0
        if input.choice(3) == 0 {
            base = input.choice(4) == 0 ? number(&input) : Int64(input.choice(20))
            writeCheckpoint(&input, sequence: base, connection)
        }
        var time: UInt64 = 1_700_000_000_000_000_000
        let changes = input.choice(9)
        for index in 0..<changes {
            time = input.choice(16) == 0 ? time &- UInt64(input.byte()) : time &+ UInt64(input.byte()) * 1_000
            let sequence = input.choice(32) == 0 ? number(&input) : base &+ Int64(index + 1)
            var values = JournalRows.change(sequence: sequence, time: time, change(&input))
            if input.choice(32) == 0 { values[9] = .integer(number(&input)) }  // a damaged row: its checksum fails
            try? connection.query(JournalRows.insertChange, values)
        }
    }

    /// A checkpoint's rows, sealed: a record, documents, steps and marks with fuzzed values.
    static func writeCheckpoint(_ input: inout FuzzInput, sequence: Int64, _ connection: SQLiteConnection) {
        func insert(_ table: String, _ values: [SQLiteConnection.Value]) {
            let marks = Array(repeating: "?", count: values.count + 1).joined(separator: ", ")
            try? connection.query("INSERT INTO \(table) VALUES (\(marks));", JournalRows.sealed(values))
        }
        let plugins = input.choice(2)
        for ordinal in 0..<plugins {
            let plugin = plugin(&input)
            insert("checkpoint_plugins", [.integer(Int64(ordinal + 1)), .text(input.bool() ? plugin.path : "/tmp/other.so"),
                                          .text(plugin.id), .text(plugin.version)])
        }
        let documents = input.choice(3)
        for ordinal in 0..<documents {
            let plugin = plugin(&input)
            insert("checkpoint_documents", [.integer(Int64(ordinal + 1)), .text(input.bool() ? plugin.id : ""), .text(plugin.version),
                                            .text(text(&input, from: contexts)), .blob(input.shortBytes())])
        }
        let steps = input.choice(6)
        var nextSerial: Int64 = 1
        for ordinal in 0..<steps {
            let plugin = plugin(&input)
            let kind = ["command", "command", "command", "group", "reverted", "other"][input.choice(6)]
            let serial = input.choice(8) == 0 ? number(&input) : nextSerial
            nextSerial += 1
            insert("checkpoint_steps", [
                .integer(Int64(ordinal + 1)), .integer(Int64(input.choice(3))), .integer(Int64(input.choice(4))),
                .integer(input.choice(4) == 0 ? Int64(input.choice(ordinal + 1)) : 0), .integer(serial),
                .integer(Int64(input.byte())), .integer(input.choice(8) == 0 ? number(&input) : Int64(input.byte())),
                .text(kind), .integer(Int64(input.choice(32))), .text("Step"), .text(""), .text(text(&input, from: contexts)),
                .text(plugin.id), .text(plugin.version), .text(text(&input, from: actions)), .text(text(&input, from: argumentTexts)),
                .text(text(&input, from: argumentTexts)), .text(""),
            ])
        }
        let marks = input.choice(3)
        for ordinal in 0..<marks {
            insert("checkpoint_marks", [.integer(Int64(ordinal + 1)), .text(["log", "baseline", "saved", "x"][input.choice(4)]),
                                        .text(text(&input, from: contexts)),
                                        .integer(input.choice(4) == 0 ? number(&input) : Int64(input.choice(Int(nextSerial) + 1)))])
        }
        let current = input.bool()
        insert("checkpoint", [
            .integer(sequence), .integer(1_700_000_000_000_000_000), .integer(Int64(input.choice(steps + 2))),
            .integer(input.choice(4) == 0 ? number(&input) : nextSerial), .integer(input.choice(4) == 0 ? number(&input) : 0),
            .integer(input.choice(4) == 0 ? number(&input) : 0), .text(current ? text(&input, from: contexts) : ""),
            .integer(current ? 1 : 0), .integer(Int64(input.choice(2))), .integer(0),
            .integer(Int64(plugins)), .integer(Int64(documents)), .integer(Int64(steps)), .integer(Int64(marks)),
        ])
    }
}
