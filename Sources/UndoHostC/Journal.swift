import UndoCore
import UndoHostAPI
import UndoHostJournal
import UndoJournal
import UndoPluginHost

// The journal of a history (undo_history_open_journal): the same HostJournal that Swift's API
// and undo-host's --journal open.

@c @implementation
public func undo_history_open_journal(_ h: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ durability: UInt32) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        let path = try CText.read(path, "path")
        guard !path.isEmpty else { throw .invalid("path is empty") }
        let mode: JournalDurability
        switch durability {
        case UInt32(UNDO_JOURNAL_FULL): mode = .full
        case UInt32(UNDO_JOURNAL_NORMAL): mode = .normal
        default: throw .invalid("durability \(durability) is not UNDO_JOURNAL_FULL or UNDO_JOURNAL_NORMAL")
        }
        guard !PluginHost.isInsidePluginCall else {
            throw ClientFailure(Int32(UNDO_EREENTRANT), "undo_history_open_journal cannot be called from inside a plugin call")
        }
        do throws(JournalError) {
            let journal = try HostJournal.open(path: path, durability: mode, host: history.host, clock: history.clock)
            // A replay stopped before a change that crashed, automatic checkpoints off: said in
            // undo_history_last_error, beside the count.
            if !journal.openWarnings.isEmpty { history.notice("journal \(path): " + journal.openWarnings.joined(separator: "; ")) }
            return Int32(clamping: journal.restoredCount)
        } catch {
            throw ClientFailure(error)
        }
    }
}

@c @implementation
public func undo_history_close_journal(_ h: OpaquePointer?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        // From inside a plugin call (save_document during a checkpoint, say) the journal is in use.
        guard !PluginHost.isInsidePluginCall else {
            throw ClientFailure(Int32(UNDO_EREENTRANT), "undo_history_close_journal cannot be called from inside a plugin call")
        }
        guard let journal = history.host.recorder as? HostJournal else { throw ClientFailure(Int32(UNDO_ESTATE), "no journal is open") }
        do throws(JournalError) {
            try journal.commit()
        } catch {
            journal.close()
            throw ClientFailure(Int32(UNDO_ESTATE), error.description)
        }
        journal.close()
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_checkpoint_journal(_ h: OpaquePointer?, _ info: UnsafeMutablePointer<undo_checkpoint_info>?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
        // Checked before anything is written: a too-small struct fails the call, not the checkpoint.
        let request = try info.map { (pointer) throws(ClientFailure) in try CheckpointInfoStruct.read(pointer) }
        let journal = try openJournal(of: history)
        // HostJournal reports a call from inside an action as any other refusal; the C API's code for it is its own.
        if try history.withStack({ $0.isRunningAction }) {
            throw ClientFailure(Int32(UNDO_EREENTRANT), "undo_history_checkpoint_journal cannot be called from inside an action")
        }
        let made: CheckpointInfo
        do throws(JournalError) {
            made = try journal.checkpoint()
        } catch {
            throw ClientFailure(error)
        }
        if let info, let request { CheckpointInfoStruct.write(made, over: request, to: info) }
        return Int32(UNDO_OK)
    }
}

@c @implementation
public func undo_history_journal_checkpoint_info(_ h: OpaquePointer?, _ info: UnsafeMutablePointer<undo_checkpoint_info>?) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        guard let info else { throw .invalid("info is NULL") }
        let request = try CheckpointInfoStruct.read(info)
        let journal = try openJournal(of: history)
        guard let restored = journal.restoredCheckpoint else {
            throw ClientFailure(Int32(UNDO_ENOTFOUND), "journal \(journal.path) was not restored from a checkpoint: it had none")
        }
        CheckpointInfoStruct.write(restored, over: request, to: info)
        return Int32(UNDO_OK)
    }
}

private func openJournal(of history: ClientHistory) throws(ClientFailure) -> HostJournal {
    guard let journal = history.host.recorder as? HostJournal else { throw ClientFailure(Int32(UNDO_ESTATE), "no journal is open") }
    return journal
}

extension ClientFailure {
    /// A journal's refusal, with the code its reason has in the C API.
    init(_ error: JournalError) {
        let code: Int32 = switch error.reason {
        case .damaged: Int32(UNDO_EINVAL)
        case .pluginMissing: Int32(UNDO_ENOTFOUND)
        case .pluginVersion: Int32(UNDO_EVERSION)
        case .replay: Int32(UNDO_EPLUGIN)
        case .cannotCheckpoint: Int32(UNDO_ENOTSUP)
        // A crash keeps its own code (issue 31); any other failed call is the plugin's failure.
        case .pluginFailed: error.callCode == Int32(UNDO_ECRASHED) ? Int32(UNDO_ECRASHED) : Int32(UNDO_EPLUGIN)
        case .other: Int32(UNDO_ESTATE)
        }
        self.init(code, error.description)
    }
}

/// undo_checkpoint_info, growable: read and written within the caller's struct_size.
private enum CheckpointInfoStruct {
    static let minimumSize = MemoryLayout<undo_checkpoint_info>.offset(of: \.document_bytes)! + MemoryLayout<UInt64>.size

    static func read(_ pointer: UnsafeMutablePointer<undo_checkpoint_info>) throws(ClientFailure) -> undo_checkpoint_info {
        let request = try GrowableStruct.read(UnsafePointer(pointer), minimum: minimumSize, "info")
        guard request.reserved0 == 0 else { throw .invalid("info.reserved0 is \(request.reserved0), not 0") }
        return request
    }

    /// - Complexity: O(1).
    static func write(_ checkpoint: CheckpointInfo, over request: undo_checkpoint_info,
                      to pointer: UnsafeMutablePointer<undo_checkpoint_info>) {
        var written = request
        written.sequence = checkpoint.sequence
        written.time_ns = checkpoint.time
        written.steps = UInt64(checkpoint.steps)
        written.documents = UInt64(checkpoint.documents.count)
        written.document_bytes = UInt64(checkpoint.documentBytes)
        GrowableStruct.write(written, to: pointer)
    }
}
