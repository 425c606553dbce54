#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoPluginHost

/// A side file beside a journal saying what the journal was doing when its process died: the
/// way out of a crash loop (a plugin that now crashes on a change replayed at every open, or in
/// the save of an automatic checkpoint). Nothing is written into the journal itself.
///
/// - `PATH-replay`, while an open restores the checkpoint or replays changes: `checkpoint`, or
///   `change N` (N in 19 digits), rewritten (one `pwrite`, no sync: it must outlive the process, not the system)
///   before each change, and removed when the replay ends, whether it succeeded or was refused.
///   Found at the next open, it means that open died there.
/// - `PATH-save`, while an automatic checkpoint asks the plugins to save their documents: the
///   plugins of the documents. Removed when the save returns. Found at the next open, it means
///   that checkpoint died in a save.
///
/// Each also holds the plugins loaded then (id and version): when they are not the same at the
/// next open (a plugin was updated), the marker is not acted on (the replay is tried again).
/// Costs one small write per replayed change and two per automatic checkpoint; nothing per
/// change recorded.
struct CrashMarker {
    let path: String
    private var descriptor: Int32 = -1
    /// The length of the first line last written: a first line of the same length is written
    /// over it alone (one `pwrite`), the plugins after it left as they are.
    private var firstLineLength = -1

    init(path: String) { self.path = path }

    /// What a marker said: its first line's words, and the plugins loaded when it was written.
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
        return Contents(words: first.split(separator: " ").map(String.init), plugins: Array(lines.dropFirst()))
    }

    /// Writes `words` (and the plugins loaded) over what the marker held; creates it at the first
    /// call. A marker that cannot be written is no reason to refuse the open: it is skipped.
    mutating func mark(_ words: String, plugins: [String]) {
        if descriptor < 0 {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return }
        }
        let line = Array(words.utf8)
        if line.count == firstLineLength {
            _ = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            return
        }
        firstLineLength = line.count
        let text = Array(([words] + plugins).joined(separator: "\n").utf8) + [10]
        // The new words first, then the old tail cut: never an empty marker between.
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(descriptor, off_t(text.count))
    }

    /// Closes and removes the marker this value wrote.
    mutating func remove() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        firstLineLength = -1
        unlink(path)
    }

    /// Closes the marker this value wrote, leaving it in place.
    mutating func keep() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        firstLineLength = -1
    }

    /// The first line of a replay marker for change `sequence`: of one length for every change
    /// (the number in 19 digits), so each is one `pwrite` over the last.
    static func change(_ sequence: Int64) -> String {
        let digits = String(sequence)
        return "change " + String(repeating: "0", count: max(0, 19 - digits.count)) + digits
    }
}
