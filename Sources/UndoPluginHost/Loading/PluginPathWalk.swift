import CUndoHostSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A plugin file (or folder of plugins) reached by a walk from "/", one name at a time, each
/// opened relative to the folder before it (`openat` with `openPath | O_NOFOLLOW`): links are
/// followed here, by hand, never by the kernel. So every folder the walk passes through, links
/// included, is the one that was checked, and the descriptor it ends with is the file that was
/// judged. Nothing that happens to the names afterwards (a link re-pointed, a file renamed over)
/// changes what the descriptor is: the host hashes, reads and loads that descriptor.
///
/// With `checking` (the standard ``PluginTrustPolicy``), as the walk goes:
/// - a folder it passes through belongs to this user or root and is not writable by group or
///   others, unless it has the sticky bit (like /tmp: others cannot rename or remove what is
///   ours in it);
/// - a folder holding a link, or the file itself, belongs to this user or root and is not
///   writable by group or others at all (sticky or not: anyone could add or replace an entry);
/// - the file belongs to this user or root and is not writable by group or others.
struct PluginPathWalk {
    /// The walk's result: an open descriptor (readable for a file, `O_RDONLY | O_DIRECTORY` for
    /// a folder) and the path it was found at, links resolved. The caller closes it.
    struct Opened {
        let descriptor: Int32
        let realPath: String
        let status: FileStatus
    }

    enum Target { case file, folder }

    private static let openPath = undo__open_path_flag()

    /// As the kernel's own limit on links in one lookup (ELOOP after 40).
    static let maximumLinks = 40

    /// A folder on the real path so far: `O_PATH` descriptor, path, and what `fstat` said.
    private struct Folder {
        let descriptor: Int32
        let path: String
        let status: FileStatus
    }

    /// Walks `path` (absolute) to a file or a folder.
    /// - Throws: `cannotOpen` with the system's reason, `invalidFile` for what is not a regular
    ///   file, `writableByOthers` (only when `checking`) naming the file or folder.
    static func walk(_ path: String, to target: Target, checking: Bool) throws(PluginLoadError.Reason) -> Opened {
        precondition(path.hasPrefix("/"), "the walk starts at /")
        let root = "/".withCString { open($0, openPath | O_DIRECTORY | O_CLOEXEC) }
        guard root >= 0 else { throw .cannotOpen(systemMessage()) }
        var folders = [Folder(descriptor: root, path: "/", status: try status(of: root))]
        defer { for folder in folders { close(folder.descriptor) } }

        var pending = components(of: path).reversed() as [String]
        var links = 0
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                if folders.count > 1 { close(folders.removeLast().descriptor) }
                continue
            }
            let holder = folders[folders.count - 1]
            // withCString: the name's own bytes, where passing the String would copy it to the heap.
            let child = name.withCString { openat(holder.descriptor, $0, openPath | O_NOFOLLOW | O_CLOEXEC) }
            guard child >= 0 else { throw .cannotOpen(systemMessage()) }
            let childStatus: FileStatus
            do throws(PluginLoadError.Reason) {
                childStatus = try status(of: child)
            } catch {
                close(child)
                throw error
            }
            let childPath = SystemFiles.path(holder.path, name)
            switch childStatus.kind {
            case .symbolicLink:
                defer { close(child) }
                links += 1
                guard links <= maximumLinks else { throw .cannotOpen(String(cString: strerror(ELOOP))) }
                // Whoever can write the folder holding a link can re-point it.
                if checking { try requireProtected(holder.status, "the folder \(holder.path) holding the link") }
                let target = try linkTarget(child)
                // By its first byte, as the kernel reads it: "/" and a combining mark after it
                // are one Character, which `hasPrefix("/")` does not match.
                if target.utf8.first == UInt8(ascii: "/") {
                    for folder in folders.dropFirst() { close(folder.descriptor) }
                    folders.removeSubrange(1...)
                }
                pending += components(of: target).reversed()
            case .folder:
                if checking { try requireProtectedAbove(holder.status, "the folder \(holder.path) above it") }
                folders.append(Folder(descriptor: child, path: childPath, status: childStatus))
            case .file, .other:
                defer { close(child) }
                // "file/x" and "file/." name no file.
                guard pending.isEmpty else { throw .cannotOpen(String(cString: strerror(ENOTDIR))) }
                guard target == .file else { throw .cannotOpen(String(cString: strerror(ENOTDIR))) }
                if case .other(let what) = childStatus.kind { throw .invalidFile("not a regular file (\(what))") }
                if checking {
                    try requireProtected(childStatus, "the file")
                    try requireProtected(holder.status, "its folder \(holder.path)")
                }
                // Readable now that it is known to be a regular file (opening a FIFO for reading
                // would wait for a writer); the same file, or refused.
                let readable = name.withCString { openat(holder.descriptor, $0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY) }
                guard readable >= 0 else { throw .cannotOpen(systemMessage()) }
                guard let opened = try? FileStatus(descriptor: readable), opened.identity == childStatus.identity else {
                    close(readable)
                    throw .cannotOpen("the file was replaced while it was checked")
                }
                return Opened(descriptor: readable, realPath: childPath, status: childStatus)
            }
        }
        let folder = folders[folders.count - 1]
        guard target == .folder else { throw .invalidFile("not a regular file (a folder)") }
        if checking { try requireProtected(folder.status, "the folder") }
        let readable = openat(folder.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard readable >= 0 else { throw .cannotOpen(systemMessage()) }
        return Opened(descriptor: readable, realPath: folder.path, status: folder.status)
    }

    /// The names between the '/' bytes of `path`, split by bytes as the kernel splits it. Not
    /// by Characters: a '/' followed by a combining mark is one Character, so that split left
    /// it inside a name, and one `openat` then went through two names, the folder between them
    /// unchecked. (Splitting bytes is also cheaper: no grapheme breaking.)
    static func components(of path: String) -> [String] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { String(Substring($0)) }
    }

    private static func systemMessage() -> String { String(cString: strerror(errno)) }

    private static func status(of descriptor: Int32) throws(PluginLoadError.Reason) -> FileStatus {
        do throws(FileStatus.Failure) {
            return try FileStatus(descriptor: descriptor)
        } catch {
            throw .cannotOpen(error.message)
        }
    }

    /// The target of the link open (`openPath | O_NOFOLLOW`) at `descriptor`.
    private static func linkTarget(_ descriptor: Int32) throws(PluginLoadError.Reason) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(descriptor, "", &buffer, buffer.count)
        guard count >= 0 else { throw .cannotOpen(systemMessage()) }
        guard count < buffer.count else { throw .cannotOpen(String(cString: strerror(ENAMETOOLONG))) }
        // Refused rather than decoded with replacement characters: the walk would then look
        // for a name other than the one the kernel follows.
        guard let target = String(validating: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) else {
            throw .cannotOpen("a link on the way points to a name that is not valid UTF-8")
        }
        return target
    }

    // `what` is built only for a message: the walk checks every folder on the way.

    /// Not writable by group or others, and this user's or root's.
    static func requireProtected(_ status: FileStatus, _ what: @autoclosure () -> String) throws(PluginLoadError.Reason) {
        try requireOwned(status, what())
        if let writers = status.writers {
            throw .writableByOthers("\(what()) is writable by \(writers) (mode \(status.octalMode))")
        }
    }

    /// A folder on the way: others may write it only when the sticky bit keeps them from
    /// renaming what is ours.
    private static func requireProtectedAbove(_ status: FileStatus, _ what: @autoclosure () -> String) throws(PluginLoadError.Reason) {
        try requireOwned(status, what())
        if let writers = status.writers, !status.isSticky {
            throw .writableByOthers("\(what()) is writable by \(writers) (mode \(status.octalMode)) without the sticky bit")
        }
    }

    /// Another user can make their file or folder writable whenever they like.
    private static func requireOwned(_ status: FileStatus, _ what: @autoclosure () -> String) throws(PluginLoadError.Reason) {
        let user = FileStatus.effectiveUser
        guard status.owner == user || status.owner == 0 else {
            throw .writableByOthers("\(what()) belongs to user \(status.owner), not to this user (\(user)) or root")
        }
    }
}
