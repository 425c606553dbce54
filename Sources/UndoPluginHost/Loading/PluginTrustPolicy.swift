/// Which plugin files a ``PluginHost`` agrees to load.
///
/// A plugin runs with the host's rights, inside the host's process: whoever can change a plugin
/// file, or the folder it is in, can run code as the host's user. So by default the host loads
/// only files that no one but this user (or root) can change, and only by absolute path. See
/// docs/trust-model.md for the whole trust model and what it cannot protect against.
///
/// Checked on every load, in this order, each refusal naming the file and the reason:
/// 1. the path is absolute (always; make a path typed by a person absolute on purpose, with
///    ``PluginHost/absolutePath(fromCurrentDirectory:)``);
/// 2. it is a regular file (through any links);
/// 3. unless ``allowWritable``: the file, its folder (and, for a link, the folder holding the
///    link) belong to this user or root and are not writable by group or others, and no folder
///    above them is writable by group or others (unless it has the sticky bit, like /tmp) or
///    belongs to another user;
/// 4. with ``allowedSHA256``: the file's digest is on the list (before the dynamic loader opens
///    it, so no code of another file runs);
/// 5. with ``allowedPluginIDs``: the plugin's id is on the list (read from its descriptor, so
///    after the loader ran the file's constructors and its entry function, but before init).
public struct PluginTrustPolicy: Sendable, Equatable {
    /// Loads files and folders that group or others may write to, or that belong to another
    /// user (the CLI's `--allow-writable-plugins`). Off by default.
    public var allowWritable: Bool
    /// When set, only plugins with one of these ids ("org.undohost.text") load.
    public var allowedPluginIDs: Set<String>?
    /// When set, only files whose SHA-256 is one of these (hexadecimal, as `sha256sum` prints
    /// it; case does not matter) load. ``PluginHost/sha256(ofFile:)`` computes it.
    public var allowedSHA256: Set<String>? {
        didSet { allowedSHA256 = allowedSHA256.map { Set($0.map { $0.lowercased() }) } }
    }

    /// - Parameters: see the properties. With both lists, a plugin must be on both.
    public init(allowWritable: Bool = false, allowedPluginIDs: Set<String>? = nil,
                allowedSHA256: Set<String>? = nil) {
        self.allowWritable = allowWritable
        self.allowedPluginIDs = allowedPluginIDs
        self.allowedSHA256 = allowedSHA256.map { Set($0.map { $0.lowercased() }) }
    }

    /// The default: absolute paths, protected files, no allow-list.
    public static let standard = PluginTrustPolicy()
}
