#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore

/// What the plugin host needs from the operating system beyond dlopen: paths, whole files, the
/// environment, standard error. Plain system calls, so the host (and libundohost.so, built on
/// it) needs no Foundation and no ICU.
enum SystemFiles {
    /// The folder part of a path: "/a/b" gives "/a", "/a" gives "/", "b" gives "".
    static func folder(of path: String) -> String {
        var utf8 = Array(path.utf8)
        while utf8.count > 1 && utf8.last == UInt8(ascii: "/") { utf8.removeLast() }
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        if slash == 0 { return "/" }
        return String(decoding: utf8[..<slash], as: UTF8.self)
    }

    /// `folder` + "/" + `name`, with no doubled slash.
    static func path(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// An absolute path without ".", ".." or doubled slashes, worked out from the text alone
    /// (".." above "/" stays at "/"). Split at the '/' bytes, as the kernel splits a path (a
    /// '/' followed by a combining mark is one Character, but still ends a name).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Substring.init) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` made absolute against the current directory and normalized; then, when it
    /// exists, with its links resolved (realpath), as the loader will see it.
    static func absolute(_ path: String) -> String {
        #if DEBUG
        resolutions.withLock { $0[path, default: 0] += 1 }
        #endif
        let joined = path.hasPrefix("/") ? path : self.path(currentDirectory ?? "/", path)
        let plain = normalized(joined)
        guard let resolved = realpath(plain, nil) else { return plain }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    #if DEBUG
    /// How many times ``absolute(_:)`` worked each path out in this process (debug builds:
    /// tests count a path of their own).
    static let resolutions = Locked([String: Int]())
    #endif

    static var currentDirectory: String? {
        guard let text = getcwd(nil, 0) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// The target of a symbolic link, or nil when `path` is not one.
    static func linkTarget(_ path: String) -> String? {
        var capacity = 256
        while capacity <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: capacity)
            let count = readlink(path, &buffer, capacity)
            guard count >= 0 else { return nil }
            if count < capacity {
                return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity *= 2
        }
        return nil
    }

    /// A file's whole content, read to its end (a /proc file reports size 0, so the size is
    /// never trusted), or nil when it cannot be opened or read.
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// An environment variable's value, or nil when it is not set.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Writes `text` to standard error, all of it (retrying short writes).
    static func writeToStandardError(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
