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
        let mode: UndoJournal.Durability
        switch durability {
        case UInt32(UNDO_JOURNAL_FULL): mode = .full
        case UInt32(UNDO_JOURNAL_NORMAL): mode = .normal
        default: throw .invalid("durability \(durability) is not UNDO_JOURNAL_FULL or UNDO_JOURNAL_NORMAL")
        }
        do throws(JournalError) {
            let journal = try HostJournal.open(path: path, durability: mode, host: history.host, clock: history.clock)
            return Int32(clamping: journal.restoredCount)
        } catch {
            let code: Int32 = switch error.reason {
            case .damaged: Int32(UNDO_EINVAL)
            case .pluginMissing: Int32(UNDO_ENOTFOUND)
            case .pluginVersion: Int32(UNDO_EVERSION)
            case .replay: Int32(UNDO_EPLUGIN)
            case .cannotCheckpoint: Int32(UNDO_ENOTSUP)
            case .other: Int32(UNDO_ESTATE)
            }
            throw ClientFailure(code, error.description)
        }
    }
}

@c @implementation
public func undo_history_close_journal(_ h: OpaquePointer?) -> Int32 {
    withClient(h) { history throws(ClientFailure) in
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
