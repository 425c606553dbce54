/// What ``UndoStack/perform(_:)`` did with a change it performed: whether the history now holds
/// it, so a program can tell a change that left no step (Qt's obsolete command on its first
/// push) from one that was recorded.
public enum UndoPerformOutcome: Sendable, Equatable {
    /// The change is in the history: as a new step, as the open group's newest member, or
    /// joined to the newest step when it coalesced.
    case recorded
    /// The command marked itself obsolete when it was performed
    /// (``UndoChanges/markObsolete()``): it changed nothing, and no step was added; the
    /// position, the titles and the save point are as they were.
    case obsolete
    /// Recording is paused (``UndoStack/pauseRecording()``): the change was made and not recorded.
    case notRecorded
}
