#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The symbols a shared object exports (defined, global or weak, visible in its dynamic symbol
/// table), read from the ELF file itself: what a host that dlopens it can trip on.
enum ExportedSymbols {
    static func read(_ path: String) -> Result<[String], ReadError> {
        guard let file = fopen(path, "rb") else { return .failure(ReadError(String(cString: strerror(errno)))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, file) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return parse(bytes)
    }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The exported names of a 64-bit little-endian ELF file's .dynsym.
    static func parse(_ bytes: [UInt8]) -> Result<[String], ReadError> {
        func fits(_ offset: UInt64, _ length: UInt64) -> Bool {
            offset <= UInt64(bytes.count) && length <= UInt64(bytes.count) - offset
        }
        func integer(_ at: UInt64, _ size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[Int(at) + $1]) << (8 * UInt64($1)) }
        }
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
              bytes[4] == 2, bytes[5] == 1 else {
            return .failure(ReadError("not a 64-bit little-endian ELF file"))
        }
        let sectionsAt = integer(0x28, 8)
        let sectionSize = integer(0x3A, 2)
        let sectionCount = integer(0x3C, 2)
        guard sectionSize >= 64, fits(sectionsAt, sectionSize * sectionCount) else {
            return .failure(ReadError("its section headers are outside the file"))
        }
        func section(_ index: UInt64) -> (type: UInt64, offset: UInt64, size: UInt64, link: UInt64, entrySize: UInt64) {
            let at = sectionsAt + index * sectionSize
            return (integer(at + 4, 4), integer(at + 0x18, 8), integer(at + 0x20, 8), integer(at + 0x28, 4), integer(at + 0x38, 8))
        }
        guard let symbolIndex = (0..<sectionCount).first(where: { section($0).type == 11 }) else {  // SHT_DYNSYM
            return .failure(ReadError("it has no dynamic symbol table"))
        }
        let symbols = section(symbolIndex)
        guard symbols.link < sectionCount, symbols.entrySize >= 24, fits(symbols.offset, symbols.size) else {
            return .failure(ReadError("its dynamic symbol table is malformed"))
        }
        let strings = section(symbols.link)
        guard fits(strings.offset, strings.size) else { return .failure(ReadError("its symbol names are outside the file")) }
        var names: [String] = []
        for index in 1..<max(1, symbols.size / symbols.entrySize) {
            let at = symbols.offset + index * symbols.entrySize
            let binding = bytes[Int(at) + 4] >> 4
            let visibility = bytes[Int(at) + 5] & 3
            let definedIn = integer(at + 6, 2)
            guard binding == 1 || binding == 2, visibility == 0 || visibility == 3, definedIn != 0 else { continue }
            let nameAt = integer(at, 4)
            guard nameAt < strings.size else { continue }
            var end = Int(strings.offset + nameAt)
            while end < Int(strings.offset + strings.size), bytes[end] != 0 { end += 1 }
            names.append(String(decoding: bytes[Int(strings.offset + nameAt)..<end], as: UTF8.self))
        }
        return .success(names)
    }
}
