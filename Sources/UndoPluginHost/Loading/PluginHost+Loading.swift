import CUndoHostSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoPluginABI

/// What loading a folder did: the plugins loaded and the files refused, with their reasons.
public struct PluginLoadReport: Sendable {
    public var loaded: [PluginInfo] = []
    public var failures: [PluginLoadError] = []
    public init() {}
}

extension PluginHost {
    /// Loads one plugin file, if ``trustPolicy`` accepts it.
    /// - Parameter path: the .so file, by absolute path (a relative one is refused: see
    ///   ``absolutePath(fromCurrentDirectory:)``); never searched for in the loader's path.
    /// - Throws: why it was refused, naming the file.
    @discardableResult
    public func load(file path: String) throws(PluginLoadError) -> PluginInfo {
        try load(file: path, isolation: isolation)
    }

    /// Loads one plugin file, if ``trustPolicy`` accepts it, in this process (`isolation`
    /// `nil`) or in a process of its own (``PluginIsolation``): the same checks, the same
    /// plugin, the same calls; a crash or a hang in it then fails the call with `UNDO_ECRASHED`
    /// instead of ending the program.
    /// - Throws: why it was refused, naming the file.
    @discardableResult
    public func load(file path: String, isolation: PluginIsolation?) throws(PluginLoadError) -> PluginInfo {
        guard path.hasPrefix("/") else { throw PluginLoadError(path: path, reason: .relativePath) }
        // For messages: the path the walk found (links resolved), or, when it found none, the
        // given one made absolute and resolved where it can be. Worked out only for a message:
        // resolving it costs a realpath() walk of its own, more than a repeated load's work.
        var found: String?
        guard CallFrame.current == nil, !isRunningAction else {
            throw PluginLoadError(path: Self.absolutePath(path), reason: .reentrantCall)
        }
        let policy = trustPolicy
        do throws(PluginLoadError.Reason) {
            do throws(PluginHostError) {
                try checkRecorder()
            } catch {
                throw PluginLoadError.Reason.cannotOpen("\(error)")
            }
            // A file this process walked, checked and loaded before, which the path still leads
            // to, is not walked again: its loaded image is used (CheckedPluginFiles says why
            // that is safe). An allow-list of digests reads the file, and an isolated plugin's
            // process opens it: both walk.
            let reusable = isolation == nil && policy.allowedSHA256 == nil
            let reused = !reusable ? nil : try LoaderLock.run { () throws(PluginLoadError.Reason) -> PluginInfo? in
                guard let known = CheckedPluginFiles.loaded(path, checking: !policy.allowWritable) else { return nil }
                found = known.realPath
                return try instantiate(known.library, path: known.realPath, policy: policy)
            }
            let info: PluginInfo
            if let reused {
                info = reused
            } else {
                // One walk opens the file and checks every folder and link on the way; from here
                // on only that descriptor is read, hashed and loaded, so what was checked is what
                // runs.
                #if DEBUG
                CheckedPluginFiles.walks.withLock { $0[path, default: 0] += 1 }
                #endif
                let file = try PluginPathWalk.walk(path, to: .file, checking: !policy.allowWritable)
                found = file.realPath
                info = try LoaderLock.run { () throws(PluginLoadError.Reason) -> PluginInfo in
                    try loadLocked(file, given: path, policy: policy, isolation: isolation)
                }
            }
            do throws(PluginHostError) {
                try recordUnderLock(.load(path: info.path, plugin: info.id, pluginVersion: info.version))
            } catch {
                throw PluginLoadError.Reason.cannotOpen("it loaded, but \(error)")
            }
            return info
        } catch {
            throw PluginLoadError(path: found ?? Self.absolutePath(path), reason: error)
        }
    }

    /// Loads every `*.so` file in a folder (sorted by name), by absolute path. A file that
    /// fails is reported and skipped; the others load as if it were not there. A folder the
    /// ``trustPolicy`` refuses is one failure, and nothing in it is tried.
    public func load(folder path: String) -> PluginLoadReport {
        load(folder: path) { $0.hasSuffix(".so") }
    }

    /// Loads the files of a folder whose names end in ".so" and that `include` accepts.
    func load(folder path: String, matching include: (String) -> Bool) -> PluginLoadReport {
        var report = PluginLoadReport()
        guard path.hasPrefix("/") else {
            report.failures.append(PluginLoadError(path: path, reason: .relativePath))
            return report
        }
        // For a message about the folder before the walk found it: the path made absolute and
        // resolved where it can be (its own realpath() walk, so only when a message needs it).
        guard CallFrame.current == nil, !isRunningAction else {
            report.failures.append(PluginLoadError(path: Self.absolutePath(path), reason: .reentrantCall))
            return report
        }
        let opened: PluginPathWalk.Opened
        do throws(PluginLoadError.Reason) {
            opened = try Self.checkTrust(ofFolder: path, policy: trustPolicy)
        } catch {
            report.failures.append(PluginLoadError(path: Self.absolutePath(path), reason: error))
            return report
        }
        // The folder the walk found, links resolved.
        let folder = opened.realPath
        let names: [String]
        do throws(ELFFile.Invalid) {
            // The folder that was checked, by its descriptor.
            names = try Self.entries(of: opened.descriptor, endingWith: Self.pluginSuffix)
        } catch {
            report.failures.append(PluginLoadError(path: folder, reason: .cannotOpen("cannot read the folder: \(error.message)")))
            return report
        }
        // Only the names that may be plugins are sorted: a build folder holds hundreds of
        // entries, and comparing them all cost more than loading the few plugins among them.
        let candidates = names.filter(include)
        #if DEBUG
        Self.sortedFolderNames.withLock { $0[folder, default: 0] += candidates.count }
        Self.decodedFolderNames.withLock { $0[folder, default: 0] += names.count }
        #endif
        for name in candidates.sorted() {
            let file = SystemFiles.path(opened.realPath, name)
            // Folders are skipped; anything else named like a plugin is tried, so that a broken
            // link or a FIFO is reported rather than passed over in silence.
            if (try? FileStatus(of: file))?.kind == .folder { continue }
            do {
                report.loaded.append(try load(file: file))
            } catch {
                report.failures.append(error)
            }
        }
        return report
    }

    /// Checks and loads the file the walk opened for `path`; takes over its descriptor.
    private func loadLocked(_ file: PluginPathWalk.Opened, given path: String, policy: PluginTrustPolicy,
                            isolation: PluginIsolation?) throws(PluginLoadError.Reason) -> PluginInfo {
        var keepsDescriptor = false
        defer { if !keepsDescriptor { close(file.descriptor) } }
        if let allowed = policy.allowedSHA256 {
            let digest: String
            do throws(SHA256.FileError) {
                digest = try SHA256.hex(ofDescriptor: file.descriptor)
            } catch {
                throw .cannotOpen(error.message)
            }
            guard allowed.contains(digest) else { throw .notAllowed("its SHA-256 \(digest) is not on the allow-list") }
        }
        // Before the loader runs any of its code (constructors included): a sound shared object
        // that exports the entry. Not again for a file this process loaded before (another
        // history's, or one unloaded): that image stays mapped (RTLD_NODELETE) with its file kept
        // open, so the same file (device and inode) gives that image, checked when it was
        // first loaded, not the bytes on disk; a C host that makes many histories pays the
        // check once per plugin file.
        let loadedBefore = DynamicLibrary.isLoaded(file.status.identity)
        if !loadedBefore {
            do {
                try ELFFile.validate(descriptor: file.descriptor, exporting: "undo_plugin_entry")
            } catch {
                if error.missingSymbol { throw .missingEntry }
                throw error.cannotOpen ? .cannotOpen(error.message) : .invalidFile(error.message)
            }
        }
        if let isolation { return try loadIsolated(file, policy: policy, isolation: isolation) }
        let library: DynamicLibrary
        do {
            library = try DynamicLibrary(openingDescriptor: file.descriptor, identity: file.status.identity, path: file.realPath)
        } catch {
            throw .cannotOpen(error.message)
        }
        keepsDescriptor = !loadedBefore
        CheckedPluginFiles.remember(path, file, checked: !policy.allowWritable)
        return try instantiate(library, path: file.realPath, policy: policy)
    }

    /// Reads the descriptor of a loaded library and starts a plugin instance of it in this host.
    private func instantiate(_ library: DynamicLibrary, path: String, policy: PluginTrustPolicy) throws(PluginLoadError.Reason) -> PluginInfo {
        guard let entryAddress = library.symbol(named: "undo_plugin_entry") else { throw .missingEntry }
        // Converted to the entry's documented type in C (undo_host_support.h).
        guard let entry = undo__entry_fn_of(entryAddress) else { throw .missingEntry }
        guard let raw = entry() else { throw .entryReturnedNull }
        let descriptor = try PluginDescriptor(reading: raw)
        if let allowed = policy.allowedPluginIDs, !allowed.contains(descriptor.id) {
            throw .notAllowed("plugin id \(descriptor.id) is not on the allow-list")
        }
        if let other = loadedPlugin(withID: descriptor.id) {
            throw .duplicatePlugin(id: descriptor.id, loadedFrom: other.path)
        }
        let plugin = LoadedPlugin(path: path, library: library, descriptor: descriptor, host: self)
        try plugin.initialize()
        add(plugin)
        return PluginInfo(plugin)
    }

    /// Starts the plugin's process, which loads the checked file (by its descriptor) and reads
    /// the descriptor; the id is checked here as for an in-process load, before init runs.
    private func loadIsolated(_ file: PluginPathWalk.Opened, policy: PluginTrustPolicy,
                              isolation: PluginIsolation) throws(PluginLoadError.Reason) -> PluginInfo {
        let remote = try IsolatedPluginProcess.start(descriptor: file.descriptor, path: file.realPath, isolation: isolation,
                                                     hostName: hostName, hostVersion: hostVersion, locale: locale,
                                                     route: callRoute, log: logHandler)
        let id = remote.opened.id
        if let allowed = policy.allowedPluginIDs, !allowed.contains(id) {
            remote.shutdown()
            throw .notAllowed("plugin id \(id) is not on the allow-list")
        }
        if let other = loadedPlugin(withID: id) {
            remote.shutdown()
            throw .duplicatePlugin(id: id, loadedFrom: other.path)
        }
        let plugin = LoadedPlugin(path: file.realPath, remote: remote, host: self)
        try plugin.initialize()
        add(plugin)
        return PluginInfo(plugin)
    }

    #if DEBUG
    /// How many names of each folder ``load(folder:matching:)`` sorted in this process (debug
    /// builds: tests count a folder of their own).
    static let sortedFolderNames = Locked([String: Int]())

    /// How many names of each folder ``load(folder:matching:)`` made Strings of in this process
    /// (debug builds: tests count a folder of their own).
    static let decodedFolderNames = Locked([String: Int]())
    #endif

    static func absolutePath(_ path: String) -> String {
        SystemFiles.absolute(path)
    }

    /// What every plugin file's name ends with, as bytes.
    private static let pluginSuffix = Array(".so".utf8)

    /// The names in an open folder that end with the bytes `suffix` (POSIX, for errno's own
    /// message on failure); takes over the descriptor. The other names are passed over before
    /// any String is made of them: a build folder holds hundreds of entries and a few plugins.
    /// (A name whose text ends in ".so" ends in those bytes too: no other Character equals ".",
    /// "s" or "o".)
    private static func entries(of descriptor: Int32, endingWith suffix: [UInt8]) throws(ELFFile.Invalid) -> [String] {
        guard let directory = fdopendir(descriptor) else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw ELFFile.Invalid(message: message, cannotOpen: true)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // The bytes after the name's NUL are not the kernel's: nothing may read them. Its
            // length comes from the C library's strlen, which stops at the NUL (a search in
            // Swift is vectorized and reads on past it, as the string code does when it decodes
            // in place: valgrind's memcheck in install-check caught both); then the name is
            // copied in one piece into an array of its own and decoded from there (grown byte
            // by byte, it cost a reallocation every few bytes, the largest part of listing).
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw -> String? in
                let start = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                let length = min(strlen(start), raw.count)
                guard length >= suffix.count,
                      raw[(length - suffix.count)..<length].elementsEqual(suffix) else { return nil }
                let bytes = [UInt8](UnsafeRawBufferPointer(start: raw.baseAddress, count: length))
                return String(decoding: bytes, as: UTF8.self)
            }
            if let name, name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
