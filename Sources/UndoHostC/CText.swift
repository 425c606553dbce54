#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoHostAPI

/// Strings crossing the C API: reading the caller's, writing into the caller's buffers.
enum CText {
    /// Reads a NUL-terminated UTF-8 argument.
    /// - Throws: UNDO_EINVAL for NULL, UNDO_EUTF8 for invalid UTF-8.
    static func read(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(ClientFailure) -> String {
        guard let pointer else { throw .invalid("\(what) is NULL") }
        guard let text = String(validatingCString: pointer) else {
            throw ClientFailure(Int32(UNDO_EUTF8), "\(what) is not valid UTF-8")
        }
        return text
    }

    /// Reads an optional argument: NULL gives nil.
    static func readOptional(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(ClientFailure) -> String? {
        guard let pointer else { return nil }
        return try read(pointer, what)
    }

    /// Writes `text` into the caller's buffer the way the header promises: at most capacity - 1
    /// bytes, never ending inside a UTF-8 sequence, then a NUL.
    /// - Returns: the full length without the NUL.
    /// - Throws: UNDO_EINVAL for a NULL buffer with a capacity; UNDO_ELIMIT past Int32.max.
    static func write(_ text: String, to buffer: UnsafeMutablePointer<CChar>?, capacity: UInt32) throws(ClientFailure) -> Int32 {
        if capacity > 0 && buffer == nil { throw .invalid("buffer is NULL but capacity is \(capacity)") }
        let utf8 = text.utf8
        guard utf8.count <= Int(Int32.max) else {
            throw ClientFailure(Int32(UNDO_ELIMIT), "the text is \(utf8.count) bytes, more than a result can say")
        }
        if let buffer, capacity > 0 {
            let bytes = Array(utf8)
            var count = min(bytes.count, Int(capacity) - 1)
            while count < bytes.count && count > 0 && bytes[count] & 0xC0 == 0x80 { count -= 1 }
            bytes.withUnsafeBufferPointer { source in
                UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: count)
            }
            buffer[count] = 0
        }
        return Int32(utf8.count)
    }

    /// The length `write` reports, clamped to what a uint32_t length field holds.
    static func length(_ text: String) -> UInt32 { UInt32(clamping: text.utf8.count) }

    /// A context argument: NULL means `fallback` (the current context, usually), which is
    /// evaluated only then.
    static func context(_ pointer: UnsafePointer<CChar>?, fallback: @autoclosure () -> UndoContext)
        throws(ClientFailure) -> UndoContext
    {
        if let context = try optionalContext(pointer) { return context }
        return fallback()
    }

    /// A context argument, NULL giving nil; every context of the C API is bounded the same way.
    /// - Throws: UNDO_ELIMIT past UNDO_MAX_CONTEXT_LENGTH bytes, UNDO_EUTF8.
    static func optionalContext(_ pointer: UnsafePointer<CChar>?) throws(ClientFailure) -> UndoContext? {
        guard let pointer else { return nil }
        // strnlen: a bounded look, so an over-long context costs no more than the limit.
        let length = strnlen(pointer, Int(UNDO_MAX_CONTEXT_LENGTH) + 1)
        guard length <= Int(UNDO_MAX_CONTEXT_LENGTH) else {
            throw ClientFailure(Int32(UNDO_ELIMIT), "context is longer than \(UNDO_MAX_CONTEXT_LENGTH) bytes")
        }
        return UndoContext(try read(pointer, "context"))
    }

    /// A context argument that must not be NULL.
    static func requiredContext(_ pointer: UnsafePointer<CChar>?) throws(ClientFailure) -> UndoContext {
        guard let context = try optionalContext(pointer) else { throw .invalid("context is NULL") }
        return context
    }
}

/// Growable structs: the caller's struct_size says how much may be read and written.
enum GrowableStruct {
    /// Copies the caller's struct into a zero-filled local of our size (reading only
    /// min(struct_size, ours) bytes), after checking struct_size against the 1.0 minimum.
    static func read<T>(_ pointer: UnsafePointer<T>, minimum: Int, _ what: String) throws(ClientFailure) -> T {
        let size = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
        guard size >= minimum else { throw .invalid("\(what).struct_size \(size) is below the minimum \(minimum)") }
        guard size <= Int(UNDO_MAX_STRUCT_SIZE) else { throw .invalid("\(what).struct_size \(size) is absurdly large") }
        let local = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { local.deallocate() }
        let bytes = MemoryLayout<T>.size
        UnsafeMutableRawPointer(local).initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        UnsafeMutableRawPointer(local).copyMemory(from: pointer, byteCount: min(size, bytes))
        return local.move()
    }

    /// Writes `value` back, no more than the caller's struct_size bytes, keeping its struct_size.
    static func write<T>(_ value: T, to pointer: UnsafeMutablePointer<T>) {
        let size = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
        withUnsafeBytes(of: value) { bytes in
            // Skip the first 4 bytes: struct_size stays the caller's.
            let count = min(size, bytes.count)
            guard count > 4 else { return }
            UnsafeMutableRawPointer(pointer).advanced(by: 4)
                .copyMemory(from: bytes.baseAddress!.advanced(by: 4), byteCount: count - 4)
        }
    }
}
