#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore

/// Checks an open file before `dlopen` sees it, reading its headers with bounds checks: the
/// loader trusts them, maps a truncated shared object and dies of SIGBUS touching the missing
/// pages, and follows a damaged dynamic section's addresses wherever they point. Refused here:
/// a header, segment or table reaching past the file; a dynamic section without an end, or
/// whose tables, strings, relocations or init functions lie outside the file's segments; a
/// file that does not export the plugin entry (so no code of a non-plugin, libundohost.so's
/// constructors say, ever runs). Also names a wrong class, byte order, type or architecture.
///
/// Every offset, size and count read from the file is checked against the file's size (with
/// overflow-checked arithmetic) before it is used, so a damaged file is an error, never a trap.
enum ELFFile {
    /// Why the file cannot be a plugin for this process.
    struct Invalid: Error {
        var message: String
        /// The file could not be opened at all (missing, unreadable): not a verdict on it.
        var cannotOpen = false
        /// The file is a sound shared object that does not export the symbol asked for.
        var missingSymbol = false
    }

    #if arch(x86_64)
    static let machine: UInt16 = 62 // EM_X86_64
    #elseif arch(arm64)
    static let machine: UInt16 = 183 // EM_AARCH64
    #else
    static let machine: UInt16 = 0 // unknown: not checked
    #endif

    /// The most dynamic entries and program headers read (far above any real library).
    static let maximumDynamicEntries: UInt64 = 1 << 16

    /// How many times ``validate(descriptor:exporting:)`` checked each file (by device and
    /// inode) in this process: tests count the checks of their own file, unaffected by other
    /// tests loading other files at the same time.
    static let validations = Locked([FileIdentity: Int]())

    /// A file as the kernel knows it, whatever path reached it.
    struct FileIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// How many times the file at `path` was checked in this process (0 if it cannot be read).
    static func validationCount(of path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return validations.withLock { $0[identity, default: 0] }
    }

    /// Checks the file open at `descriptor` (read with `pread`; its offset is not moved).
    /// - Parameter symbol: a name the file must export as a defined function.
    static func validate(descriptor: Int32, exporting symbol: String) throws(Invalid) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Invalid(message: String(cString: strerror(errno))) }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        validations.withLock { $0[identity, default: 0] += 1 }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Invalid(message: "not a regular file") }
        let image = Image(descriptor: descriptor, size: UInt64(info.st_size))
        try image.checkHeaders()
        try image.checkDynamicSection(exporting: symbol)
    }

    /// Opens `path` and checks it (for tests and tools; the host checks the descriptor it loads).
    static func validate(_ path: String, exporting symbol: String = "undo_plugin_entry") throws(Invalid) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Invalid(message: String(cString: strerror(errno)), cannotOpen: true) }
        defer { close(descriptor) }
        try validate(descriptor: descriptor, exporting: symbol)
    }

    /// A loadable segment: where its bytes are in the file and where they go in memory.
    struct Segment {
        var offset: UInt64
        var address: UInt64
        var fileSize: UInt64
        var memorySize: UInt64
    }

    /// Bounds-checked reads of one file.
    private struct Image {
        let descriptor: Int32
        let size: UInt64

        func fits(_ offset: UInt64, _ length: UInt64) -> Bool {
            let (end, overflow) = offset.addingReportingOverflow(length)
            return !overflow && end <= size
        }

        /// `count` bytes at `offset`, all inside the file (checked before anything is allocated).
        func read(_ count: UInt64, at offset: UInt64, _ what: String) throws(Invalid) -> [UInt8] {
            guard fits(offset, count) else { throw Invalid(message: "truncated or damaged: \(what) outside the file's \(size) bytes") }
            var bytes = [UInt8](repeating: 0, count: Int(count))
            var done = 0
            while done < bytes.count {
                let got = bytes.withUnsafeMutableBytes { raw in
                    pread(descriptor, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
                }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { throw Invalid(message: "truncated: \(size) bytes") }
                done += got
            }
            return bytes
        }

        func checkHeaders() throws(Invalid) {
            guard size >= 64 else { throw Invalid(message: "not an ELF file (\(size) bytes)") }
            let header = try read(64, at: 0, "the header")
            guard header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46 else {
                throw Invalid(message: "not an ELF file")
            }
            guard header[4] == 2 else { throw Invalid(message: "not a 64-bit ELF file") }
            guard header[5] == 1 else { throw Invalid(message: "not a little-endian ELF file") }
            guard u16(header, 16) == 3 else { throw Invalid(message: "not a shared object (ELF type \(u16(header, 16)))") }
            let fileMachine = u16(header, 18)
            guard machine == 0 || fileMachine == machine else {
                throw Invalid(message: "built for another architecture (ELF machine \(fileMachine), this process is \(machine))")
            }
            let sectionHeaders = u64(header, 40)
            let sectionEntrySize = UInt64(u16(header, 58))
            let sectionCount = UInt64(u16(header, 60))
            guard fits(sectionHeaders, sectionEntrySize * sectionCount) else {
                throw Invalid(message: "truncated: section headers end past the file's \(size) bytes")
            }
            for segment in try loadSegments() {
                guard fits(segment.offset, segment.fileSize) else {
                    throw Invalid(message: "truncated: a segment ends past the file's \(size) bytes")
                }
            }
        }

        /// The program headers: (type, offset, address, file size, memory size) each.
        func programHeaders() throws(Invalid) -> [(type: UInt32, segment: Segment)] {
            let header = try read(64, at: 0, "the header")
            let offset = u64(header, 32)
            let entrySize = UInt64(u16(header, 54))
            let count = UInt64(u16(header, 56))
            guard entrySize >= 56, fits(offset, entrySize * count) else {
                throw Invalid(message: "truncated or damaged: program headers outside the file")
            }
            let table = try read(entrySize * count, at: offset, "the program headers")
            return (0..<Int(count)).map { index in
                let at = index * Int(entrySize)
                return (u32(table, at), Segment(offset: u64(table, at + 8), address: u64(table, at + 16),
                                                fileSize: u64(table, at + 32), memorySize: u64(table, at + 40)))
            }
        }

        func loadSegments() throws(Invalid) -> [Segment] {
            try programHeaders().filter { $0.type == 1 }.map(\.segment) // PT_LOAD
        }

        func checkDynamicSection(exporting symbol: String) throws(Invalid) {
            let headers = try programHeaders()
            let loads = headers.filter { $0.type == 1 }.map(\.segment)
            let dynamics = headers.filter { $0.type == 2 }.map(\.segment) // PT_DYNAMIC
            guard dynamics.count == 1, let dynamic = dynamics.first else {
                throw Invalid(message: dynamics.isEmpty ? "no dynamic section, so it exports nothing"
                                                        : "damaged: \(dynamics.count) dynamic sections")
            }
            let table = Dynamic(image: self, loads: loads)
            try table.read(dynamic)
            try table.check(exporting: symbol)
        }
    }

    /// The dynamic section's entries and the tables they point to.
    private final class Dynamic {
        let image: Image
        let loads: [Segment]
        var entries: [(tag: UInt64, value: UInt64)] = []

        init(image: Image, loads: [Segment]) {
            self.image = image
            self.loads = loads
        }

        func damaged(_ what: String) -> Invalid { Invalid(message: "damaged dynamic section: \(what)") }

        func read(_ dynamic: Segment) throws(Invalid) {
            guard dynamic.fileSize / 16 <= maximumDynamicEntries else { throw damaged("\(dynamic.fileSize / 16) entries") }
            let bytes = try image.read(dynamic.fileSize / 16 * 16, at: dynamic.offset, "the dynamic section")
            var ended = false
            for at in stride(from: 0, to: bytes.count, by: 16) {
                let tag = u64(bytes, at)
                if tag == 0 { ended = true; break } // DT_NULL
                entries.append((tag, u64(bytes, at + 8)))
            }
            guard ended else { throw damaged("no DT_NULL entry ends it") }
        }

        func values(_ tag: UInt64) -> [UInt64] { entries.filter { $0.tag == tag }.map(\.value) }

        func value(_ tag: UInt64, _ name: String) throws(Invalid) -> UInt64? {
            let found = values(tag)
            guard found.count <= 1 else { throw damaged("\(found.count) \(name) entries") }
            return found.first
        }

        /// Where `length` bytes at run-time `address` are in the file, or nil when they are not
        /// all inside one segment's file bytes.
        func fileOffset(_ address: UInt64, _ length: UInt64) -> UInt64? {
            for segment in loads where address >= segment.address {
                let into = address - segment.address
                let (end, overflow) = into.addingReportingOverflow(length)
                guard !overflow, end <= segment.fileSize else { continue }
                let (offset, past) = segment.offset.addingReportingOverflow(into)
                if !past, image.fits(offset, length) { return offset }
            }
            return nil
        }

        /// Whether `length` bytes at `address` are inside one segment's memory.
        func isMapped(_ address: UInt64, _ length: UInt64) -> Bool {
            loads.contains { segment in
                guard address >= segment.address else { return false }
                let (end, overflow) = (address - segment.address).addingReportingOverflow(length)
                return !overflow && end <= segment.memorySize
            }
        }

        /// The table at the address under `tag`, `length` bytes, read from the file.
        func table(_ tag: UInt64, _ name: String, length: UInt64) throws(Invalid) -> [UInt8]? {
            guard let address = try value(tag, name) else { return nil }
            guard let offset = fileOffset(address, length) else { throw damaged("\(name) (\(length) bytes at 0x\(String(address, radix: 16))) is outside the file's segments") }
            return try image.read(length, at: offset, name)
        }

        func check(exporting symbol: String) throws(Invalid) {
            // The strings: every name the loader reads must end inside the table.
            guard let stringSize = try value(10, "DT_STRSZ") else { throw damaged("no DT_STRSZ") }
            guard let strings = try table(5, "DT_STRTAB", length: stringSize) else { throw damaged("no DT_STRTAB") }
            func string(_ offset: UInt64, _ what: String) throws(Invalid) -> ArraySlice<UInt8> {
                guard offset < stringSize, let end = strings[Int(offset)...].firstIndex(of: 0) else {
                    throw damaged("\(what) name at \(offset) is outside the string table (\(stringSize) bytes)")
                }
                return strings[Int(offset)..<end]
            }
            for (tag, what) in [(UInt64(1), "DT_NEEDED"), (14, "DT_SONAME"), (15, "DT_RPATH"), (29, "DT_RUNPATH")] {
                for offset in values(tag) { _ = try string(offset, what) }
            }

            // A hash table that hashes no symbol lets the loader find none: the file exports
            // nothing (DT_GNU_HASH's symbol offset then counts only the imports before it).
            guard let symbolCount = try countSymbols() else {
                throw Invalid(message: "it does not export \(symbol)", missingSymbol: true)
            }
            guard try value(11, "DT_SYMENT") ?? 24 == 24 else { throw damaged("DT_SYMENT is not 24") }
            let (symbolBytes, overflow) = symbolCount.multipliedReportingOverflow(by: 24)
            guard !overflow, let symbols = try table(6, "DT_SYMTAB", length: symbolBytes) else {
                throw damaged(overflow ? "\(symbolCount) symbols" : "no DT_SYMTAB")
            }

            try checkRelocations(symbolCount: symbolCount)
            try checkRelativeRelocations()
            try checkVersions(symbolCount: symbolCount)
            // Code the loader calls: DT_INIT, DT_FINI, and the init, fini and preinit arrays.
            for (tag, name) in [(UInt64(12), "DT_INIT"), (13, "DT_FINI")] {
                if let address = try value(tag, name), !isMapped(address, 1) { throw damaged("\(name) is outside the segments") }
            }
            for (tag, sizeTag, name) in [(UInt64(25), UInt64(27), "DT_INIT_ARRAY"), (26, 28, "DT_FINI_ARRAY"), (32, 33, "DT_PREINIT_ARRAY")] {
                guard let address = try value(tag, name) else { continue }
                let length = try value(sizeTag, name + "SZ") ?? 0
                guard isMapped(address, length) else { throw damaged("\(name) is outside the segments") }
            }

            let wanted = Array(symbol.utf8)
            for index in stride(from: 1, to: Int(symbolCount), by: 1) {
                let at = index * 24
                let name = try string(UInt64(u32(symbols, at)), "a symbol's")
                guard name.elementsEqual(wanted) else { continue }
                let info = symbols[at + 4], other = symbols[at + 5], section = u16(symbols, at + 6)
                let binding = info >> 4, type = info & 15
                // Defined, global or weak, a function, visible from outside.
                if section != 0, binding == 1 || binding == 2, type == 2, other & 3 == 0 || other & 3 == 3,
                   isMapped(u64(symbols, at + 8), 1) {
                    return
                }
            }
            throw Invalid(message: "it does not export \(symbol)", missingSymbol: true)
        }

        /// How many dynamic symbols there are, from the hash table the loader looks them up in;
        /// nil when DT_GNU_HASH hashes none (every bucket empty), so that no symbol can be found.
        func countSymbols() throws(Invalid) -> UInt64? {
            if let hash = try table(4, "DT_HASH", length: 8) {
                return UInt64(u32(hash, 4)) // nchain
            }
            guard let address = try value(0x6fff_fef5, "DT_GNU_HASH") else { throw damaged("no DT_HASH or DT_GNU_HASH") }
            guard let start = fileOffset(address, 16) else { throw damaged("DT_GNU_HASH is outside the file's segments") }
            let header = try image.read(16, at: start, "DT_GNU_HASH")
            let buckets = UInt64(u32(header, 0)), firstSymbol = UInt64(u32(header, 4)), bloomWords = UInt64(u32(header, 8))
            // Counts below 2^32 times 8: no overflow but the address's own.
            let (bucketsAddress, overflow) = address.addingReportingOverflow(16 + bloomWords * 8)
            guard !overflow, let bucketsStart = fileOffset(bucketsAddress, buckets * 4) else {
                throw damaged("DT_GNU_HASH's buckets are outside the file's segments")
            }
            let bucketBytes = try image.read(buckets * 4, at: bucketsStart, "DT_GNU_HASH's buckets")
            let last = stride(from: 0, to: bucketBytes.count, by: 4).map { UInt64(u32(bucketBytes, $0)) }.max() ?? 0
            guard last != 0 else { return nil }
            guard last >= firstSymbol else { throw damaged("a DT_GNU_HASH bucket names symbol \(last), below its first hashed symbol \(firstSymbol)") }
            // Walk the last chain to its end (the low bit marks it); each step reads inside the
            // file or fails, so the walk is bounded by the file's size.
            var index = last
            while true {
                let (chainAddress, past) = bucketsAddress.addingReportingOverflow(buckets * 4 + (index - firstSymbol) * 4)
                guard !past, let offset = fileOffset(chainAddress, 4) else { throw damaged("DT_GNU_HASH's chains run outside the file's segments") }
                let word = try image.read(4, at: offset, "DT_GNU_HASH's chains")
                if u32(word, 0) & 1 == 1 { return index + 1 }
                index += 1
            }
        }

        /// The symbol versions the loader walks: every entry and link inside the file.
        func checkVersions(symbolCount: UInt64) throws(Invalid) {
            _ = try table(0x6fff_fff0, "DT_VERSYM", length: symbolCount * 2)
            // (address tag, count tag, name, entry size, offset of the aux link, offset of the
            // next link, offset of the aux count, aux entry size, offset of the aux's next link)
            let chains: [(UInt64, UInt64, String, UInt64, Int, Int, Int, UInt64, Int)] = [
                (0x6fff_fffe, 0x6fff_ffff, "DT_VERNEED", 16, 8, 12, 2, 16, 12),
                (0x6fff_fffc, 0x6fff_fffd, "DT_VERDEF", 20, 12, 16, 6, 8, 4),
            ]
            for (tag, countTag, name, entrySize, auxLink, nextLink, auxCount, auxSize, auxNext) in chains {
                guard var address = try value(tag, name) else { continue }
                let count = try value(countTag, name + "NUM") ?? 0
                guard count <= image.size / entrySize else { throw damaged("\(name)NUM \(count)") }
                for number in 0..<count {
                    guard let offset = fileOffset(address, entrySize) else { throw damaged("\(name) entry \(number) is outside the file's segments") }
                    let entry = try image.read(entrySize, at: offset, name)
                    var aux = address
                    var link = UInt64(u32(entry, auxLink))
                    for _ in 0..<u16(entry, auxCount) {
                        let (next, overflow) = aux.addingReportingOverflow(link)
                        guard !overflow, let auxOffset = fileOffset(next, auxSize) else { throw damaged("\(name) entry \(number)'s names are outside the file's segments") }
                        let auxEntry = try image.read(auxSize, at: auxOffset, name)
                        aux = next
                        link = UInt64(u32(auxEntry, auxNext))
                    }
                    let (next, overflow) = address.addingReportingOverflow(UInt64(u32(entry, nextLink)))
                    guard !overflow else { throw damaged("\(name)'s chain") }
                    address = next
                }
            }
        }

        /// DT_RELR's packed relative relocations: each address written is inside the segments.
        func checkRelativeRelocations() throws(Invalid) {
            guard try value(36, "DT_RELR") != nil else { return }
            guard try value(37, "DT_RELRENT") ?? 8 == 8 else { throw damaged("DT_RELRENT is not 8") }
            let length = try value(35, "DT_RELRSZ") ?? 0
            guard length % 8 == 0, let bytes = try table(36, "DT_RELR", length: length) else { throw damaged("DT_RELRSZ \(length)") }
            var base: UInt64 = 0
            for at in stride(from: 0, to: bytes.count, by: 8) {
                let entry = u64(bytes, at)
                if entry & 1 == 0 {
                    guard isMapped(entry, 8) else { throw damaged("a relocation in DT_RELR writes outside the segments") }
                    base = entry &+ 8
                } else {
                    for bit in 1..<64 where entry >> UInt64(bit) & 1 == 1 {
                        guard isMapped(base &+ UInt64(bit - 1) * 8, 8) else { throw damaged("a relocation in DT_RELR writes outside the segments") }
                    }
                    base = base &+ 63 * 8
                }
            }
        }

        /// Each relocation writes inside the segments and names a symbol that exists.
        func checkRelocations(symbolCount: UInt64) throws(Invalid) {
            guard try value(9, "DT_RELAENT") ?? 24 == 24 else { throw damaged("DT_RELAENT is not 24") }
            var tables: [(tag: UInt64, sizeTag: UInt64, name: String)] = [(7, 8, "DT_RELA")]
            // DT_PLTREL says what DT_JMPREL holds: 7 (RELA) on the architectures this runs on.
            if let kind = try value(20, "DT_PLTREL") {
                guard kind == 7 else { throw damaged("DT_PLTREL \(kind) (only RELA relocations are read)") }
            }
            tables.append((23, 2, "DT_JMPREL"))
            guard values(17).isEmpty else { throw damaged("DT_REL relocations (only RELA is used on this architecture)") }
            for (tag, sizeTag, name) in tables {
                guard try value(tag, name) != nil else { continue }
                let length = try value(sizeTag, name + " size") ?? 0
                guard length % 24 == 0 else { throw damaged("\(name)'s size \(length) is not whole entries") }
                guard let bytes = try table(tag, name, length: length) else { continue }
                for at in stride(from: 0, to: bytes.count, by: 24) {
                    let target = u64(bytes, at)
                    let symbolIndex = u64(bytes, at + 8) >> 32
                    guard isMapped(target, 8) else { throw damaged("a relocation in \(name) writes outside the segments") }
                    guard symbolIndex < max(symbolCount, 1) else { throw damaged("a relocation in \(name) names symbol \(symbolIndex) of \(symbolCount)") }
                }
            }
        }
    }
}

private func u16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
private func u32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(b, at)) | UInt32(u16(b, at + 2)) << 16 }
private func u64(_ b: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(b, at)) | UInt64(u32(b, at + 4)) << 32 }
