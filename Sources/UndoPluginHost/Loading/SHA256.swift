#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SHA-256 (FIPS 180-4), for the plugin allow-list by file digest: small and without a
/// dependency on a crypto library, which would cost more build time than the one use is worth.
struct SHA256 {
    /// The round constants: the first 32 bits of the fractional parts of the cube roots of the
    /// first 64 primes. Computed (a Double carries 52 fraction bits, plenty for 32) rather than
    /// typed out, so no digit can be mistyped; the known-answer tests pin them.
    private static let roundConstants: [UInt32] = firstPrimes(64).map { fractionBits(cbrt(Double($0))) }
    /// The initial state: the same from the square roots of the first 8 primes.
    private static let initialState: [UInt32] = firstPrimes(8).map { fractionBits(Double($0).squareRoot()) }

    private var state = SHA256.initialState
    /// Bytes not yet hashed (fewer than one 64-byte block).
    private var pending: [UInt8] = []
    /// Bytes already compressed (whole blocks).
    private var hashedBytes: UInt64 = 0

    init() {}

    /// Hashes more bytes: whole blocks straight from `bytes`, the rest kept for the next call.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = rest.prefix(64 - pending.count)
            pending += taken
            rest = rest.dropFirst(taken.count)
            guard pending.count == 64 else { return }
            compress(pending[...])
            pending.removeAll(keepingCapacity: true)
        }
        while rest.count >= 64 {
            compress(rest.prefix(64))
            rest = rest.dropFirst(64)
        }
        pending += rest
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything given to ``update(_:)``. Call it once.
    mutating func finish() -> [UInt8] {
        let bitLength = (hashedBytes &+ UInt64(pending.count)) &* 8
        pending.append(0x80)
        while pending.count % 64 != 56 { pending.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        for start in stride(from: 0, to: pending.count, by: 64) { compress(pending[start..<start + 64]) }
        pending = []
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }

    /// Lower-case hexadecimal, as `sha256sum` prints it.
    static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    static func hex(of bytes: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(bytes)
        return hex(hash.finish())
    }

    /// The digest of a file's contents, read in 64 KiB pieces.
    /// - Throws: the system's reason (`strerror`) when it cannot be opened or read.
    static func hex(ofFile path: String) throws(SHA256.FileError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileError(message: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var hash = SHA256()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let got = read(descriptor, chunk.baseAddress, chunk.count)
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileError(message: String(cString: strerror(errno)))
            }
            hash.update(UnsafeRawBufferPointer(rebasing: chunk[..<got]))
        }
        return hex(hash.finish())
    }

    struct FileError: Error {
        var message: String
    }

    /// Hashes one 64-byte block.
    private mutating func compress<Block: Collection<UInt8>>(_ block: Block) {
        hashedBytes &+= 64
        var words = [UInt32](repeating: 0, count: 64)
        var byte = block.makeIterator()
        for t in 0..<16 {
            for _ in 0..<4 { words[t] = words[t] << 8 | UInt32(byte.next()!) }
        }
        for t in 16..<64 {
            let s0 = words[t - 15].rotatedRight(7) ^ words[t - 15].rotatedRight(18) ^ (words[t - 15] >> 3)
            let s1 = words[t - 2].rotatedRight(17) ^ words[t - 2].rotatedRight(19) ^ (words[t - 2] >> 10)
            words[t] = words[t - 16] &+ s0 &+ words[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for t in 0..<64 {
            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choose = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choose &+ Self.roundConstants[t] &+ words[t]
            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ sum0 &+ majority)
        }
        for (offset, value) in [a, b, c, d, e, f, g, h].enumerated() { state[offset] &+= value }
    }

    private static func firstPrimes(_ count: Int) -> [Int] {
        var primes: [Int] = []
        var candidate = 2
        while primes.count < count {
            if primes.allSatisfy({ candidate % $0 != 0 }) { primes.append(candidate) }
            candidate += 1
        }
        return primes
    }

    private static func fractionBits(_ value: Double) -> UInt32 {
        UInt32((value - value.rounded(.down)) * 4_294_967_296)
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { self >> count | self << (32 - count) }
}
