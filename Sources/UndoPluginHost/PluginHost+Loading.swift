#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import UndoPluginABI

/// What loading a folder did: the plugins loaded and the files refused, with their reasons.
public struct PluginLoadReport: Sendable {
    public var loaded: [PluginInfo] = []
    public var failures: [PluginLoadError] = []
    public init() {}
}

extension PluginHost {
    /// Loads one plugin file.
    /// - Parameter path: the .so file; a relative path is taken from the current directory
    ///   (never searched for in the loader's library path).
    /// - Throws: why it was refused, naming the file.
    @discardableResult
    public func load(file path: String) throws(PluginLoadError) -> PluginInfo {
        let path = Self.absolutePath(path)
        guard CallFrame.current == nil else { throw PluginLoadError(path: path, reason: .reentrantCall) }
        do throws(PluginLoadError.Reason) {
            return try LoaderLock.run { () throws(PluginLoadError.Reason) -> PluginInfo in
                try loadLocked(path)
            }
        } catch {
            throw PluginLoadError(path: path, reason: error)
        }
    }

    /// Loads every `*.so` file in a folder (sorted by name). A file that fails is reported and
    /// skipped; the others load as if it were not there.
    public func load(folder path: String) -> PluginLoadReport {
        load(folder: path) { $0.hasSuffix(".so") }
    }

    func load(folder path: String, matching include: (String) -> Bool) -> PluginLoadReport {
        let folder = Self.absolutePath(path)
        var report = PluginLoadReport()
        let names: [String]
        do throws(ELFFile.Invalid) {
            names = try Self.entries(of: folder)
        } catch {
            report.failures.append(PluginLoadError(path: folder, reason: .cannotOpen("cannot read the folder: \(error.message)")))
            return report
        }
        for name in names.sorted() where include(name) {
            let file = (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            do {
                report.loaded.append(try load(file: file))
            } catch {
                report.failures.append(error)
            }
        }
        return report
    }

    private func loadLocked(_ path: String) throws(PluginLoadError.Reason) -> PluginInfo {
        do {
            try ELFFile.validate(path)
        } catch {
            throw error.cannotOpen ? .cannotOpen(error.message) : .invalidFile(error.message)
        }
        let library: DynamicLibrary
        do {
            library = try DynamicLibrary(opening: path)
        } catch {
            throw .cannotOpen(error.message)
        }
        guard let entryAddress = library.symbol(named: "undo_plugin_entry") else { throw .missingEntry }
        typealias Entry = @convention(c) () -> UnsafePointer<undo_plugin_descriptor>?
        let entry = unsafeBitCast(entryAddress, to: Entry.self)
        guard let raw = entry() else { throw .entryReturnedNull }
        let descriptor = try PluginDescriptor(reading: raw)
        if let other = loadedPlugin(withID: descriptor.id) {
            throw .duplicatePlugin(id: descriptor.id, loadedFrom: other.path)
        }
        let plugin = LoadedPlugin(path: path, library: library, descriptor: descriptor, host: self)
        try plugin.initialize()
        add(plugin)
        return PluginInfo(plugin)
    }

    static func absolutePath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (absolute as NSString).standardizingPath
    }

    /// The names in a folder (POSIX, for errno's own message on failure).
    private static func entries(of folder: String) throws(ELFFile.Invalid) -> [String] {
        guard let directory = opendir(folder) else {
            throw ELFFile.Invalid(message: String(cString: strerror(errno)), cannotOpen: true)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
