import Foundation
import Testing
import UndoCore
@testable import UndoPluginHost

/// Damaged shared objects are refused from their headers, before the dynamic loader (which
/// trusts them, and crashes on them) sees them: truncated files, dynamic sections whose
/// addresses, sizes and string offsets point outside the file, and bytes flipped at random.
@Suite struct DamagedELFTests {
    /// The sample text editor's bytes and where its dynamic entries are in them.
    struct Sample {
        var bytes: [UInt8]
        /// (file offset of the entry, tag) for each dynamic entry before DT_NULL.
        var entries: [(offset: Int, tag: UInt64)]
        var dynamicRange: Range<Int>

        init() throws {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.textEditor)))
            let programHeaders = Int(Self.u64(bytes, 32)), entrySize = Int(Self.u16(bytes, 54)), count = Int(Self.u16(bytes, 56))
            var found: Range<Int>?
            for index in 0..<count {
                let at = programHeaders + index * entrySize
                if Self.u32(bytes, at) == 2 {
                    let offset = Int(Self.u64(bytes, at + 8))
                    found = offset..<offset + Int(Self.u64(bytes, at + 32))
                }
            }
            dynamicRange = try #require(found)
            entries = []
            for at in stride(from: dynamicRange.lowerBound, to: dynamicRange.upperBound, by: 16) {
                let tag = Self.u64(bytes, at)
                if tag == 0 { break }
                entries.append((at, tag))
            }
        }

        static func u16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
        static func u32(_ b: [UInt8], _ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * $1) } }
        static func u64(_ b: [UInt8], _ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(b[at + $1]) << (8 * $1) } }

        /// A copy with the value of the first entry tagged `tag` replaced.
        func with(_ tag: UInt64, value: UInt64) throws -> [UInt8] {
            let entry = try #require(entries.first { $0.tag == tag }, "no dynamic tag \(tag)")
            var copy = bytes
            for byte in 0..<8 { copy[entry.offset + 8 + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte))) }
            return copy
        }
    }

    func write(_ bytes: [UInt8], _ name: String, in folder: String) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o755) == 0)
        return path
    }

    func host() -> PluginHost { PluginHost(history: SharedUndoHistory(), log: { _ in }) }

    @Test func theSampleIsSoundAndExportsTheEntry() throws {
        try ELFFile.validate(Fixtures.textEditor)
        try ELFFile.validate(Fixtures.products + "/libUndoPluginSwiftNotes.so")
        #expect(throws: (any Error).self) { try ELFFile.validate(Fixtures.products + "/libundohost.so") }
    }

    /// Each damage that sent the loader outside the file is refused by name, through the host,
    /// which would otherwise hand the file to dlopen.
    @Test func damagedDynamicEntriesAreRefused() throws {
        let sample = try Sample()
        let folder = Fixtures.temporaryFolder()
        let cases: [(tag: UInt64, value: UInt64, reason: String)] = [
            (5, 0xffff_ffff_ffff_0000, "DT_STRTAB"),       // the string table far away
            (10, 0x7fff_ffff_ffff, "DT_STRTAB"),           // strings longer than the file
            (1, 0xffff_fff0, "DT_NEEDED name at"),         // a needed library's name outside the table
            (6, 0xdead_beef_0000, "DT_SYMTAB"),            // the symbols far away
            (0x6fff_fef5, 0xffff_ffff_ffff_fff8, "DT_GNU_HASH"),
            (25, 0x1234_5678_9abc, "DT_INIT_ARRAY"),
            (7, 0xffff_0000_0000, "DT_RELA"),
            (8, 0xffff_ffff_ffff_ffe8, "DT_RELA"),
        ]
        for (index, damage) in cases.enumerated() {
            guard sample.entries.contains(where: { $0.tag == damage.tag }) else { continue }
            let path = try write(try sample.with(damage.tag, value: damage.value), "damaged\(index).so", in: folder)
            #expect(throws: (any Error).self) { try host().load(file: path) }
            do {
                try host().load(file: path)
            } catch {
                guard case .invalidFile(let message) = error.reason else { Issue.record("\(damage): \(error)"); continue }
                #expect(message.hasPrefix("damaged dynamic section: ") || message.hasPrefix("truncated"), "\(damage): \(message)")
                #expect(message.contains(damage.reason), "\(damage): \(message)")
            }
        }
        // No DT_NULL: every entry up to the segment's end given a tag.
        var endless = sample.bytes
        for at in stride(from: sample.dynamicRange.lowerBound, to: sample.dynamicRange.upperBound, by: 16) where Sample.u64(endless, at) == 0 {
            endless[at] = 0x18 // DT_BIND_NOW, harmless alone
        }
        let path = try write(endless, "endless.so", in: folder)
        #expect(throws: PluginLoadError(path: path, reason: .invalidFile("damaged dynamic section: no DT_NULL entry ends it"))) {
            try host().load(file: path)
        }
    }

    /// Cut anywhere, the file is refused (a segment or table reaches past its end), and no cut
    /// reaches the loader.
    @Test func truncatedFilesAreRefused() throws {
        let sample = try Sample()
        let folder = Fixtures.temporaryFolder()
        var lengths = Array(stride(from: 0, to: sample.bytes.count, by: max(1, sample.bytes.count / 97)))
        lengths += [63, 64, 65, sample.dynamicRange.lowerBound + 8, sample.dynamicRange.upperBound - 1, sample.bytes.count - 1]
        for length in lengths {
            let path = try write(Array(sample.bytes.prefix(length)), "cut.so", in: folder)
            #expect(throws: (any Error).self, "cut at \(length)") { try ELFFile.validate(path) }
            unlink(path)
        }
    }

    /// Bytes flipped at random in the headers, the dynamic section and the tables it points to:
    /// the check answers (accepts or refuses) and never traps or reads outside the file. 3,000
    /// damaged files, from a fixed seed.
    @Test func randomDamageNeverTraps() throws {
        let sample = try Sample()
        let folder = Fixtures.temporaryFolder()
        var random = SplitMix(seed: 20)
        let regions = [0..<64, sample.dynamicRange, 0..<min(sample.bytes.count, 0x4000)]
        var refused = 0
        for round in 0..<3000 {
            var bytes = sample.bytes
            for _ in 0..<(1 + Int(random.next() % 8)) {
                let region = regions[Int(random.next() % UInt64(regions.count))]
                let at = region.lowerBound + Int(random.next() % UInt64(region.count))
                bytes[at] = round % 3 == 0 ? 0xff : UInt8(truncatingIfNeeded: random.next())
            }
            let path = try write(bytes, "random.so", in: folder)
            do { try ELFFile.validate(path) } catch { refused += 1 }
            unlink(path)
        }
        #expect(refused > 300)
    }
}
