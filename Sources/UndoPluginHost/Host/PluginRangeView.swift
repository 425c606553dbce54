/// A part of a plugin's view of a document (``PluginHost/view(of:plugin:range:atMost:)``):
/// what a change did, shown without describing the whole document.
public struct PluginRangeView: Sendable, Equatable {
    /// The view of ``range``, as the plugin's describe would show a document holding only
    /// those units (markup open at its start opened, open at its end closed), or its beginning
    /// when ``isCut``.
    public var text: String
    /// The length in bytes of the range's whole view.
    public var byteLength: Int
    /// Whether ``text`` is only the beginning of the range's view.
    public var isCut: Bool
    /// The range shown, in the units of the plugin's reported locations: the one asked for,
    /// clamped to the document.
    public var range: Range<Int64>
    /// The document's length in the same units (``range`` ends at most there).
    public var extent: Int64

    public init(text: String, byteLength: Int, isCut: Bool, range: Range<Int64>, extent: Int64) {
        self.text = text
        self.byteLength = byteLength
        self.isCut = isCut
        self.range = range
        self.extent = extent
    }
}
