import UndoCore
import UndoPluginABI
import UndoPluginHost

// The test of a plugin that saves its documents as bytes (save_document and load_document,
// ABI 1.7).

extension CheckTest {
    /// save-load: after a random walk, each document's saved bytes load into a new document and
    /// into the same document closed, giving what describe showed; steps after a load undo back
    /// to it; and bytes that are not a saved document are refused with an error, leaving the
    /// document empty.
    static let saveLoad = CheckTest(
        name: "save-load",
        summary: "a saved document loads back into a new or closed document as it was; garbage bytes are refused, leaving it empty") {
        setup, random, log in
        let plugin = try setup.load()
        let host = plugin.host
        let id = plugin.info.id
        if !plugin.canDescribe {
            log.note("not compared: the plugin has no describe function, so save-load only checked that saving and loading succeed and garbage is refused")
        }
        func save(_ context: UndoContext) throws(CheckFailure) -> [UInt8] { try savedState(of: context, in: plugin) }
        func load(_ bytes: [UInt8], into context: UndoContext) -> PluginHostError? {
            loadFailure(bytes, into: context, in: plugin)
        }
        func requireLoaded(_ bytes: [UInt8], into context: UndoContext, equal expected: String?, _ what: String) throws(CheckFailure) {
            if let error = load(bytes, into: context) {
                throw CheckFailure("loading the \(bytes.count) saved bytes \(what) failed: \(error)")
            }
            if let expected, let actual = try plugin.state(context), actual != expected {
                throw CheckFailure("loaded \(what), the document is\n    \(HistoryWalk.shown(actual))\n  but it was saved as\n    \(HistoryWalk.shown(expected))")
            }
        }

        let empty = try plugin.state(UndoContext("save-load empty"))
        var walk = try HistoryWalk(plugin: plugin, log: log, documentNames: Array(documentNames.prefix(3)))
        for _ in 0..<setup.steps {
            try walk.randomStep(actions: plugin.info.actionTypes, focus: nil, using: &random)
        }
        for (index, document) in walk.documents.enumerated() {
            let expected = try plugin.state(document.context)
            let bytes = try save(document.context)
            guard bytes.count <= Int(UNDO_MAX_VALUE_SIZE) else {
                throw CheckFailure("saved \(bytes.count) bytes, over UNDO_MAX_VALUE_SIZE")
            }
            let copy = UndoContext("save-load copy \(index)")
            try requireLoaded(bytes, into: copy, equal: expected, "into a new document")

            // Steps after the load undo back to the loaded state.
            for _ in 0..<5 {
                let action = random.pick(plugin.info.actionTypes)
                _ = plugin.perform(action, walk.arguments(for: action, using: &random), in: copy)
            }
            // Until none is done (steps may have merged).
            while plugin.stepCounts(copy).done > 0 {
                if let error = plugin.move(true, in: copy) { throw CheckFailure("undo after a load failed: \(error)") }
            }
            if let expected, let actual = try plugin.state(copy), actual != expected {
                throw CheckFailure("steps after a load did not undo back to the loaded state:\n    \(HistoryWalk.shown(actual))\n  expected\n    \(HistoryWalk.shown(expected))")
            }

            do {
                try host.closeContext(document.context)
            } catch {
                throw CheckFailure("closing document \(ActionValue.string(document.context.name)) failed: \(error)")
            }
            try requireLoaded(bytes, into: document.context, equal: expected, "into the same document, closed")
        }

        // Garbage: refused with a code from the table and the plugin's reason; the document stays empty.
        let saved = try save(walk.documents[0].context)
        var garbage: [(String, [UInt8])] = [("32 random bytes", (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })]
        if saved.count > 1 { garbage.append(("the saved bytes without the last", Array(saved.dropLast()))) }
        if !saved.isEmpty {
            var flipped = saved
            flipped[Int.random(in: 0..<min(flipped.count, 16), using: &random)] ^= 0xFF
            garbage.append(("the saved bytes with a byte flipped near the start", flipped))
        }
        for (index, (what, bytes)) in garbage.enumerated() {
            let target = UndoContext("save-load garbage \(index)")
            guard let error = load(bytes, into: target) else {
                if index == 0 {
                    throw CheckFailure("loading \(what) succeeded: check a format mark and version before reading")
                }
                continue  // a changed byte may still be a valid document
            }
            guard case .actionFailed(let failure) = error else {
                throw CheckFailure("loading \(what) was refused by the host, not the plugin: \(error)")
            }
            if failure.code == Int32(UNDO_EPLUGIN) {
                throw CheckFailure("loading \(what) broke the ABI contract: \(failure.message)")
            }
            if failure.message == String(cString: undo_plugin_error_message(failure.code)) {
                log.note("load_document refused \(what) without a message: explain it with report_error")
            }
            if let empty, let actual = try plugin.state(target), actual != empty {
                throw CheckFailure("a refused load of \(what) left the document changed:\n    \(HistoryWalk.shown(actual))")
            }
            if let error = load(saved, into: target) {
                throw CheckFailure("after a refused load of \(what), loading good bytes into the same document failed: \(error)")
            }
        }
        try walk.checkLog("saving and loading documents")
    }

    /// The saved bytes of `context`.
    private static func savedState(of context: UndoContext, in plugin: PluginUnderTest) throws(CheckFailure) -> [UInt8] {
        let saved: [UInt8]?
        do throws(PluginHostError) {
            saved = try plugin.host.saveDocumentState(plugin: plugin.info.id, context: context)
        } catch {
            throw CheckFailure("saving document \(ActionValue.string(context.name)) failed: \(error)")
        }
        guard let saved else {
            throw CheckFailure("the plugin has save_document and load_document but the host cannot save with them")
        }
        return saved
    }

    /// Why loading `bytes` into `context` failed, or nil when it loaded.
    private static func loadFailure(_ bytes: [UInt8], into context: UndoContext, in plugin: PluginUnderTest) -> PluginHostError? {
        do throws(PluginHostError) {
            try plugin.host.loadDocumentState(bytes, plugin: plugin.info.id, context: context)
            return nil
        } catch {
            return error
        }
    }
}
