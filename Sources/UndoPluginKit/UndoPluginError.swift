import UndoPluginABI

/// A failure a plugin reports to the host: an ABI error code with a message.
///
/// Throw it from a perform or inverse function (or `makeState`, `describe`, a merge): the
/// kit hands the message to `report_error` (the host copies it) and returns the code to the
/// host. Any other error thrown there is reported as UNDO_EPLUGIN with its description.
public struct UndoPluginError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One of the negative codes of the table in undo_common.h.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let invalidArgument = Code(rawValue: Int32(UNDO_EINVAL))
        public static let outOfMemory = Code(rawValue: Int32(UNDO_ENOMEM))
        public static let wrongType = Code(rawValue: Int32(UNDO_ETYPE))
        public static let outOfRange = Code(rawValue: Int32(UNDO_ERANGE))
        public static let wrongCount = Code(rawValue: Int32(UNDO_ECOUNT))
        public static let invalidUTF8 = Code(rawValue: Int32(UNDO_EUTF8))
        public static let notFound = Code(rawValue: Int32(UNDO_ENOTFOUND))
        public static let alreadyExists = Code(rawValue: Int32(UNDO_EEXIST))
        public static let wrongState = Code(rawValue: Int32(UNDO_ESTATE))
        public static let limitExceeded = Code(rawValue: Int32(UNDO_ELIMIT))
        public static let pluginFailed = Code(rawValue: Int32(UNDO_EPLUGIN))
        public static let notSupported = Code(rawValue: Int32(UNDO_ENOTSUP))

        /// "UNDO_ERANGE"
        public var description: String { String(cString: undo_plugin_error_name(rawValue)) }

        /// The code as a C function returns it: never UNDO_OK or positive, which the host would
        /// take for success.
        var failureStatus: Int32 { rawValue < 0 ? rawValue : Int32(UNDO_EPLUGIN) }
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `error` itself when it is one, else UNDO_EPLUGIN with its description: what the kit
    /// reports for an error thrown from the plugin's code.
    public init(_ error: any Error) {
        self = error as? UndoPluginError ?? UndoPluginError(.pluginFailed, String(describing: error))
    }

    /// The error behind a status a host callback returned (UNDO_OK gives nil).
    init?(status: Int32, _ what: @autoclosure () -> String) {
        guard status != Int32(UNDO_OK) else { return nil }
        self.init(Code(rawValue: status), "\(what()) failed: \(String(cString: undo_plugin_error_message(status)))")
    }

    /// "UNDO_ERANGE: no note 7"
    public var description: String { "\(code): \(message)" }
}
