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
    /// Links are left as they are (".." and "." are taken as written): the loader judges
    /// each link by where it sits as well as by where it points.
    public static func absolutePath(fromCurrentDirectory path: String) -> String {
        let joined = path.hasPrefix("/") ? path : SystemFiles.path(SystemFiles.currentDirectory ?? "/", path)
        return SystemFiles.normalized(joined)
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

    /// Checks a folder of plugins (an absolute path, as given) against `policy` and opens it:
    /// the walk checks every folder and link on the way (``PluginPathWalk``).
    /// - Returns: the folder, open for reading, at its real path; the caller closes it.
    static func checkTrust(ofFolder path: String, policy: PluginTrustPolicy) throws(PluginLoadError.Reason) -> PluginPathWalk.Opened {
        do throws(PluginLoadError.Reason) {
            return try PluginPathWalk.walk(path, to: .folder, checking: !policy.allowWritable)
        } catch {
            guard case .cannotOpen(let message) = error else { throw error }
            throw .cannotOpen("cannot read the folder: \(message)")
        }
    }
}
