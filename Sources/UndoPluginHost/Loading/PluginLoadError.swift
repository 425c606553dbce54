import UndoPluginABI

/// Why a plugin file was not loaded. The host and the other plugins are as if it were not there.
public struct PluginLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Error, Sendable, Equatable {
        /// The dynamic loader refused the file (not an ELF, truncated, wrong architecture,
        /// missing): its own message.
        case cannotOpen(String)
        /// The file is not a shared object this process can load (not ELF, truncated, another
        /// architecture), found before the loader touches it.
        case invalidFile(String)
        /// The file does not export `undo_plugin_entry`.
        case missingEntry
        /// `undo_plugin_entry` returned NULL.
        case entryReturnedNull
        /// The plugin was built for another ABI: a different major, or a newer minor.
        case incompatibleVersion(major: UInt32, minor: UInt32)
        /// The descriptor's `struct_size` is below the 1.0 minimum.
        case descriptorTooSmall(size: UInt32, minimum: UInt32)
        /// The descriptor's `struct_size` is absurdly large.
        case descriptorTooLarge(size: UInt32, maximum: UInt32)
        /// A descriptor field is missing or malformed ("id is empty", "init is NULL").
        case invalidDescriptor(String)
        /// Another loaded plugin has the same id.
        case duplicatePlugin(id: String, loadedFrom: String)
        /// init returned an error (with the plugin's message, if it reported one).
        case initFailed(code: Int32, message: String?)
        /// init registered an action type the host refused (duplicate id, unknown parameter
        /// type, too many parameters, ...); deinit was called.
        case actionRefused(action: String, code: Int32, message: String)
        /// load was called from inside a plugin call or an action.
        case reentrantCall
        /// The path is relative: the host loads only absolute paths, so that a plugin is never
        /// taken from the current directory by accident (``PluginTrustPolicy``).
        case relativePath
        /// Someone besides this user (or root) could change the file or a folder on its way:
        /// the reason names which and how (``PluginTrustPolicy/allowWritable`` overrides).
        case writableByOthers(String)
        /// The file's digest or the plugin's id is not on the policy's allow-list.
        case notAllowed(String)
    }

    /// The file (or folder) concerned, as given or made absolute.
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The ABI error code for this failure (for C clients).
    public var code: Int32 {
        switch reason {
        case .cannotOpen, .invalidFile, .missingEntry, .entryReturnedNull: Int32(UNDO_ELOAD)
        case .incompatibleVersion: Int32(UNDO_EVERSION)
        case .descriptorTooSmall, .descriptorTooLarge, .invalidDescriptor: Int32(UNDO_EPLUGIN)
        case .duplicatePlugin: Int32(UNDO_EEXIST)
        case .initFailed(let code, _): code < 0 ? code : Int32(UNDO_EPLUGIN)
        case .actionRefused(_, let code, _): code
        case .reentrantCall: Int32(UNDO_EREENTRANT)
        case .relativePath, .writableByOthers, .notAllowed: Int32(UNDO_ELOAD)
        }
    }

    public var description: String { "\(path): \(explanation)" }

    /// The reason in words, without the path.
    public var explanation: String {
        switch reason {
        case .cannotOpen(let message): "cannot open: \(message)"
        case .invalidFile(let message): "not a loadable shared object: \(message)"
        case .missingEntry: "not a plugin: it does not export undo_plugin_entry"
        case .entryReturnedNull: "undo_plugin_entry returned NULL"
        case .incompatibleVersion(let major, let minor):
            "built for plugin ABI \(major).\(minor), but this host supports \(UNDO_ABI_VERSION_MAJOR).0 to \(UNDO_ABI_VERSION_MAJOR).\(UNDO_ABI_VERSION_MINOR)"
        case .descriptorTooSmall(let size, let minimum):
            "descriptor struct_size \(size) is smaller than the minimum \(minimum)"
        case .descriptorTooLarge(let size, let maximum):
            "descriptor struct_size \(size) is larger than the maximum \(maximum)"
        case .invalidDescriptor(let what): "bad descriptor: \(what)"
        case .duplicatePlugin(let id, let other): "plugin id \(id) is already loaded from \(other)"
        case .initFailed(let code, let message):
            "init failed with \(ErrorReport.name(of: code))" + (message.map { ": \($0)" } ?? "")
        case .actionRefused(let action, let code, let message):
            "action type \(action) refused (\(ErrorReport.name(of: code))): \(message)"
        case .reentrantCall: "plugins cannot be loaded from inside a plugin call or an action"
        case .relativePath:
            "refused: the path is relative, so it would depend on the current directory; give an absolute path"
        case .writableByOthers(let what):
            "refused: \(what), so someone else could run code in this process"
        case .notAllowed(let what): "refused: \(what)"
        }
    }
}
