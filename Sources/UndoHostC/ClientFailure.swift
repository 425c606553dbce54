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

    init(_ error: PluginHostError) { self.init(error.code, error.description) }
    init(_ error: PluginLoadError) { self.init(error.code, error.description) }
    init(_ error: UndoError) { self.init(PluginHostError.history(error)) }

    /// Any error a history call can throw, with its most precise code.
    init(_ error: any Error) {
        switch error {
        case let failure as ClientFailure: self = failure
        case let error as PluginHostError: self.init(error)
        case let error as PluginLoadError: self.init(error)
        case let error as UndoError: self.init(error)
        default: self.init(Int32(UNDO_EPLUGIN), String(describing: error))
        }
    }

    static func invalid(_ message: String) -> ClientFailure { ClientFailure(Int32(UNDO_EINVAL), message) }
    static func range(_ message: String) -> ClientFailure { ClientFailure(Int32(UNDO_ERANGE), message) }
}
