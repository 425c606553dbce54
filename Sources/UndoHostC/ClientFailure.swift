import UndoCore
import UndoHostAPI
import UndoPluginHost

/// A failed C API call: the code it returns and the message undo_history_last_error shows.
struct ClientFailure: Error {
    var code: Int32
    var message: String

    init(_ code: Int32, _ message: String) {
        self.code = code
        self.message = message
    }

    init(_ report: ErrorReport) { self.init(report.code, report.message) }
    init(_ error: PluginHostError) { self.init(ErrorReport(error)) }
    init(_ error: PluginLoadError) { self.init(ErrorReport(error)) }
    init(_ error: UndoError) { self.init(ErrorReport(error)) }

    /// Any error a history call can throw, with its most precise code (``ErrorReport``).
    init(_ error: any Error) {
        if let failure = error as? ClientFailure {
            self = failure
        } else {
            self.init(ErrorReport(error))
        }
    }

    static func invalid(_ message: String) -> ClientFailure { ClientFailure(Int32(UNDO_EINVAL), message) }
    static func range(_ message: String) -> ClientFailure { ClientFailure(Int32(UNDO_ERANGE), message) }
}
