import UndoPluginABI

/// A message a plugin (or the host about a plugin) wrote to the log.
public struct PluginLogMessage: Sendable, Equatable, CustomStringConvertible {
    public enum Level: Int32, Sendable, Comparable {
        case debug = 0, info = 1, warning = 2, error = 3
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }
    public var pluginID: String
    public var level: Level
    public var message: String

    public init(pluginID: String, level: Level, message: String) {
        self.pluginID = pluginID
        self.level = level
        self.message = message
    }

    /// "[org.undohost.text] warning: ..."
    public var description: String { "[\(pluginID)] \(level): \(message)" }
}
