import UndoCore
import UndoPluginABI

/// An error as the host's callers report it: its code of undo_common.h, the code's name
/// (`UNDO_ENOTFOUND`) and the message. The one mapping from the errors of the host, its plugins
/// and the history to codes: the C API returns the code and shows the message
/// (undo_history_last_error); undo-host shows the name (and the number with `--json`).
public struct ErrorReport: Sendable, Equatable, CustomStringConvertible {
    /// The negative error code (`UNDO_EINVAL`, ...).
    public let code: Int32
    public let message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The codes of the host's errors are ``PluginHostError/code`` (the arguments', the
    /// plugin's own, and the history's through ``code(of:)``).
    public init(_ error: PluginHostError) { self.init(code: error.code, message: error.description) }
    public init(_ error: PluginLoadError) { self.init(code: error.code, message: error.description) }
    public init(_ error: UndoError) { self.init(.history(error)) }
    public init(_ error: PluginActionError) { self.init(.actionFailed(error)) }

    /// Any error of a host or history call, with its most precise code: `UNDO_EPLUGIN` for one
    /// the host does not know (an error a Swift action threw).
    public init(_ error: any Error) {
        switch error {
        case let error as PluginHostError: self.init(error)
        case let error as PluginLoadError: self.init(error)
        case let error as UndoError: self.init(error)
        case let error as PluginActionError: self.init(error)
        default: self.init(code: Int32(UNDO_EPLUGIN), message: String(describing: error))
        }
    }

    /// The code's name, `UNDO_ERANGE`.
    public var codeName: String { Self.name(of: code) }

    /// `UNDO_ERANGE: message`
    public var description: String { codeName + ": " + message }

    /// The code of a history's refusal.
    public static func code(of error: UndoError) -> Int32 {
        switch error {
        case .reentrantCall: Int32(UNDO_EREENTRANT)
        case .nothingToUndo, .nothingToRedo: Int32(UNDO_EEMPTY)
        case .positionOutOfRange: Int32(UNDO_ERANGE)
        case .stateNotFound: Int32(UNDO_ENOTFOUND)
        case .invalidTravel: Int32(UNDO_EINVAL)
        case .groupTooDeep, .nameTooLong: Int32(UNDO_ELIMIT)
        // An isolated plugin's crash keeps its own code whichever call it came in (issue 31).
        case .actionFailed(_, let underlying as PluginActionError) where underlying.code == Int32(UNDO_ECRASHED):
            Int32(UNDO_ECRASHED)
        case .actionFailed, .rollbackFailed: Int32(UNDO_EPLUGIN)
        default: Int32(UNDO_ESTATE)
        }
    }

    // MARK: Code names

    /// The name of `code` (the table of undo_common.h), `UNDO_EUNKNOWN` for a code not in it.
    public static func name(of code: Int32) -> String { String(cString: undo_plugin_error_name(code)) }
    /// The table's message for `code`.
    static func message(of code: Int32) -> String { String(cString: undo_plugin_error_message(code)) }
    /// Whether `code` is one of the table's error codes (negative, and named).
    static func isFailure(_ code: Int32) -> Bool { code < 0 && name(of: code) != "UNDO_EUNKNOWN" }

    /// Every error code with its name, from `UNDO_EINVAL` (-1) down.
    public static let codeNames: [(name: String, code: Int32)] = {
        var names: [(String, Int32)] = []
        var code: Int32 = -1
        while true {
            let codeName = name(of: code)
            if codeName == "UNDO_EUNKNOWN" { break }
            names.append((codeName, code))
            code -= 1
        }
        return names
    }()

    /// The code named `name` (`UNDO_ERANGE`, in any case), or `nil`.
    public static func code(named name: String) -> Int32? {
        let wanted = name.lowercased()
        return codeNames.first { $0.name.lowercased() == wanted }?.code
    }
}
