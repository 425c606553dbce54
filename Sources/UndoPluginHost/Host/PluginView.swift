/// A plugin's view of a document (``PluginHost/view(of:plugin:atMost:)``), whole or cut.
public struct PluginView: Sendable, Equatable {
    /// The most bytes of a view ``PluginHost/view(of:plugin:atMost:)`` returns unless told
    /// otherwise: one less than `UNDO_MAX_VALUE_SIZE` (16 MiB), the most
    /// ``PluginHost/describe(_:plugin:)`` returns.
    public static let defaultLimit = ActionArguments.maximumValueSize - 1

    /// The view, or its beginning when ``isCut`` (up to its last whole character).
    public var text: String
    /// The whole view's length in bytes, as the plugin gave it.
    public var length: Int
    /// Whether ``text`` is only the view's beginning.
    public var isCut: Bool

    public init(text: String, length: Int, isCut: Bool) {
        self.text = text
        self.length = length
        self.isCut = isCut
    }
}
