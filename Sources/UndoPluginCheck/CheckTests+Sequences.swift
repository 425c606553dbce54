import UndoCore
import UndoPluginHost

// The tests that walk the history: round trips per action type, merges, failing calls, many
// documents.

extension CheckTest {
    /// round-trip/ID: random performs (half of them of this action type), undos and redos in
    /// several documents, each state checked; then everything undone and redone again.
    static func roundTrip(_ localID: String) -> CheckTest {
        CheckTest(name: "round-trip/\(localID)",
                  summary: "perform then undo restores the document exactly; redo reproduces the performed state") {
            setup, random, log in
            let plugin = try setup.load()
            let action = try Self.action(localID, of: plugin)
            if !plugin.canDescribe { log.note(noDescribeNote("round-trip/\(localID)")) }
            var walk = try HistoryWalk(plugin: plugin, log: log, documentNames: Array(documentNames.prefix(3)))
            for _ in 0..<setup.steps {
                try walk.randomStep(actions: plugin.info.actionTypes, focus: action, using: &random)
            }
            try walk.unwindAndReplay()
            let effect = walk.effects[localID] ?? HistoryWalk.Effect()
            if effect.succeeded == 0 {
                // Not a pass: nothing of this action was checked.
                throw CheckNotRun(reason: "\(action.shortID) never succeeded: \(effect.failed) of \(effect.failed) calls failed"
                                  + (effect.lastFailure.map { " (the last: \($0))" } ?? "")
                                  + ", with arguments generated from the edge values, earlier calls and the numbers and words "
                                  + "describe shows; its round trip did not run: make describe show the ids and positions it takes")
            } else if plugin.canDescribe, effect.changed == 0, effect.substantial >= 5, !action.isDiscardable {
                throw CheckFailure("\(action.shortID) reported success \(effect.succeeded) times, \(effect.substantial) of them with no argument 0 or empty, but never changed the document (as describe shows it)")
            }
        }
    }

    /// merge/ID: steps of this action type back to back in one document, so they coalesce: a
    /// merged step must undo to the state before both and redo to the state after both; an
    /// annulled pair must leave the document as before both.
    static func merge(_ localID: String) -> CheckTest {
        CheckTest(name: "merge/\(localID)",
                  summary: "a merged step undoes and redoes as the separate steps would; an annulled merge changes nothing") {
            setup, random, log in
            let plugin = try setup.load()
            let action = try Self.action(localID, of: plugin)
            if !plugin.canDescribe { log.note(noDescribeNote("merge/\(localID)")) }
            var walk = try HistoryWalk(plugin: plugin, log: log, documentNames: Array(documentNames.prefix(2)))
            for _ in 0..<max(1, setup.steps / 4) {
                let document = Int.random(in: 0..<walk.documents.count, using: &random)
                // Something to work on (objects to move), then a run of this type.
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    let other = random.pick(plugin.info.actionTypes)
                    try walk.perform(other, walk.arguments(for: other, document: document, using: &random), document: document)
                }
                var arguments = walk.arguments(for: action, document: document, using: &random)
                for _ in 0..<Int.random(in: 2...4, using: &random) {
                    try walk.perform(action, arguments, document: document)
                    arguments = ArgumentGenerator.following(arguments, for: action.signature, using: &random)
                }
                // Undo and redo part of it.
                for _ in 0..<Int.random(in: 0...3, using: &random) { try walk.move(true, document: document) }
                for _ in 0..<Int.random(in: 0...3, using: &random) { try walk.move(false, document: document) }
                plugin.host.history.withStack { $0.breakCoalescing() }
            }
            try walk.unwindAndReplay()
            let effect = walk.effects[localID] ?? HistoryWalk.Effect()
            if effect.merged + effect.annulled == 0 {
                log.note("\(action.shortID) never merged with generated arguments: its merge was not checked")
            }
        }
    }

    /// bad-arguments: every action type with edge-value arguments on empty and on used
    /// documents. What fails must fail with a code from the table and change nothing.
    static let badArguments = CheckTest(
        name: "bad-arguments",
        summary: "failing calls return an error code from the table and leave the document unchanged") {
        setup, random, log in
        let plugin = try setup.load()
        if !plugin.canDescribe { log.note(noDescribeNote("bad-arguments")) }
        var walk = try HistoryWalk(plugin: plugin, log: log, documentNames: ["fresh", "used"])
        for _ in 0..<max(1, setup.steps / 2) {
            let action = random.pick(plugin.info.actionTypes)
            let document = random.chance(30) ? 0 : 1
            try walk.perform(action, walk.arguments(for: action, document: document, using: &random), document: document)
        }
        let failed = walk.effects.values.reduce(0) { $0 + $1.failed }
        if failed == 0 { log.note("no call failed, so no failing call was checked") }
        try walk.unwindAndReplay()
    }

    /// many-documents: a random walk over many documents; each keeps its own state (a step in
    /// one changes no other), and closing one forgets it.
    static let manyDocuments = CheckTest(
        name: "many-documents",
        summary: "documents are independent: steps in one change no other; a closed document starts empty") {
        setup, random, log in
        let plugin = try setup.load()
        if !plugin.canDescribe { log.note(noDescribeNote("many-documents")) }
        let names = (0..<24).map { "document \($0)" } + documentNames
        var walk = try HistoryWalk(plugin: plugin, log: log, documentNames: names)
        for _ in 0..<setup.steps * 2 {
            try walk.randomStep(actions: plugin.info.actionTypes, focus: nil, using: &random)
        }
        // Every document still in the state its own steps made.
        for document in walk.documents {
            let expected = document.states[document.position]
            if let expected, let actual = try plugin.state(document.context), actual != expected {
                throw walk.failure("document \(ActionValue.string(document.context.name)) changed through another document's steps:\n    \(HistoryWalk.shown(actual))\n  expected\n    \(HistoryWalk.shown(expected))")
            }
        }
        // Closing: the steps leave the history; a document opened again under that name is new.
        var kept: [String] = []
        for document in walk.documents.prefix(4) {
            do {
                try plugin.host.closeContext(document.context)
            } catch {
                throw CheckFailure("closing document \(ActionValue.string(document.context.name)) failed: \(error)")
            }
            if let initial = document.states[0], let now = try plugin.state(document.context), now != initial {
                kept.append(ActionValue.string(document.context.name).description)
            }
        }
        if !kept.isEmpty {
            log.note("closed documents keep their state (\(kept.joined(separator: ", "))): register a close handler (set_close_handler) so one opened again under the same name starts empty")
        }
        try walk.checkLog("closing documents")
    }
}
