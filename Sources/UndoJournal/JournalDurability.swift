/// How much a crash or a power loss can take from a journal (every journal of the package).
public enum JournalDurability: String, Sendable, CaseIterable {
    /// Synced (`fsync` of the WAL) before each change is acknowledged: a process crash or a
    /// power loss loses nothing acknowledged. The default: an undo history is worth the
    /// few milliseconds a sync costs on each change a person makes.
    case full
    /// Not synced: SQLite syncs the WAL at checkpoints (every 1000 pages of WAL), so a power
    /// loss or an operating-system crash can lose the changes since the last one.
    /// Changes of `HostJournal` (module UndoHostJournal) are also committed in groups, at most
    /// `HostJournal.groupCommitWindow` (100 ms) after the first of a group, so a process
    /// crash can lose that window.
    case normal
}

/// SQLite's application ids (`PRAGMA application_id`) of the journals, so one kind of journal
/// is never read as another.
package enum JournalApplicationID {
    /// "UNDO": undo-host's session journal (format 1) and the plugin host's `HostJournal`
    /// (formats 2 and later), to which undo-host upgrades it.
    package static let undoHost: Int64 = 0x554E_444F
    /// "UNDS": the history journal of `Codable` commands (`UndoStackJournal`).
    package static let history: Int64 = 0x554E_4453
}
