import UndoCore

/// The plugin files this process has walked, checked and loaded, by the path a load named them
/// with: so that another history loading the same file (a C host making many histories, each
/// with the same plugins) pays one `stat` instead of the walk.
///
/// Why that is as safe as the walk: a file is only remembered once its image is loaded, and the
/// image stays loaded with its file open (``DynamicLibrary``), so the inode cannot be reused. A
/// later load of the same path uses that image, never the bytes on disk, and only when `stat` of
/// the path now finds the very file that was checked — the same device and inode, owner and
/// mode, and the same change time, which the kernel moves on every write, chmod, chown or link
/// and which no user can set back. A path that now leads anywhere else (a link re-pointed, a file
/// renamed over, even a hard link to another plugin) is walked and checked again, as the first
/// time. What this does not see again is a folder on the way made writable since: it is only
/// the way to a file whose code is already the one that was checked.
///
/// Only touched under ``LoaderLock``.
enum CheckedPluginFiles {
    /// What the walk found for one path.
    struct Entry {
        /// The path the walk found, links resolved (what messages and ``PluginInfo`` name).
        let realPath: String
        /// What `fstat` said of the file the walk opened.
        let status: FileStatus
        /// Whether the walk checked folders and owners (a standard trust policy), so that a
        /// load under that policy may rely on it; a walk that did not check serves only loads
        /// that allow writable plugins too.
        let checked: Bool
    }

    nonisolated(unsafe) private static var entries: [String: Entry] = [:]

    /// The library loaded from the file `path` names, with the path the walk found for it, when
    /// that file is the one checked and loaded then, checked as strictly as `checking` asks;
    /// `nil` otherwise (then walk it).
    /// - Complexity: one `stat` and two dictionary lookups.
    static func loaded(_ path: String, checking: Bool) -> (library: DynamicLibrary, realPath: String)? {
        guard let entry = entries[path], entry.checked || !checking,
              let now = try? FileStatus(of: path), now == entry.status,
              let library = DynamicLibrary(loaded: entry.status.identity, path: entry.realPath) else { return nil }
        return (library, entry.realPath)
    }

    /// Remembers the file the walk opened for `path`, once its image is loaded.
    static func remember(_ path: String, _ file: PluginPathWalk.Opened, checked: Bool) {
        if let known = entries[path], known.checked, !checked, known.status == file.status { return }
        entries[path] = Entry(realPath: file.realPath, status: file.status, checked: checked)
    }

    #if DEBUG
    /// How many times a load in this process walked each path (debug builds: tests count a file
    /// of their own).
    static let walks = Locked([String: Int]())
    #endif
}
