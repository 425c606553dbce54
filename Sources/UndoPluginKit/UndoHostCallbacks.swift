import UndoPluginABI

/// The host's callback table (`const undo_host *`), wrapped: valid from init until deinit
/// returns. Reach it from a call with ``UndoCall/host`` or keep it in your state from
/// `makeState`.
public struct UndoHostCallbacks: @unchecked Sendable {
    public let raw: UnsafePointer<undo_host>

    public init(_ raw: UnsafePointer<undo_host>) { self.raw = raw }

    public enum LogLevel: Int32, Sendable {
        case debug = 0, info = 1, warning = 2, error = 3
    }

    /// The host program's name and version ("undo-host", "1.0").
    public var hostName: String { String(undoArgument: raw.pointee.host_name) }
    public var hostVersion: String { String(undoArgument: raw.pointee.host_version) }
    /// The host's plugin ABI version at run time.
    public var abiVersion: (major: UInt32, minor: UInt32) { (raw.pointee.abi_major, raw.pointee.abi_minor) }

    /// Whether the table has the fields of ABI 1.7 (`set_obsolete`, `set_description`, `locale`).
    var hasABI17: Bool {
        let end = MemoryLayout<undo_host>.offset(of: \.locale)! + MemoryLayout<UnsafePointer<CChar>?>.size
        return Int(raw.pointee.struct_size) >= end
    }

    /// The language of the host's titles ("en", "ko", "pt-BR"), in which to write descriptions
    /// (``UndoCall/setDescription(_:)``) and messages; "en" from a host older than ABI 1.7,
    /// which has no `undo_host.locale`.
    /// - Complexity: O(*n*) in the identifier's length.
    public var locale: String {
        guard hasABI17, let locale = raw.pointee.locale else { return "en" }
        return String(undoArgument: locale)
    }

    /// Writes to the host's log (the host copies the message). Thread: any.
    public func log(_ level: LogLevel, _ message: String) {
        message.withCString { raw.pointee.log(raw, level.rawValue, $0) }
    }

    /// Records a step the plugin already did on its own (its own UI): the host adds it to the
    /// shared history without calling perform; undo calls the inverse. Not from inside a call
    /// the host made into this plugin.
    /// - Parameters:
    ///   - actionID: the local id of one of this plugin's action types ("add").
    ///   - context: the document (context) the step belongs to.
    ///   - arguments: the perform arguments, as the action type declares them.
    ///   - inverseArguments: nil when the inverse takes the perform arguments.
    public func record(_ actionID: String, in context: String = "", arguments: [UndoValue],
                       inverseArguments: [UndoValue]? = nil) throws(UndoPluginError) {
        let status = context.withCString { context in
            actionID.withCString { actionID in
                UndoValue.withCArray(arguments) { args, argCount in
                    UndoValue.withCArray(inverseArguments ?? []) { inverse, inverseCount in
                        raw.pointee.record(raw, context, actionID, args, argCount,
                                           inverseArguments == nil ? nil : inverse, inverseCount)
                    }
                }
            }
        }
        if let error = UndoPluginError(status: status, "record(\(actionID))") { throw error }
    }

    /// Hands `error` to the host (which copies the message) and returns its code for the C
    /// function to return.
    @discardableResult
    public func report(_ error: UndoPluginError) -> Int32 {
        _ = error.message.withCString { raw.pointee.report_error(raw, error.code.failureStatus, $0) }
        return error.code.failureStatus
    }
}
