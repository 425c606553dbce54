/// A journal that could not be opened or written: the file and what is wrong.
public struct JournalError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    /// What kind of problem it is (for the C API's error codes).
    public var reason: Reason

    /// What kind of problem a ``JournalError`` is.
    public enum Reason: Sendable, Equatable {
        /// Not a journal, or damaged (integrity check, checksum).
        case damaged
        /// A plugin the journal needs is not loaded.
        case pluginMissing
        /// A plugin the journal needs is loaded with another major version.
        case pluginVersion
        /// A change could not be made again.
        case replay
        /// A checkpoint cannot be taken: a document's plugin cannot save its documents as bytes.
        case cannotCheckpoint
        /// A plugin's call failed while the journal needed it (its save of a document for a
        /// checkpoint); the message is the plugin's.
        case pluginFailed
        /// Anything else (the file cannot be opened or written).
        case other
    }

    /// The plugin it is about (``Reason/pluginMissing``, ``Reason/pluginVersion``): its id.
    public var plugin: String?

    /// For ``Reason/pluginFailed``: the failed call's error code when it has one of its own
    /// (`UNDO_ECRASHED`, -18, when an isolated plugin crashed or hung), so that every face
    /// reports a crash with the crash's code; `nil` otherwise.
    public var callCode: Int32?

    public init(path: String, _ message: String, reason: Reason = .other, plugin: String? = nil) {
        self.path = path
        self.message = message
        self.reason = reason
        self.plugin = plugin
    }

    public var description: String { "journal \(path): \(message)" }
}
