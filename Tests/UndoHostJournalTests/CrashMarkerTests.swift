import Foundation
import Testing
@testable import UndoHostJournal
import UndoTestSupport

/// The crash marker (`FILE-replay`) names the change being replayed without a system call per
/// change: its first line is mapped into memory once, and each change is stored into it, so
/// the file says the change at once (what another process reads, and what outlives this one).
/// Counted, not timed; CrashLoopTests show an open after one that died acting on it.
@Suite struct CrashMarkerTests {
    func scratch(_ name: String) -> String {
        TemporaryFolder.kept("crash-marker") + "/\(name)-\(UInt32.random(in: 0...UInt32.max))-replay"
    }

    @Test func eachChangeIsInTheFileWithoutASystemCallOfItsOwn() throws {
        let path = scratch("mapped")
        var marker = CrashMarker(path: path)
        defer { marker.remove() }
        let plugins = ["org.undohost.bench 1.0.0", "org.undohost.text 1.2"]
        marker.mark(change: 1, plugins: plugins)
        let written = marker.systemWrites
        #expect(written == 2, "the first change writes the file once (and cuts what followed)")
        for sequence in Int64(2)...1_000 {
            marker.mark(change: sequence, plugins: plugins)
            // Read back from the file by another descriptor: the store is in the file at once.
            #expect(CrashMarker.read(path) == .init(words: ["change", String(format: "%019lld", sequence)], plugins: plugins))
        }
        #expect(marker.systemWrites == written, "a change after the first is stores into the mapped line, no write")
        // The largest sequence a journal may reach fits the line's 19 digits.
        marker.mark(change: HostJournal.maximumSequence, plugins: plugins)
        #expect(CrashMarker.read(path)?.words == ["change", String(HostJournal.maximumSequence)])
    }

    /// A write that failed (a full disk) leaves the file shorter than the line: such a file is
    /// not mapped, since the first store into a mapping past the file's end stops the process
    /// (SIGBUS); a file that holds the whole line is, and takes a change's number.
    @Test func aFileShorterThanTheLineIsNotMapped() throws {
        let path = scratch("short")
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        defer { close(descriptor); unlink(path) }
        #expect(MappedChangeLine(descriptor: descriptor, length: MappedChangeLine.length) == nil, "an empty file")
        let half = [UInt8](repeating: UInt8(ascii: "0"), count: MappedChangeLine.length - 1)
        #expect(pwrite(descriptor, half, half.count, 0) == half.count)
        #expect(MappedChangeLine(descriptor: descriptor, length: MappedChangeLine.length) == nil, "one byte short")
        let line = MappedChangeLine.line(42)
        #expect(pwrite(descriptor, line, line.count, 0) == line.count)
        let mapped = try #require(MappedChangeLine(descriptor: descriptor, length: MappedChangeLine.length),
                                  "the whole line")
        mapped.write(43)
        #expect(CrashMarker.read(path)?.words == ["change", String(format: "%019lld", Int64(43))])
    }

    @Test func theCheckpointAndThenAChangeRewriteTheLine() throws {
        let path = scratch("checkpoint")
        var marker = CrashMarker(path: path)
        marker.mark("checkpoint", plugins: ["p 1.0"])
        #expect(CrashMarker.read(path) == .init(words: ["checkpoint"], plugins: ["p 1.0"]))
        marker.mark(change: 7, plugins: ["p 1.0"])
        marker.mark(change: 8, plugins: ["p 1.0"])
        #expect(CrashMarker.read(path) == .init(words: ["change", "0000000000000000008"], plugins: ["p 1.0"]))
        // Kept (an open that stopped before a change leaves it for the next).
        marker.keep()
        #expect(CrashMarker.read(path)?.words == ["change", "0000000000000000008"])
        #expect(unlink(path) == 0)
    }

    /// The number read is the slot the selector names, whole: a process killed while it
    /// stored the other slot's digits leaves the selector on the number it named before.
    @Test func theSelectorNamesTheSlotRead() throws {
        let path = scratch("slots")
        defer { unlink(path) }
        let torn = "change 0000000000000000041 0000000000000099999 0\np 1.0\n"
        try Data(torn.utf8).write(to: URL(fileURLWithPath: path))
        #expect(CrashMarker.read(path) == .init(words: ["change", "0000000000000000041"], plugins: ["p 1.0"]))
        try Data("change 0000000000000000041 0000000000000000042 1\np 1.0\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(CrashMarker.read(path)?.words == ["change", "0000000000000000042"])
        // A marker written by an earlier version (one pwrite per change) reads the same.
        try Data("change 0000000000000000005\np 1.0\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(CrashMarker.read(path) == .init(words: ["change", "0000000000000000005"], plugins: ["p 1.0"]))
    }
}
