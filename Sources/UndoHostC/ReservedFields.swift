import UndoHostAPI

/// The fields the header says to "set to 0" (or NULL) in what the caller passes in: refused with
/// UNDO_EINVAL when they are not, so a later version can give them a meaning without an old
/// program's leftovers being read as one.
enum ReservedFields {
    /// Reads `count` values: check the count against the action's first.
    /// - Complexity: O(count).
    static func check(_ args: UnsafePointer<undo_value>?, count: UInt32) throws(ClientFailure) {
        guard let args else { return }
        for index in 0..<Int(count) where args[index].reserved != 0 {
            throw .invalid("args[\(index)].reserved is \(args[index].reserved), not 0")
        }
    }

    static func check(_ options: undo_history_options) throws(ClientFailure) {
        try pointers(options.reserved, "options.reserved")
    }

    static func check(_ result: undo_result) throws(ClientFailure) {
        guard result.reserved0 == 0 else { throw .invalid("result.reserved0 is \(result.reserved0), not 0") }
        // 0 as well when the caller's struct_size ends before it (read as zero-filled).
        guard result.reserved1 == 0 else { throw .invalid("result.reserved1 is \(result.reserved1), not 0") }
        try pointers(result.reserved, "result.reserved")
    }

    static func pointers(_ fields: (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                            UnsafeMutableRawPointer?), _ what: String) throws(ClientFailure) {
        let all = [fields.0, fields.1, fields.2, fields.3]
        if let index = all.firstIndex(where: { $0 != nil }) { throw .invalid("\(what)[\(index)] is not NULL") }
    }
}
