import UndoCore
import UndoHostAPI

// Menu titles and the shake-to-undo alert, written into the caller's buffers.

@c @implementation
public func undo_history_undo_title(_ h: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt32) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        try CText.write(history.host.history.withStack { $0.undoMenuTitle }, to: buffer, capacity: capacity)
    }
}

@c @implementation
public func undo_history_redo_title(_ h: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt32) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        try CText.write(history.host.history.withStack { $0.redoMenuTitle }, to: buffer, capacity: capacity)
    }
}

@c @implementation
public func undo_history_alert_title(_ h: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt32) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        try CText.write(history.host.history.withStack { $0.alert.title }, to: buffer, capacity: capacity)
    }
}

@c @implementation
public func undo_history_alert_choice_count(_ h: OpaquePointer?) -> Int32 {
    withClient(h, changing: false) { history in
        Int32(history.host.history.withStack { $0.alert.actions.count })
    }
}

@c @implementation
public func undo_history_alert_choice(_ h: OpaquePointer?, _ index: UInt32, _ kind: UnsafeMutablePointer<UInt32>?,
                               _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt32) -> Int32 {
    withClient(h, changing: false) { history throws(ClientFailure) in
        let choices = history.host.history.withStack { $0.alert.actions }
        guard Int(index) < choices.count else { throw .range("no choice \(index): the alert has \(choices.count)") }
        let choice = choices[Int(index)]
        kind?.pointee = switch choice.kind {
        case .undo: UInt32(UNDO_CHOICE_UNDO)
        case .redo: UInt32(UNDO_CHOICE_REDO)
        case .cancel: UInt32(UNDO_CHOICE_CANCEL)
        }
        return try CText.write(choice.title, to: buffer, capacity: capacity)
    }
}
