import UndoHostAPI
import UndoHostJournal
import UndoJournal

// A journal file read without a history: undo-host `journal FILE` for C hosts.

@c @implementation
public func undo_journal_inspect(_ path: UnsafePointer<CChar>?, _ flags: UInt32,
                                 _ summary: UnsafeMutablePointer<undo_journal_summary>?) -> Int32 {
    do throws(ClientFailure) {
        guard let path else { throw .invalid("path is NULL") }
        guard let summary else { throw .invalid("summary is NULL") }
        var written = try GrowableStruct.read(UnsafePointer(summary), minimum: JournalSummaryStruct.minimumSize, "summary")
        guard written.reserved0 == 0 else { throw .invalid("summary.reserved0 is \(written.reserved0), not 0") }
        let known = UInt32(UNDO_JOURNAL_INSPECT_THOROUGH)
        guard flags & ~known == 0 else { throw .invalid("flags has unknown bits (\(flags & ~known))") }
        let file = try CText.read(path, "path")
        let contents: JournalContents
        do throws(JournalError) {
            contents = try JournalContents.read(path: file, thorough: flags & known != 0)
        } catch {
            // Whatever stops the reading (a missing file as much as a damaged one) is the path's fault.
            throw ClientFailure(Int32(UNDO_EINVAL), error.description)
        }
        written.format = contents.format
        written.changes = UInt64(contents.changes.count)
        written.plugins = UInt64(contents.plugins.count)
        written.documents = UInt64(contents.documents.count)
        written.has_checkpoint = contents.checkpoint == nil ? 0 : 1
        written.open_by = contents.openBy ?? 0
        written.checkpoint_sequence = contents.checkpoint?.sequence ?? 0
        written.file_bytes = UInt64(clamping: contents.fileBytes)
        written.wal_bytes = UInt64(clamping: contents.walBytes)
        GrowableStruct.write(written, to: summary)
        creationMessages.clear()
        return Int32(UNDO_OK)
    } catch {
        creationMessages.set(error.message)
        return error.code
    }
}

/// undo_journal_summary, growable: read and written within the caller's struct_size.
private enum JournalSummaryStruct {
    static let minimumSize = MemoryLayout<undo_journal_summary>.offset(of: \.wal_bytes)! + MemoryLayout<UInt64>.size
}
