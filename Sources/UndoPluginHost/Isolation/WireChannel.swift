#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One end of the socket between the host and an isolated plugin's process: whole messages
/// (a 4-byte little-endian length, then the body) written and read with POSIX calls.
///
/// Writes use `MSG_NOSIGNAL`, so a process that died makes a write fail instead of raising
/// SIGPIPE in the writer. Reads wait with `poll` for at most the watchdog's time.
struct WireChannel {
    let descriptor: Int32

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

    /// Reads one message's body, waiting at most `deadline` (monotonic nanoseconds; `nil`:
    /// no limit) for each part of it.
    func receive(until deadline: UInt64?) throws(Failure) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 4)
        try read(into: &header, until: deadline)
        var length = 0
        for index in 0..<4 { length |= Int(header[index]) << (8 * index) }
        guard length > 0, length <= Self.maximumMessage else { throw .malformed }
        var body = [UInt8](repeating: 0, count: length)
        try read(into: &body, until: deadline)
        return body
    }

    private func read(into buffer: inout [UInt8], until deadline: UInt64?) throws(Failure) {
        var filled = 0
        while filled < buffer.count {
            if let deadline {
                let now = Self.monotonicNanoseconds()
                guard now < deadline else { throw .timedOut }
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
                let ready = poll(&entry, 1, milliseconds)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw .closed
                }
                if ready == 0 { continue }  // checked against the deadline above
            }
            let result = buffer.withUnsafeMutableBytes { raw in
                recv(descriptor, raw.baseAddress! + filled, raw.count - filled, 0)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .closed
            }
            if result == 0 { throw .closed }
            filled += result
        }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
