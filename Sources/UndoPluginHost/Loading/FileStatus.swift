#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `stat`/`lstat` say about a path: its kind, owner and permission bits. The one place the
/// host asks the file system about plugin files before trusting them.
struct FileStatus: Equatable {
    enum Kind: Equatable {
        case file, folder, symbolicLink, other(String)
    }

    let kind: Kind
    let owner: uid_t
    /// The permission bits (`st_mode & 07777`).
    let mode: UInt32
    /// Device and inode: which file this is, whatever name led to it.
    let identity: Identity
    /// When its contents, owner or mode last changed (`st_ctim`, in nanoseconds): the kernel
    /// sets it on every write, chmod, chown and link count change, and no user can set it back.
    let changeTime: Int64

    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// `lstat` (the link itself) when `followingLinks` is false, else `stat`.
    /// - Throws: the system's reason, like "No such file or directory".
    init(of path: String, followingLinks: Bool = true) throws(FileStatus.Failure) {
        var info = stat()
        let status = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard status == 0 else { throw Failure(message: String(cString: strerror(errno))) }
        self.init(info)
    }

    /// `fstat` of an open descriptor (also one opened with `O_PATH`): what this very file is,
    /// whatever happens to the names that led to it.
    init(descriptor: Int32) throws(FileStatus.Failure) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(message: String(cString: strerror(errno))) }
        self.init(info)
    }

    private init(_ info: stat) {
        owner = info.st_uid
        identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        mode = UInt32(info.st_mode) & 0o7777
        changeTime = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .folder
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .other("a FIFO")
        case S_IFSOCK: kind = .other("a socket")
        case S_IFCHR, S_IFBLK: kind = .other("a device")
        default: kind = .other("of an unknown kind")
        }
    }

    var isWritableByGroup: Bool { mode & UInt32(S_IWGRP) != 0 }
    var isWritableByOthers: Bool { mode & UInt32(S_IWOTH) != 0 }
    /// The sticky bit: in such a folder only an entry's owner may rename or remove it.
    var isSticky: Bool { mode & UInt32(S_ISVTX) != 0 }

    /// "group and others", "others", ... or nil when neither may write.
    var writers: String? {
        switch (isWritableByGroup, isWritableByOthers) {
        case (true, true): "group and others"
        case (true, false): "group"
        case (false, true): "others"
        case (false, false): nil
        }
    }

    /// The mode as `ls -l`'s octal ("0755").
    var octalMode: String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// This process's effective user id.
    static var effectiveUser: uid_t { geteuid() }

    /// The path with every symbolic link and `.`/`..` resolved (`realpath`).
    static func resolved(_ path: String) throws(FileStatus.Failure) -> String {
        guard let real = realpath(path, nil) else { throw Failure(message: String(cString: strerror(errno))) }
        defer { free(real) }
        return String(cString: real)
    }

    struct Failure: Error {
        var message: String
    }
}
