import UndoCore
import UndoPluginABI

extension LoadedPlugin {
    /// Whether the plugin describes parts of its documents itself (describe_range, ABI 1.8);
    /// the others are described whole and cut (``describeRange(_:range:atMost:)``).
    var describesRanges: Bool { remote == nil && descriptor.describe_range != nil }

    /// The view of `range` (in the units of the plugin's reported locations) of a document,
    /// clamped to the document: from the plugin's describe_range (ABI 1.8) when it has one,
    /// else its whole view cut by ``ViewExcerpt/cut(_:range:)`` (the sample convention:
    /// Unicode scalars, markup tags taking no room).
    /// - Complexity: the plugin's describe_range (called at most twice) plus O(min(view, limit));
    ///   without it, the whole describe plus O(whole view).
    func describeRange(_ context: UndoContext, range: Range<Int64>, atMost limit: Int) throws(PluginActionError)
        -> PluginRangeView
    {
        let start = max(0, range.lowerBound)
        let requested = start..<max(start, range.upperBound)
        guard describesRanges, let describeRange = descriptor.describe_range else {
            let whole = try describe(context)
            let excerpt = ViewExcerpt.cut(whole, range: requested)
            let bytes = excerpt.text.utf8.count
            let text = bytes <= limit ? excerpt.text : Self.cut(Array(excerpt.text.utf8.prefix(limit)))
            return PluginRangeView(text: text, byteLength: bytes, isCut: bytes > limit, range: excerpt.range,
                                   extent: excerpt.extent)
        }
        guard isLoaded else { throw unloadedError(action: nil, phase: .describe) }
        var extent: Int64 = -1
        let view = try describeView(context, atMost: limit) { call, buffer, capacity in
            extent = -1
            return describeRange(call, requested.lowerBound, requested.upperBound - requested.lowerBound, buffer, capacity, &extent)
        }
        guard extent >= 0 else {
            throw PluginActionError(pluginID: id, actionID: nil, phase: .describe, code: Int32(UNDO_EPLUGIN),
                                    message: "describe_range set no extent (\(extent)) for the document")
        }
        let lower = min(requested.lowerBound, extent)
        let upper = min(requested.upperBound, extent)
        return PluginRangeView(text: view.text, byteLength: view.length, isCut: view.isCut, range: lower..<upper, extent: extent)
    }
}
