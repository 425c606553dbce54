import UndoCore

/// The per-document slots of one plugin instance (`undo_call.document_data`, ABI 1.6): one
/// `void *` per document, which the plugin reads and writes through the pointer its calls get.
///
/// **Invariants** (checked in debug builds):
/// - used only with the plugin's call lock held (every call into the plugin holds it), so no
///   lock of its own is needed;
/// - each slot is a one-pointer cell allocated when first handed out, initialized to NULL, and
///   freed only by ``remove(_:)`` or ``removeAll()``; a frame that cached a cell is told to
///   forget it before the cell is freed (``LoadedPlugin``), so the plugin never gets a freed cell.
final class DocumentSlots: @unchecked Sendable {
    typealias Cell = UnsafeMutablePointer<UnsafeMutableRawPointer?>

    private let callLock: RecursiveMutex
    private var cells: [UndoContext: Cell] = [:]

    init(guardedBy callLock: RecursiveMutex) { self.callLock = callLock }

    deinit {
        for cell in cells.values { cell.deallocate() }
    }

    /// The cell of `context`, made (holding NULL) when the document has none yet.
    /// - Complexity: O(length of the name) (one hash lookup).
    func cell(for context: UndoContext) -> Cell {
        assert(callLock.isHeldByCurrentThread, "document slots used without the plugin's call lock")
        if let cell = cells[context] { return cell }
        let cell = Cell.allocate(capacity: 1)
        cell.initialize(to: nil)
        cells[context] = cell
        return cell
    }

    /// The cell of `context` if it has one, without making one.
    func existingCell(for context: UndoContext) -> Cell? {
        assert(callLock.isHeldByCurrentThread, "document slots used without the plugin's call lock")
        return cells[context]
    }

    /// The documents whose slot holds something (not NULL).
    var occupied: [UndoContext] {
        assert(callLock.isHeldByCurrentThread, "document slots used without the plugin's call lock")
        return cells.compactMap { $0.value.pointee != nil ? $0.key : nil }
    }

    /// Frees the cell of `context`.
    func remove(_ context: UndoContext) {
        assert(callLock.isHeldByCurrentThread, "document slots used without the plugin's call lock")
        cells.removeValue(forKey: context)?.deallocate()
    }

    /// Frees every cell.
    func removeAll() {
        assert(callLock.isHeldByCurrentThread, "document slots used without the plugin's call lock")
        for cell in cells.values { cell.deallocate() }
        cells = [:]
    }
}
