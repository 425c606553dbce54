import UndoCore
import UndoPluginHost

/// After a change, an undo or a redo, a large document is shown around what changed, not whole:
/// the plugin describes only that part (describe_range, ABI 1.8), so an undo in a document of a
/// million characters costs what the change touches, not what the document holds. `show`
/// still shows the whole document.
extension HostSession {
    /// Documents of more than this many units (the units of the plugin's change locations:
    /// characters, for the text editor) are shown as an excerpt after a move; shorter ones whole.
    static let excerptThreshold: Int64 = 10_000
    /// Units read on each side of the changes to find the lines around them.
    static let excerptContext: Int64 = 1_024
    /// Whole lines kept above the first change and below the last (the view shows 12 lines,
    /// the change a third of the way down: 4 + 1 + 7).
    static let excerptLinesAbove = 4
    static let excerptLinesBelow = 7
    /// Changes spread over more than this many units beyond four times what they changed (an
    /// undo of many steps all over a document) show the document whole.
    static let excerptSpread: Int64 = 4_096
    /// More changes than this in one document show it whole.
    static let excerptMostChanges = 64

    /// The view of document `name` as plugin `pluginID` shows it around `changes` (all of them
    /// ranges in that document): the lines they touch and a few around, with how much of the
    /// document is left out above and below; `nil` when the document is shown whole (it is
    /// short, a change is not a range, or the changes are spread too far apart).
    /// - Complexity: two describe_range calls and O(excerpt) here: O(changed units + context),
    ///   whatever the document's length.
    func excerptView(of name: String, plugin pluginID: String, source: String, changes: [UndoChange])
        throws(SessionError) -> DocumentView?
    {
        guard !changes.isEmpty, changes.count <= Self.excerptMostChanges else { return nil }
        var lower = Int64.max
        var upper: Int64 = 0
        var changed: Int64 = 0
        for change in changes {
            guard let location = change.location, let length = change.length else { return nil }
            let start = max(0, location)
            let end = start + min(max(0, length), Int64.max - start)
            lower = min(lower, start)
            upper = max(upper, end)
            let (sum, overflow) = changed.addingReportingOverflow(end - start)
            changed = overflow ? .max : sum
        }
        // Saturating: a change of nearly Int64.max units allows any spread.
        let allowed = changed > (Int64.max - Self.excerptSpread) / 4 ? Int64.max : Self.excerptSpread + 4 * changed
        guard upper - lower <= allowed else { return nil }
        let context = UndoContext(name)
        let window = max(0, lower - Self.excerptContext)..<(upper > Int64.max - Self.excerptContext ? Int64.max : upper + Self.excerptContext)
        let around: PluginRangeView
        do throws(PluginHostError) {
            around = try host.view(of: context, plugin: pluginID, range: window)
        } catch {
            throw sessionError(error, what: "show")
        }
        guard around.extent > Self.excerptThreshold else { return nil }
        DocumentViewWork.note(around.text.unicodeScalars.count)
        let lines = Self.lines(around: lower..<upper, in: around)
        let shown: PluginRangeView
        if lines == around.range {
            shown = around
        } else {
            do throws(PluginHostError) {
                shown = try host.view(of: context, plugin: pluginID, range: lines)
            } catch {
                throw sessionError(error, what: "show")
            }
        }
        let shifted = changes.map { change in
            UndoChange(context: change.context, location: change.location.map { max(0, $0) - shown.range.lowerBound },
                       length: change.length)
        }
        var view = DocumentView(document: name, source: source, text: shown.text, changes: shifted)
        view.excerpt = DocumentView.Excerpt(range: shown.range, extent: shown.extent)
        return view
    }

    /// The range of whole lines around `changed` within the part `around` shows: up to
    /// ``excerptLinesAbove`` lines above the first changed line and ``excerptLinesBelow``
    /// below the last, cut at the part's ends when it has fewer.
    /// - Complexity: O(around).
    static func lines(around changed: Range<Int64>, in around: PluginRangeView) -> Range<Int64> {
        let map = VisibleTextMap(around.text)
        let offsets = map.visibleOffsets
        let base = around.range.lowerBound
        let changeStart = Int(min(max(0, changed.lowerBound - base), Int64(offsets.count)))
        let changeEnd = Int(min(max(Int64(changeStart), changed.upperBound - base), Int64(offsets.count)))
        var start = 0
        var newlines = 0
        var index = changeStart - 1
        while index >= 0 {
            if map.scalars[offsets[index]] == "\n" {
                newlines += 1
                if newlines > excerptLinesAbove {
                    start = index + 1
                    break
                }
            }
            index -= 1
        }
        var end = offsets.count
        newlines = 0
        index = changeEnd
        while index < offsets.count {
            if map.scalars[offsets[index]] == "\n" {
                newlines += 1
                if newlines > excerptLinesBelow {
                    end = index
                    break
                }
            }
            index += 1
        }
        return (base + Int64(start))..<(base + Int64(end))
    }
}
