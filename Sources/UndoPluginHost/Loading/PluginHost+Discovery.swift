import CUndoHostSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
/// Finding the plugins that are built and shipped with the host.
extension PluginHost {
    /// Environment variable with folders (separated by ':') to find the bundled plugins in,
    /// instead of next to the program.
    public static let pluginPathVariable = "UNDOHOST_PLUGIN_PATH"

    /// Where scripts/install.sh puts the bundled plugins, under PREFIX/lib.
    public static let installedPluginFolder = "undohost/plugins"

    /// Whether a file name is one of our bundled plugins (`libUndoPlugin*.so`): the build
    /// folder holds other shared objects too, which must not be loaded as plugins.
    public static func isBundledPluginName(_ name: String) -> Bool {
        name.hasPrefix("libUndoPlugin") && name.hasSuffix(".so")
    }

    /// The entries of ``pluginPathVariable``, when it is set: the absolute folders, and the
    /// relative entries, which are ignored (a relative entry, or an empty one, would mean the
    /// current directory).
    static var pluginPathEntries: (folders: [String], relative: [String])? {
        guard let value = SystemFiles.environment(pluginPathVariable), !value.isEmpty else { return nil }
        let entries = value.split(separator: ":").map(String.init)
        return (entries.filter { $0.hasPrefix("/") }.map { absolutePath($0) }, entries.filter { !$0.hasPrefix("/") })
    }

    /// The folder of the image this code is in, found once: it cannot change while the process
    /// runs, and finding it reads all of /proc/self/maps (which a C host creating a history
    /// and loading the bundled plugins for each paid every time).
    private static let ownImageFolder: String? = {
        let marker: @convention(c) () -> Void = {}
        guard let address = undo__address_of(marker), let image = DynamicLibrary.imagePath(containing: address),
              let resolved = realpath(image, nil) else { return nil }
        defer { free(resolved) }
        return SystemFiles.folder(of: String(cString: resolved))
    }()

    /// Where the bundled plugins are: the absolute folders of ``pluginPathVariable`` when it is
    /// set, else the folder of the running program (from /proc/self/exe, never the current
    /// directory) and the folder of the image this code is in (the same, unless it is linked
    /// into a shared library), then the installed plugin folder (``installedPluginFolder``)
    /// beside either or in the `lib` folder next to either, where it exists; without repeats.
    public static var bundledPluginFolders: [String] {
        if let entries = pluginPathEntries { return entries.folders }
        var folders: [String] = []
        if let executable = SystemFiles.linkTarget("/proc/self/exe") {
            folders.append(SystemFiles.folder(of: executable))
        }
        if let folder = ownImageFolder { folders.append(folder) }
        // An installed layout (scripts/install.sh): PREFIX/lib/undohost/plugins, found from
        // PREFIX/lib (libundohost.so) and from PREFIX/bin (undo-host).
        folders += folders.flatMap { folder in
            [SystemFiles.path(folder, installedPluginFolder),
             SystemFiles.path(SystemFiles.folder(of: folder), "lib/" + installedPluginFolder)]
        }.filter { (try? FileStatus(of: $0))?.kind == .folder }
        var seen = Set<String>()
        return folders.filter { seen.insert($0).inserted }
    }

    /// Loads the bundled plugins (`libUndoPlugin*.so` in ``bundledPluginFolders``), skipping a
    /// plugin id already loaded from an earlier folder. A relative entry of
    /// ``pluginPathVariable`` is reported as refused.
    @discardableResult
    public func loadBundledPlugins() -> PluginLoadReport {
        var report = PluginLoadReport()
        for entry in Self.pluginPathEntries?.relative ?? [] {
            report.failures.append(PluginLoadError(path: entry, reason: .relativePath))
        }
        for folder in Self.bundledPluginFolders {
            let part = load(folder: folder, matching: Self.isBundledPluginName)
            report.loaded += part.loaded
            report.failures += part.failures.filter {
                if case .duplicatePlugin = $0.reason { return false }
                return true
            }
        }
        return report
    }
}
