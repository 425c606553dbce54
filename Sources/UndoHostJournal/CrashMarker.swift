#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import UndoPluginHost

/// A side file beside a journal saying what the journal was doing when its process died: the
/// way out of a crash loop (a plugin that now crashes on a change replayed at every open, or in
/// the save of an automatic checkpoint). Nothing is written into the journal itself.
///
/// - `PATH-replay`, while an open restores the checkpoint or replays changes: `checkpoint`, or
///   the change being replayed, rewritten before each change, and removed when the replay
///   ends, whether it succeeded or was refused. Found at the next open, it means that open
///   died there.
/// - `PATH-save`, while an automatic checkpoint asks the plugins to save their documents: the
///   plugins of the documents. Removed when the save returns. Found at the next open, it means
///   that checkpoint died in a save.
///
/// Each also holds the plugins loaded then (id and version): when they are not the same at the
/// next open (a plugin was updated), the marker is not acted on (the replay is tried again).
///
/// **The change being replayed** is written without a system call per change: the first line,
/// `change A B S` (A and B two numbers of 19 digits, S `0` or `1` saying which of them is the
/// change), is written once and mapped into memory (`MAP_SHARED`), and each later change is a
/// store of its number into the slot S does not name, then of S: a store into a shared mapping
/// is in the page cache at once, so it outlives the process (killed, or crashed in a plugin)
/// as a `pwrite` does, and like it, not the system (no sync). The number a reader takes is
/// always one whole number written, never a mix of two: the slot S names is not written while
/// S names it, and S is one byte. Where the file cannot be mapped, each change is one `pwrite`
/// of the first line (as before: a marker of the form `change N` is read too). Costs one small
/// write per open and two stores per replayed change (`systemWrites` counts the writes), two
/// writes per automatic checkpoint; nothing per change recorded.
struct CrashMarker {
    let path: String
    private var descriptor: Int32 = -1
    /// The length of the first line last written: a first line of the same length is written
    /// over it alone (one `pwrite`), the plugins after it left as they are.
    private var firstLineLength = -1
    /// The first line mapped, while it is a change's (`nil` where the file could not be mapped).
    private var mapped: MappedChangeLine?
    /// The system calls that wrote to the file (`pwrite`, `ftruncate`), for the tests that count.
    private(set) var systemWrites = 0

    init(path: String) { self.path = path }

    /// What a marker said: its first line's words, and the plugins loaded when it was written.
    /// A change's line reads as the two words `change` and its number, whichever form it was
    /// written in.
    struct Contents: Equatable {
        var words: [String]
        var plugins: [String]
    }

    /// The plugins `host` has loaded, as a marker writes them ("id version", sorted).
    static func plugins(of host: PluginHost) -> [String] {
        host.plugins.map { "\($0.id) \($0.version)" }.sorted()
    }

    /// The marker at `path`, if there is one (a link or something unreadable counts as none).
    static func read(_ path: String) -> Contents? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 65_536)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let lines = String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
        guard let first = lines.first else { return nil }
        var words = first.split(separator: " ").map(String.init)
        // `change A B S`: the slot S names.
        if words.count == 4, words[0] == "change", let slot = Int(words[3]), slot == 0 || slot == 1 {
            words = ["change", words[1 + slot]]
        }
        return Contents(words: words, plugins: Array(lines.dropFirst()))
    }

    /// Writes `words` (and the plugins loaded) over what the marker held; creates it at the first
    /// call. A marker that cannot be written is no reason to refuse the open: it is skipped.
    mutating func mark(_ words: String, plugins: [String]) {
        mapped = nil
        write(Array(words.utf8), plugins: plugins)
    }

    /// Marks change `sequence` as the one being replayed: after the first, two stores into the
    /// mapped first line (see the type's description), or one `pwrite` where it is not mapped.
    /// - Complexity: O(1), no system call once mapped.
    mutating func mark(change sequence: Int64, plugins: [String]) {
        precondition(sequence >= 0, "a change's number is not negative")
        if let mapped {
            mapped.write(sequence)
            return
        }
        let line = MappedChangeLine.line(sequence)
        let wasLine = firstLineLength == line.count
        let written = write(line, plugins: plugins)
        // Mapped once, when the line is first written, and only when the file holds it: a
        // write that failed (a full disk) left the file shorter than the mapping, whose first
        // store would then stop the process (SIGBUS). A failed mapping is not tried again at
        // every change: the line is then rewritten with one `pwrite` each time.
        if !wasLine, written, descriptor >= 0 {
            mapped = MappedChangeLine(descriptor: descriptor, length: firstLineLength)
        }
    }

    /// - Returns: whether the file now starts with `line` (every byte written).
    @discardableResult
    private mutating func write(_ line: [UInt8], plugins: [String]) -> Bool {
        if descriptor < 0 {
            descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return false }
        }
        if line.count == firstLineLength {
            let count = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            systemWrites += 1
            return count == line.count
        }
        firstLineLength = line.count
        let text = line + Array(([""] + plugins).joined(separator: "\n").utf8) + [10]
        // The new words first, then the old tail cut: never an empty marker between.
        let count = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        let cut = ftruncate(descriptor, off_t(text.count))
        systemWrites += 2
        return count == text.count && cut == 0
    }

    /// Closes and removes the marker this value wrote.
    mutating func remove() {
        guard descriptor >= 0 else { return }
        mapped = nil
        close(descriptor)
        descriptor = -1
        firstLineLength = -1
        unlink(path)
    }

    /// Closes the marker this value wrote, leaving it in place.
    mutating func keep() {
        guard descriptor >= 0 else { return }
        mapped = nil
        close(descriptor)
        descriptor = -1
        firstLineLength = -1
    }
}

/// The first line of a change marker, `change A B S`, mapped into memory (`MAP_SHARED`) so a
/// change is marked with stores instead of a system call (see ``CrashMarker``).
///
/// Invariants: `base` is a shared, writable mapping of the marker file's first `Self.length`
/// bytes, from `init` until `deinit` (which unmaps it; it is never used after); those bytes
/// are a line of ``line(_:)``'s form: both slots 19 ASCII digits, the selector `0` or `1`
/// (checked in debug builds at each write). The marker file is this process's, made by its
/// open (0600, no link followed) while the journal is held exclusively, at least
/// `Self.length` bytes long when mapped (checked in `init`), and not shortened while it is
/// mapped.
final class MappedChangeLine {
    /// `change ` (7 bytes), slot 0 (19 digits), a space, slot 1 (19 digits), a space, the
    /// selector (the newline after it is not mapped).
    static let slotOffsets = (7, 27)
    static let selectorOffset = 47
    static let length = 48
    private static let digits = 19

    private let base: UnsafeMutableRawPointer

    /// Maps the first line of the file open as `descriptor`; `nil` when `length` is not a
    /// change line's, the file is shorter than the line (a store into a mapping past the
    /// file's end stops the process with SIGBUS), or the system does not map it.
    init?(descriptor: Int32, length: Int) {
        guard length == Self.length else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= Self.length else { return nil }
        let address = mmap(nil, Self.length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        base = address
        assert(isWellFormed, "the mapped marker is not a change line")
    }

    deinit { munmap(base, Self.length) }

    /// A change line naming `sequence` (both slots the same, the selector 0).
    static func line(_ sequence: Int64) -> [UInt8] {
        let text = String(sequence)
        let number = Array(String(repeating: "0", count: max(0, digits - text.utf8.count)).utf8) + Array(text.utf8)
        let line = Array("change ".utf8) + number + [UInt8(ascii: " ")] + number + Array(" 0".utf8)
        assert(line.count == length, "a change line of another length")
        return line
    }

    /// Names `sequence`: its digits into the slot the selector does not name, then the
    /// selector turned to it. The fence keeps the compiler and the processor from making the
    /// selector's store before the digits' (a process killed between the two leaves the
    /// selector on the whole number it named before).
    /// - Complexity: O(1): 20 byte stores, no system call.
    func write(_ sequence: Int64) {
        assert(isWellFormed, "the mapped marker is not a change line")
        assert(sequence >= 0, "a change's number is not negative (19 digits hold every other Int64)")
        let selector = base.load(fromByteOffset: Self.selectorOffset, as: UInt8.self)
        let target = selector == UInt8(ascii: "0") ? 1 : 0
        let slot = target == 0 ? Self.slotOffsets.0 : Self.slotOffsets.1
        var rest = UInt64(sequence)
        for index in stride(from: Self.digits - 1, through: 0, by: -1) {
            base.storeBytes(of: UInt8(ascii: "0") + UInt8(rest % 10), toByteOffset: slot + index, as: UInt8.self)
            rest /= 10
        }
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        base.storeBytes(of: UInt8(ascii: "0") + UInt8(target), toByteOffset: Self.selectorOffset, as: UInt8.self)
    }

    /// The mapped bytes are a change line (for the debug checks).
    private var isWellFormed: Bool {
        let bytes = UnsafeRawBufferPointer(start: base, count: Self.length)
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        return bytes.starts(with: "change ".utf8)
            && bytes[Self.slotOffsets.0..<Self.slotOffsets.0 + Self.digits].allSatisfy(isDigit)
            && bytes[Self.slotOffsets.1..<Self.slotOffsets.1 + Self.digits].allSatisfy(isDigit)
            && (bytes[Self.selectorOffset] == UInt8(ascii: "0") || bytes[Self.selectorOffset] == UInt8(ascii: "1"))
            && bytes[Self.slotOffsets.1 - 1] == UInt8(ascii: " ") && bytes[Self.selectorOffset - 1] == UInt8(ascii: " ")
    }
}
