import Foundation
import Synchronization
import Testing
import UndoCore
@testable import UndoPluginHost

/// What was checked is what runs: the host opens a plugin file once, by a walk that judges every
/// folder and link on its way, and hashes, reads and loads that one descriptor. A link flipped
/// between the check and the load changes nothing; a link is judged by the folder it sits in as
/// well as by where it points, a link to a folder included.
@Suite struct TrustRaceTests {
    func host(_ policy: PluginTrustPolicy = .standard) -> PluginHost {
        PluginHost(history: SharedUndoHistory(), trust: policy, log: { _ in })
    }

    func copy(_ source: String, to path: String, mode: mode_t = 0o755) throws {
        try FileManager.default.copyItem(atPath: source, toPath: path)
        #expect(chmod(path, mode) == 0)
    }

    func folder(_ path: String, mode: mode_t) throws -> String {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(chmod(path, mode) == 0)
        return path
    }

    func link(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    func mapsContain(_ path: String) throws -> Bool {
        let maps = String(decoding: try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile(), as: UTF8.self)
        return maps.contains(path)
    }

    /// A thread re-points a link between the allowed plugin and an unlisted one (atomically, by
    /// rename) while the host loads through it at least 200 times with the allowed file's
    /// SHA-256 as the allow-list: the unlisted plugin never loads, and its file is never mapped.
    @Test func aLinkFlippedWhileLoadingNeverLoadsTheUnlistedFile() throws {
        let base = try folder(Fixtures.temporaryFolder() + "/race", mode: 0o755)
        let allowed = base + "/allowed.so", unlisted = base + "/unlisted.so"
        try copy(Fixtures.textEditor, to: allowed)
        try copy(Fixtures.canvas, to: unlisted)
        try link(base + "/plugin.so", to: allowed)
        let policy = PluginTrustPolicy(allowedSHA256: [try PluginHost.sha256(ofFile: allowed)])

        let stop = Atomic<Bool>(false)
        let flipper = Thread {
            var toUnlisted = true
            while !stop.load(ordering: .relaxed) {
                let next = base + "/next.so"
                unlink(next)
                _ = symlink(toUnlisted ? unlisted : allowed, next)
                _ = rename(next, base + "/plugin.so")
                toUnlisted.toggle()
                // A pause of random length: without one, the flips and the loads fell into step
                // in the full suite on 2 cores (one run loaded 100 of 200, alternating exactly;
                // another loaded none), so the race was not tried.
                usleep(UInt32.random(in: 0...50))
            }
        }
        flipper.start()
        var loaded = 0, refused = 0, attempts = 0
        // At least 200 loads, and on until both outcomes were seen (the race was real), or 5,000.
        while attempts < 200 || ((loaded == 0 || refused == 0) && attempts < 5_000) {
            attempts += 1
            let host = host(policy)
            do {
                let info = try host.load(file: base + "/plugin.so")
                #expect(info.id == "org.undohost.text")
                #expect(info.path == allowed)
                loaded += 1
            } catch {
                // The unlisted file, or the link caught mid-flip: refused by its digest.
                if case .notAllowed(let why) = error.reason { #expect(why.hasPrefix("its SHA-256 ")) } else {
                    #expect(error.reason == .cannotOpen("No such file or directory"))
                }
                refused += 1
            }
            #expect(!host.plugins.contains { $0.id == "org.undohost.canvas" })
        }
        stop.store(true, ordering: .relaxed)
        while !flipper.isFinished { usleep(1000) }
        #expect(loaded + refused == attempts)
        #expect(loaded > 0, "the link always pointed at the unlisted file?")
        #expect(refused > 0, "the link never pointed at the unlisted file?")
        #expect(try !mapsContain(unlisted))
    }

    /// A link in a folder others can write (sticky or not) is refused wherever it points: its
    /// owner, or anyone, could re-point it. The C API and undo-host both go through this check.
    @Test func aLinkInAFolderOthersCanWriteIsRefused() throws {
        let base = Fixtures.temporaryFolder()
        let good = try folder(base + "/good", mode: 0o755)
        try copy(Fixtures.textEditor, to: good + "/plugin.so")
        for mode: mode_t in [0o777, 0o1777] {
            let open = try folder(base + "/open\(mode)", mode: mode)
            try link(open + "/link.so", to: good + "/plugin.so")
            let octal = (mode > 0o777 ? "" : "0") + String(mode, radix: 8)
            #expect(throws: PluginLoadError(path: good + "/plugin.so", reason: .writableByOthers(
                "the folder \(open) holding the link is writable by group and others (mode \(octal))"))) {
                try host().load(file: open + "/link.so")
            }
        }
        // A path a person typed keeps its links, so the check sees them.
        #expect(PluginHost.absolutePath(fromCurrentDirectory: base + "/open511/link.so") == base + "/open511/link.so")
    }

    /// W/dirlink/x.so, where dirlink is a link to a folder: the folder holding that link is
    /// judged, and so is every folder the link leads through.
    @Test func aLinkToAFolderIsChecked() throws {
        let base = Fixtures.temporaryFolder()
        let good = try folder(base + "/good", mode: 0o755)
        try copy(Fixtures.textEditor, to: good + "/x.so")
        let open = try folder(base + "/open", mode: 0o1777)
        try link(open + "/dirlink", to: good)
        #expect(throws: PluginLoadError(path: good + "/x.so", reason: .writableByOthers(
            "the folder \(open) holding the link is writable by group and others (mode 1777)"))) {
            try host().load(file: open + "/dirlink/x.so")
        }
        #expect(host().load(folder: open + "/dirlink").failures.map(\.reason)
            == [.writableByOthers("the folder \(open) holding the link is writable by group and others (mode 1777)")])
        // A protected link to a folder under a folder others may write (no sticky bit): the walk
        // passes through that folder, so it is refused.
        let shared = try folder(base + "/shared", mode: 0o777)
        let inner = try folder(shared + "/inner", mode: 0o755)
        try copy(Fixtures.textEditor, to: inner + "/x.so")
        try link(good + "/innerlink", to: "../shared/inner")
        #expect(throws: PluginLoadError(path: inner + "/x.so", reason: .writableByOthers(
            "the folder \(shared) above it is writable by group and others (mode 0777) without the sticky bit"))) {
            try host().load(file: good + "/innerlink/x.so")
        }
        // Between protected places, links to folders and files load, at the real path.
        try link(good + "/self", to: ".")
        #expect(try host().load(file: good + "/self/self/x.so").path == good + "/x.so")
    }

    @Test func linkLoopsAndFilesUsedAsFoldersAreRefused() throws {
        let base = try folder(Fixtures.temporaryFolder() + "/loops", mode: 0o755)
        try link(base + "/a.so", to: "b.so")
        try link(base + "/b.so", to: "a.so")
        #expect(throws: PluginLoadError(path: base + "/a.so", reason: .cannotOpen("Too many levels of symbolic links"))) {
            try host().load(file: base + "/a.so")
        }
        try copy(Fixtures.textEditor, to: base + "/plugin.so")
        #expect(throws: PluginLoadError(path: base + "/plugin.so/x.so", reason: .cannotOpen("Not a directory"))) {
            try host().load(file: base + "/plugin.so/x.so")
        }
        #expect(mkfifo(base + "/fifo.so", 0o644) == 0)
        #expect(throws: PluginLoadError(path: base + "/fifo.so", reason: .invalidFile("not a regular file (a FIFO)"))) {
            try host().load(file: base + "/fifo.so")
        }
    }

    /// libundohost.so exports no undo_plugin_entry: refused from its symbol table, so the
    /// loader never maps it and its constructors never run.
    @Test func aLibraryWithoutTheEntryIsNeverMapped() throws {
        let library = Fixtures.products + "/libundohost.so"
        try #require(FileManager.default.fileExists(atPath: library))
        let mappedBefore = try mapsContain(library)
        let report = host().load(folder: Fixtures.products)
        #expect(report.failures.contains(PluginLoadError(path: library, reason: .missingEntry)))
        if !mappedBefore { #expect(try !mapsContain(library)) }
    }
}
