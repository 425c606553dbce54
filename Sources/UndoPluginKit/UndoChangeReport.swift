/// A place a perform or inverse changed, reported with ``UndoCall/reportChange(_:in:)``: what a
/// host highlights or scrolls to after undo and redo.
public enum UndoChangeReport: Sendable, Hashable {
    /// One object of the document, by an id that stays the same across undo and redo (not a
    /// list index, which shifts when something before it is removed). Never negative.
    case object(Int64)
    /// `length` units from `location` (bytes, characters: the plugin's own unit); a length of 0
    /// is a point. Both never negative.
    case range(location: Int64, length: Int64)
    /// The whole document.
    case whole

    /// The `location` and `length` of `report_change` (-1 for "none"), or nil when a number is
    /// negative.
    var cArguments: (location: Int64, length: Int64)? {
        switch self {
        case .object(let id): id >= 0 ? (id, -1) : nil
        case .range(let location, let length): location >= 0 && length >= 0 ? (location, length) : nil
        case .whole: (-1, -1)
        }
    }
}
