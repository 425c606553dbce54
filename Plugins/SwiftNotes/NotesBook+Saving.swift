import UndoPluginKit

/// A document's notes as bytes (save_document and load_document, ABI 1.7), in this format,
/// version 1: "UHN" and the version byte 1; the note count (4 bytes); then per note its
/// priority (4 bytes, two's complement), its text's length in bytes (4) and the text (UTF-8).
/// Numbers are little-endian.
extension NotesBook {
    static let formatVersion: UInt8 = 1

    func saved(_ context: String) -> [UInt8] {
        let notes = notes(in: context)
        var bytes = Array("UHN".utf8) + [Self.formatVersion]
        Self.put(UInt32(notes.count), into: &bytes)
        for note in notes {
            Self.put(UInt32(bitPattern: note.priority), into: &bytes)
            Self.put(UInt32(note.text.utf8.count), into: &bytes)
            bytes += note.text.utf8
        }
        return bytes
    }

    /// Loads `bytes` into an empty document; nothing changes when they cannot be read.
    func load(_ bytes: [UInt8], into context: String) throws(UndoPluginError) {
        guard notes(in: context).isEmpty else { throw UndoPluginError(.wrongState, "the document is not empty") }
        guard bytes.count >= 8, bytes.starts(with: "UHN".utf8) else {
            throw UndoPluginError(.invalidArgument, "these bytes are not saved notes")
        }
        guard bytes[3] == Self.formatVersion else {
            throw UndoPluginError(.invalidArgument, "the saved notes have format version \(bytes[3]), which this plugin does not know")
        }
        var reader = Reader(bytes: bytes, offset: 4)
        let count = try reader.number()
        var notes: [Note] = []
        for _ in 0..<count {
            let priority = Int32(bitPattern: try reader.number())
            let length = Int(try reader.number())
            guard let text = String(validating: try reader.take(length), as: UTF8.self), !text.utf8.contains(0) else {
                throw UndoPluginError(.invalidArgument, "a saved note's text is not UTF-8 without NUL bytes")
            }
            notes.append(Note(text: text, priority: priority))
        }
        guard reader.offset == bytes.count else {
            throw UndoPluginError(.invalidArgument, "the saved notes have bytes after the last note")
        }
        for note in notes { append(note, in: context) }
    }

    private static func put(_ value: UInt32, into bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Reads the saved bytes front to back, refusing to read past their end.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        mutating func take(_ count: Int) throws(UndoPluginError) -> ArraySlice<UInt8> {
            guard count <= bytes.count - offset else {
                throw UndoPluginError(.invalidArgument, "the saved notes end too early")
            }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func number() throws(UndoPluginError) -> UInt32 {
            try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
    }
}
