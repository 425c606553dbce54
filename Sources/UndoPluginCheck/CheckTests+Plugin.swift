import UndoCore
import UndoPluginABI
import UndoPluginHost

// The tests of the plugin as a whole: its descriptor and exports, describe, loading and
// unloading.

extension CheckTest {
    /// descriptor: what the host reads at load time, beyond what it refuses by itself.
    static let descriptor = CheckTest(
        name: "descriptor",
        summary: "ids unique and well formed, signatures valid, versions, one exported entry symbol; names that make poor menu titles are warnings") {
        setup, _, log in
        var problems: [String] = []
        switch ExportedSymbols.read(setup.path) {
        case .failure(let reason): problems.append("cannot read the file's symbols: \(reason)")
        case .success(let symbols):
            let entries = symbols.filter { $0 == UNDO_PLUGIN_ENTRY_SYMBOL }
            if entries.count != 1 { problems.append("exports \(UNDO_PLUGIN_ENTRY_SYMBOL) \(entries.count) times, not once") }
            let clashing = symbols.filter { $0.hasPrefix("undo_") && $0 != UNDO_PLUGIN_ENTRY_SYMBOL }
            if !clashing.isEmpty {
                problems.append("exports \(clashing.joined(separator: ", ")): names of the host's own library; make them static")
            }
            let others = symbols.filter { !$0.hasPrefix("undo_") && !$0.hasPrefix("$s") && !$0.hasPrefix("_") }
            if !others.isEmpty {
                log.note("exports \(others.count) other symbol(s) (\(others.prefix(3).joined(separator: ", "))\(others.count > 3 ? ", …" : "")): make them static so they cannot clash with the host's")
            }
        }
        // The host refuses malformed ids, duplicate ids and bad signatures at load time.
        let plugin = try setup.load()
        let info = plugin.info
        if info.abiMajor != UInt32(UNDO_ABI_VERSION_MAJOR) || info.abiMinor > UInt32(UNDO_ABI_VERSION_MINOR) {
            problems.append("built for ABI \(info.abiMajor).\(info.abiMinor), this host has \(UNDO_ABI_VERSION_MAJOR).\(UNDO_ABI_VERSION_MINOR)")
        }
        if !isVersion(info.version) {
            problems.append("version \(ActionValue.string(info.version)) is not numbers separated by dots (1.0.0)")
        }
        if info.name.isEmpty {
            problems.append("name is empty")
        } else if info.name.trimmed != info.name {
            log.warn("name \(ActionValue.string(info.name)) has spaces around it")
        }
        if info.actionTypes.isEmpty { problems.append("registers no action type") }
        if info.setsHalfOfSaveAndLoad {
            problems.append("sets only one of save_document and load_document: set both or neither (the host uses neither)")
        }
        for action in info.actionTypes {
            // Style, not behaviour: the host title-cases names in its titles ("Undo Check Task"),
            // so a name like these is shown, not failed (as clap-validator's warnings).
            for problem in nameProblems(action.name) {
                log.warn("\(action.shortID) name \(ActionValue.string(action.name)): \(problem)")
            }
            for (label, signature) in [("parameters", action.signature), ("inverse parameters", action.inverseSignature)] {
                guard let signature else { continue }
                let names = signature.parameters.map(\.name)
                if Set(names).count != names.count {
                    problems.append("\(action.shortID) \(label) repeat a name: \(signature)")
                }
            }
        }
        if !problems.isEmpty { throw CheckFailure(problems.joined(separator: "\n")) }
    }

    /// Why an action name does not make a good Edit menu title ("Undo <name>"), if it does not.
    static func nameProblems(_ name: String) -> [String] {
        var problems: [String] = []
        if name.trimmed != name { problems.append("spaces around it") }
        if name.first?.isLowercase == true {
            let titled = UndoTitleFormatter().displayName(name) ?? name
            problems.append("starts with a lowercase letter; the host title-cases it in menus (\"Undo \(titled)\"): write it so (\"\(titled)\")")
        }
        if name.hasSuffix(".") || name.hasSuffix("…") || name.hasSuffix("...") { problems.append("ends with punctuation") }
        let lowered = name.lowercased()
        if lowered.hasPrefix("undo ") || lowered.hasPrefix("redo ") {
            problems.append("starts with Undo/Redo, which the host adds itself")
        }
        if name.contains("\n") || name.contains("\t") { problems.append("contains a line break or tab") }
        if name.count > 40 { problems.append("longer than 40 characters, too long for a menu") }
        return problems
    }

    static func isVersion(_ text: String) -> Bool {
        let core = text.split(separator: "-", maxSplits: 1).first ?? ""
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// describe: documents the plugin never saw, names of every kind, the same answer twice.
    static let describe = CheckTest(
        name: "describe",
        summary: "describe answers for any document name, the same way twice, in one call or one retry") {
        setup, random, log in
        let plugin = try setup.load()
        guard plugin.canDescribe else {
            throw CheckSkip(reason: "the plugin has no describe function: documents cannot be compared, so no round trip checks states (add describe to undo_plugin_descriptor)")
        }
        let names = documentNames + [String(repeating: "n", count: Int(UNDO_MAX_CONTEXT_LENGTH))]
        for name in names {
            let first = try plugin.state(UndoContext(name))
            let second = try plugin.state(UndoContext(name))
            if first != second {
                throw CheckFailure("describe of document \(ActionValue.string(name)) gave two answers: \(first ?? "") then \(second ?? "")")
            }
        }
        // After some steps, large documents too (past the host's first buffer).
        var walk = try HistoryWalk(plugin: plugin, log: log, documentNames: ["big"])
        for _ in 0..<setup.steps {
            let action = random.pick(plugin.info.actionTypes)
            var arguments = ArgumentGenerator.arguments(for: action.signature, using: &random)
            for index in arguments.indices where arguments[index].type == .string && random.chance(50) {
                arguments[index] = .string(ArgumentGenerator.longText)
            }
            try walk.perform(action, arguments, document: 0)
        }
        try walk.checkLog("describe")
    }

    /// load-unload: steps, unload, load again (the documents start empty); two hosts with the
    /// plugin at once (each instance its own state).
    static let loadUnload = CheckTest(
        name: "load-unload",
        summary: "unload then load again starts afresh; two instances at once keep their own documents") {
        setup, random, log in
        let initial: String?
        do {
            let first = try setup.load()
            initial = try first.state(UndoContext("doc"))
            var walk = try HistoryWalk(plugin: first, log: log, documentNames: ["doc"])
            for _ in 0..<20 { try walk.randomStep(actions: first.info.actionTypes, focus: nil, using: &random) }
            do {
                try first.host.unload(first.info.id)
            } catch {
                throw CheckFailure("unload failed: \(error)")
            }
            try walk.checkLog("unload")
        }
        let second = try setup.load()
        let third = try setup.load()
        if let initial, let again = try second.state(UndoContext("doc")), again != initial {
            throw CheckFailure("loaded again after an unload, document \"doc\" is \(HistoryWalk.shown(again)), not the state of a new document \(HistoryWalk.shown(initial)): the plugin keeps state across instances")
        }
        var walk = try HistoryWalk(plugin: second, log: log, documentNames: ["doc"])
        for _ in 0..<20 { try walk.randomStep(actions: second.info.actionTypes, focus: nil, using: &random) }
        if let initial, let other = try third.state(UndoContext("doc")), other != initial {
            throw CheckFailure("steps in one instance changed another instance's document \"doc\" to \(HistoryWalk.shown(other)): keep documents in plugin_data, not in globals")
        }
        if !second.canDescribe { log.note(noDescribeNote("load-unload")) }
    }
}

extension String {
    var trimmed: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
