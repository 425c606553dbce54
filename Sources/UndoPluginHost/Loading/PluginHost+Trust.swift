#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The checks of ``PluginTrustPolicy``, made before the dynamic loader sees a file.
extension PluginHost {
    /// A path given by a person, made absolute against the current directory: the explicit
    /// step the host wants before it loads a relative path (it refuses one otherwise, so that a
    /// plugin is never picked up from wherever the program happens to run).
    public static func absolutePath(fromCurrentDirectory path: String) -> String {
        absolutePath(path)
    }

    /// The SHA-256 of a file (lower-case hexadecimal, as `sha256sum` prints it), for
    /// ``PluginTrustPolicy/allowedSHA256``.
    /// - Throws: ``PluginLoadError`` (`cannotOpen`) when the file cannot be read.
    public static func sha256(ofFile path: String) throws(PluginLoadError) -> String {
        do throws(SHA256.FileError) {
            return try SHA256.hex(ofFile: path)
        } catch {
            throw PluginLoadError(path: path, reason: .cannotOpen(error.message))
        }
    }

    /// Checks a plugin file (an absolute path, as given, links unresolved) against `policy`,
    /// before anything reads it as code.
    static func checkTrust(ofFile path: String, policy: PluginTrustPolicy) throws(PluginLoadError.Reason) {
        let real = try resolved(path)
        let file = try status(of: real)
        // Before anything opens it: opening a FIFO would wait for a writer forever.
        switch file.kind {
        case .file: break
        case .folder: throw .invalidFile("not a regular file (a folder)")
        case .other(let what): throw .invalidFile("not a regular file (\(what))")
        case .symbolicLink: throw .invalidFile("not a regular file (a link that stat did not follow)")
        }
        if !policy.allowWritable {
            try requireProtected(file, "the file")
            let folder = SystemFiles.folder(of: real)
            try requireProtectedFolder(folder, "its folder \(folder)")
            // Through a link, whoever can write the folder holding the link can re-point it.
            let linkFolder = SystemFiles.folder(of: path)
            if let resolvedLinkFolder = try? resolved(linkFolder), resolvedLinkFolder != folder {
                try requireProtectedFolder(resolvedLinkFolder, "the folder \(resolvedLinkFolder) holding the link")
            }
        }
        if let allowed = policy.allowedSHA256 {
            let digest: String
            do throws(SHA256.FileError) {
                digest = try SHA256.hex(ofFile: real)
            } catch {
                throw .cannotOpen(error.message)
            }
            guard allowed.contains(digest) else { throw .notAllowed("its SHA-256 \(digest) is not on the allow-list") }
        }
    }

    /// Checks a folder of plugins (an absolute path, as given) against `policy`.
    static func checkTrust(ofFolder path: String, policy: PluginTrustPolicy) throws(PluginLoadError.Reason) {
        let real: String
        do throws(PluginLoadError.Reason) {
            real = try resolved(path)
            guard try status(of: real).kind == .folder else { throw .cannotOpen(String(cString: strerror(ENOTDIR))) }
        } catch {
            guard case .cannotOpen(let message) = error else { throw error }
            throw .cannotOpen("cannot read the folder: \(message)")
        }
        guard !policy.allowWritable else { return }
        try requireProtectedFolder(real, "the folder")
        let linkFolder = SystemFiles.folder(of: path)
        if let resolvedLinkFolder = try? resolved(linkFolder), resolvedLinkFolder != SystemFiles.folder(of: real) {
            try requireProtectedFolder(resolvedLinkFolder, "the folder \(resolvedLinkFolder) holding the link")
        }
    }

    /// Refuses `folder` when it or a folder above it is not protected: the folder itself must
    /// not be writable by group or others at all (anyone could add a plugin to it); a folder
    /// above it may be when it has the sticky bit (like /tmp: others cannot rename what is ours).
    private static func requireProtectedFolder(_ folder: String, _ what: String) throws(PluginLoadError.Reason) {
        try requireProtected(try status(of: folder), what)
        var above = folder
        while above != "/" {
            above = SystemFiles.folder(of: above)
            let status = try status(of: above)
            try requireOwned(status, "the folder \(above) above it")
            if let writers = status.writers, !status.isSticky {
                throw .writableByOthers("the folder \(above) above it is writable by \(writers) (mode \(status.octalMode)) without the sticky bit")
            }
        }
    }

    private static func requireProtected(_ status: FileStatus, _ what: String) throws(PluginLoadError.Reason) {
        try requireOwned(status, what)
        if let writers = status.writers {
            throw .writableByOthers("\(what) is writable by \(writers) (mode \(status.octalMode))")
        }
    }

    /// Another user can make their file or folder writable whenever they like.
    private static func requireOwned(_ status: FileStatus, _ what: String) throws(PluginLoadError.Reason) {
        let user = FileStatus.effectiveUser
        guard status.owner == user || status.owner == 0 else {
            throw .writableByOthers("\(what) belongs to user \(status.owner), not to this user (\(user)) or root")
        }
    }

    private static func resolved(_ path: String) throws(PluginLoadError.Reason) -> String {
        do throws(FileStatus.Failure) {
            return try FileStatus.resolved(path)
        } catch {
            throw .cannotOpen(error.message)
        }
    }

    private static func status(of path: String, followingLinks: Bool = true) throws(PluginLoadError.Reason) -> FileStatus {
        do throws(FileStatus.Failure) {
            return try FileStatus(of: path, followingLinks: followingLinks)
        } catch {
            throw .cannotOpen(error.message)
        }
    }
}
