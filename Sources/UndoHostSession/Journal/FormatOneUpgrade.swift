#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoHostJournal
import UndoJournal
import UndoPluginHost

extension HostSession {
    /// What ``upgradeFormatOneJournal(at:locale:like:)`` did.
    public struct FormatOneUpgrade: Sendable, Equatable {
        /// Where the format-1 file is kept: the journal's path + `.format-1`.
        public var keptAt: String
        /// How many of its entries were replayed.
        public var entries: Int
    }

    /// Upgrades the format-1 journal (session lines) at `path` to a `HostJournal` of the current
    /// format, which then takes its place; the old file is kept beside it as `path.format-1`.
    ///
    /// Its entries are replayed once, each at its time, in a session of its own (a host made
    /// like `host`: same locale, trust policy and plugins) that writes them to `path.upgrading`;
    /// once that journal is closed, the old file is linked (or, where links are not supported,
    /// renamed) to `path.format-1` and the new one renamed to `path`, so `path` is a whole
    /// journal at every moment. Open `path` as usual afterwards.
    /// - Throws: the reason, naming the journal: it cannot be read (damaged, not a journal), an
    ///   entry cannot be replayed (naming it: a plugin missing, an action of another signature),
    ///   `path.format-1` exists already and is another file, a file cannot be written or
    ///   renamed. `path` is then unchanged and no `path.upgrading` file is left.
    /// - Complexity: O(entries) replays, each written with `full` durability.
    public static func upgradeFormatOneJournal(at path: String, locale: UndoLocale, like host: PluginHost)
        throws(SessionError) -> FormatOneUpgrade
    {
        let kept = path + ".format-1"
        let upgrading = path + ".upgrading"
        func failure(_ reason: String) -> SessionError {
            SessionError(.history, "journal \(path): cannot upgrade it from format 1 (session lines): \(reason)",
                         hint: "the journal was not changed")
        }
        // A file of that name is never overwritten; the only one taken is the old file itself,
        // linked there by an upgrade interrupted before it put the new journal in place.
        if FileSystem.exists(kept) && !FileSystem.sameFile(kept, path) { throw failure("\(kept) exists already: move it away first") }
        let old: SessionLineJournal
        do throws(JournalError) {
            old = try SessionLineJournal(path: path)
        } catch {
            throw SessionError(.history, error.description, hint: "the journal was not changed")
        }
        // What an upgrade interrupted before it finished left.
        UpgradeFiles.removeDatabase(upgrading)

        let clock = JournalClock()
        let scratchHost = makeHost(locale: locale, clock: clock)
        scratchHost.trustPolicy = host.trustPolicy
        for plugin in host.plugins {
            do throws(PluginLoadError) {
                _ = try scratchHost.load(file: plugin.path)
            } catch {
                throw failure("plugin \(plugin.id) does not load again from \(plugin.path): \(error.explanation)")
            }
        }
        let scratch = HostSession(host: scratchHost)
        // Every change is kept as replayed; the session that opens the journal checkpoints it.
        scratch.checkpointInterval = 0
        do throws(SessionError) {
            _ = try scratch.openJournal(path: upgrading, durability: .full, clock: clock)
            try scratch.replay(old, clock: clock)
            scratch.closeJournal()
            guard !FileSystem.exists(upgrading + "-wal") else { throw failure("\(upgrading)-wal remains after closing it") }
        } catch {
            scratch.closeJournal()
            UpgradeFiles.removeDatabase(upgrading)
            throw error
        }

        // The old file's own `-wal` (a crash's last entries, replayed above) is folded into it now
        // that the upgrade succeeded, so the file kept is whole on its own.
        if old.hasWAL {
            do {
                let connection = try SQLiteConnection(path: path, create: false)
                _ = try connection.integer("PRAGMA user_version;")
                connection.close()
            } catch {
                UpgradeFiles.removeDatabase(upgrading)
                throw failure("cannot fold \(path)-wal into it: \(error)")
            }
            guard !FileSystem.exists(path + "-wal") else {
                UpgradeFiles.removeDatabase(upgrading)
                throw failure("\(path)-wal remains after folding it in: is another program using the journal?")
            }
        }
        var moved = false
        if !FileSystem.exists(kept) && link(path, kept) != 0 {
            let (code, reason) = (errno, UpgradeFiles.errorText())
            guard code != EEXIST, rename(path, kept) == 0 else {
                UpgradeFiles.removeDatabase(upgrading)
                throw failure("cannot keep the old file as \(kept): \(reason)")
            }
            moved = true
        }
        guard rename(upgrading, path) == 0 else {
            let reason = UpgradeFiles.errorText()
            if moved { _ = rename(kept, path) } else { _ = unlink(kept) }
            UpgradeFiles.removeDatabase(upgrading)
            throw failure("cannot put the new journal in place of the old one: \(reason)")
        }
        UpgradeFiles.syncFolder(of: path)
        return FormatOneUpgrade(keptAt: kept, entries: old.entries.count)
    }

    /// Replays the entries of a format-1 journal as the commands they are, each at the time it
    /// was first made, switching documents as they did.
    /// - Throws: the first entry that cannot be replayed, naming it.
    private func replay(_ journal: SessionLineJournal, clock: JournalClock) throws(SessionError) {
        defer { clock.resume() }
        for entry in journal.entries {
            clock.replaying(at: entry.time)
            if entry.document != currentDocument { _ = run(.document(entry.document)) }
            guard let outcome = run(entry.command) else { continue }
            if let error = outcome.error {
                throw SessionError(.history, "journal \(journal.path): change \(entry.sequence) (\(entry.command)) cannot be replayed: \(error.message)",
                                   hint: "open it with the plugins it was made with; the journal was not changed")
            }
        }
    }
}

/// The file operations of the upgrade, as system calls.
private enum UpgradeFiles {
    /// Removes an SQLite database and the files beside it, those that exist.
    static func removeDatabase(_ path: String) {
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] { _ = unlink(file) }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    /// Makes the renames in the folder of `path` durable.
    static func syncFolder(of path: String) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}
