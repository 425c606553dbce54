import Foundation
import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// Which files the host agrees to load (PluginTrustPolicy): absolute paths only; no file or
/// folder that group, others or another user could change; the allow-lists by SHA-256 and by
/// id. Every refusal names the file and the reason. Files are copies of the sample plugins in
/// temporary folders, with the modes each rule needs.
@Suite struct TrustPolicyTests {
    static let textID = "org.undohost.text"

    /// A fresh folder `name` with `mode` inside a private temporary folder, holding a copy of the
    /// text editor plugin with `fileMode`.
    func plugin(folderMode: mode_t = 0o755, fileMode: mode_t = 0o755, source: String = Fixtures.textEditor,
                in base: String? = nil) throws -> (folder: String, file: String) {
        let folder = (base ?? Fixtures.temporaryFolder()) + "/plugins"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/plugin.so"
        try FileManager.default.copyItem(atPath: source, toPath: file)
        #expect(chmod(file, fileMode) == 0)
        #expect(chmod(folder, folderMode) == 0)
        return (folder, file)
    }

    func refusal(_ host: PluginHost, _ path: String) -> PluginLoadError? {
        do {
            try host.load(file: path)
            return nil
        } catch {
            return error
        }
    }

    func trustingHost(_ policy: PluginTrustPolicy = .standard) -> PluginHost {
        PluginHost(history: SharedUndoHistory(), trust: policy, log: { _ in })
    }

    @Test func relativePathsAreRefusedUnlessMadeAbsolute() throws {
        let host = trustingHost()
        for path in ["libUndoPluginTextEditor.so", "./libUndoPluginTextEditor.so", "../debug/libUndoPluginTextEditor.so", ""] {
            let error = try #require(refusal(host, path))
            #expect(error == PluginLoadError(path: path, reason: .relativePath))
            #expect(error.code == UNDO_ELOAD)
        }
        #expect(refusal(host, "plugin.so")?.description
            == "plugin.so: refused: the path is relative, so it would depend on the current directory; give an absolute path")
        #expect(host.load(folder: ".").failures == [PluginLoadError(path: ".", reason: .relativePath)])
        #expect(host.plugins.isEmpty)
        // Made absolute on purpose, against the current directory.
        let current = FileManager.default.currentDirectoryPath
        #expect(PluginHost.absolutePath(fromCurrentDirectory: "x/../plugin.so") == current + "/plugin.so")
        #expect(PluginHost.absolutePath(fromCurrentDirectory: "/abs/plugin.so") == "/abs/plugin.so")
        // ".." goes up one name, as the kernel counts names: "/" ends one even before a combining mark.
        #expect(PluginHost.absolutePath(fromCurrentDirectory: "x/\u{301}y/../plugin.so") == current + "/x/plugin.so")
    }

    @Test func aFileWritableByGroupOrOthersIsRefused() throws {
        for (mode, writers) in [(mode_t(0o775), "group"), (0o757, "others"), (0o777, "group and others"), (0o666, "group and others")] {
            let (_, file) = try plugin(fileMode: mode)
            let error = try #require(refusal(trustingHost(), file), "mode \(String(mode, radix: 8)) was loaded")
            let octal = "0" + String(mode, radix: 8)
            #expect(error.reason == .writableByOthers("the file is writable by \(writers) (mode \(octal))"))
            #expect(error.description == "\(file): refused: the file is writable by \(writers) (mode \(octal)), "
                + "so someone else could run code in this process")
            #expect(error.code == UNDO_ELOAD)
            #expect(try trustingHost(PluginTrustPolicy(allowWritable: true)).load(file: file).id == Self.textID)
        }
    }

    /// Another history loading a path this process walked, checked and loaded is not walked
    /// again while the path leads to the same unchanged file (one `stat` instead): counted.
    /// Whatever changes the file (a chmod, a write) or what the path leads to (a file renamed
    /// over it) walks and checks it again, refusing what the walk refuses; a walk that checked
    /// nothing (writable plugins allowed) never stands in for one that checks.
    @Test func aPathLoadedBeforeIsWalkedAgainOnlyWhenWhatItLeadsToChanged() throws {
        let (folder, file) = try plugin()
        func walks() -> Int { CheckedPluginFiles.walks.withLock { $0[file] ?? 0 } }
        #expect(try trustingHost().load(file: file).id == Self.textID)
        #expect(walks() == 1)
        let again = try trustingHost().load(file: file)
        #expect(again.id == Self.textID)
        #expect(again.path == (try FileStatus.resolved(file)))
        #expect(walks() == 1)
        // A chmod moves the change time: walked, and refused while writable by the group.
        #expect(chmod(file, 0o775) == 0)
        #expect(refusal(trustingHost(), file)?.reason == .writableByOthers("the file is writable by group (mode 0775)"))
        #expect(walks() == 2)
        #expect(chmod(file, 0o755) == 0)
        #expect(try trustingHost().load(file: file).id == Self.textID)
        #expect(try trustingHost().load(file: file).id == Self.textID)
        #expect(walks() == 3)
        // Another file renamed over the name: walked, and that file is loaded.
        try FileManager.default.copyItem(atPath: Fixtures.canvas, toPath: folder + "/next.so")
        #expect(chmod(folder + "/next.so", 0o755) == 0)
        #expect(rename(folder + "/next.so", file) == 0)
        #expect(try trustingHost().load(file: file).id == "org.undohost.canvas")
        #expect(walks() == 4)

        // Loaded without checks from a folder the group may write; a standard load walks it
        // again and refuses it, every time.
        let (open, unchecked) = try plugin(folderMode: 0o775)
        #expect(try trustingHost(PluginTrustPolicy(allowWritable: true)).load(file: unchecked).id == Self.textID)
        for _ in 0..<2 {
            #expect(refusal(trustingHost(), unchecked)?.reason
                == .writableByOthers("its folder \(open) is writable by group (mode 0775)"))
        }
        #expect(CheckedPluginFiles.walks.withLock { $0[unchecked] } == 3)
    }

    @Test func aFolderWritableByGroupOrOthersIsRefused() throws {
        for (mode, writers) in [(mode_t(0o775), "group"), (0o1777, "group and others")] {
            let (folder, file) = try plugin(folderMode: mode)
            let octal = (mode > 0o777 ? "" : "0") + String(mode, radix: 8)
            // Sticky or not: anyone could add a plugin to it.
            #expect(refusal(trustingHost(), file)?.reason == .writableByOthers("its folder \(folder) is writable by \(writers) (mode \(octal))"))
            let report = trustingHost().load(folder: folder)
            #expect(report.loaded.isEmpty)
            #expect(report.failures == [PluginLoadError(path: folder, reason: .writableByOthers("the folder is writable by \(writers) (mode \(octal))"))])
            #expect(trustingHost(PluginTrustPolicy(allowWritable: true)).load(folder: folder).loaded.map(\.id) == [Self.textID])
        }
    }

    @Test func aFolderAboveWritableByOthersIsRefusedUnlessSticky() throws {
        let above = Fixtures.temporaryFolder() + "/shared"
        try FileManager.default.createDirectory(atPath: above, withIntermediateDirectories: false)
        let (_, file) = try plugin(in: above)
        #expect(chmod(above, 0o777) == 0)
        #expect(refusal(trustingHost(), file)?.reason
            == .writableByOthers("the folder \(above) above it is writable by group and others (mode 0777) without the sticky bit"))
        // With the sticky bit (like /tmp) others cannot rename our folder away.
        #expect(chmod(above, 0o1777) == 0)
        #expect(try trustingHost().load(file: file).id == Self.textID)
    }

    /// A '/' followed by a combining mark is one Character but two names to the kernel: the
    /// walk splits a path by bytes as the kernel does, so the folder before the mark is checked
    /// like any other (split by Characters, one openat went through it unchecked).
    @Test func aSlashBeforeACombiningMarkStillSeparatesNames() throws {
        #expect(PluginPathWalk.components(of: "/a/\u{301}b//c/") == ["a", "\u{301}b", "c"])
        let base = Fixtures.temporaryFolder()
        let (_, file) = try plugin(in: base + "/good")
        let open = base + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        let link = open + "/\u{301}link.so"
        #expect(symlink(file, link) == 0)
        #expect(chmod(open, 0o777) == 0)
        #expect(refusal(trustingHost(), link)?.reason
            == .writableByOthers("the folder \(open) holding the link is writable by group and others (mode 0777)"))
    }

    @Test func aLinkTargetIsReadByItsBytesAsTheKernelReadsIt() throws {
        let base = Fixtures.temporaryFolder()
        let (folder, _) = try plugin(in: base + "/good")
        // "/" then a combining mark is absolute for the kernel (the root's entry "\u{301}x"),
        // though it is one Character: the walk must not look for "\u{301}x" beside the link.
        let decoy = folder + "/\u{301}x"
        #expect(FileManager.default.createFile(atPath: decoy, contents: Data("not a plugin".utf8)))
        #expect(symlink("/\u{301}x", folder + "/absolute.so") == 0)
        #expect(refusal(trustingHost(), folder + "/absolute.so")?.reason == .cannotOpen(String(cString: strerror(ENOENT))))
        // A target that is not valid UTF-8 is refused with that reason, not followed to a
        // name with replacement characters.
        let invalid: [CChar] = [0x61, CChar(bitPattern: 0xFF), 0x62, 0]
        #expect(invalid.withUnsafeBufferPointer { symlink($0.baseAddress!, folder + "/invalid.so") } == 0)
        #expect(refusal(trustingHost(), folder + "/invalid.so")?.reason
            == .cannotOpen("a link on the way points to a name that is not valid UTF-8"))
    }

    @Test func aLinkIsCheckedAtBothEnds() throws {
        let base = Fixtures.temporaryFolder()
        let (protected, file) = try plugin(in: base + "/good")
        let (open, openFile) = try plugin(folderMode: 0o777, in: base + "/open")
        // A link in a folder others can write: they could point it elsewhere.
        try FileManager.default.createSymbolicLink(atPath: open + "/link.so", withDestinationPath: file)
        #expect(refusal(trustingHost(), open + "/link.so")?.reason
            == .writableByOthers("the folder \(open) holding the link is writable by group and others (mode 0777)"))
        // A link to a file in such a folder.
        try FileManager.default.createSymbolicLink(atPath: protected + "/link.so", withDestinationPath: openFile)
        #expect(refusal(trustingHost(), protected + "/link.so")?.reason
            == .writableByOthers("its folder \(open) is writable by group and others (mode 0777)"))
        // A folder given through a link in such a folder.
        try FileManager.default.createSymbolicLink(atPath: open + "/folder-link", withDestinationPath: protected)
        #expect(trustingHost().load(folder: open + "/folder-link").failures.map(\.reason)
            == [.writableByOthers("the folder \(open) holding the link is writable by group and others (mode 0777)")])
        // A link between protected places is fine.
        try FileManager.default.createSymbolicLink(atPath: protected + "/good-link.so", withDestinationPath: file)
        #expect(try trustingHost().load(file: protected + "/good-link.so").path == file)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give files to another user"))
    func filesAndFoldersOfAnotherUserAreRefused() throws {
        let nobody: uid_t = 65534
        let (_, file) = try plugin()
        #expect(chown(file, nobody, gid_t(nobody)) == 0)
        #expect(refusal(trustingHost(), file)?.reason == .writableByOthers("the file belongs to user \(nobody), not to this user (0) or root"))
        #expect(try trustingHost(PluginTrustPolicy(allowWritable: true)).load(file: file).id == Self.textID)
        let (folder, other) = try plugin()
        #expect(chown(folder, nobody, gid_t(nobody)) == 0)
        #expect(refusal(trustingHost(), other)?.reason == .writableByOthers("its folder \(folder) belongs to user \(nobody), not to this user (0) or root"))
    }

    /// The digest is checked before the loader opens the file: a refused file is never mapped.
    @Test func theSHA256AllowList() throws {
        let (_, text) = try plugin()
        let (_, canvas) = try plugin(source: Fixtures.canvas)
        let textDigest = try PluginHost.sha256(ofFile: text)
        let canvasDigest = try PluginHost.sha256(ofFile: canvas)
        let host = trustingHost(PluginTrustPolicy(allowedSHA256: [textDigest.uppercased()]))
        #expect(try host.load(file: text).id == Self.textID)
        let error = try #require(refusal(host, canvas))
        #expect(error.reason == .notAllowed("its SHA-256 \(canvasDigest) is not on the allow-list"))
        #expect(error.description == "\(canvas): refused: its SHA-256 \(canvasDigest) is not on the allow-list")
        // Read to the end: String(contentsOfFile:) stops after the first page of a /proc file.
        let maps = String(decoding: try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile(), as: UTF8.self)
        #expect(maps.contains(text) && !maps.contains(canvas))
        // A changed byte is another file.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: text))
        bytes[bytes.count - 1] ^= 1
        let changed = (text as NSString).deletingLastPathComponent + "/changed.so"
        try bytes.write(to: URL(fileURLWithPath: changed))
        #expect(refusal(host, changed)?.reason == .notAllowed("its SHA-256 \(try PluginHost.sha256(ofFile: changed)) is not on the allow-list"))
    }

    /// The id is checked after the entry function, but before init runs.
    @Test func theIDAllowList() throws {
        typealias Counts = @convention(c) (UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
        let host = trustingHost(PluginTrustPolicy(allowedPluginIDs: [Self.textID]))
        #expect(try host.load(file: Fixtures.textEditor).id == Self.textID)
        let bad = try Fixtures.buildPlugin("bad_plugin.c")
        #expect(refusal(host, bad) == PluginLoadError(path: bad, reason: .notAllowed("plugin id org.undohost.test.bad is not on the allow-list")))
        var inits: Int32 = 0
        var deinits: Int32 = 0
        try Fixtures.function("bad_counts", in: bad, as: Counts.self)(&inits, &deinits)
        #expect((inits, deinits) == (0, 0))
        #expect(host.plugins.map(\.id) == [Self.textID])
    }

    @Test func withBothListsAPluginMustBeOnBoth() throws {
        let (_, text) = try plugin()
        let (_, canvas) = try plugin(source: Fixtures.canvas)
        let host = trustingHost(PluginTrustPolicy(allowedPluginIDs: [Self.textID], allowedSHA256: [try PluginHost.sha256(ofFile: canvas)]))
        guard case .notAllowed(let hashReason)? = refusal(host, text)?.reason else { Issue.record("text loaded"); return }
        #expect(hashReason.hasPrefix("its SHA-256 "))
        #expect(refusal(host, canvas)?.reason == .notAllowed("plugin id org.undohost.canvas is not on the allow-list"))
    }

    @Test func thePolicyAppliesToLaterLoads() throws {
        let host = trustingHost()
        try host.load(file: Fixtures.textEditor)
        host.trustPolicy = PluginTrustPolicy(allowedPluginIDs: [])
        #expect(refusal(host, Fixtures.canvas)?.reason == .notAllowed("plugin id org.undohost.canvas is not on the allow-list"))
        #expect(host.plugins.map(\.id) == [Self.textID])
        #expect(host.trustPolicy.allowedPluginIDs == [])
        #expect(PluginHost(log: { _ in }).trustPolicy == .standard)
    }
}
