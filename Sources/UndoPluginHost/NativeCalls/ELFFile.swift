#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Checks a file before `dlopen` sees it: the loader maps a truncated shared object and then
/// dies of SIGBUS touching the missing pages, so a file whose header or segments reach past its
/// end is refused here. Also names a wrong class, byte order, type or architecture clearly.
enum ELFFile {
    /// Why the file cannot be a plugin for this process.
    struct Invalid: Error {
        var message: String
        /// The file could not be opened at all (missing, unreadable): not a verdict on it.
        var cannotOpen = false
    }

    #if arch(x86_64)
    static let machine: UInt16 = 62 // EM_X86_64
    #elseif arch(arm64)
    static let machine: UInt16 = 183 // EM_AARCH64
    #else
    static let machine: UInt16 = 0 // unknown: not checked
    #endif

    static func validate(_ path: String) throws(Invalid) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Invalid(message: String(cString: strerror(errno)), cannotOpen: true) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Invalid(message: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Invalid(message: "not a regular file") }
        let size = UInt64(info.st_size)

        func read(_ count: Int, at offset: UInt64) throws(Invalid) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            guard got == count else { throw Invalid(message: "truncated: \(size) bytes") }
            return bytes
        }
        guard size >= 64 else { throw Invalid(message: "not an ELF file (\(size) bytes)") }
        let header = try read(64, at: 0)
        guard header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46 else {
            throw Invalid(message: "not an ELF file")
        }
        guard header[4] == 2 else { throw Invalid(message: "not a 64-bit ELF file") }
        guard header[5] == 1 else { throw Invalid(message: "not a little-endian ELF file") }
        func u16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
        func u32(_ b: [UInt8], _ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * $1) } }
        func u64(_ b: [UInt8], _ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(b[at + $1]) << (8 * $1) } }

        guard u16(header, 16) == 3 else { throw Invalid(message: "not a shared object (ELF type \(u16(header, 16)))") }
        let fileMachine = u16(header, 18)
        guard machine == 0 || fileMachine == machine else {
            throw Invalid(message: "built for another architecture (ELF machine \(fileMachine), this process is \(machine))")
        }
        let programHeaders = u64(header, 32)
        let sectionHeaders = u64(header, 40)
        let programEntrySize = UInt64(u16(header, 54))
        let programCount = UInt64(u16(header, 56))
        let sectionEntrySize = UInt64(u16(header, 58))
        let sectionCount = UInt64(u16(header, 60))
        func fits(_ offset: UInt64, _ length: UInt64) -> Bool {
            let (end, overflow) = offset.addingReportingOverflow(length)
            return !overflow && end <= size
        }
        guard programEntrySize >= 56, fits(programHeaders, programEntrySize * programCount) else {
            throw Invalid(message: "truncated or damaged: program headers outside the file")
        }
        guard fits(sectionHeaders, sectionEntrySize * sectionCount) else {
            throw Invalid(message: "truncated: section headers end past the file's \(size) bytes")
        }
        let table = try read(Int(programEntrySize * programCount), at: programHeaders)
        for index in 0..<Int(programCount) {
            let entry = Array(table[(index * Int(programEntrySize))...].prefix(56))
            guard u32(entry, 0) == 1 else { continue } // PT_LOAD
            let offset = u64(entry, 8)
            let fileSize = u64(entry, 32)
            guard fits(offset, fileSize) else {
                throw Invalid(message: "truncated: a segment ends past the file's \(size) bytes")
            }
        }
    }
}
