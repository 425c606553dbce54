#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore

/// Last-error messages, one per thread, as C strings that stay valid until the same thread
/// replaces them (or the owner goes): the lifetime undo_history_last_error promises.
final class ThreadMessages: @unchecked Sendable {
    private let lock = RecursiveMutex()
    private var messages: [UInt: UnsafeMutablePointer<CChar>] = [:]

    /// A static "" for threads whose last call succeeded.
    nonisolated(unsafe) static let empty: UnsafePointer<CChar> = UnsafePointer(strdup("")!)

    static var currentThread: UInt { UInt(pthread_self()) }

    /// Sets this thread's message (freeing the one it replaces); nil clears it.
    func set(_ message: String?) {
        let copy = message.map { strdup($0)! }
        let thread = Self.currentThread
        let old = lock.withLock { () -> UnsafeMutablePointer<CChar>? in
            if let copy {
                return messages.updateValue(copy, forKey: thread)
            }
            return messages.removeValue(forKey: thread)
        }
        old.map { free($0) }
    }

    /// Clears this thread's message, cheaply when there is none.
    func clear() {
        let thread = Self.currentThread
        let old = lock.withLock { messages.isEmpty ? nil : messages.removeValue(forKey: thread) }
        old.map { free($0) }
    }

    /// This thread's message, or "".
    var current: UnsafePointer<CChar> {
        let thread = Self.currentThread
        return lock.withLock { messages[thread].map { UnsafePointer($0) } } ?? Self.empty
    }

    deinit {
        for pointer in messages.values { free(pointer) }
    }
}
