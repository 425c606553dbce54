#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
/// A shared object opened with `dlopen`: the only place the host calls the dynamic loader.
///
/// Plugins are opened `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE` and never closed: code built by
/// Swift (and C code that registered thread-locals or atexit handlers) cannot be unmapped
/// safely, and a descriptor pointer must never dangle.
struct DynamicLibrary: @unchecked Sendable {
    /// The path it was opened from.
    let path: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `path` (which must contain a "/", so the loader never searches its own path list).
    /// - Throws: the loader's message, copied at once (the next dl* call on this thread would
    ///   overwrite it).
    init(opening path: String) throws(DynamicLibraryError) {
        precondition(path.contains("/"), "a plugin path must not be searched for")
        _ = dlerror() // clear a stale message
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw DynamicLibraryError(message: Self.lastError() ?? "dlopen failed")
        }
        self.path = path
        self.handle = handle
    }

    /// Opens the file open at `descriptor` — exactly that file, whatever its name now leads to —
    /// through "/proc/self/fd/N". `path` is the name it was found at, for messages.
    ///
    /// The loader knows a library by the name it was opened by, and a later `dlopen` of the same
    /// name returns it without opening anything. So a descriptor whose file was loaded is kept
    /// open for the life of the process (a number never reused, one per distinct file: the
    /// library stays loaded anyway), and a file already loaded this way is found by its device
    /// and inode, not opened again. Call with ``LoaderLock`` held; close the descriptor only
    /// when this throws or when ``isLoaded(_:)`` said the file was loaded before.
    init(openingDescriptor descriptor: Int32, identity: FileStatus.Identity, path: String) throws(DynamicLibraryError) {
        if let loaded = Self.loadedFiles[identity] {
            self.path = path
            self.handle = loaded
            return
        }
        let name = "/proc/self/fd/\(descriptor)"
        _ = dlerror()
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let message = Self.lastError() ?? "dlopen failed"
            throw DynamicLibraryError(message: message.replacing(name, with: path))
        }
        Self.loadedFiles[identity] = handle
        self.path = path
        self.handle = handle
    }

    /// The library this process loaded from the file with `identity` through
    /// ``init(openingDescriptor:identity:path:)``, or `nil` when it loaded no such file. Call with
    /// ``LoaderLock`` held.
    init?(loaded identity: FileStatus.Identity, path: String) {
        guard let loaded = Self.loadedFiles[identity] else { return nil }
        self.path = path
        self.handle = loaded
    }

    /// Whether the file is one this process loaded through ``init(openingDescriptor:identity:path:)``
    /// (its descriptor is then kept open).
    static func isLoaded(_ identity: FileStatus.Identity) -> Bool { loadedFiles[identity] != nil }

    /// The files loaded by descriptor, by identity. Only touched under ``LoaderLock``.
    nonisolated(unsafe) private static var loadedFiles: [FileStatus.Identity: UnsafeMutableRawPointer] = [:]

    /// The address of an exported symbol, or `nil` when the library does not export it.
    func symbol(named name: String) -> UnsafeMutableRawPointer? {
        _ = dlerror()
        return dlsym(handle, name)
    }

    /// The loader's last message on this thread, copied.
    private static func lastError() -> String? {
        guard let message = dlerror() else { return nil }
        return String(cString: message)
    }

    /// How many times ``imagePath(containing:)`` read /proc/self/maps in this process (tests count them).
    static let imagePathLookups = Locked(0)

    /// The file of the loaded image that contains `address` (a function of ours, say), from
    /// /proc/self/maps (Glibc's module map does not offer dladdr).
    static func imagePath(containing address: UnsafeRawPointer) -> String? {
        imagePathLookups.withLock { $0 += 1 }
        // Read to the end: /proc files report size 0, and a read of the reported size stops before
        // the first page, before the shared objects loaded last.
        guard let bytes = SystemFiles.contents(of: "/proc/self/maps") else { return nil }
        let maps = String(decoding: bytes, as: UTF8.self)
        let target = UInt(bitPattern: address)
        for line in maps.split(separator: "\n") {
            // "start-end perms offset dev inode   path"
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            // The last field keeps the padding before the path: trim it before looking at it.
            guard fields.count == 6 else { continue }
            let path = String(fields[5].drop { $0 == " " })
            guard path.hasPrefix("/") else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                  start <= target, target < end else { continue }
            return path
        }
        return nil
    }
}

/// `dlopen` refused a file; `message` is the loader's own text.
struct DynamicLibraryError: Error, Sendable {
    var message: String
}
