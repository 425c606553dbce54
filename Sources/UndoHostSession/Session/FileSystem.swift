#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few file questions the tool asks, without Foundation's file manager.
enum FileSystem {
    static func exists(_ path: String, isFolder: inout Bool) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        return true
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether two paths name one file (a hard link, or the same path).
    static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    struct FileError: Error { var reason: String }
}
