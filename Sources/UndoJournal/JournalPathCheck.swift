#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The plugin trust policy's rule for links (docs/trust-model.md), applied to a journal's files
/// before SQLite opens them: SQLite follows links itself, so a link another user placed in a
/// folder they may write (a dangling one in /tmp, say) would choose the file this program
/// creates and writes, with its rights (root's, for a root undo-host).
///
/// For the journal, its `-wal`, its `-shm` and the journal's side files (`-replay`, `-save`),
/// each that exists: when it is a link, the folder
/// holding it must belong to this user or root and be writable by no one else (sticky or not:
/// anyone who may write it could have placed the link, or re-point it); when its folder may be
/// written by others (a sticky folder like /tmp), it must also belong to this user or root (a
/// `-wal` placed there by another user would be read into the journal).
///
/// Not checked: the folders above the journal's folder and links among them (a path through a
/// link another user controls is that user's choice of folder), and a link placed in a sticky
/// folder between this check and SQLite's creation of the `-wal` or `-shm` (SQLite creates them
/// itself; keep journals in a folder only you can write, as the default places do).
package enum JournalPathCheck {
    /// - Throws: ``JournalError`` naming the file, the folder and what is wrong.
    package static func check(_ path: String) throws(JournalError) {
        let folder = folderPath(of: path)
        var folderInfo = stat()
        // A missing folder: SQLite says so when it opens.
        guard stat(folder, &folderInfo) == 0 else { return }
        let user = geteuid()
        let folderOwned = folderInfo.st_uid == user || folderInfo.st_uid == 0
        let folderWriters = writers(UInt32(folderInfo.st_mode))
        let folderProtected = folderOwned && folderWriters == nil
        let mode = String(UInt32(folderInfo.st_mode) & 0o7777, radix: 8)
        // With the side files of the way out of a crash loop (UndoHostJournal's CrashMarker).
        for name in [path, path + "-wal", path + "-shm", path + "-replay", path + "-save"] {
            var info = stat()
            guard lstat(name, &info) == 0 else { continue }
            let isLink = info.st_mode & S_IFMT == S_IFLNK
            if isLink && !folderProtected {
                let why = !folderOwned
                    ? "belongs to user \(folderInfo.st_uid), not to this user (\(user)) or root"
                    : "is writable by \(folderWriters ?? "others") (mode \(mode))"
                throw JournalError(path: path, "\(name) is a link, and its folder \(folder) \(why): whoever placed the link "
                                   + "chooses the file this program would write; refused (give the link's target, or keep the "
                                   + "journal in a folder only you can write)")
            }
            if !isLink && !folderProtected && info.st_uid != user && info.st_uid != 0 {
                throw JournalError(path: path, "\(name) belongs to user \(info.st_uid), not to this user (\(user)) or root, "
                                   + "in folder \(folder), which others may write (mode \(mode)): refused (another user's "
                                   + "file would be read into the journal, or written)")
            }
        }
    }

    /// Who besides the owner may write, from `st_mode`: "group", "others", "group and others" or nil.
    private static func writers(_ mode: UInt32) -> String? {
        switch (mode & UInt32(S_IWGRP) != 0, mode & UInt32(S_IWOTH) != 0) {
        case (true, true): return "group and others"
        case (true, false): return "group"
        case (false, true): return "others"
        case (false, false): return nil
        }
    }

    static func folderPath(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}
