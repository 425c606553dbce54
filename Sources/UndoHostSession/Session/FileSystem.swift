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

    struct FileError: Error { var reason: String }
}
