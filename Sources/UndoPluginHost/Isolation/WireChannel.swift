#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One end of the socket between the host and an isolated plugin's process: whole messages
/// (a 4-byte little-endian length, then the body) written and read with POSIX calls.
///
/// Writes use `MSG_NOSIGNAL`, so a process that died makes a write fail instead of raising
/// SIGPIPE in the writer. Reads wait with `poll` for at most the watchdog's time, and take what
/// the socket holds at once (a message's length and body, often the next message too) into a
/// buffer, so a message costs one `recv` rather than two.
///
/// **Invariants:** `buffer[start..<end]` holds the bytes received and not yet returned
/// (`0 <= start <= end <= buffer.count`); used by one thread at a time (its owner's lock).
final class WireChannel: @unchecked Sendable {
    let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var start = 0
    private var end = 0

    init(descriptor: Int32) { self.descriptor = descriptor }

    enum Failure: Error, Equatable {
        /// The other end closed (its process exited or was killed).
        case closed
        /// Nothing arrived in time.
        case timedOut
        /// A message longer than any the other end writes.
        case malformed
    }

    /// The longest message: a document's state or a value at the ABI's limit, with room for
    /// the rest of the message.
    static let maximumMessage = 1 << 30

    func transmit(_ framed: [UInt8]) throws(Failure) {
        var sent = 0
        while sent < framed.count {
            let result = framed.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .closed
            }
            sent += result
        }
    }

    /// Reads one message's body, waiting at most until `deadline` (monotonic nanoseconds; `nil`:
    /// no limit).
    func receive(until deadline: UInt64?) throws(Failure) -> [UInt8] {
        try fill(4, until: deadline)
        var length = 0
        for index in 0..<4 { length |= Int(buffer[start + index]) << (8 * index) }
        guard length > 0, length <= Self.maximumMessage else { throw .malformed }
        try fill(4 + length, until: deadline)
        let body = Array(buffer[(start + 4)..<(start + 4 + length)])
        start += 4 + length
        if start == end { (start, end) = (0, 0) }
        assert(start <= end && end <= buffer.count)
        return body
    }

    /// Receives until `count` bytes are pending: into the room after them, made by moving them
    /// to the front (or growing the buffer, for a message longer than it).
    private func fill(_ count: Int, until deadline: UInt64?) throws(Failure) {
        if buffer.count - start < count {
            buffer.withUnsafeMutableBytes { raw in
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: end - start)
            }
            (start, end) = (0, end - start)
            if buffer.count < count { buffer.append(contentsOf: repeatElement(0, count: count - buffer.count)) }
        }
        // The answer to a call usually comes within microseconds: reads that do not wait are
        // tried for `spinNanoseconds` first, so neither process sleeps and is woken for it (a
        // wake-up of an idle processor cost about 25 µs each way here); then a blocking recv
        // (no deadline) or poll until the deadline.
        var spinUntil: UInt64 = 0
        while end - start < count {
            let filled = end
            let spinning = spinUntil == 0 || Self.monotonicNanoseconds() < spinUntil
            let flags = deadline == nil && !spinning ? Int32(0) : Int32(MSG_DONTWAIT)
            let result = buffer.withUnsafeMutableBytes { raw in
                recv(descriptor, raw.baseAddress! + filled, raw.count - filled, flags)
            }
            if result > 0 {
                end += result
                continue
            }
            if result == 0 { throw .closed }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { throw .closed }
            if spinUntil == 0 { spinUntil = Self.monotonicNanoseconds() + Self.spinNanoseconds }
            if spinning { sched_yield(); continue }
            guard let deadline else { continue }
            let now = Self.monotonicNanoseconds()
            guard now < deadline else { throw .timedOut }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            if poll(&entry, 1, milliseconds) < 0, errno != EINTR { throw .closed }
        }
    }

    /// How long a read tries without sleeping before it waits in the kernel.
    static let spinNanoseconds: UInt64 = 50_000

    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
