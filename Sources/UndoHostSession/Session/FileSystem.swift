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

    /// The whole file as text; `nil` with the system's reason when it cannot be read.
    static func readText(_ path: String) -> Result<String, FileError> {
        guard let file = fopen(path, "rb") else { return .failure(FileError(reason: String(cString: strerror(errno)))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes += buffer[..<count] }
            if count < buffer.count {
                if ferror(file) != 0 { return .failure(FileError(reason: String(cString: strerror(errno)))) }
                break
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(FileError(reason: "it is not UTF-8 text"))
        }
        return .success(text)
    }

    struct FileError: Error { var reason: String }
}
