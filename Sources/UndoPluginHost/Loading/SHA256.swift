import CLibCrypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SHA-256 for the plugin allow-list by file digest, computed by the system's libcrypto
/// (OpenSSL's EVP interface): a kept, reviewed implementation rather than one of our own.
/// (swift-crypto's Crypto module would bring Foundation into the plugin host on Linux.)
///
/// Invariant: `context` is a live EVP context initialised for SHA-256 from `init` until
/// ``finish()``, which frees it; the type is used by one owner at a time (not copied).
struct SHA256: ~Copyable {
    private var context: OpaquePointer?

    init() {
        // Allocation failure of a few hundred bytes: as the rest of Swift, a crash.
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto could not start a SHA-256 digest")
        }
        self.context = context
    }

    deinit {
        if let context { EVP_MD_CTX_free(context) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let context else { preconditionFailure("SHA256 used after finish()") }
        guard bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else { fatalError("libcrypto refused SHA-256 input") }
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything given to ``update(_:)``. Call it once.
    mutating func finish() -> [UInt8] {
        guard let context else { preconditionFailure("SHA256 finished twice") }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else { fatalError("libcrypto could not finish SHA-256") }
        EVP_MD_CTX_free(context)
        self.context = nil
        return Array(digest.prefix(32))
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
        return try hex(ofDescriptor: descriptor)
    }

    /// The digest of an open file's contents from its start (`pread`: the descriptor's offset is
    /// neither used nor moved).
    static func hex(ofDescriptor descriptor: Int32) throws(SHA256.FileError) -> String {
        var hash = SHA256()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
        defer { chunk.deallocate() }
        var offset: off_t = 0
        while true {
            let got = pread(descriptor, chunk.baseAddress, chunk.count, offset)
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileError(message: String(cString: strerror(errno)))
            }
            hash.update(UnsafeRawBufferPointer(rebasing: chunk[..<got]))
            offset += off_t(got)
        }
        return hex(hash.finish())
    }

    struct FileError: Error {
        var message: String
    }
}
