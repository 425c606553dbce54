import UndoCore
import UndoPluginHost

// The test of a plugin that describes parts of its documents (describe_range, ABI 1.8).

extension CheckTest {
    /// describe-range: after a random walk, each document's whole range is its whole view, a
    /// range past its end is empty at the end, and every part answers with the same extent and
    /// its range clamped to it.
    static let describeRange = CheckTest(
        name: "describe-range",
        summary: "describe_range of the whole document is describe's view; parts are clamped to the same extent") {
        setup, random, log in
        let plugin = try setup.load()
        let host = plugin.host
        let id = plugin.info.id
        func part(_ context: UndoContext, _ range: Range<Int64>) throws(CheckFailure) -> PluginRangeView {
            do {
                return try host.view(of: context, plugin: id, range: range)
            } catch {
                throw CheckFailure("describe_range \(range.lowerBound), \(range.upperBound - range.lowerBound) of document "
                                   + "\(ActionValue.string(context.name)) failed: \(error)")
            }
        }
        var walk = try HistoryWalk(plugin: plugin, log: log, documentNames: Array(documentNames.prefix(3)))
        for _ in 0..<setup.steps {
            try walk.randomStep(actions: plugin.info.actionTypes, focus: nil, using: &random)
        }
        for document in walk.documents {
            let context = document.context
            let name = ActionValue.string(context.name)
            guard let whole = try plugin.state(context) else { continue }
            let all = try part(context, 0..<Int64.max)
            guard all.text == whole else {
                throw CheckFailure("describe_range of all of document \(name) is\n    \(HistoryWalk.shown(all.text))\n  "
                                   + "but describe shows\n    \(HistoryWalk.shown(whole))")
            }
            let extent = all.extent
            guard all.range == 0..<extent else {
                throw CheckFailure("describe_range of all of document \(name) covers \(all.range), not 0..<\(extent)")
            }
            let past = try part(context, extent..<(extent + 10))
            guard past.text.isEmpty, past.extent == extent else {
                throw CheckFailure("describe_range past the end of document \(name) (extent \(extent)) gave "
                                   + "\(HistoryWalk.shown(past.text)) with extent \(past.extent): an empty part at the end was expected")
            }
            for _ in 0..<10 {
                let lower = Int64.random(in: 0...extent, using: &random)
                let upper = lower + Int64.random(in: 0...max(1, extent - lower + 2), using: &random)
                let some = try part(context, lower..<upper)
                guard some.extent == extent, some.range == lower..<min(upper, extent) else {
                    throw CheckFailure("describe_range \(lower)..<\(upper) of document \(name) answered range \(some.range) "
                                       + "and extent \(some.extent); the document's extent is \(extent)")
                }
            }
        }
    }
}
